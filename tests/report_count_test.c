// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's own count of its results, against what a LAVA monitor
 * records from the same lines (tools/lava/lava-check's sample): result
 * lines at any indentation, lines that only look like them, and a line
 * that reaches the console in pieces.
 */
#include "lib/kunit.h"
#include "lib/report_count.h"
#include "lib/string.h"

/* 11 lines the monitor records, and lines it must not. */
static const char sample[] =
	"KTAP version 1\n"
	"1..3\n"
	"# ntboot 0.1 cpu=\"QEMU\" smp=4\n"
	"  KTAP version 1\n"
	"  # Subtest: memcpy_flushcache\n"
	"  1..4\n"
	"    # fixed_64: duration_us=12\n"
	"  ok 1 fixed_64\n"
	"  not ok 2 unaligned_head\n"
	"  ok 3 avx512_nt # SKIP no AVX-512F\n"
	"\tok 4 ok_in_name # SKIP reason that says ok 5 x\n"
	"ok 1 memcpy_flushcache\n"
	"# metric suite=bench_memmap_init median_ns=17 samples_ns=1,2,3\n"
	"  # metric suite=limit gbps=12.5\n"
	"# metric suite=tsc tsc_khz=2000000\n"
	"# metric suite=litmus observed=12\n"
	"Bail out! a fault outside any case\n"
	"ok 2 memmap_init # SKIP bailed out\n"
	"# metrics are not a metric line\n"
	"#metric neither\n"
	"okay 3 not a result\n"
	"ok x no number\n"
	"not ok\n"
	"  # ok 7 inside a comment\n"
	"ntboot: 3 passed, 1 failed, 3 skipped\n";

static void counts_the_monitor_lines(struct kunit *test)
{
	struct report_counter rc = REPORT_COUNTER_INIT;

	report_counter_feed(&rc, sample, strlen(sample));
	KUNIT_EXPECT_EQ(test, rc.results, 11u);
}

/* Byte by byte and in uneven pieces: the same count. */
static void counts_lines_written_in_pieces(struct kunit *test)
{
	static const size_t steps[] = {1, 2, 3, 7, 61};
	size_t len = strlen(sample);

	for (size_t k = 0; k < ARRAY_SIZE(steps); k++) {
		struct report_counter rc = REPORT_COUNTER_INIT;

		for (size_t at = 0; at < len; at += steps[k])
			report_counter_feed(&rc, sample + at,
					    min(steps[k], len - at));
		KUNIT_EXPECT_EQ(test, rc.results, 11u);
	}
}

/* A metric line whose samples come in a second write, as bench prints. */
static void counts_a_line_once(struct kunit *test)
{
	struct report_counter rc = REPORT_COUNTER_INIT;

	report_counter_feed(&rc, "# metric suite=x median_ns=5", 28);
	KUNIT_EXPECT_EQ(test, rc.results, 0u);
	report_counter_feed(&rc, " samples_ns=1,2", 15);
	report_counter_feed(&rc, "\n", 1);
	KUNIT_EXPECT_EQ(test, rc.results, 1u);
	report_counter_feed(&rc, "\n\n", 2);
	KUNIT_EXPECT_EQ(test, rc.results, 1u);
}

static const struct kunit_case report_count_cases[] = {
	KUNIT_CASE(counts_the_monitor_lines),
	KUNIT_CASE(counts_lines_written_in_pieces),
	KUNIT_CASE(counts_a_line_once),
};

KUNIT_SUITE_DEFINE(report_count_suite, "report_count", report_count_cases);
