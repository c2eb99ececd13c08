// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hang watchdog ends a case stuck in a loop with interrupts off. The
 * test hangs on purpose inside a scratch expectation and checks that the
 * NMI came; it needs the image, two CPUs and a short watchdog= setting,
 * so it is skipped otherwise rather than waiting minutes.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/machine_options.h"

#define TRAP_NMI 2
/* Longer than this, and the suite would slow every boot down. */
#define MAX_TEST_WATCHDOG_S 5

static void spin_forever(void)
{
	for (;;)
		asm volatile("pause" ::: "memory");
}

static void watchdog_ends_a_hang(struct kunit *test)
{
	if (!plat_can_catch_faults())
		kunit_skip(test, "needs the bare-metal image");
	if (plat_cpu_count() < 2)
		kunit_skip(test, "the watchdog needs a second CPU");
	if (!opt_watchdog ||
	    opt_watchdog > MAX_TEST_WATCHDOG_S)
		kunit_skip(test, "hangs on purpose to prove the watchdog: "
			   "runs with watchdog=1..%d (now %s%u)",
			   MAX_TEST_WATCHDOG_S,
			   opt_watchdog ? "" : "off=",
			   opt_watchdog);
	KUNIT_EXPECT_FAULT(test, TRAP_NMI, spin_forever());
}

static const struct kunit_case watchdog_cases[] = {
	KUNIT_CASE(watchdog_ends_a_hang),
};

KUNIT_SUITE_DEFINE(watchdog_suite, "watchdog", watchdog_cases);
