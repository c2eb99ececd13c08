/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sorting the small arrays of the statistics (a benchmark's runs, the
 * Walsh averages of a few dozen processes): an insertion sort, in place,
 * ascending. The image has no qsort(), and these arrays stay small.
 */
#ifndef NTBOOT_LIB_SORT_U64_H
#define NTBOOT_LIB_SORT_U64_H

#include "include/types.h"

static inline void sort_u64(u64 *v, u32 n)
{
	for (u32 i = 1; i < n; i++) {
		u64 x = v[i];
		u32 j = i;

		while (j && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* The median of sorted @v[0..n): the middle, or the two middles halved. */
static inline u64 sorted_median(const u64 *v, u32 n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
