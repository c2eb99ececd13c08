// SPDX-License-Identifier: GPL-2.0-only
#include "include/platform.h"
#include "kernel/console.h"
#include "kernel/delay.h"
#include "kernel/fbcon.h"
#include "kernel/io.h"
#include "lib/report_count.h"

#define DEBUGCON_PORT 0xe9

struct console_state console;

const char *console_source_name(enum console_source s)
{
	switch (s) {
	case CONSOLE_FROM_OPTION:
		return "option";
	case CONSOLE_FROM_SPCR:
		return "spcr";
	default:
		return "default";
	}
}

bool console_init(const struct console_choice *o,
		  const struct acpi_spcr_info *spcr, bool hypervisor)
{
	enum uart_access access = UART_IO;
	u64 addr = o->addr;
	u32 baud = o->baud;

	/* Port 0xe9 means nothing on real hardware: only under a hypervisor. */
	console.debugcon = hypervisor;
	console.uart_requested = o->kind != CONSOLE_NONE;
	if (!console.uart_requested) {
		console.source = CONSOLE_FROM_OPTION;
		return true;
	}
	if (o->kind != CONSOLE_AUTO) {
		console.source = CONSOLE_FROM_OPTION;
		access = o->kind == CONSOLE_MMIO32 ? UART_MMIO32 :
			 o->kind == CONSOLE_MMIO8  ? UART_MMIO8 :
							UART_IO;
	} else if (spcr) {
		console.source = CONSOLE_FROM_SPCR;
		access = !spcr->mmio		 ? UART_IO :
			 spcr->reg_width == 32 ? UART_MMIO32 :
						 UART_MMIO8;
		addr = spcr->address;
		if (spcr->baud)
			baud = spcr->baud;
	} else {
		console.source = CONSOLE_FROM_DEFAULT;
	}
	return serial_init(&console.uart, access, addr, baud);
}

/*
 * One writer at a time, so lines from several CPUs do not interleave. The
 * wait has a deadline: a CPU that left with the lock held (a fault or the
 * watchdog's NMI inside a write) must not silence the others, so after
 * 100 ms a writer takes the lock over.
 */
static volatile u32 console_lock;
#define CONSOLE_LOCK_WAIT_US 100000

void plat_console_write(const char *s, size_t len)
{
	u64 deadline = deadline_after_us(CONSOLE_LOCK_WAIT_US);

	while (__atomic_exchange_n(&console_lock, 1, __ATOMIC_ACQUIRE)) {
		if (deadline_passed(deadline))
			break; /* taken over: released below as ours */
		cpu_relax();
	}
	report_counter_feed(&console_results, s, len);
	serial_write(&console.uart, s, len);
	fbcon_write(s, len);
	if (console.debugcon)
		for (size_t i = 0; i < len; i++)
			outb(DEBUGCON_PORT, (u8)s[i]);
	__atomic_store_n(&console_lock, 0, __ATOMIC_RELEASE);
}
