// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "kernel/io.h"
#include "kernel/power.h"
#include "lib/printf.h"

#define QEMU_DEBUG_EXIT_PORT 0xf4

static void __noreturn halt_forever(void)
{
	for (;;)
		asm volatile("cli; hlt");
}

void kernel_finish(enum on_finish how, bool failed,
		   void (*firmware_reset)(enum firmware_reset how))
{
	if (how == FINISH_HALT) {
		kprintf("# ntboot: run finished; halted (on_finish=halt)\n");
		halt_forever();
	}
	if (how == FINISH_REBOOT) {
		kprintf("# ntboot: rebooting (on_finish=reboot)\n");
		if (firmware_reset)
			firmware_reset(FIRMWARE_RESET_REBOOT);
		kprintf("# ntboot: firmware refused to reboot; halted\n");
		halt_forever();
	}
	/*
	 * QEMU's isa-debug-exit: exit status (v << 1) | 1. Only tried under a
	 * hypervisor; a write to an unclaimed port does nothing, and we fall
	 * through to firmware power-off.
	 */
	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		outb(QEMU_DEBUG_EXIT_PORT, failed ? 1 : 0);
	if (firmware_reset)
		firmware_reset(FIRMWARE_RESET_POWER_OFF);
	kprintf("# ntboot: firmware refused to power off; halted\n");
	halt_forever();
}
