/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Busy-wait delays and deadlines on the calibrated TSC. Every wait in the
 * kernel has a deadline, so no loop can spin forever on a device or a CPU
 * that never answers.
 */
#ifndef NTBOOT_KERNEL_DELAY_H
#define NTBOOT_KERNEL_DELAY_H

#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "kernel/io.h"

/* Before calibration, assume a fast clock so waits are not cut short. */
#define DELAY_FALLBACK_KHZ 5000000ull

static inline u64 delay_khz(void)
{
	u64 khz = plat_tsc_khz();

	return khz ? khz : DELAY_FALLBACK_KHZ;
}

static inline u64 deadline_after_us(u64 us)
{
	return rdtsc() + us * delay_khz() / 1000;
}

static inline bool deadline_passed(u64 deadline)
{
	return (s64)(rdtsc() - deadline) >= 0;
}

static inline void udelay(u64 us)
{
	u64 end = deadline_after_us(us);

	while (!deadline_passed(end))
		cpu_relax();
}

#endif
