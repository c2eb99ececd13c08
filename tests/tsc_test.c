// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSC calibration sanity: the frequency in use is plausible, a fresh
 * measurement against another hardware clock agrees with it (the image:
 * HPET or PM timer), and so does a measurement against the operating
 * system's raw clock (the hosted programs). These check consistency, not
 * speed: the tolerances are wide enough for an emulator and a loaded
 * machine.
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
		kunit_skip(test, "no second hardware clock: %s", ref);
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

/*
 * The TSC frequency in use against the operating system's raw clock, in
 * this file's own arithmetic, where that clock runs from an oscillator of
 * its own (HPET, ACPI PM timer): a calibration that is wrong (a bad
 * window, a bad scale, a drifting clock) shows here. Three windows of a
 * second, the median kept. Where the raw clock is the TSC itself
 * (clock source tsc, or a hypervisor's TSC-based clock) the comparison
 * would check the calibration against itself: skipped, saying so.
 */
#define OS_WINDOW_MS 1000

/* 0.2%: far above what a loaded machine's scheduling moves, far below a bug */
#define OS_TOLERANCE_PPM 2000

/* A TSC reading and the clock around it: the tightest of 8 pairs. */
static int os_clock_pair(u64 *tsc, u64 *ns, const char **why)
{
	u64 best = ~0ull;

	for (int i = 0; i < 8; i++) {
		u64 a, b, c;

		if (plat_os_clock_ns(&a, why))
			return -1;
		c = rdtsc_ordered();
		if (plat_os_clock_ns(&b, why))
			return -1;
		if (b - a < best) {
			best = b - a;
			*tsc = c;
			*ns = a + (b - a) / 2;
		}
	}
	return 0;
}

static void tsc_vs_os_clock(struct kunit *test)
{
	const char *why = "", *clock = "";
	u64 khz = plat_tsc_khz(), m[3], now, median, ppm;
	int independent;

	if (plat_os_clock_ns(&now, &why))
		kunit_skip(test, "%s", why);
	independent = plat_os_clock_independent(&clock);
	if (independent < 0)
		kunit_skip(test, "%s", clock);
	if (!independent)
		kunit_skip(test, "%s: no independent clock to compare with",
			   clock);
	if (!boot_cpu_has(X86_FEATURE_INVARIANT_TSC))
		kunit_skip(test, "TSC not invariant (CPUID 0x80000007 EDX bit "
				 "8 clear): its rate may follow the CPU's");
	KUNIT_ASSERT_GT(test, khz, 0);
	for (int i = 0; i < 3; i++) {
		u64 c0, t0, c1, t1;

		KUNIT_ASSERT_EQ(test, os_clock_pair(&c0, &t0, &why), 0);
		do {
			KUNIT_ASSERT_EQ(test, plat_os_clock_ns(&now, &why), 0);
		} while (now - t0 < OS_WINDOW_MS * 1000000ull);
		KUNIT_ASSERT_EQ(test, os_clock_pair(&c1, &t1, &why), 0);
		KUNIT_ASSERT_GT(test, t1, t0);
		/* kHz = cycles per ms = cycles * 10^6 / ns */
		m[i] = (u64)((unsigned __int128)(c1 - c0) * 1000000 /
			     (t1 - t0));
	}
	median = bench_median(m, 3);
	ppm = (khz > median ? khz - median : median - khz) * 1000000ull /
	      median;
	kunit_info(test, "tsc_khz=%llu os_clock_khz=%llu (%s; median of "
			 "%llu, %llu, %llu; %u ms windows) "
			 "disagreement_ppm=%llu",
		   khz, median, clock, m[0], m[1], m[2], OS_WINDOW_MS, ppm);
	KUNIT_EXPECT_LE(test, ppm, OS_TOLERANCE_PPM);
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
	KUNIT_CASE(tsc_vs_os_clock),
	KUNIT_CASE(tsc_monotonic),
	KUNIT_CASE(tsc_cycles_to_ns),
};

KUNIT_SUITE_DEFINE(tsc_suite, "tsc", tsc_cases);
