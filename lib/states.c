// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule of lib/states.h. Every comparison is of integers, so that
 * tools/report, doing the same arithmetic in Python, finds the same
 * states in the same runs.
 */
#include "lib/states.h"
#include "lib/sort_u64.h"
#include "lib/string.h"

/* The median absolute deviation of sorted @v[0..n) from @med. */
static u64 mad(const u64 *v, u32 n, u64 med)
{
	static u64 dev[STATES_MAX_RUNS];

	for (u32 i = 0; i < n; i++)
		dev[i] = v[i] > med ? v[i] - med : med - v[i];
	sort_u64(dev, n);
	return sorted_median(dev, n);
}

/*
 * Where sorted @x[0..n) splits into two states, or 0 where it does not.
 */
static u32 split_at(const u64 *x, u32 n)
{
	u32 m = n / 10 > 3 ? n / 10 : 3, k = 0, band = 0;
	u64 ml, mr, third;

	if (n < STATES_MIN_RUNS || !x[0])
		return 0;
	/* The widest gap x[i] / x[i - 1], the first of equals. */
	for (u32 i = m; i + m <= n; i++)
		if (!k || (unsigned __int128)x[i] * x[k - 1] >
				  (unsigned __int128)x[k] * x[i - 1])
			k = i;
	ml = sorted_median(x, k);
	mr = sorted_median(x + k, n - k);
	if (mr * 10 < ml * 11)
		return 0;
	/* (mr - ml) / (1.4826 (MAD_l + MAD_r)) >= STATES_MIN_D. */
	if ((mr - ml) * 10000 * 10 <
	    (u64)STATES_MIN_D_TENTHS * 14826 *
		    (mad(x, k, ml) + mad(x + k, n - k, mr)))
		return 0;
	third = (mr - ml) / 3;
	for (u32 i = 0; i < n; i++)
		band += x[i] > ml + third && x[i] < mr - third;
	return band * 20 <= n ? k : 0;
}

/* The runs looked at, sorted (by states_find(), for the next step too). */
static u64 sorted_runs[STATES_MAX_RUNS];

void states_find(const u64 *ns, u32 n, struct states *out, u8 *which)
{
	/* Where each state starts in sorted_runs[]; start[nr] == n. */
	u32 start[STATES_MAX + 1] = {0}, nr = 1;
	bool more = true;

	n = n < STATES_MAX_RUNS ? n : STATES_MAX_RUNS;
	start[1] = n;
	memcpy(sorted_runs, ns, n * sizeof(*sorted_runs));
	sort_u64(sorted_runs, n);
	/* Split each state again until none splits or STATES_MAX are found. */
	while (more && nr < STATES_MAX) {
		more = false;
		for (u32 s = 0; s < nr && nr < STATES_MAX; s++) {
			u32 k = split_at(sorted_runs + start[s],
					 start[s + 1] - start[s]);

			if (!k)
				continue;
			memmove(&start[s + 2], &start[s + 1],
				(nr - s) * sizeof(*start));
			start[s + 1] = start[s] + k;
			nr++;
			more = true;
			s++; /* both halves are tried on the next pass */
		}
	}
	*out = (struct states){.n = n, .nr = n ? nr : 0};
	for (u32 s = 0; n && s < nr; s++) {
		u32 a = start[s], b = start[s + 1];

		out->s[s] = (struct state){
			.runs = b - a,
			.median_ns = sorted_median(sorted_runs + a, b - a),
			.low_ns = sorted_runs[a],
			.high_ns = sorted_runs[b - 1]};
	}
	out->groups = out->nr;
	out->groups_apart = states_apart(out);
	out->seen_in = out->nr > 1;
	for (u32 i = 0; which && i < n; i++)
		which[i] = states_of(out, ns[i]);
}

/*
 * How many of @processes processes (@ns[0..n) block after block) have
 * runs in two of the states @st of those runs: 0 for one state, 1 where
 * the runs are one process's (or do not divide into the processes).
 */
static u32 seen_in(const struct states *st, const u64 *ns, u32 n, u32 processes)
{
	u32 per = processes ? n / processes : 0, seen = 0;

	if (st->nr < 2)
		return 0;
	if (processes < 2 || !per || n % processes)
		return 1;
	/* Each process's block of runs looked at (the first st->n). */
	for (u32 from = 0; from < st->n; from += per) {
		u32 first = states_of(st, ns[from]);

		for (u32 i = from + 1; i < from + per && i < st->n; i++)
			if (states_of(st, ns[i]) != first) {
				seen++;
				break;
			}
	}
	return seen;
}

void states_find_in_processes(const u64 *ns, u32 n, u32 processes,
			      struct states *out, u8 *which)
{
	states_find(ns, n, out, which);
	out->seen_in = seen_in(out, ns, n, processes);
	if (out->nr < 2 || out->seen_in)
		return;
	/* Whole processes apart: one state, of the runs sorted above. */
	out->nr = 1;
	out->s[0] =
		(struct state){.runs = out->n,
			       .median_ns = sorted_median(sorted_runs, out->n),
			       .low_ns = sorted_runs[0],
			       .high_ns = sorted_runs[out->n - 1]};
	for (u32 i = 0; which && i < out->n; i++)
		which[i] = 0;
}

u32 states_of(const struct states *st, u64 ns)
{
	u32 s = 0;

	/* The states' ranges are apart: the first that reaches ns. */
	while (s + 1 < st->nr && ns > st->s[s].high_ns)
		s++;
	return s;
}

u64 states_apart(const struct states *st)
{
	if (st->nr < 2 || !st->s[0].median_ns)
		return 1000000;
	/* In 128 bits: a median past 1.8e13 ns (5 hours) times 10^6. */
	return (u64)((unsigned __int128)st->s[st->nr - 1].median_ns * 1000000 /
		     st->s[0].median_ns);
}
