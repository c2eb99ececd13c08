/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A rendezvous for work running on several CPUs at once (run-on-CPU):
 * a sense-reversing barrier over a shared counter, reusable round after
 * round, where every wait has a deadline. A CPU that never arrives makes
 * the others return -1 instead of spinning forever; the caller reports
 * which round failed.
 */
#ifndef NTBOOT_LIB_CPU_BARRIER_H
#define NTBOOT_LIB_CPU_BARRIER_H

#include "include/compiler.h"
#include "include/types.h"

struct cpu_barrier {
	u32 parties;
	u32 count __aligned(64);	/* arrivals this round */
	u32 sense __aligned(64);	/* flips when a round completes */
	bool broken;			/* a wait timed out: all later fail */
};

/* Per participant: the sense it waits for next. Start at 0. */
struct cpu_barrier_waiter {
	u32 sense;
};

void cpu_barrier_init(struct cpu_barrier *b, u32 parties);

/*
 * Wait until all @parties arrived, for at most @timeout_us. 0 when the
 * round completed, -1 on timeout or when the barrier was broken before.
 */
int cpu_barrier_wait(struct cpu_barrier *b, struct cpu_barrier_waiter *w,
		     u64 timeout_us);

/*
 * Break the barrier from outside: every wait now and later returns -1
 * (a party that will never come, such as a CPU that could not be
 * started).
 */
void cpu_barrier_break(struct cpu_barrier *b);

#endif
