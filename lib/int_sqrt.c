// SPDX-License-Identifier: GPL-2.0-only
/*
 * int_sqrt128(): the digit-by-digit method in base 4, one result bit per
 * round from the top, exact for every input (no rounding of a float).
 */
#include "lib/int_sqrt.h"

u64 int_sqrt128(u128 v)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (u64)r;
}
