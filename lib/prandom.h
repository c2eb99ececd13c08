/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small deterministic pseudo-random sequence (xorshift64) for tests
 * that want many varied inputs and a failure that reproduces: same seed,
 * same sequence, on the host and in the image.
 */
#ifndef NTBOOT_LIB_PRANDOM_H
#define NTBOOT_LIB_PRANDOM_H

#include "include/types.h"

/* The next value of the sequence in *@state (never seed it with 0). */
static inline u64 prandom_u64(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

#endif
