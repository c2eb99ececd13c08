// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark timing core: statistics and formatting. */
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/int_sqrt.h"
#include "lib/kunit.h"
#include "lib/string.h"

static void int_sqrt_exact(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, int_sqrt128(0), 0);
	KUNIT_EXPECT_EQ(test, int_sqrt128(1), 1);
	KUNIT_EXPECT_EQ(test, int_sqrt128(15), 3);
	KUNIT_EXPECT_EQ(test, int_sqrt128(16), 4);
	KUNIT_EXPECT_EQ(test, int_sqrt128(1000000), 1000);
	KUNIT_EXPECT_EQ(test, int_sqrt128(~0ull), 0xffffffffull);
	/* past 64 bits: the Mann-Whitney variance */
	KUNIT_EXPECT_EQ(test, int_sqrt128((u128)1 << 126), 1ull << 63);
	KUNIT_EXPECT_EQ(test, int_sqrt128((u128)~0ull * ~0ull), ~0ull);
	KUNIT_EXPECT_EQ(test, int_sqrt128((u128)~0ull * ~0ull - 1), ~0ull - 1);
	KUNIT_EXPECT_EQ(test, int_sqrt128(~(u128)0), ~0ull);
	for (u64 v = 1; v < 100000; v += 7) {
		u64 r = int_sqrt128(v);

		if (r * r > v || (r + 1) * (r + 1) <= v) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "isqrt(%llu) = %llu", v, r);
			return;
		}
	}
}

static void bench_median_odd_even(struct kunit *test)
{
	u64 odd[] = { 9, 1, 5, 3, 7 };
	u64 even[] = { 10, 40, 20, 30 };

	KUNIT_EXPECT_EQ(test, bench_median(odd, 5), 5);
	KUNIT_EXPECT_EQ(test, odd[0], 1); /* sorted in place */
	KUNIT_EXPECT_EQ(test, bench_median(even, 4), 25);
}

struct spin {
	volatile u64 counter;
	u64 loops;
	u32 calls;
};

static void spin_body(void *arg)
{
	struct spin *s = arg;

	s->calls++;
	for (u64 i = 0; i < s->loops; i++)
		s->counter++;
}

static void bench_measure_stats(struct kunit *test)
{
	struct bench_result r;
	struct spin s = { .loops = 20000 };

	KUNIT_ASSERT_EQ(test, bench_measure(&r, 9, spin_body, &s, NULL), 0);
	KUNIT_EXPECT_EQ(test, s.calls, 9);
	KUNIT_EXPECT_EQ(test, r.runs, 9);
	KUNIT_EXPECT_GT(test, r.min_ns, 0);
	KUNIT_EXPECT_LE(test, r.min_ns, r.median_ns);
	KUNIT_EXPECT_LE(test, r.median_ns, r.max_ns);
	KUNIT_EXPECT_LE(test, r.min_ns, r.mean_ns);
	KUNIT_EXPECT_LE(test, r.mean_ns, r.max_ns);
	KUNIT_EXPECT_LE(test, r.stddev_ns, r.max_ns - r.min_ns);
	KUNIT_EXPECT_EQ(test, bench_measure(&r, 0, spin_body, &s, NULL), -1);
	KUNIT_EXPECT_EQ(test, bench_measure(&r, BENCH_MAX_RUNS + 1, spin_body,
					    &s, NULL),
			-1);
}

static void bench_formatting(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, bench_gbps(1000, 100), "10.00");
	KUNIT_EXPECT_STREQ(test, bench_fixed(2, 3, 3), "0.667");
	/* Several results fit in one statement. */
	KUNIT_EXPECT_TRUE(test, strcmp(bench_fixed(1, 1, 0),
				       bench_fixed(2, 1, 0)) != 0);
}

/* Every index once per round; rounds differ; a seed repeats its order. */
static void bench_shuffle_rounds(struct kunit *test)
{
	for (u32 n = 1; n <= 12; n++) {
		u32 a[12], b[12], first[12];
		u64 st = 0x1234567 + n, again = st;
		bool differs = false;

		for (u32 round = 0; round < 8; round++) {
			u32 seen = 0;

			bench_shuffle(a, n, &st);
			bench_shuffle(b, n, &again);
			for (u32 i = 0; i < n; i++) {
				KUNIT_ASSERT_LT(test, a[i], n);
				seen |= 1u << a[i];
				KUNIT_EXPECT_EQ(test, a[i], b[i]);
			}
			KUNIT_EXPECT_EQ(test, seen, (1u << n) - 1);
			if (!round)
				memcpy(first, a, sizeof(first));
			else if (memcmp(first, a, n * sizeof(a[0])))
				differs = true;
		}
		if (n >= 3 && !differs)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "n=%u: 8 rounds in one order", n);
	}
}

/* The log of an interleaved measurement, one letter per call. */
static char trace[256];
static unsigned int trace_len;

struct traced {
	char id;
	u32 calls;
	u32 fail_after_run;	/* 1-based; 0: never */
};

static void traced_body(void *arg)
{
	struct traced *t = arg;

	t->calls++;
	if (trace_len < sizeof(trace) - 1)
		trace[trace_len++] = t->id;
}

static bool traced_after(void *arg, u32 run)
{
	struct traced *t = arg;

	return !(t->fail_after_run && run + 1 == t->fail_after_run);
}

static void bench_interleave_rounds(struct kunit *test)
{
	struct traced t[4] = { { 'a' }, { 'b' }, { 'c' }, { 'd', 0, 3 } };
	struct bench_entry e[4];
	char round0[5];
	u32 runs = 6;

	memset(trace, 0, sizeof(trace));
	trace_len = 0;
	bench_progress_reset();
	for (u32 i = 0; i < 4; i++)
		e[i] = (struct bench_entry){ .name = "t", .body = traced_body,
					     .arg = &t[i],
					     .after = traced_after };
	KUNIT_ASSERT_EQ(test, bench_interleave(e, 4, runs, 99, "test"), 0);
	/* d failed after its third run: no fourth, no statistics. */
	KUNIT_EXPECT_EQ(test, t[3].calls, 3);
	KUNIT_EXPECT_TRUE(test, e[3].failed);
	KUNIT_EXPECT_EQ(test, e[3].failed_run, 3);
	/* Rounds: each one visits every live entry once. */
	KUNIT_ASSERT_EQ(test, trace_len, 3 * 4 + 3 * 3);
	memcpy(round0, trace, 4);
	round0[4] = 0;
	for (u32 i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, t[i].calls, runs);
		KUNIT_EXPECT_FALSE(test, e[i].failed);
		KUNIT_EXPECT_EQ(test, e[i].res.runs, runs);
		/* The cold runs all come first, one per entry. */
		KUNIT_EXPECT_TRUE(test, !!strchr(round0, 'a' + (int)i));
	}
	/* Not one fixed order: six rounds of three or four. */
	{
		bool differs = false;

		for (u32 r = 1; r < 3; r++)
			if (memcmp(trace, trace + 4 * r, 4))
				differs = true;
		for (u32 r = 1; r < 3; r++)
			if (memcmp(trace + 12, trace + 12 + 3 * r, 3))
				differs = true;
		if (!differs)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "every round in the same order: %s",
				      trace);
	}
	/* Too many entries or runs. */
	KUNIT_EXPECT_EQ(test, bench_interleave(e, BENCH_MAX_ENTRIES + 1, 2, 1,
					       "test"),
			-1);
	KUNIT_EXPECT_EQ(test, bench_interleave(e, 1, 0, 1, "test"), -1);
}

/* The fastest fill is the limit, whatever kind of store it used. */
static void bench_limit_best_fill(struct kunit *test)
{
	/* cached, stosb, nt64, nt128, nt256, nt512 */
	u64 med[] = { 74, 90, 120, 100, 95, 84 };
	bool ok[] = { true, true, true, true, true, true };

	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), 0);
	med[0] = 86;
	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), 5);
	med[1] = 10;
	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), 1);
	ok[1] = false;		/* failed its checks: not a limit */
	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), 5);
	med[5] = 0;		/* nothing measured */
	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), 0);
	for (u32 i = 0; i < 6; i++)
		ok[i] = false;
	KUNIT_EXPECT_EQ(test, bench_limit_best(med, ok, 6), -1);
}

/* samples_ns= carries runs 2..N in run order: the median recomputes. */
static void bench_samples_line(struct kunit *test)
{
	static const u64 v[] = { 900, 30, 10, 50, 20, 40, 70 };
	static char buf[256];
	struct bench_result r;
	u64 back[8], n = 0, x = 0;
	bool digits = false;
	const char *p;

	bench_stats(&r, v, ARRAY_SIZE(v));
	KUNIT_EXPECT_EQ(test, r.first_ns, 900);
	KUNIT_EXPECT_EQ(test, r.median_ns, 35);
	KUNIT_ASSERT_LT(test, bench_format_samples(buf, sizeof(buf), &r),
			(int)sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, " samples_ns=30,10,50,20,40,70");
	KUNIT_ASSERT_EQ(test, memcmp(buf, " samples_ns=", 12), 0);
	for (p = buf + 12;; p++) {
		if (*p >= '0' && *p <= '9') {
			x = x * 10 + (u64)(*p - '0');
			digits = true;
			continue;
		}
		KUNIT_ASSERT_TRUE(test, digits);
		KUNIT_ASSERT_LT(test, n, 8);
		back[n++] = x;
		x = 0;
		digits = false;
		if (*p != ',')
			break;
	}
	KUNIT_EXPECT_EQ(test, n, 6);
	for (u32 i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, back[i], v[i + 1]);
	KUNIT_EXPECT_EQ(test, bench_median(back, (u32)n), r.median_ns);
	/* The input is left in run order. */
	KUNIT_EXPECT_EQ(test, v[1], 30);
	/* One run: nothing after the '='. */
	bench_stats(&r, v, 1);
	bench_format_samples(buf, sizeof(buf), &r);
	KUNIT_EXPECT_STREQ(test, buf, " samples_ns=");
	/* Cut short, it still says how long it needs. */
	bench_stats(&r, v, ARRAY_SIZE(v));
	KUNIT_EXPECT_EQ(test, bench_format_samples(buf, 8, &r),
			(int)strlen(" samples_ns=30,10,50,20,40,70"));
}

/*
 * Three processes of four runs: each process's first run stays apart, the
 * rest pool; each process keeps its median, and the line carries them.
 */
static void bench_stats_processes_blocks(struct kunit *test)
{
	static const u64 v[] = { 900, 10, 12, 11,    /* process 1 */
				 700, 20, 22, 21,    /* process 2 */
				 800, 30, 31, 32 };  /* process 3 */
	static char buf[256];
	struct bench_result r;
	u64 warm[16];

	bench_stats_processes(&r, v, 4, 3);
	KUNIT_EXPECT_EQ(test, r.runs, 4);
	KUNIT_EXPECT_EQ(test, r.processes, 3);
	/* The median of the three cold runs. */
	KUNIT_EXPECT_EQ(test, r.first_ns, 800);
	KUNIT_EXPECT_EQ(test, r.min_ns, 10);
	KUNIT_EXPECT_EQ(test, r.max_ns, 32);
	KUNIT_EXPECT_EQ(test, r.median_ns, 21);
	KUNIT_EXPECT_EQ(test, r.mean_ns, 21);
	KUNIT_EXPECT_EQ(test, r.proc_median_ns[0], 11);
	KUNIT_EXPECT_EQ(test, r.proc_median_ns[1], 21);
	KUNIT_EXPECT_EQ(test, r.proc_median_ns[2], 31);
	/* (31 - 11) / 21 */
	KUNIT_EXPECT_EQ(test, bench_process_spread(&r), 952380);
	KUNIT_EXPECT_EQ(test, bench_warm_samples(&r, warm), 9);
	KUNIT_EXPECT_EQ(test, warm[3], 20);
	KUNIT_EXPECT_EQ(test, warm[8], 32);
	bench_format_processes(buf, sizeof(buf), &r);
	KUNIT_EXPECT_STREQ(test, buf,
			   " processes=3 proc_medians_ns=11,21,31 "
			   "proc_spread=0.952");
	bench_format_samples(buf, sizeof(buf), &r);
	KUNIT_EXPECT_STREQ(test, buf,
			   " samples_ns=10,12,11,20,22,21,30,31,32");
	/* One process: the line says so, and nothing more. */
	bench_stats(&r, v, 4);
	KUNIT_EXPECT_EQ(test, r.processes, 1);
	KUNIT_EXPECT_EQ(test, bench_process_spread(&r), 0);
	bench_format_processes(buf, sizeof(buf), &r);
	KUNIT_EXPECT_STREQ(test, buf, " processes=1");
}

/*
 * A chain of dependent register adds: each needs the one before, so no
 * CPU retires them faster than one a cycle. @loops iterations run at
 * least 8 * @loops cycles.
 */
struct add_chain {
	u64 loops;
	u64 sum;
};

static void add_chain_body(void *arg)
{
	struct add_chain *c = arg;
	u64 x = c->sum, n = c->loops, one = 1;

	asm volatile("1:\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "add %[one], %[x]\n\t"
		     "dec %[n]\n\t"
		     "jnz 1b"
		     : [x] "+r"(x), [n] "+r"(n)
		     : [one] "r"(one)
		     : "cc");
	c->sum = x;
}

#define CHAIN_LOOPS 500000ull	/* 4 M cycles: about 1 ms at 4 GHz */
#define CHAIN_RUNS 7

/*
 * eff_mhz is either measured or absent. Where the platform has no
 * effective-frequency clock (TCG, a VM without a PMU, perf forbidden)
 * bench_measure() must leave it 0, and metric lines leave the key out.
 * Where it has one, the figure must agree with the add chain: at least
 * the chain's rate over all runs (it cannot run faster than one add a
 * cycle), and not far above its rate in the fastest run (the chain is
 * about 8 cycles an iteration, so that rate is close to the clock).
 */
static void bench_eff_mhz_measured_or_absent(struct kunit *test)
{
	struct add_chain c = { .loops = CHAIN_LOOPS };
	const char *how = "none";
	struct bench_result r;
	u64 cyc, ns, lower, best;
	bool have = !plat_read_active_clock(&cyc, &ns, &how);

	KUNIT_ASSERT_EQ(test, bench_measure(&r, CHAIN_RUNS, add_chain_body, &c,
					    NULL),
			0);
	KUNIT_EXPECT_EQ(test, c.sum, 8 * CHAIN_LOOPS * CHAIN_RUNS);
	if (!have) {
		KUNIT_EXPECT_EQ(test, r.eff_mhz, 0);
		KUNIT_EXPECT_STREQ(test, bench_eff_mhz_key(&r), "");
		kunit_info(test, "no effective-frequency clock on this %s: "
				 "eff_mhz left out of metric lines",
			   plat_name());
		return;
	}
	KUNIT_ASSERT_GT(test, r.total_ns, 0);
	KUNIT_ASSERT_GT(test, r.min_ns, 0);
	/* MHz = cycles per µs */
	lower = 8 * CHAIN_LOOPS * CHAIN_RUNS * 1000 / r.total_ns;
	best = 8 * CHAIN_LOOPS * 1000 / r.min_ns;
	kunit_info(test, "eff_mhz=%llu (%s) add chain: %llu MHz over all runs, "
			 "%llu MHz in the fastest",
		   r.eff_mhz, how, lower, best);
	KUNIT_EXPECT_GT(test, r.eff_mhz, 0);
	/* 20% below for the cycles outside the timed runs and preemption */
	KUNIT_EXPECT_GE(test, r.eff_mhz * 10, lower * 8);
	KUNIT_EXPECT_LE(test, r.eff_mhz * 2, best * 3);
	KUNIT_EXPECT_LE(test, r.eff_mhz, 10000);
}

static void bench_eff_mhz_math(struct kunit *test)
{
	struct bench_result r = { .eff_mhz = 0 };

	KUNIT_EXPECT_EQ(test, bench_active_mhz(100, 50, 3100, 1050), 3000);
	KUNIT_EXPECT_EQ(test, bench_active_mhz(0, 0, 2400000, 1000000), 2400);
	/* counters that did not move, or went back, measured nothing */
	KUNIT_EXPECT_EQ(test, bench_active_mhz(5, 5, 5, 1005), 0);
	KUNIT_EXPECT_EQ(test, bench_active_mhz(5, 5, 1005, 5), 0);
	KUNIT_EXPECT_EQ(test, bench_active_mhz(9, 0, 5, 1000), 0);
	/* no overflow for hours of cycles */
	KUNIT_EXPECT_EQ(test, bench_active_mhz(0, 0, 36000000000000ull,
					       10000000000000ull),
			3600);
	KUNIT_EXPECT_STREQ(test, bench_eff_mhz_key(&r), "");
	r.eff_mhz = 2401;
	KUNIT_EXPECT_STREQ(test, bench_eff_mhz_key(&r), "eff_mhz=2401 ");
}

static const struct kunit_case bench_core_cases[] = {
	KUNIT_CASE(int_sqrt_exact),
	KUNIT_CASE(bench_median_odd_even),
	KUNIT_CASE(bench_measure_stats),
	KUNIT_CASE(bench_formatting),
	KUNIT_CASE(bench_shuffle_rounds),
	KUNIT_CASE(bench_interleave_rounds),
	KUNIT_CASE(bench_limit_best_fill),
	KUNIT_CASE(bench_samples_line),
	KUNIT_CASE(bench_stats_processes_blocks),
	KUNIT_CASE(bench_eff_mhz_math),
	KUNIT_CASE(bench_eff_mhz_measured_or_absent),
};

KUNIT_SUITE_DEFINE(bench_core_suite, "bench_core", bench_core_cases);
