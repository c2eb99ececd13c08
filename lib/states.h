/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A machine's states: the runs of one strategy that fall into separate
 * groups, a mixture of modes with little between them (a cloud VM whose
 * partial-line stores run 1.8x slower for seconds at a time). Found by a
 * rule in integer arithmetic that tools/report applies with the same
 * arithmetic (docs/statistics.md, "States"):
 *
 *   - the runs are sorted; a group of fewer than STATES_MIN_RUNS is one
 *     state (too few to tell a mode from noise);
 *   - it may split only at its widest ratio gap x[k] / x[k - 1], with at
 *     least max(3, n / 10) runs on each side;
 *   - and only where the two sides' medians are at least 1.10x apart,
 *     their distance is at least STATES_MIN_D times the sum of the sides'
 *     scaled median absolute deviations (1.4826 MAD, the standard
 *     deviation of normal noise), and at most 5% of the group's runs lie
 *     in the middle third between the two medians;
 *   - each side is tried again, up to STATES_MAX states;
 *   - where the runs are several processes' (block after block), the
 *     groups are states only where some process has runs in two of them:
 *     groups that are whole processes are the processes differing (the
 *     between-process variance a verdict over processes already holds),
 *     not the machine changing state under one process, and are one state.
 *
 * Noise of one state (normal, log-normal, uniform, exponential or
 * t-tailed) is split by this rule in at most 3% of 30-run sets, and six
 * processes of five runs whose medians differ by up to 8% in at most 5%;
 * two states 1.8x apart with 7% spread in each are found in 93% of them
 * (docs/statistics.md, "States", gives the tables and their command).
 */
#ifndef NTBOOT_LIB_STATES_H
#define NTBOOT_LIB_STATES_H

#include "include/types.h"

#define STATES_MAX 4
#define STATES_MIN_RUNS 12
/* The most runs looked at; past them, the first STATES_MAX_RUNS. */
#define STATES_MAX_RUNS 1000
/* The separation, in tenths of the summed scaled MADs. */
#define STATES_MIN_D_TENTHS 30

/* One state: its runs, median and the range they lie in. */
struct state {
	u32 runs;
	u64 median_ns, low_ns, high_ns;
};

/* The state of a round in no state (states_of() never gives it). */
#define STATES_NONE 0xff

/* The states of one sample set, fastest first. */
struct states {
	u32 n;	/* runs looked at */
	u32 nr; /* states: 1 when none were found apart */
	struct state s[STATES_MAX];
	/*
	 * The groups the runs fell into, and the slowest's median over the
	 * fastest's in millionths: nr and states_apart() where they are
	 * states; more than nr where no process saw two of them (one state).
	 */
	u32 groups;
	u64 groups_apart;
	/*
	 * How many processes had runs in two of the groups: 0 where there
	 * is one, 1 where the runs are one process's (or do not divide into
	 * the processes); 0 with groups > nr: the processes differ.
	 */
	u32 seen_in;
};

/*
 * Find the states of @ns[0..n) (n <= STATES_MAX_RUNS) into @out. Where @which
 * is not NULL, which[i] gets the state of ns[i] (0: the fastest).
 */
void states_find(const u64 *ns, u32 n, struct states *out, u8 *which);

/*
 * states_find() of the runs of @processes processes, @ns[0..n) block after
 * block (n / processes runs each): groups no process has runs in two of
 * are one state (out->groups says how many there were). Runs that do not
 * divide into the processes evenly are taken as one process's.
 */
void states_find_in_processes(const u64 *ns, u32 n, u32 processes,
			      struct states *out, u8 *which);

/* The state of a run of @ns ns in @st (that of the range it lies in). */
u32 states_of(const struct states *st, u64 ns);

/* The slowest state's median over the fastest's, in millionths. */
u64 states_apart(const struct states *st);

#endif
