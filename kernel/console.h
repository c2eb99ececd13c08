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
#include "lib/acpi.h"
#include "lib/machine_options.h"

enum console_source {
	CONSOLE_FROM_OPTION,	/* console= */
	CONSOLE_FROM_SPCR,	/* the firmware's ACPI SPCR table */
	CONSOLE_FROM_DEFAULT,	/* COM1 */
};

struct console_state {
	struct uart_16550 uart;
	bool uart_requested;	/* console= did not say none */
	enum console_source source;
	bool debugcon;
};

extern struct console_state console;

/*
 * Set up the UART: console= when given, else the SPCR table's UART (@spcr
 * may be NULL), else COM1 at 115200. Returns false when it is missing.
 */
bool console_init(const struct console_choice *o,
		  const struct acpi_spcr_info *spcr, bool hypervisor);
const char *console_source_name(enum console_source s);

#endif
