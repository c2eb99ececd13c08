// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verdicts that take the process as the unit (docs/statistics.md,
 * "Processes"): the signed-rank test on hand-worked ratios, and the
 * verdict engine on samples whose processes differ on purpose. A machine
 * whose state moves between processes makes runs of one process agree
 * with each other more than with the next; a verdict that pools them
 * calls that state a difference between strategies.
 */
#include "include/compiler.h"
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/signed_rank.h"
#include "lib/string.h"
#include "lib/verdict.h"

/* What one process (hosted) or one boot (the image) may say. */
#ifdef NTB_HOSTED
#define ONE "process"
#else
#define ONE "boot"
#endif

#define S VERDICT_SCALE
#define ALPHA VERDICT_ALPHA_PPB
#define RUNS 5
#define MAX_PROCS 8

static void signed_rank_hand_worked(struct kunit *test)
{
	/* Ranks of |log r|: 1.1 < 1/0.85 < 1.2 < 1.3 < 1.5 < 1/0.5. */
	static const u64 all_up[] = {1100000, 1200000, 1300000,
				     1400000, 1500000, 1600000};
	static const u64 one_down[] = {1100000, 1200000, 1300000,
				       1400000, 1500000, 500000};
	static const u64 mixed[] = {1100000, 850000,  1200000,
				    1300000, 1500000, 500000};
	static const u64 with_one[] = {1000000, 1100000, 1200000,
				       1300000, 1400000, 1500000};
	/* 1.25 and 1 / 0.8 have the same |log r|: ranks 3 and 4 share 3.5. */
	static const u64 tied[] = {1100000, 1200000, 1250000,
				   800000,  1400000, 1500000};
	struct sr_test t;
	u64 lo, hi, centre;

	/* Every sign the same: 2 of 64 patterns as extreme, p = 1/32. */
	sr_test(all_up, 6, S, ALPHA, &t);
	KUNIT_EXPECT_TRUE(test, t.up);
	KUNIT_EXPECT_EQ(test, t.n, 6);
	KUNIT_EXPECT_EQ(test, t.t2, 42);
	KUNIT_EXPECT_EQ(test, t.p_ppb, 31250000);
	KUNIT_EXPECT_TRUE(test, t.testable);
	KUNIT_EXPECT_TRUE(test, t.significant);
	/* The largest deviation down: T+ = 15; 14 patterns sum to <= 6. */
	sr_test(one_down, 6, S, ALPHA, &t);
	KUNIT_EXPECT_EQ(test, t.t2, 30);
	/* 15 of 21 up: above the mean, 10.5. */
	KUNIT_EXPECT_TRUE(test, t.up);
	KUNIT_EXPECT_EQ(test, t.p_ppb, 437500000);
	KUNIT_EXPECT_FALSE(test, t.significant);
	/*
	 * Down: ranks 2 and 6; T+ = 1 + 3 + 4 + 5 = 13. 22 of 64 patterns
	 * sum to 13 or more (as many as to 8 or less): p = 44/64.
	 */
	sr_test(mixed, 6, S, ALPHA, &t);
	KUNIT_EXPECT_EQ(test, t.t2, 26);
	KUNIT_EXPECT_EQ(test, t.p_ppb, 687500000);
	/* A ratio of exactly 1 is dropped: five left, never below 1/16. */
	sr_test(with_one, 6, S, ALPHA, &t);
	KUNIT_EXPECT_EQ(test, t.n, 5);
	KUNIT_EXPECT_FALSE(test, t.testable);
	KUNIT_EXPECT_FALSE(test, t.significant);
	/*
	 * Ties: doubled ranks 2, 4, 7, 7, 10, 12; up are all but the 7 of
	 * 0.8, T2 = 35 of 42. A sum of 35 or more leaves 7 or less down:
	 * nothing, 2, 4, 2 + 4, either 7: 6 of 64 patterns, p = 12/64.
	 */
	sr_test(tied, 6, S, ALPHA, &t);
	KUNIT_EXPECT_EQ(test, t.t2, 35);
	KUNIT_EXPECT_EQ(test, t.p_ppb, 187500000);

	/* n = 6: k = 1, the interval runs from the lowest to the highest. */
	KUNIT_ASSERT_TRUE(
		test, sr_interval(one_down, 6, S, ALPHA, &centre, &lo, &hi));
	KUNIT_EXPECT_EQ(test, lo, 500000);
	KUNIT_EXPECT_EQ(test, hi, 1500000);
	/*
	 * The centre: the 11th of the 21 geometric means sqrt(r_i r_j),
	 * i <= j, floored to millionths: sqrt(1.1 x 1.4) = 1.240967. Ten lie
	 * below it (the six with 0.5, 1.1 x 1.1, 1.1 x 1.2, 1.1 x 1.3 and
	 * 1.2 x 1.2), ten above.
	 */
	KUNIT_EXPECT_EQ(test, centre, 1240967);
	/*
	 * Five cannot give a 95% interval; the centre is still there: the
	 * 8th of 15, sqrt(1.2 x 1.4) = 1.296148 (sqrt(1.1 x 1.5), 1.284523,
	 * below it, 1.3 x 1.3 above).
	 */
	KUNIT_EXPECT_FALSE(
		test, sr_interval(one_down, 5, S, ALPHA, &centre, &lo, &hi));
	KUNIT_EXPECT_EQ(test, centre, 1296148);
	/* A ratio of exactly 1 is left out, as the test leaves it. */
	KUNIT_EXPECT_FALSE(
		test, sr_interval(with_one, 6, S, ALPHA, &centre, &lo, &hi));
	KUNIT_EXPECT_EQ(test, centre, 1296148);
}

/* @procs processes of RUNS runs: process p's runs at base[p] + noise. */
static void fill(u64 *ns, u32 procs, const u64 *base, u64 *state, u32 noise_pct)
{
	for (u32 p = 0; p < procs; p++)
		for (u32 j = 0; j < RUNS; j++) {
			u64 spread = base[p] * noise_pct / 100;

			ns[p * RUNS + j] =
				base[p] - spread +
				(spread ? prandom_u64(state) % (2 * spread + 1)
					: 0);
		}
}

static const struct verdict_claim *headline(void)
{
	return &verdict_claims[0]; /* slow -> tmpl_nt_fixed, fsdax */
}

static const struct verdict_config fsdax = {
	.suite = "bench_memmap_init", .page_size = 64, .mode = "fsdax"};

static void verdict_processes_planted_offset(struct kunit *test)
{
	/*
	 * The before side has two states across processes, as `slow` had on
	 * a cloud VM: 1.25-1.37x slower than the after side in five
	 * processes, 0.6x in the sixth. Pooled, five in six of its runs
	 * are the slower ones; per process, the speed-ups disagree.
	 */
	static const u64 before_base[] = {12500000, 12800000, 13100000,
					  13400000, 13700000, 6000000};
	static const u64 after_base[] = {10000000, 10000000, 10000000,
					 10000000, 10000000, 10000000};
	static u64 b[6 * RUNS], a[6 * RUNS];
	static struct verdict v;
	static char line[VERDICT_LINE_MAX];
	u64 state = 0x5eed;
	struct verdict_samples sb = {"slow", b, 6 * RUNS, 6};
	struct verdict_samples sa = {"tmpl_nt_fixed", a, 6 * RUNS, 6};

	fill(b, 6, before_base, &state, 1);
	fill(a, 6, after_base, &state, 1);

	/* As one process: the states read as a difference. */
	sb.processes = sa.processes = 1;
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_TRUE(test, v.tested);
	KUNIT_EXPECT_LT(test, v.p_ppb, ALPHA);
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_SHORT);

	/* By process: five up, the largest down; not significant. */
	sb.processes = sa.processes = 6;
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_EQ(test, v.scope, VERDICT_SCOPE_PROCESSES);
	KUNIT_EXPECT_EQ(test, v.processes, 6);
	KUNIT_EXPECT_TRUE(test, v.tested);
	KUNIT_EXPECT_EQ(test, v.p_ppb, 437500000);
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_SPLIT);
	KUNIT_EXPECT_TRUE(test, v.has_ci && v.ci_lo < S && v.ci_hi > S);
	verdict_format(line, sizeof(line), &v);
	KUNIT_EXPECT_TRUE(test, strstr(line, " p=0.437500 scope=processes "
					     "processes=6 n=30+30 "
					     "test=signed-rank verdict=\"split "
					     "between processes\"") != NULL);
}

static void verdict_processes_a_a(struct kunit *test)
{
	static u64 x[MAX_PROCS * RUNS], y[MAX_PROCS * RUNS];
	static struct verdict v;
	u64 base[MAX_PROCS], state = 0xa0a0;
	unsigned int claimed = 0, trials = 200;
	struct verdict_samples sx = {"slow", x, 6 * RUNS, 6};
	struct verdict_samples sy = {"tmpl_nt_fixed", x, 6 * RUNS, 6};

	/* The same runs under two names: every ratio 1, nothing to say. */
	fill(x, 6, (const u64[]){100, 90, 120, 80, 110, 130}, &state, 5);
	verdict_judge(headline(), &fsdax, &sx, &sy, &v);
	KUNIT_EXPECT_EQ(test, v.speedup, S);
	KUNIT_EXPECT_NE(test, v.word, VERDICT_CONFIRMED);
	KUNIT_EXPECT_NE(test, v.word, VERDICT_REVERSED);

	/*
	 * One strategy measured twice in each process, the processes 30%
	 * apart: a false call needs all six alike, 1 in 32 (6.25 of 200
	 * expected; the seed is fixed, so the count is too).
	 */
	sy.ns = y;
	for (unsigned int i = 0; i < trials; i++) {
		for (u32 p = 0; p < 6; p++)
			base[p] = 70000000 + prandom_u64(&state) % 60000000;
		fill(x, 6, base, &state, 5);
		fill(y, 6, base, &state, 5);
		verdict_judge(headline(), &fsdax, &sx, &sy, &v);
		claimed +=
			v.word == VERDICT_CONFIRMED ||
			v.word == VERDICT_BEYOND || v.word == VERDICT_SHORT ||
			v.word == VERDICT_FASTER || v.word == VERDICT_REVERSED;
	}
	KUNIT_EXPECT_LE(test, claimed, 15);
}

/*
 * Eight processes up to 30% apart, the before side @b 10% slower than the
 * after side @a in each.
 */
static void plant_slowdown(u64 *b, u64 *a)
{
	u64 base[MAX_PROCS], slower[MAX_PROCS], state = 0x10;

	for (u32 p = 0; p < 8; p++) {
		base[p] = 70000000 + prandom_u64(&state) % 60000000;
		slower[p] = base[p] * 11 / 10;
	}
	fill(b, 8, slower, &state, 3);
	fill(a, 8, base, &state, 3);
}

static void verdict_processes_planted_slowdown(struct kunit *test)
{
	static u64 b[MAX_PROCS * RUNS], a[MAX_PROCS * RUNS];
	static struct verdict v;
	struct verdict_samples sb = {"slow", b, 8 * RUNS, 8};
	struct verdict_samples sa = {"tmpl_nt_fixed", a, 8 * RUNS, 8};

	plant_slowdown(b, a);
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_EQ(test, v.scope, VERDICT_SCOPE_PROCESSES);
	/* 1.1x against the headline's posted 2.52x */
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_SHORT);
	/* All eight up: 2 of 256 patterns. */
	KUNIT_EXPECT_EQ(test, v.p_ppb, 7812500);
	KUNIT_EXPECT_TRUE(test, v.has_ci && v.ci_lo > S && v.ci_lo < 1100000 &&
					v.ci_hi > 1100000);

	/* The same slowdown on the after side: reversed. */
	verdict_judge(headline(), &fsdax, &sa, &sb, &v);
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_REVERSED);

	/* Five processes cannot reach 0.05 whatever they show. */
	sb.n = sa.n = 5 * RUNS;
	sb.processes = sa.processes = 5;
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_UNTESTED);
	KUNIT_EXPECT_FALSE(test, v.tested);
}

/*
 * The direction is the test's: 17 processes a hair slower, 15 clearly
 * faster. The median process is slower, but the ranks of the faster ones
 * outweigh them: significant, and up (the centre and interval agree).
 */
static void verdict_processes_direction_of_the_test(struct kunit *test)
{
	static u64 b[32], a[32];
	static struct verdict v;
	struct verdict_samples sb = {"slow", b, 32, 32};
	struct verdict_samples sa = {"tmpl_nt_fixed", a, 32, 32};

	for (u32 p = 0; p < 32; p++) {
		a[p] = 100000000;
		/* 0.999983 .. 0.999999, then 1.1 .. 2.5 */
		b[p] = p < 17 ? 100000000 - 100 * (p + 1)
			      : 100000000 + 10000000 * (1 + (p - 17));
	}
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_EQ(test, v.scope, VERDICT_SCOPE_PROCESSES);
	KUNIT_EXPECT_TRUE(test, v.tested);
	KUNIT_EXPECT_LT(test, v.p_ppb, ALPHA);
	/* The direction is up, its size short of a posted 2.52x. */
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_SHORT);
	KUNIT_EXPECT_GT(test, v.speedup, S);
	KUNIT_EXPECT_TRUE(test, v.has_ci && v.ci_lo > S);
}

/*
 * The claim's size: a planted 1.1x speed-up in eight processes, its
 * interval around 1.1, judged against claims that post 1.1x (within),
 * 1.0x (below the interval: beyond the posted), 3.0x (above it: short
 * of the posted) and nothing (faster, no size). The same runs in one
 * process (one boot, in the image) say the same sizes, "seen" there.
 */
static void verdict_processes_claim_size(struct kunit *test)
{
	static u64 b[MAX_PROCS * RUNS], a[MAX_PROCS * RUNS];
	static struct verdict v;
	static char line[VERDICT_LINE_MAX];
	static const struct {
		u64 num, den;
		enum verdict_word word;
		const char *processes, *one;
	} cases[] = {
		{11, 10, VERDICT_CONFIRMED, "confirmed", "seen in one " ONE},
		{1, 1, VERDICT_BEYOND, "beyond the posted",
		 "seen beyond the posted in one " ONE},
		{3, 1, VERDICT_SHORT, "faster, short of the posted",
		 "seen faster, short of the posted in one " ONE},
		{0, 0, VERDICT_FASTER, "faster", "seen faster in one " ONE},
	};
	struct verdict_samples sb = {"slow", b, 8 * RUNS, 8};
	struct verdict_samples sa = {"tmpl_nt_fixed", a, 8 * RUNS, 8};

	plant_slowdown(b, a);
	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		struct verdict_claim claim = *headline();

		claim.posted_num = cases[i].num;
		claim.posted_den = cases[i].den;
		sb.processes = sa.processes = 8;
		verdict_judge(&claim, &fsdax, &sb, &sa, &v);
		KUNIT_ASSERT_TRUE(test, v.has_ci);
		/* The estimate is not the posted 1.1 itself: the interval is */
		KUNIT_EXPECT_NE(test, v.speedup, 1100000);
		KUNIT_EXPECT_TRUE(test, v.ci_lo > S && v.ci_lo < 1100000 &&
						v.ci_hi > 1100000 &&
						v.ci_hi < 3 * S);
		KUNIT_EXPECT_EQ(test, v.word, cases[i].word);
		KUNIT_EXPECT_STREQ(test, verdict_word_name(&v),
				   cases[i].processes);
		verdict_format(line, sizeof(line), &v);
		KUNIT_EXPECT_TRUE(test,
				  strstr(line, cases[i].processes) != NULL);

		sb.processes = sa.processes = 1;
		verdict_judge(&claim, &fsdax, &sb, &sa, &v);
		KUNIT_ASSERT_TRUE(test, v.has_ci);
		KUNIT_EXPECT_TRUE(test, v.ci_lo > S && v.ci_lo < 1100000 &&
						v.ci_hi > 1100000 &&
						v.ci_hi < 3 * S);
		KUNIT_EXPECT_EQ(test, v.word, cases[i].word);
		KUNIT_EXPECT_STREQ(test, verdict_word_name(&v), cases[i].one);
	}
}

/* R against the interval at its edges: an edge is inside. */
static void verdict_vs_posted_edges(struct kunit *test)
{
	struct verdict_claim claim = {.posted_num = 11, .posted_den = 10};

	KUNIT_EXPECT_EQ(test, verdict_vs_posted(&claim, true, 1100000, 1200000),
			VERDICT_VS_POSTED_WITHIN);
	KUNIT_EXPECT_EQ(test, verdict_vs_posted(&claim, true, 1000000, 1100000),
			VERDICT_VS_POSTED_WITHIN);
	KUNIT_EXPECT_EQ(test, verdict_vs_posted(&claim, true, 1100001, 1200000),
			VERDICT_VS_POSTED_BEYOND);
	KUNIT_EXPECT_EQ(test, verdict_vs_posted(&claim, true, 1000000, 1099999),
			VERDICT_VS_POSTED_SHORT);
	KUNIT_EXPECT_EQ(test,
			verdict_vs_posted(&claim, false, 1000000, 1200000),
			VERDICT_VS_POSTED_NONE);
	claim.posted_num = claim.posted_den = 0;
	KUNIT_EXPECT_EQ(test, verdict_vs_posted(&claim, true, 1000000, 1200000),
			VERDICT_VS_POSTED_NONE);
	KUNIT_EXPECT_STREQ(test,
			   verdict_vs_posted_name(VERDICT_VS_POSTED_BEYOND),
			   "beyond");
	KUNIT_EXPECT_STREQ(
		test, verdict_vs_posted_name(VERDICT_VS_POSTED_SHORT), "short");
}

/* Every word of every scope is named: the manifest's table is whole. */
static void verdict_words_named(struct kunit *test)
{
	struct verdict v = {0};

	for (u32 w = 0; w < VERDICT_NR_WORDS; w++)
		for (u32 s = 0; s < VERDICT_NR_SCOPES; s++) {
			v.word = w;
			v.scope = s;
			KUNIT_EXPECT_TRUE(test, verdict_word_name(&v)[0] != 0);
			/* "untested" only for the word untested */
			if (w != VERDICT_UNTESTED)
				KUNIT_EXPECT_TRUE(test,
						  strcmp(verdict_word_name(&v),
							 "untested"));
		}
}

/* A median of 0 ns timed nothing: untested, not the largest slowdown. */
static void verdict_processes_zero_median(struct kunit *test)
{
	static u64 b[6], a[6] = {10, 10, 10, 10, 10, 0};
	static struct verdict v;
	struct verdict_samples sb = {"slow", b, 6, 6};
	struct verdict_samples sa = {"tmpl_nt_fixed", a, 6, 6};

	for (u32 p = 0; p < 6; p++)
		b[p] = 20;
	verdict_judge(headline(), &fsdax, &sb, &sa, &v);
	KUNIT_EXPECT_EQ(test, v.word, VERDICT_UNTESTED);
	KUNIT_EXPECT_FALSE(test, v.tested);
}

static const struct kunit_case verdict_processes_cases[] = {
	KUNIT_CASE(signed_rank_hand_worked),
	KUNIT_CASE(verdict_processes_planted_offset),
	KUNIT_CASE(verdict_processes_a_a),
	KUNIT_CASE(verdict_processes_planted_slowdown),
	KUNIT_CASE(verdict_processes_direction_of_the_test),
	KUNIT_CASE(verdict_processes_zero_median),
	KUNIT_CASE(verdict_processes_claim_size),
	KUNIT_CASE(verdict_vs_posted_edges),
	KUNIT_CASE(verdict_words_named),
};

KUNIT_SUITE_DEFINE(verdict_processes_suite, "verdict_processes",
		   verdict_processes_cases);
