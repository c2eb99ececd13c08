// SPDX-License-Identifier: GPL-2.0-only
/*
 * signed-rank-oracle: the image's integer signed-rank engine
 * (lib/signed_rank.c) on sets of ratios from stdin, for tools/stats-check
 * to compare with scipy.stats.wilcoxon.
 *
 * Each input line: "N ALPHA_PPB SCALE r1 .. rN" (unsigned integers, the
 * ratios in units of SCALE). Each output line, in the same order:
 * "n t2 p_ppb testable significant up centre interval lo hi" (interval
 * 0: none, lo and hi 0). A line that cannot be read stops the program naming
 * its number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/signed_rank.h"
#include "tools/oracle/oracle_input.h"

int main(void)
{
	static char line[1 << 16];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), stdin)) {
		u64 n, alpha, scale, r[SR_MAX], lo = 0, hi = 0, centre;
		struct sr_test t;
		char *p = line;
		bool interval;

		lineno++;
		if (read_u64(&p, &n) || read_u64(&p, &alpha) ||
		    read_u64(&p, &scale) || !n || n > SR_MAX || !scale) {
			fprintf(stderr,
				"signed-rank-oracle: line %lu: bad header\n",
				lineno);
			return 2;
		}
		for (u64 i = 0; i < n; i++)
			if (read_u64(&p, &r[i])) {
				fprintf(stderr,
					"signed-rank-oracle: line %lu: ratio "
					"%llu missing or not a number\n",
					lineno, i + 1);
				return 2;
			}
		if (!line_ends(p)) {
			fprintf(stderr,
				"signed-rank-oracle: line %lu: more than %llu "
				"ratios\n",
				lineno, n);
			return 2;
		}
		sr_test(r, (u32)n, scale, alpha, &t);
		interval =
			sr_interval(r, (u32)n, scale, alpha, &centre, &lo, &hi);
		if (!interval)
			lo = hi = 0;
		printf("%u %llu %llu %d %d %d %llu %d %llu %llu\n", t.n, t.t2,
		       t.p_ppb, t.testable, t.significant, t.up, centre,
		       interval, lo, hi);
	}
	return 0;
}
