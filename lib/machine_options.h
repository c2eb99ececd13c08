/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options of the machine the image runs on: console=, smp=,
 * smp.extra_apic_ids=, watchdog=, on_finish=. kernel/ reads them; they
 * are declared here, in the portable code, so that the hosted runner
 * takes the image's words as they are and the host tests check how they
 * parse.
 */
#ifndef NTBOOT_LIB_MACHINE_OPTIONS_H
#define NTBOOT_LIB_MACHINE_OPTIONS_H

#include "lib/options.h"

enum console_kind {
	CONSOLE_AUTO,	/* firmware tables (SPCR) or COM1 */
	CONSOLE_IO,	/* 16550 at an I/O port */
	CONSOLE_MMIO8,	/* 16550 with byte-wide MMIO registers */
	CONSOLE_MMIO32, /* 16550 with 32-bit MMIO registers */
	CONSOLE_NONE,
};

struct console_choice {
	enum console_kind kind;
	u64 addr;	/* I/O port or MMIO address */
	u32 baud;
};

enum on_finish {
	FINISH_POWEROFF,
	FINISH_HALT,
	FINISH_REBOOT,
};

enum smp_mode {
	SMP_ALL = -1,
	SMP_OFF = 0,
};

extern struct console_choice opt_console;
extern int opt_smp;			/* SMP_ALL, SMP_OFF or a CPU count */
/* APIC IDs to start beyond the MADT's: proves the failure report. */
extern struct opt_u32_list opt_smp_extra_apic_ids;
extern u32 opt_watchdog;		/* seconds; 0 = off */
extern enum on_finish opt_on_finish;

#endif
