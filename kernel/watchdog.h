/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hang watchdog: one AP watches the boot CPU's heartbeat (petted at
 * every test case and every benchmark progress point). When it stops for
 * longer than watchdog= seconds, the AP sends the boot CPU an NMI, which
 * gets through even a loop with interrupts off: the case is reported as
 * hung, with its registers, and the run goes on. Needs two CPUs; with one
 * the header says the watchdog is off.
 */
#ifndef NTBOOT_KERNEL_WATCHDOG_H
#define NTBOOT_KERNEL_WATCHDOG_H

#include "include/types.h"

struct percpu;

/*
 * Pick the watching CPU (the last one online) and answer the exception
 * handler's trap_nmi_hook. 0, or -1 if none.
 */
int watchdog_init(u32 timeout_s);
bool watchdog_enabled(void);
u32 watchdog_timeout_s(void);

/* On the watching AP's idle loop: look at the heartbeat. */
void watchdog_check(struct percpu *pc);

/* After the watching CPU ran other work: its view is stale. */
void watchdog_restart(void);

#endif
