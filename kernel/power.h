/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_POWER_H
#define NTBOOT_KERNEL_POWER_H

#include "include/compiler.h"
#include "kernel/boot_info.h"
#include "lib/machine_options.h"

/*
 * End the run as on_finish= says. Under QEMU the isa-debug-exit device
 * (port 0xf4) carries @failed out as the exit status; elsewhere
 * @firmware_reset (struct boot_info's: UEFI ResetSystem, handed over by
 * boot/) powers off or reboots. halt keeps the machine up with the report
 * on the console.
 */
void kernel_finish(enum on_finish how, bool failed,
		   void (*firmware_reset)(enum firmware_reset how)) __noreturn;

#endif
