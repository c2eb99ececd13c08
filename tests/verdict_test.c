// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verdict engine on samples whose answers are worked out by hand: the
 * U distribution, exact and normal p-values, the ratio's interval, the
 * word of each claim, and the end-of-run screen that shows them.
 */
#include "include/compiler.h"
#include "lib/kunit.h"
#include "lib/mannwhitney.h"
#include "lib/string.h"
#include "lib/summary_screen.h"
#include "lib/verdict.h"

#define ALPHA VERDICT_ALPHA_PPB

/* What one process (hosted) or one boot (the image) may say. */
#ifdef NTB_HOSTED
#define ONE "process"
#else
#define ONE "boot"
#endif

static bool strstr_simple(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return true;
	return !n;
}

static void verdict_u_counts(struct kunit *test)
{
	static const u64 want33[] = {1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
	static u64 c[901];
	static const u32 sizes[][2] = {{1, 1},	 {3, 4},   {5, 7},
				       {10, 10}, {30, 30}, {20, 40}};
	/* C(m + n, m) of the sizes above. */
	static const u64 totals[] = {
		2, 35, 792, 184756, 118264581564861424ull, 4191844505805495ull};

	KUNIT_EXPECT_EQ(test, mw_u_counts(3, 3, c), 20);
	KUNIT_EXPECT_MEMEQ(test, c, want33, sizeof(want33));
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		u32 m = sizes[i][0], n = sizes[i][1];
		bool symmetric = true;

		KUNIT_EXPECT_EQ(test, mw_u_counts(m, n, c), totals[i]);
		for (u32 u = 0; u <= m * n; u++)
			symmetric &= c[u] == c[m * n - u];
		KUNIT_EXPECT_TRUE(test, symmetric);
	}
	/* Past 60 samples in all: no exact distribution. */
	KUNIT_EXPECT_EQ(test, mw_u_counts(30, 31, c), 0);
}

static void check_p(struct kunit *test, const u64 *a, u32 m, const u64 *b,
		    u32 n, u64 want_ppb, u64 tolerance, bool exact)
{
	struct mw_test t;
	u64 d;

	mw_test(a, m, b, n, ALPHA, &t);
	d = t.p_ppb > want_ppb ? t.p_ppb - want_ppb : want_ppb - t.p_ppb;
	KUNIT_EXPECT_LE(test, d, tolerance);
	KUNIT_EXPECT_EQ(test, t.exact, exact);
	KUNIT_EXPECT_EQ(test, t.significant, want_ppb < ALPHA);
}

static void verdict_p_values(struct kunit *test)
{
	static const u64 lo5[] = {1, 2, 3, 4, 5}, hi5[] = {6, 7, 8, 9, 10};
	static const u64 a3[] = {1, 2, 5}, b4[] = {3, 4, 6, 7};
	static const u64 odd[] = {1, 3, 5}, even[] = {2, 4, 6};
	static const u64 ta[] = {1, 2, 2, 3}, tb[] = {2, 3, 3, 4};
	static u64 x[31], y[31];

	/* Apart, 5 a side: one deal in C(10, 5) = 252 each way: p = 2/252. */
	check_p(test, lo5, 5, hi5, 5, 7936508, 1, true);
	check_p(test, hi5, 5, lo5, 5, 7936508, 1, true);
	/* U = 10 of 12; P(U >= 10) = (2 + 1 + 1) / 35: p = 8/35. */
	check_p(test, a3, 3, b4, 4, 228571429, 1, true);
	/* U = 6 of 9: P(U >= 6) = 7/20, p = 0.7. */
	check_p(test, odd, 3, even, 3, 700000000, 1, true);
	/*
	 * Normal, 31 against 31 interleaved (62 > 60): U = 496, mean 480.5,
	 * sd = sqrt(961 * 63 / 12) = 71.030, z = 15 / sd = 0.211179,
	 * p = 0.832748.
	 */
	for (u32 i = 0; i < 31; i++) {
		x[i] = 2 * i + 2;
		y[i] = 2 * i + 3;
	}
	check_p(test, x, 31, y, 31, 832748000, 1000, false);
	/*
	 * Ties: U = 13 of 16, tie groups of 3 and 3, var = 16/12 (9 - 48/56)
	 * = 10.857, z = 4.5 / 3.2950 = 1.36570, p = 0.17203.
	 */
	check_p(test, ta, 4, tb, 4, 172030000, 10000, false);
}

static void verdict_ratio_interval(struct kunit *test)
{
	static const u64 before[] = {200, 210, 220, 230, 240};
	static const u64 after[] = {100, 101, 102, 103, 104};
	u64 lo, hi;

	/*
	 * 5 a side: P(U <= 2) = 4/252 < 0.025 <= P(U <= 3) = 7/252, so k = 3:
	 * the 3rd smallest and 3rd largest of the 25 ratios, 200/102 and
	 * 240/102.
	 */
	KUNIT_EXPECT_EQ(test, mw_u_critical(5, 5, ALPHA, true), 3);
	KUNIT_ASSERT_TRUE(test, mw_ratio_interval(before, 5, after, 5, ALPHA,
						  true, 1000000, &lo, &hi));
	KUNIT_EXPECT_EQ(test, lo, 1960784);
	KUNIT_EXPECT_EQ(test, hi, 2352941);
	KUNIT_EXPECT_EQ(test, mw_kth_ratio(before, 5, after, 5, 1, 1000000),
			1923076);
	KUNIT_EXPECT_EQ(test, mw_kth_ratio(before, 5, after, 5, 25, 1000000),
			2400000);
	/* 4 a side: P(U <= 0) = 1/70 < 0.025, k = 1: all the ratios. */
	KUNIT_ASSERT_TRUE(test, mw_ratio_interval(before, 4, after, 4, ALPHA,
						  true, 1000000, &lo, &hi));
	KUNIT_EXPECT_EQ(test, lo, 200 * 1000000 / 103);
	KUNIT_EXPECT_EQ(test, hi, 230 * 1000000 / 100);
	/* 3 a side: P(U <= 0) = 1/20 is not below 0.025: no interval. */
	KUNIT_EXPECT_FALSE(test, mw_ratio_interval(before, 3, after, 3, ALPHA,
						   true, 1000000, &lo, &hi));
}

/* Five runs of each contender (runs=6): times in ns. */
static const u64 s_slow[] = {220, 240, 200, 230, 210};
static const u64 s_fixed[] = {102, 100, 104, 101, 103};
static const u64 s_memcpy[] = {50, 54, 52, 51, 53};
static const u64 s_generic[] = {101500, 99500, 103500, 100500, 102500};
static const u64 s_fixed_k[] = {102000, 100000, 104000, 101000, 103000};

static const struct verdict *by_claim(const struct verdict *v, unsigned int n,
				      const char *before, const char *mode)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(v[i].before, before) &&
		    (!mode || !strcmp(v[i].where.mode, mode)))
			return &v[i];
	return NULL;
}

static void verdict_words(struct kunit *test)
{
	static struct verdict v[8];
	static char line[512];
	const struct verdict *c;
	struct verdict_samples mm[] = {
		{"slow", s_slow, 5},
		{"tmpl_nt_fixed", s_fixed, 5},
		{"tmpl_memcpy", s_memcpy, 5},
		{"fill_movnti", s_memcpy, 5},
	};
	struct verdict_samples alike[] = {
		{"tmpl_nt_generic", s_generic, 5},
		{"tmpl_nt_fixed", s_fixed_k, 5},
	};
	struct verdict_config fsdax = {
		.suite = "bench_memmap_init", .page_size = 64, .mode = "fsdax"};
	struct verdict_config dev = {.suite = "bench_memmap_init",
				     .page_size = 80,
				     .mode = "devdax2m"};
	unsigned int n;

	/* fsdax: slow -> fixed and memcpy -> fixed; nothing else. */
	n = verdict_feed(&fsdax, mm, ARRAY_SIZE(mm), v, ARRAY_SIZE(v));
	KUNIT_EXPECT_EQ(test, n, 2);
	c = by_claim(v, n, "slow", NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_STREQ(test, c->after, "tmpl_nt_fixed");
	/*
	 * Five runs of one process: seen, never confirmed; 2.16x
	 * [1.96, 2.35] against a posted 2.52x: short of the posted.
	 */
	KUNIT_EXPECT_EQ(test, c->word, VERDICT_SHORT);
	KUNIT_EXPECT_EQ(test, c->vs_posted, VERDICT_VS_POSTED_SHORT);
	/* Medians 220 and 102; the interval as worked out above. */
	KUNIT_EXPECT_EQ(test, c->speedup, 2156862);
	KUNIT_EXPECT_TRUE(test, c->has_ci);
	KUNIT_EXPECT_EQ(test, c->ci_lo, 1960784);
	KUNIT_EXPECT_EQ(test, c->ci_hi, 2352941);
	KUNIT_EXPECT_EQ(test, c->p_ppb, 7936508);
	verdict_format(line, sizeof(line), c);
	KUNIT_EXPECT_STREQ(
		test, line,
		"# verdict claim=\"mm: use memcpy_nt() in zone-device template "
		"copies\" what=\"memmap init on rebind, fsdax (nd_pmem)\" "
		"before=slow after=tmpl_nt_fixed source=model page_size=64 "
		"mode=fsdax "
		"posted=2.524 before_ns=220 after_ns=102 speedup=2.157 "
		"ci_low=1.961 ci_high=2.353 measured_over_posted=0.855 "
		"vs_posted=short p=0.007937 scope=one-" ONE " processes=1 "
		"n=5+5 test=exact "
		"verdict=\"seen faster, short of the posted in one " ONE "\"");
	/* The cached copy is the faster one here: the step is reversed. */
	c = by_claim(v, n, "tmpl_memcpy", NULL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->word, VERDICT_REVERSED);
	KUNIT_EXPECT_LT(test, c->speedup, VERDICT_SCALE);

	/* devdax 2 MiB: its own claims; two copies alike: not confirmed. */
	n = verdict_feed(&dev, alike, ARRAY_SIZE(alike), v, ARRAY_SIZE(v));
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_STREQ(test, v[0].before, "tmpl_nt_generic");
	KUNIT_EXPECT_STREQ(test, v[0].where.mode, "devdax2m");
	KUNIT_EXPECT_EQ(test, v[0].word, VERDICT_NOT_CONFIRMED);
	KUNIT_EXPECT_TRUE(test, v[0].tested);
	KUNIT_EXPECT_GE(test, v[0].p_ppb, VERDICT_ALPHA_PPB);
	KUNIT_EXPECT_TRUE(test, v[0].has_ci && v[0].ci_lo < VERDICT_SCALE &&
					v[0].ci_hi > VERDICT_SCALE);

	/* The memmap in DRAM (map=mem): not the postings' namespaces. */
	fsdax.map = "mem";
	KUNIT_EXPECT_EQ(
		test,
		verdict_feed(&fsdax, mm, ARRAY_SIZE(mm), v, ARRAY_SIZE(v)), 0);
	fsdax.map = "dev";
	KUNIT_EXPECT_EQ(
		test,
		verdict_feed(&fsdax, mm, ARRAY_SIZE(mm), v, ARRAY_SIZE(v)), 2);
	fsdax.map = NULL;

	/* Four runs a side: untested, whatever the figures. */
	mm[0].n = mm[1].n = 4;
	n = verdict_feed(&fsdax, mm, 2, v, ARRAY_SIZE(v));
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, v[0].word, VERDICT_UNTESTED);
	KUNIT_EXPECT_FALSE(test, v[0].tested);
	verdict_format(line, sizeof(line), &v[0]);
	KUNIT_EXPECT_TRUE(test, strstr_simple(line, "ci_low=- ci_high=- "
						    "measured_over_posted="));
	KUNIT_EXPECT_TRUE(test, strstr_simple(line, "p=- scope=one-" ONE
						    " processes=1 n=4+4 test=- "
						    "verdict=\"untested\""));
}

static void verdict_nocache(struct kunit *test)
{
	static struct verdict v[4];
	struct verdict_samples nc[] = {
		{"memcpy", s_memcpy, 5},
		{"copy_clean_clwb", s_slow, 5},
		{"copy_clean_clflush", s_memcpy, 5},
		{"nocache", s_fixed, 5},
	};
	struct verdict_config at = {.suite = "bench_nocache_copy",
				    .chunk = 4096,
				    .copy_clean = "copy_clean_clwb"};
	unsigned int n;

	/* Against the method the kernel would use here, not another one. */
	n = verdict_feed(&at, nc, ARRAY_SIZE(nc), v, ARRAY_SIZE(v));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_STREQ(test, v[0].before, "copy_clean_clwb");
	KUNIT_EXPECT_STREQ(test, v[0].after, "nocache");
	/* 2.16x against a posted 3.33x */
	KUNIT_EXPECT_EQ(test, v[0].word, VERDICT_SHORT);
	at.copy_clean = "copy_clean_clflush";
	n = verdict_feed(&at, nc, ARRAY_SIZE(nc), v, ARRAY_SIZE(v));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, v[0].word, VERDICT_REVERSED);
	/* The posting copied pages: other chunk sizes are not judged. */
	at.chunk = 1024;
	KUNIT_EXPECT_EQ(test, verdict_feed(&at, nc, ARRAY_SIZE(nc), v, 4), 0);
}

/*
 * In a band only by an interval: inside, across an edge, wholly outside;
 * with none, untested, whatever the estimate, and the line's reason says
 * what it lacked.
 */
static void verdict_in_band_by_interval(struct kunit *test)
{
	const u64 lo = 970000, hi = 1030000;
	struct verdict v = {.speedup = 1000000,
			    .has_ci = true,
			    .ci_lo = 980000,
			    .ci_hi = 1020000,
			    .scope = VERDICT_SCOPE_PROCESSES,
			    .processes = 8};
	char why[40];

	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_YES);
	/* The edges themselves are inside. */
	v.ci_lo = lo;
	v.ci_hi = hi;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_YES);
	v.ci_lo = 960000;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_UNSURE);
	v.ci_lo = 1000000;
	v.ci_hi = 1040000;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_UNSURE);
	/* An estimate in the band does not bring a wholly outside interval */
	v.ci_lo = 1031000;
	v.ci_hi = 1050000;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_NO);
	v.ci_lo = 400000;
	v.ci_hi = 969999;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi), VERDICT_BAND_NO);
	/* No interval: an estimate inside or outside the band says nothing */
	v.has_ci = false;
	v.processes = 3;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi),
			VERDICT_BAND_UNTESTED);
	v.speedup = 900000;
	KUNIT_EXPECT_EQ(test, verdict_in_band(&v, lo, hi),
			VERDICT_BAND_UNTESTED);
	KUNIT_EXPECT_STREQ(test, verdict_band_name(VERDICT_BAND_UNTESTED),
			   "untested");
	verdict_no_interval_reason(why, sizeof(why), &v);
	KUNIT_EXPECT_STREQ(test, why, "processes=3");
	v.scope = VERDICT_SCOPE_ONE_PROCESS;
	v.n_before = v.n_after = 3;
	verdict_no_interval_reason(why, sizeof(why), &v);
	KUNIT_EXPECT_STREQ(test, why, "runs=3+3");
}

/*
 * Every claim's line, of a state, with the longest word of the longest
 * scope and figures at their widest, fits VERDICT_LINE_MAX whole: a line
 * cut short loses its word (and runs into the next line on the console).
 */
static void verdict_longest_line_fits(struct kunit *test)
{
	static char line[VERDICT_LINE_MAX];
	struct verdict v = {.before = "tmpl_nt_generic",
			    .after = "tmpl_nt_fixed",
			    .where = {.suite = "bench_memmap_init",
				      .page_size = 128,
				      .mode = "devdax2m",
				      .map = "dev",
				      .chunk = ~0ull},
			    .by = "tmpl_nt_generic",
			    .state = 10,
			    .nr_states = 10,
			    .rounds = ~0u,
			    .scope = VERDICT_SCOPE_ROUNDS,
			    .processes = ~0u,
			    .n_before = ~0u,
			    .n_after = ~0u,
			    .before_ns = ~0ull,
			    .after_ns = ~0ull,
			    .speedup = ~0ull,
			    .has_ci = true,
			    .ci_lo = ~0ull,
			    .ci_hi = ~0ull,
			    .tested = true,
			    .p_ppb = 999999999,
			    .vs_posted = VERDICT_VS_POSTED_SHORT};
	size_t longest = 0;

	for (unsigned int i = 0; i < verdict_nr_claims; i++) {
		v.claim = &verdict_claims[i];
		/* each claim's own contenders: the kernel's names are longer */
		if (v.claim->before)
			v.before = v.by = v.claim->before;
		v.after = v.claim->after;
		for (u32 w = 0; w < VERDICT_NR_WORDS; w++) {
			int n;

			v.word = w;
			n = verdict_format(line, sizeof(line), &v);
			KUNIT_EXPECT_LT(test, n, (int)sizeof(line));
			KUNIT_EXPECT_EQ(test, strlen(line), (size_t)n);
			KUNIT_EXPECT_EQ(test, line[n - 1], '"');
			longest = max(longest, (size_t)n);
		}
	}
	/* The old 512-byte buffers were too small for this. */
	KUNIT_EXPECT_GT(test, longest, 512);
}

#define COLS 100
#define ROWS 24
static char screen[ROWS * (COLS + 1)];
static u8 kinds[ROWS];

static const char *row_of(unsigned int i)
{
	return screen + i * (COLS + 1);
}

/* The first row holding @needle, or -1. */
static int find_row(unsigned int used, const char *needle)
{
	for (unsigned int i = 0; i < used; i++)
		if (strstr_simple(row_of(i), needle))
			return (int)i;
	return -1;
}

static void verdict_screen(struct kunit *test)
{
	static struct verdict v[VERDICT_MAX];
	static struct bench_summary_row rows[40];
	static const char *const failed[] = {"memmap_slow.a", "smp.b"};
	struct verdict_samples mm[] = {
		{"slow", s_slow, 5},
		{"tmpl_nt_fixed", s_fixed, 5},
		{"tmpl_memcpy", s_memcpy, 5},
	};
	struct verdict_config fsdax = {
		.suite = "bench_memmap_init", .page_size = 64, .mode = "fsdax"};
	struct summary_screen_in in = {
		.version = "0.1",
		.cpu = "  Example CPU @ 2.00GHz",
		.passed = 10,
		.failed = 5,
		.skipped = 1,
		.failed_names = failed,
		.nr_failed_names = 2,
		.verdicts = v,
		.rows = rows,
		.footer = "  halted",
	};
	struct relaxation_totals relax = {
		.allowed = 22, .allowed_observed = 3, .forbidden = 40};
	unsigned int used, longest = 0;
	int r;

	in.nr_verdicts = verdict_feed(&fsdax, mm, ARRAY_SIZE(mm), v, 2);
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++)
		rows[i] = (struct bench_summary_row){
			.strategy = i ? "tmpl_nt_fixed" : "slow",
			.page_size = 64,
			.mode = "fsdax",
			.median_ns = i ? 96790000 : 244280000,
			.pages = 1000,
			.limit_ns = 90000000,
			.limit = "fill_movnti",
			.slow_ns = 244280000};
	in.nr_rows = ARRAY_SIZE(rows);
	in.relax = &relax;

	used = summary_screen_compose(&in, COLS, ROWS, screen, kinds);
	KUNIT_EXPECT_GE(test,
			find_row(used, "ordering: 3 of 22 allowed relaxations "
				       "observed, 0 forbidden observed"),
			0);
	KUNIT_EXPECT_LE(test, used, ROWS);
	for (unsigned int i = 0; i < used; i++)
		longest = max(longest, (unsigned int)strlen(row_of(i)));
	KUNIT_EXPECT_LE(test, longest, COLS);
	KUNIT_EXPECT_GE(test, find_row(used, "CPU: Example CPU @ 2.00GHz"), 0);
	KUNIT_EXPECT_GE(test, find_row(used, "FAIL   10 passed, 5 failed"), 0);
	KUNIT_EXPECT_GE(test, find_row(used, "not ok  smp.b"), 0);
	/* Five failed, two names: the other three are counted. */
	KUNIT_EXPECT_GE(test, find_row(used, "... 3 more failed"), 0);
	/* One process or boot: neither a pass nor a failure. */
	r = find_row(used, "seen faster, short of the posted in one " ONE
			   " slow->tmpl_nt_fixed 64 fsdax 2.16x");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_SKIP);
	r = find_row(used,
		     "seen reversed in one " ONE " tmpl_memcpy->tmpl_nt_fixed");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_SKIP);
	/* The words of several processes: a pass and a failure. */
	v[0].scope = v[1].scope = VERDICT_SCOPE_PROCESSES;
	v[0].word = VERDICT_CONFIRMED;
	v[1].word = VERDICT_REVERSED;
	used = summary_screen_compose(&in, COLS, ROWS, screen, kinds);
	r = find_row(used, "confirmed     slow->tmpl_nt_fixed 64 fsdax 2.16x");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_PASS);
	r = find_row(used, "reversed on this CPU tmpl_memcpy->tmpl_nt_fixed");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_FAIL);
	/* A speed-up short of the posted one: not a pass. */
	v[0].word = VERDICT_SHORT;
	used = summary_screen_compose(&in, COLS, ROWS, screen, kinds);
	r = find_row(used, "faster, short of the posted slow->tmpl_nt_fixed");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_SKIP);
	v[0].word = VERDICT_CONFIRMED;
	KUNIT_EXPECT_GE(test,
			find_row(used, "\"mm: use memcpy_nt() in "
				       "zone-device template copies\""),
			0);
	/* The table: its header, the slow row, and the rest counted. */
	KUNIT_EXPECT_GE(test, find_row(used, "median_ms vs_slow of_limit"), 0);
	KUNIT_EXPECT_GE(test,
			find_row(used, "slow               64 fsdax "
				       "       244.28   1.00x    36.8%"),
			0);
	r = find_row(used, " more rows");
	KUNIT_EXPECT_GE(test, r, 0);
	KUNIT_EXPECT_GE(test, find_row(used, "halted"), 0);

	/*
	 * All of it on a tall screen: no "more" line at all. The third row
	 * is faster than the limit (90 ms): flagged, in the warning colour.
	 */
	in.failed = 2;
	in.nr_rows = 3;
	rows[2].median_ns = 80000000;
	used = summary_screen_compose(&in, COLS, ROWS, screen, kinds);
	KUNIT_EXPECT_EQ(test, find_row(used, " more "), -1);
	r = find_row(used, "80.00   3.05x   112.5% beats limit");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0)
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_SKIP);
	r = find_row(used, "96.79   2.52x    93.0%");
	KUNIT_EXPECT_GE(test, r, 0);
	if (r >= 0) {
		KUNIT_EXPECT_EQ(test, kinds[r], SUMMARY_TEXT);
		KUNIT_EXPECT_FALSE(test, strstr(row_of(r), "beats"));
	}
	KUNIT_EXPECT_GE(test, find_row(used, "PASS") < 0 ? 0 : -1, 0);

	/* A tiny screen: still within it, the verdict first. */
	used = summary_screen_compose(&in, 20, 6, screen, kinds);
	KUNIT_EXPECT_LE(test, used, 6);
	for (unsigned int i = 0; i < used; i++)
		KUNIT_EXPECT_LE(test, strlen(screen + i * 21), 20);
}

static const struct kunit_case verdict_cases[] = {
	KUNIT_CASE(verdict_u_counts),
	KUNIT_CASE(verdict_p_values),
	KUNIT_CASE(verdict_ratio_interval),
	KUNIT_CASE(verdict_words),
	KUNIT_CASE(verdict_nocache),
	KUNIT_CASE(verdict_screen),
	KUNIT_CASE(verdict_in_band_by_interval),
	KUNIT_CASE(verdict_longest_line_fits),
};

KUNIT_SUITE_DEFINE(verdict_suite, "verdict", verdict_cases);
