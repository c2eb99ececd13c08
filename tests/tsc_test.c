// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSC calibration sanity: the frequency in use is plausible, and a fresh
 * measurement against an independent clock agrees with it. These check
 * consistency, not speed: the tolerance is wide enough for an emulator.
 */
#include "arch/x86/cpu.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/string.h"
#include "lib/timing.h"

/* 5%: generous for TCG, where vCPU scheduling jitters short windows. */
#define TOLERANCE_PPM 50000

static void tsc_khz_plausible(struct kunit *test)
{
	u64 khz = plat_tsc_khz();

	KUNIT_EXPECT_GE(test, khz, 100000);	/* 100 MHz */
	KUNIT_EXPECT_LE(test, khz, 10000000);	/* 10 GHz */
}

static void tsc_agrees_with_reference(struct kunit *test)
{
	const char *ref = "none";
	u64 khz = plat_tsc_khz(), m[3], again, diff;

	/* The median of three windows: one preempted window is not a bug. */
	for (int i = 0; i < 3; i++)
		m[i] = plat_remeasure_tsc_khz(100, &ref);
	again = bench_median(m, 3);
	if (!again)
		kunit_skip(test, "no reference clock (HPET or PM timer)");
	diff = (khz > again ? khz - again : again - khz) * 1000000ull / khz;
	kunit_info(test, "calibrated=%llu kHz remeasured=%llu kHz ref=%s diff_ppm=%llu",
		   khz, again, ref, diff);
	/*
	 * Under TCG the emulated TSC follows the host's clock while the
	 * emulated timers follow QEMU's virtual clock; on a loaded host they
	 * drift apart. That is the emulator, not the calibration.
	 */
	if (diff > TOLERANCE_PPM && cpu_is_emulated())
		kunit_skip(test, "emulated CPU: TSC and %s drift apart under "
				 "load (diff_ppm=%llu)", ref, diff);
	KUNIT_EXPECT_LE(test, diff, TOLERANCE_PPM);
}

static void tsc_monotonic(struct kunit *test)
{
	u64 prev = rdtsc_ordered();

	for (int i = 0; i < 100000; i++) {
		u64 now = rdtsc_ordered();

		if (now < prev) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "TSC went back: %llu after %llu", now,
				      prev);
			return;
		}
		prev = now;
	}
}

static void tsc_cycles_to_ns(struct kunit *test)
{
	u64 khz = plat_tsc_khz();

	/*
	 * One second's worth of cycles is 1e9 ns, whatever the frequency,
	 * within the 1 ns the 32-bit fixed-point multiplier allows.
	 */
	KUNIT_EXPECT_LE(test, cycles_to_ns(khz * 1000), 1000000001ull);
	KUNIT_EXPECT_GE(test, cycles_to_ns(khz * 1000), 999999999ull);
	KUNIT_EXPECT_EQ(test, cycles_to_ns(0), 0);
}

static const struct kunit_case tsc_cases[] = {
	KUNIT_CASE(tsc_khz_plausible),
	KUNIT_CASE(tsc_agrees_with_reference),
	KUNIT_CASE(tsc_monotonic),
	KUNIT_CASE(tsc_cycles_to_ns),
};

KUNIT_SUITE_DEFINE(tsc_suite, "tsc", tsc_cases);
