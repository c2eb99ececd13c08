/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_LIB_TIMING_H
#define NTBOOT_LIB_TIMING_H

#include "arch/x86/tsc.h"
#include "include/compiler.h"
#include "include/platform.h"

/*
 * Convert a TSC delta to nanoseconds with the calibrated frequency, the
 * kernel's cyc2ns way: ns = (cycles * mult) >> 32, mult = 10^6 * 2^32 / kHz
 * computed once per frequency. A 64x64->128 multiply is one instruction;
 * a 128-bit division would pull in libgcc helpers that use SSE.
 */
struct cyc2ns_data {
	u64 khz;
	u64 mult;
};

extern struct cyc2ns_data cyc2ns;

static inline u64 cycles_to_ns(u64 cycles)
{
	u64 khz = plat_tsc_khz();

	if (!khz)
		return 0;
	if (unlikely(cyc2ns.khz != khz)) {
		cyc2ns.mult = ((1000000ull << 32) + khz / 2) / khz;
		cyc2ns.khz = khz;
	}
	/* Round to nearest: add half of the last unit before the shift. */
	return (u64)(((unsigned __int128)cycles * cyc2ns.mult + (1ull << 31)) >>
		     32);
}

/*
 * Deadlines on this CPU's TSC (never compare one with another CPU's: TSCs
 * need not agree). Before calibration a fast clock is assumed, so a wait
 * is never cut short.
 */
#define TSC_KHZ_GUESS 5000000ull

static inline u64 tsc_khz_for_deadlines(void)
{
	u64 khz = plat_tsc_khz();

	return khz ? khz : TSC_KHZ_GUESS;
}

static inline u64 tsc_deadline_us(u64 us)
{
	return rdtsc() + us * tsc_khz_for_deadlines() / 1000;
}

static inline bool tsc_deadline_passed(u64 deadline)
{
	return (s64)(rdtsc() - deadline) >= 0;
}

#endif
