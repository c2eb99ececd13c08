// SPDX-License-Identifier: GPL-2.0-only
#include "lib/timing.h"
#include "lib/cpu_barrier.h"
#include "lib/ntcheck.h"

void cpu_barrier_init(struct cpu_barrier *b, u32 parties)
{
	b->parties = parties;
	b->count = 0;
	b->sense = 0;
	b->broken = false;
}

int cpu_barrier_wait(struct cpu_barrier *b, struct cpu_barrier_waiter *w,
		     u64 timeout_us)
{
	u32 want = w->sense ^ 1;
	u32 arrived;
	u64 deadline = tsc_deadline_us(timeout_us);

	w->sense = want;
	if (__atomic_load_n(&b->broken, __ATOMIC_ACQUIRE))
		return -1;
	arrived = __atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL);
	/* That locked add drains this CPU's stores, as MFENCE does. */
	ntcheck_fence(NTCHECK_LOCKED);
	/* The last to arrive resets the count and releases the others. */
	if (arrived == b->parties) {
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&b->sense, want, __ATOMIC_RELEASE);
		return 0;
	}
	while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != want) {
		if (tsc_deadline_passed(deadline) ||
		    __atomic_load_n(&b->broken, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&b->broken, true, __ATOMIC_RELEASE);
			return -1;
		}
		asm volatile("pause" ::: "memory");
	}
	return 0;
}

void cpu_barrier_break(struct cpu_barrier *b)
{
	__atomic_store_n(&b->broken, true, __ATOMIC_RELEASE);
}
