// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark timing core: statistics and formatting. */
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/string.h"

static void bench_isqrt_exact(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, bench_isqrt(0), 0);
	KUNIT_EXPECT_EQ(test, bench_isqrt(1), 1);
	KUNIT_EXPECT_EQ(test, bench_isqrt(15), 3);
	KUNIT_EXPECT_EQ(test, bench_isqrt(16), 4);
	KUNIT_EXPECT_EQ(test, bench_isqrt(1000000), 1000);
	KUNIT_EXPECT_EQ(test, bench_isqrt(~0ull), 0xffffffffull);
	for (u64 v = 1; v < 100000; v += 7) {
		u64 r = bench_isqrt(v);

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

static const struct kunit_case bench_core_cases[] = {
	KUNIT_CASE(bench_isqrt_exact),
	KUNIT_CASE(bench_median_odd_even),
	KUNIT_CASE(bench_measure_stats),
	KUNIT_CASE(bench_formatting),
};

KUNIT_SUITE_DEFINE(bench_core_suite, "bench_core", bench_core_cases);
