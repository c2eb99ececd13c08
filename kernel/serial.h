/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 16550-compatible UART, at an I/O port (COM1..4) or memory mapped with
 * 32-bit registers (console=mmio32,...). Every wait is bounded: a UART that
 * stops draining is declared dead and output to it stops, so a missing or
 * wedged port can never hang the run.
 */
#ifndef NTBOOT_KERNEL_SERIAL_H
#define NTBOOT_KERNEL_SERIAL_H

#include "include/types.h"

enum uart_access {
	UART_IO,	/* I/O ports, one per register */
	UART_MMIO8,	/* memory mapped, byte registers */
	UART_MMIO32,	/* memory mapped, 32-bit registers 4 bytes apart */
};

struct uart_16550 {
	enum uart_access access;
	u64 base;	/* I/O port or MMIO address */
	u32 baud;
	bool present;
	bool dead;	/* stopped draining: no more output */
	u32 timeouts;
};

/*
 * Program 8N1 at @baud and check the UART is there (scratch register and
 * line status). Returns true if present.
 */
bool serial_init(struct uart_16550 *u, enum uart_access access, u64 base,
		 u32 baud);
const char *uart_access_name(enum uart_access a);
void serial_write(struct uart_16550 *u, const char *s, size_t len);

#endif
