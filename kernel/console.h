/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel console: every line goes to the serial UART (when present),
 * to the QEMU/Bochs debug port 0xe9 when running under a hypervisor (so a
 * run with no serial port still leaves a log), and into an in-memory ring
 * kept for the end-of-run summary.
 */
#ifndef NTBOOT_KERNEL_CONSOLE_H
#define NTBOOT_KERNEL_CONSOLE_H

#include "include/types.h"
#include "kernel/serial.h"
#include "lib/options.h"

struct console_state {
	struct uart_16550 uart;
	bool uart_requested;	/* console= did not say none */
	bool debugcon;
};

extern struct console_state console;

/* Set up the UART from the options. Returns false when it is missing. */
bool console_init(const struct ntb_options *o, bool hypervisor);

#endif
