/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_LIB_TIMING_H
#define NTBOOT_LIB_TIMING_H

#include "arch/x86/tsc.h"
#include "include/platform.h"

/* Convert a TSC delta to nanoseconds with the calibrated frequency. */
static inline u64 cycles_to_ns(u64 cycles)
{
	u64 khz = plat_tsc_khz();

	if (!khz)
		return 0;
	return (u64)(((unsigned __int128)cycles * 1000000u) / khz);
}

#endif
