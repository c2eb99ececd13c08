/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Busy-wait delays and deadlines on the calibrated TSC. Every wait in the
 * kernel has a deadline, so no loop can spin forever on a device or a CPU
 * that never answers.
 */
#ifndef NTBOOT_KERNEL_DELAY_H
#define NTBOOT_KERNEL_DELAY_H

#include "lib/timing.h"
#include "kernel/io.h"

static inline u64 deadline_after_us(u64 us)
{
	return tsc_deadline_us(us);
}

static inline bool deadline_passed(u64 deadline)
{
	return tsc_deadline_passed(deadline);
}

static inline void udelay(u64 us)
{
	u64 end = deadline_after_us(us);

	while (!deadline_passed(end))
		cpu_relax();
}

#endif
