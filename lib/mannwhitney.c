// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Mann-Whitney U test in integers (lib/mannwhitney.h). No division of
 * 128-bit values by the compiler (its helpers may use SSE): the one long
 * division needed is written out below.
 */
#include "lib/mannwhitney.h"
#include "lib/int_sqrt.h"

#define Q32 (1ull << 32)

/* @n / @d for a 128-bit @n, by shift and subtract; @d != 0. */
static u128 div128(u128 n, u64 d, u64 *rem)
{
	u128 q = 0, r = 0;

	for (int i = 127; i >= 0; i--) {
		r = r << 1 | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (u128)1 << i;
		}
	}
	if (rem)
		*rem = (u64)r;
	return q;
}

/*
 * The generating function of U over all deals is the Gaussian binomial
 * coefficient [m + n, m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
 * Each step multiplies by (1 - q^(n+i)), then divides by (1 - q^i) (a
 * running sum with stride i, exact); after step i the coefficients are
 * those of [n + i, i]_q, never negative, at most C(n + i, i).
 */
u64 mw_u_counts(u32 m, u32 n, u64 *counts)
{
	u32 top = m * n;
	u64 total = 0;

	if (m + n > MW_EXACT_MAX)
		return 0;
	for (u32 u = 0; u <= top; u++)
		counts[u] = 0;
	counts[0] = 1;
	for (u32 i = 1; i <= m; i++) {
		u32 deg = (i - 1) * n; /* degree so far */
		u32 start = deg + n + i < top ? deg + n + i : top;
		u32 end = i * n + i < top ? i * n + i : top;

		/* Times (1 - q^(n+i)): from the top down, in two's complement.
		 */
		for (u32 u = start + 1; u-- > n + i;)
			counts[u] -= counts[u - (n + i)];
		/* Divided by (1 - q^i): exact, so the terms above i n become 0.
		 */
		for (u32 u = i; u <= end; u++)
			counts[u] += counts[u - i];
	}
	for (u32 u = 0; u <= top; u++)
		total += counts[u];
	return total;
}

static u64 binom_capped(u32 a, u32 b)
{
	u64 c = 1;

	/* C(a, b) or ~0 once past 2^62: enough to compare with 2 / alpha. */
	if (b > a - b)
		b = a - b;
	for (u32 i = 1; i <= b; i++) {
		if (c > (1ull << 62) / (a - b + i))
			return ~0ull;
		c = c * (a - b + i) / i;
	}
	return c;
}

bool mw_testable(u32 m, u32 n, u64 alpha_ppb)
{
	u64 total;

	if (m < MW_MIN_SAMPLES || n < MW_MIN_SAMPLES)
		return false;
	/* 2 / C(m + n, m) < alpha */
	total = binom_capped(m + n, m);
	return total == ~0ull || (u128)2 * MW_PPB < (u128)alpha_ppb * total;
}

/* exp(-@x), both 32.32 fixed point. */
static u64 exp_neg_q32(u64 x)
{
	const u64 ln2 = 2977044472ull;
	u64 k = x / ln2, r = x - k * ln2;
	s64 term = (s64)Q32, sum = (s64)Q32;

	if (k >= 40)
		return 0;
	for (int i = 1; i < 20 && term; i++) {
		term = -(s64)(((__int128)term * (s64)r) >> 32) / i;
		sum += term;
	}
	return (u64)sum >> k;
}

u64 mw_normal_upper_ppb(u64 z)
{
	/* Abramowitz and Stegun 26.2.17, |error| < 7.5e-8. */
	static const s64 b[5] = {1371733226ll, -1531429783ll, 7651389478ll,
				 -7822234863ll, 5713485167ll};
	const u64 p = 994894385ull, inv_sqrt_2pi = 1713444047ull;
	u64 t, phi, z2;
	s64 poly = 0;
	u128 q;

	if (z >= 9 * Q32)
		return 0;
	t = (u64)div128((u128)1 << 64, Q32 + (u64)(((u128)p * z) >> 32), NULL);
	for (int i = 4; i >= 0; i--)
		poly = (s64)(((__int128)(poly + b[i]) * (s64)t) >> 32);
	z2 = (u64)(((u128)z * z) >> 32);
	phi = (u64)(((u128)exp_neg_q32(z2 / 2) * inv_sqrt_2pi) >> 32);
	if (poly <= 0)
		return 0;
	q = (u128)phi * (u64)poly; /* Q64 */
	return (u64)((q * MW_PPB + ((u128)1 << 63)) >> 64);
}

/* 2U of @a against @b (pairs with b > a, ties one), both sorted. */
static u64 u2_of(const u64 *a, u32 m, const u64 *b, u32 n)
{
	u64 u2 = 0;
	u32 lo = 0, hi = 0;

	/* For each b_j: a values below it count 2, equal ones 1. */
	for (u32 j = 0; j < n; j++) {
		while (lo < m && a[lo] < b[j])
			lo++;
		if (hi < lo)
			hi = lo;
		while (hi < m && a[hi] <= b[j])
			hi++;
		u2 += 2ull * lo + (hi - lo);
	}
	return u2;
}

/* Sum of t^3 - t over the groups of equal values in both samples. */
static u64 tie_term(const u64 *a, u32 m, const u64 *b, u32 n)
{
	u32 i = 0, j = 0;
	u64 sum = 0;

	while (i < m || j < n) {
		u64 v = j >= n || (i < m && a[i] <= b[j]) ? a[i] : b[j];
		u64 t = 0;

		while (i < m && a[i] == v) {
			i++;
			t++;
		}
		while (j < n && b[j] == v) {
			j++;
			t++;
		}
		sum += t * t * t - t;
	}
	return sum;
}

/* p, ppb, of an exact tail count @tail (doubled, capped) over @total. */
static u64 exact_p_ppb(u64 tail, u64 total)
{
	u128 num = (u128)2 * tail * MW_PPB;

	if (2 * (u128)tail >= total)
		return MW_PPB;
	return (u64)div128(num + total / 2, total, NULL);
}

void mw_test(const u64 *a, u32 m, const u64 *b, u32 n, u64 alpha_ppb,
	     struct mw_test *t)
{
	static u64 counts[(MW_EXACT_MAX / 2) * (MW_EXACT_MAX / 2) + 1];
	u64 big = m + n, mn = (u64)m * n, ties = tie_term(a, m, b, n);

	*t = (struct mw_test){
		.m = m, .n = n, .u2 = u2_of(a, m, b, n), .ties = ties != 0};
	if (!ties && big <= MW_EXACT_MAX) {
		u64 total = mw_u_counts(m, n, counts), low = 0, high = 0;
		u64 k = t->u2 / 2, tail;

		for (u64 u = 0; u <= mn; u++) {
			if (u <= k)
				low += counts[u];
			if (u >= k)
				high += counts[u];
		}
		tail = low < high ? low : high;
		t->exact = true;
		t->p_ppb = exact_p_ppb(tail, total);
		/* p < alpha, exactly: 2 tail / total < alpha. */
		t->significant =
			(u128)2 * tail * MW_PPB < (u128)alpha_ppb * total;
		return;
	}
	/*
	 * z^2 = (|U - mn/2| - 1/2)^2 / var, var = mn/12 ((N + 1) - T / (N
	 * (N - 1))): with d = |2U - mn|,
	 * z^2 = (d - 1)^2 3 N (N - 1) / (mn ((N + 1) N (N - 1) - T)).
	 */
	u64 d = t->u2 > mn ? t->u2 - mn : mn - t->u2;
	u64 w = (big + 1) * big * (big - 1) - ties, den, rem, z;
	u128 num, whole;

	t->p_ppb = MW_PPB;
	if (d > 1 && w && mn) {
		num = (u128)(d - 1) * (d - 1) * (3 * big * (big - 1));
		den = mn * w;
		whole = div128(num, den, &rem);
		if (whole >= 81) {
			t->p_ppb = 0;
		} else {
			/* z^2 in 64.64, then z in 32.32. */
			u128 z2 = whole << 64 |
				  div128((u128)rem << 64, den, NULL);

			z = int_sqrt128(z2);
			t->p_ppb = 2 * mw_normal_upper_ppb(z);
			if (t->p_ppb > MW_PPB)
				t->p_ppb = MW_PPB;
		}
	}
	t->significant = t->p_ppb < alpha_ppb;
}

/* z with P(Z > z) = @p_ppb, 32.32, by bisection. */
static u64 z_quantile_q32(u64 p_ppb)
{
	u64 lo = 0, hi = 9 * Q32;

	while (hi - lo > 1) {
		u64 mid = lo + (hi - lo) / 2;

		if (mw_normal_upper_ppb(mid) > p_ppb)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

u32 mw_u_critical(u32 m, u32 n, u64 alpha_ppb, bool exact)
{
	static u64 counts[(MW_EXACT_MAX / 2) * (MW_EXACT_MAX / 2) + 1];
	u64 mn = (u64)m * n;

	if (exact && m + n <= MW_EXACT_MAX) {
		u64 total = mw_u_counts(m, n, counts), cum = 0;
		u32 k = 0;

		/* While (cum + c) / total < alpha / 2. */
		for (u64 u = 0; u <= mn; u++) {
			if ((u128)2 * (cum + counts[u]) * MW_PPB >=
			    (u128)alpha_ppb * total)
				break;
			cum += counts[u];
			k++;
		}
		return k;
	}
	/* ceil(mn/2 - z(alpha/2) sd - 1/2), sd^2 = mn (m + n + 1) / 12. */
	u64 sd = int_sqrt128(div128((u128)mn * (m + n + 1) << 64, 12, NULL));
	u64 zq = z_quantile_q32(alpha_ppb / 2);
	s64 x = (s64)(mn << 31) - (s64)(((u128)zq * sd) >> 32) -
		(s64)(1ull << 31);

	if (x <= 0)
		return 0;
	return (u32)(((u64)x + Q32 - 1) >> 32);
}

/* How many of the ratios x_i * scale / y_j, rounded down, are <= @v. */
static u64 count_at_most(const u64 *x, u32 nx, const u64 *y, u32 ny, u64 v,
			 u64 scale)
{
	u64 count = 0;
	u32 j = 0;

	/*
	 * floor(x scale / y) <= v  <=>  x scale < (v + 1) y; as x grows, the
	 * first y that satisfies it moves right.
	 */
	for (u32 i = 0; i < nx; i++) {
		u128 lhs = (u128)x[i] * scale;

		while (j < ny && (u128)(v + 1) * y[j] <= lhs)
			j++;
		count += ny - j;
	}
	return count;
}

u64 mw_kth_ratio(const u64 *x, u32 nx, const u64 *y, u32 ny, u64 k, u64 scale)
{
	u64 lo = 0, hi = ~0ull >> 1;

	/* The smallest v with at least k ratios <= v. */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (count_at_most(x, nx, y, ny, mid, scale) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

bool mw_ratio_interval(const u64 *x, u32 nx, const u64 *y, u32 ny,
		       u64 alpha_ppb, bool exact, u64 scale, u64 *lo, u64 *hi)
{
	u64 pairs = (u64)nx * ny;
	u32 k = mw_u_critical(ny, nx, alpha_ppb, exact);

	if (k < 1 || k > pairs - k + 1)
		return false;
	*lo = mw_kth_ratio(x, nx, y, ny, k, scale);
	*hi = mw_kth_ratio(x, nx, y, ny, pairs - k + 1, scale);
	return true;
}
