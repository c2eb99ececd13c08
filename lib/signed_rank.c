// SPDX-License-Identifier: GPL-2.0-only
#include "include/compiler.h"
#include "lib/int_sqrt.h"
#include "lib/mannwhitney.h"
#include "lib/signed_rank.h"
#include "lib/sort_u64.h"
#include "lib/string.h"

/* |log r| as a fraction at least 1: num / den. */
static void dev(u64 r, u64 scale, u64 *num, u64 *den)
{
	*num = r >= scale ? r : scale;
	*den = r >= scale ? scale : r;
}

/* |log a| against |log b|: -1, 0 or 1. */
static int dev_cmp(u64 a, u64 b, u64 scale)
{
	u64 an, ad, bn, bd;
	unsigned __int128 x, y;

	dev(a, scale, &an, &ad);
	dev(b, scale, &bn, &bd);
	x = (unsigned __int128)an * bd;
	y = (unsigned __int128)bn * ad;
	return x < y ? -1 : x > y;
}

/*
 * counts[s]: the sign patterns whose rank sum is s, the i-th rank being
 * w[i]; s runs to the sum of the w. Returns that sum.
 */
static u64 null_counts(const u64 *w, u32 n, u64 *counts, u64 max_sum)
{
	u64 top = 0;

	memset(counts, 0, (max_sum + 1) * sizeof(*counts));
	counts[0] = 1;
	for (u32 i = 0; i < n; i++) {
		for (u64 s = top + 1; s-- > 0;)
			counts[s + w[i]] += counts[s];
		top += w[i];
	}
	return top;
}

/* 2 x (patterns) / 2^n in parts per 10^9, capped at 1. */
static u64 two_sided_ppb(u64 patterns, u32 n)
{
	unsigned __int128 p = (unsigned __int128)patterns * 2 * MW_PPB;

	p >>= n;
	return p > MW_PPB ? MW_PPB : (u64)p;
}

void sr_test(const u64 *ratio, u32 n, u64 scale, u64 alpha_ppb,
	     struct sr_test *t)
{
	/* Doubled ranks sum to at most SR_MAX (SR_MAX + 1). */
	static u64 counts[SR_MAX * (SR_MAX + 1) + 1];
	u64 r[SR_MAX], w[SR_MAX], lower = 0, upper = 0, top;
	u32 m = 0;

	*t = (struct sr_test){0};
	for (u32 i = 0; i < n && m < SR_MAX; i++)
		if (ratio[i] != scale)
			r[m++] = ratio[i];
	t->n = m;
	/* Doubled mean ranks: 1 + (those below) * 2 + (those tied) - 1. */
	for (u32 i = 0; i < m; i++) {
		u64 below = 0, tied = 0;

		for (u32 j = 0; j < m; j++) {
			int c = dev_cmp(r[j], r[i], scale);

			below += c < 0;
			tied += c == 0;
		}
		w[i] = 2 * below + tied + 1;
		if (r[i] > scale)
			t->t2 += w[i];
	}
	t->up = 2 * t->t2 > (u64)m * (m + 1);
	if (m < SR_MIN_N)
		return;
	top = null_counts(w, m, counts, ARRAY_SIZE(counts) - 1);
	for (u64 s = 0; s <= top; s++) {
		if (s <= t->t2)
			lower += counts[s];
		if (s >= t->t2)
			upper += counts[s];
	}
	t->p_ppb = two_sided_ppb(lower < upper ? lower : upper, m);
	/* The most extreme pattern alone: the smallest p there is. */
	t->testable = two_sided_ppb(1, m) < alpha_ppb;
	t->significant = t->testable && t->p_ppb < alpha_ppb;
}

bool sr_interval(const u64 *ratio, u32 n, u64 scale, u64 alpha_ppb, u64 *centre,
		 u64 *lo, u64 *hi)
{
	static u64 counts[SR_MAX * (SR_MAX + 1) / 2 + 1];
	static u64 walsh[SR_MAX * (SR_MAX + 1) / 2];
	u64 r[SR_MAX], w[SR_MAX], cum = 0;
	u32 m = 0, nw = 0, k = 0;

	/* The ratios the test keeps. */
	for (u32 i = 0; i < n && m < SR_MAX; i++)
		if (ratio[i] != scale)
			r[m++] = ratio[i];
	*centre = scale;
	if (!m)
		return false;
	for (u32 i = 0; i < m; i++)
		for (u32 j = i; j < m; j++)
			walsh[nw++] = int_sqrt128((u128)r[i] * r[j]);
	/* At most 528 means. */
	sort_u64(walsh, nw);
	*centre = nw % 2 ? walsh[nw / 2]
			 : (walsh[nw / 2 - 1] + walsh[nw / 2]) / 2;
	if (m < 2)
		return false;
	for (u32 i = 0; i < m; i++)
		w[i] = i + 1;
	null_counts(w, m, counts, ARRAY_SIZE(counts) - 1);
	/* k: the largest with P(T <= k - 1) <= alpha / 2. */
	for (u32 c = 1; c <= nw; c++) {
		cum += counts[c - 1];
		if (((unsigned __int128)cum * 2 * MW_PPB >> m) > alpha_ppb)
			break;
		k = c;
	}
	if (!k)
		return false;
	*lo = walsh[k - 1];
	*hi = walsh[nw - k];
	return true;
}
