/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wilcoxon's signed-rank test on ratios, in integer arithmetic (the image
 * has no floating point): the test behind the verdicts that take the
 * process as the unit (docs/statistics.md, "Processes"). Each process
 * gives one ratio r = before / after of its two medians, in units of
 * @scale (1.0 == @scale); the test asks whether log r is centred on 0.
 *
 *   - |log r| is ranked without logarithms: r >= 1 is r / 1, r < 1 is
 *     1 / r, and two such fractions compare by cross-multiplication;
 *     ratios of exactly 1 are dropped (scipy's zero_method="wilcox");
 *   - ties take their mean rank, kept doubled so it stays an integer;
 *   - the exact null distribution of the doubled rank sum of the ratios
 *     above 1, each of 2^n sign patterns alike (n <= SR_MAX);
 *   - the two-sided p is twice the smaller tail, capped at 1, in parts
 *     per 10^9; with fewer than SR_MIN_N ratios no outcome reaches 0.05;
 *   - the direction: up when the ranks of the ratios above 1 outweigh
 *     the others (T above its mean), as the test itself sees it;
 *   - the estimate and interval: Hodges-Lehmann on log r, over the same
 *     ratios the test keeps: the Walsh averages are the geometric means
 *     sqrt(r_i r_j), i <= j; the estimate is their median, the interval
 *     cuts the k-th from each end, k the largest with P(T <= k - 1) <=
 *     alpha / 2.
 */
#ifndef NTBOOT_LIB_SIGNED_RANK_H
#define NTBOOT_LIB_SIGNED_RANK_H

#include "include/types.h"

/* The most ratios (processes) one test takes. */
#define SR_MAX 32
/* Below this many nonzero ratios, p never falls under 0.05 (2 / 2^5). */
#define SR_MIN_N 6

struct sr_test {
	u32 n;		  /* ratios other than exactly 1 */
	u64 t2;		  /* doubled rank sum of the ratios above 1 */
	u64 p_ppb;	  /* two-sided, parts per 10^9 */
	bool testable;	  /* n >= SR_MIN_N and the smallest p < alpha */
	bool significant; /* p < alpha */
	bool up;	  /* the rank sum above its mean: ratios above 1 */
};

/* The test of @n ratios (units of @scale) at level @alpha_ppb. */
void sr_test(const u64 *ratio, u32 n, u64 scale, u64 alpha_ppb,
	     struct sr_test *t);

/*
 * The centre of the ratios other than exactly 1 (units of @scale) into
 * @centre (@scale when none is left), and its interval at 1 - @alpha_ppb
 * (at least): true with [@lo, @hi], false when they cannot give one.
 */
bool sr_interval(const u64 *ratio, u32 n, u64 scale, u64 alpha_ppb,
		 u64 *centre, u64 *lo, u64 *hi);

#endif
