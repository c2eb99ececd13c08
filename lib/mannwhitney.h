/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two-sample Mann-Whitney U test and the interval of a ratio inverted
 * from it, in integer arithmetic: the image is built without floating
 * point. The same rules as tools/report (docs/statistics.md):
 *
 *   - U counts the pairs (a_i, b_j) with b_j > a_i, a tie counting one
 *     half (kept here as 2U, an integer);
 *   - exact when there are no ties and m + n <= MW_EXACT_MAX: the number
 *     of deals giving each U, as u64 (C(60, 30) < 2^57 fits), the
 *     two-sided p twice the smaller tail, capped at 1;
 *   - otherwise the normal approximation with the tie correction and a
 *     continuity correction of 1/2; its tail is computed in 32.32 fixed
 *     point (an exp() by range reduction and a Taylor series, the
 *     Abramowitz-Stegun 26.2.17 polynomial), within 2e-7 of the exact
 *     normal tail;
 *   - probabilities are in parts per 10^9 (MW_PPB).
 */
#ifndef NTBOOT_LIB_MANNWHITNEY_H
#define NTBOOT_LIB_MANNWHITNEY_H

#include "include/types.h"

#define MW_PPB 1000000000ull
/* Exact U distribution up to this many samples on both sides together. */
#define MW_EXACT_MAX 60
/* Fewer samples than this on a side: no test. */
#define MW_MIN_SAMPLES 5
/* The most samples a side may have (runs= allows 1000, the first apart). */
#define MW_MAX_SAMPLES 1000

struct mw_test {
	u32 m, n;
	u64 u2;		  /* 2U: a tie counts one */
	bool exact;	  /* exact distribution (else normal) */
	bool ties;	  /* some value repeats in the pooled samples */
	u64 p_ppb;	  /* two-sided p, parts per 10^9 */
	bool significant; /* p < alpha */
};

/*
 * Deals of m + n distinct values giving U = 0 .. mn, into @counts (mn + 1
 * entries). Returns their total, C(m + n, m), or 0 when m + n exceeds
 * MW_EXACT_MAX.
 */
u64 mw_u_counts(u32 m, u32 n, u64 *counts);

/*
 * The smallest two-sided p @m and @n samples can give is below @alpha_ppb
 * and both sides have MW_MIN_SAMPLES or more: a test can say something.
 */
bool mw_testable(u32 m, u32 n, u64 alpha_ppb);

/*
 * Two-sided test of @a (m values) against @b (n values), both sorted
 * ascending, at level @alpha_ppb. m, n <= MW_MAX_SAMPLES.
 */
void mw_test(const u64 *a, u32 m, const u64 *b, u32 n, u64 alpha_ppb,
	     struct mw_test *t);

/*
 * The largest k with P(U <= k - 1) < alpha / 2 (0 when there is none),
 * from the exact distribution or the normal one.
 */
u32 mw_u_critical(u32 m, u32 n, u64 alpha_ppb, bool exact);

/* P(Z > z) of a standard normal Z, z in 32.32 fixed point, in ppb. */
u64 mw_normal_upper_ppb(u64 z_q32);

/*
 * The @k-th smallest (1-based) of the nx * ny ratios x_i * @scale / y_j,
 * rounded down; @x and @y sorted ascending, no y_j zero.
 */
u64 mw_kth_ratio(const u64 *x, u32 nx, const u64 *y, u32 ny, u64 k, u64 scale);

/*
 * The interval of the ratio x / y (times @scale) that the test at
 * @alpha_ppb would not reject: [k-th, (nx ny - k + 1)-th] of the pairwise
 * ratios (Hodges-Lehmann). False when the samples are too few for one.
 */
bool mw_ratio_interval(const u64 *x, u32 nx, const u64 *y, u32 ny,
		       u64 alpha_ppb, bool exact, u64 scale, u64 *lo, u64 *hi);

#endif
