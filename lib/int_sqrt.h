/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Integer square roots for the statistics, which stay in integers so that
 * the image (no FPU state is saved around tests) and the host compute the
 * same figures.
 */
#ifndef NTBOOT_LIB_INT_SQRT_H
#define NTBOOT_LIB_INT_SQRT_H

#include "include/types.h"

/* floor(sqrt(@v)) of a 128-bit value (every 64-bit one included). */
u64 int_sqrt128(u128 v);

#endif
