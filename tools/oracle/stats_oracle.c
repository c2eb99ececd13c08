// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats-oracle: the image's integer Mann-Whitney engine (lib/mannwhitney.c)
 * on sample sets from stdin, for tools/stats-check to compare with scipy.
 *
 * Each input line: "M N ALPHA_PPB SCALE a1 .. aM b1 .. bN" (unsigned
 * integers, any order). Each output line, in the same order:
 * "u2 exact ties p_ppb significant interval lo hi", the interval of the
 * ratio a/b times SCALE (interval 0: none, lo and hi 0). A line that
 * cannot be read stops the program naming its number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mannwhitney.h"
#include "tools/oracle/oracle_input.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static char line[1 << 20];
	static u64 a[MW_MAX_SAMPLES], b[MW_MAX_SAMPLES];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), stdin)) {
		u64 m, n, alpha, scale, lo = 0, hi = 0;
		struct mw_test t;
		char *p = line;
		bool interval;

		lineno++;
		if (!strchr(line, '\n')) {
			fprintf(stderr, "stats-oracle: line %lu too long\n",
				lineno);
			return 2;
		}
		if (read_u64(&p, &m) || read_u64(&p, &n) ||
		    read_u64(&p, &alpha) || read_u64(&p, &scale) || !m || !n ||
		    m > MW_MAX_SAMPLES || n > MW_MAX_SAMPLES) {
			fprintf(stderr, "stats-oracle: line %lu: bad header\n",
				lineno);
			return 2;
		}
		for (u64 i = 0; i < m + n; i++)
			if (read_u64(&p, i < m ? &a[i] : &b[i - m])) {
				fprintf(stderr,
					"stats-oracle: line %lu: sample %llu "
					"missing or not a number\n",
					lineno, i + 1);
				return 2;
			}
		if (!line_ends(p)) {
			fprintf(stderr,
				"stats-oracle: line %lu: more than %llu "
				"samples\n",
				lineno, m + n);
			return 2;
		}
		qsort(a, m, sizeof(*a), cmp_u64);
		qsort(b, n, sizeof(*b), cmp_u64);
		mw_test(a, (u32)m, b, (u32)n, alpha, &t);
		interval = mw_ratio_interval(a, (u32)m, b, (u32)n, alpha,
					     t.exact, scale, &lo, &hi);
		printf("%llu %d %d %llu %d %d %llu %llu\n", t.u2, t.exact,
		       t.ties, t.p_ppb, t.significant, interval, lo, hi);
	}
	return 0;
}
