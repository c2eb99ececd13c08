// SPDX-License-Identifier: GPL-2.0-only
/*
 * states-oracle: the image's rule for a machine's states (lib/states.c)
 * on sample sets from stdin, for tools/stats-check to compare with
 * tools/report's own (reportlib/states.py).
 *
 * Each input line: "N P x1 .. xN" (unsigned integers, N at most 4000,
 * the runs in ns, of P processes block after block; the rule looks at
 * the first 1000). Each output line, in
 * the same order: "n nr" then, for each of the nr states fastest first,
 * "runs median low high", then "groups G A S" (the groups the runs fell
 * into, their slowest median over their fastest in millionths, and how
 * many processes saw two of them), then
 * "which w1 .. wn", the state of each run in input order, all on one line
 * separated by single spaces. A line that cannot be read stops the program
 * naming its number (exit 2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/states.h"
#include "tools/oracle/oracle_input.h"

/* The most runs a line may give: past STATES_MAX_RUNS, to test the cap. */
#define ORACLE_MAX_RUNS (4 * STATES_MAX_RUNS)

int main(void)
{
	/* 4000 runs of up to 20 digits and a space each. */
	static char line[1 << 17];
	static u64 x[ORACLE_MAX_RUNS];
	static u8 which[ORACLE_MAX_RUNS];
	unsigned long lineno = 0;

	while (fgets(line, sizeof(line), stdin)) {
		struct states st;
		char *p = line;
		u64 n, processes;

		lineno++;
		if (read_u64(&p, &n) || n > ORACLE_MAX_RUNS ||
		    read_u64(&p, &processes) || processes > ORACLE_MAX_RUNS) {
			fprintf(stderr, "states-oracle: line %lu: bad header\n",
				lineno);
			return 2;
		}
		for (u64 i = 0; i < n; i++)
			if (read_u64(&p, &x[i])) {
				fprintf(stderr,
					"states-oracle: line %lu: run %llu "
					"missing or not a number\n",
					lineno, i + 1);
				return 2;
			}
		if (!line_ends(p)) {
			fprintf(stderr,
				"states-oracle: line %lu: more than %llu runs\n",
				lineno, n);
			return 2;
		}
		states_find_in_processes(x, (u32)n, (u32)processes, &st, which);
		printf("%u %u", st.n, st.nr);
		for (u32 s = 0; s < st.nr; s++)
			printf(" %u %llu %llu %llu", st.s[s].runs,
			       st.s[s].median_ns, st.s[s].low_ns,
			       st.s[s].high_ns);
		printf(" groups %u %llu %u which", st.groups, st.groups_apart,
		       st.seen_in);
		for (u32 i = 0; i < st.n; i++)
			printf(" %u", which[i]);
		printf("\n");
	}
	return 0;
}
