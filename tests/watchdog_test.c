// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hang watchdog ends a case stuck in a loop with interrupts off. The
 * test hangs on purpose inside a scratch expectation and checks that the
 * NMI came. It needs the image and two CPUs; it sets a short timeout for
 * itself and puts the run's back afterwards, so every boot with two CPUs
 * proves the watchdog in seconds.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/machine_options.h"

#define TRAP_NMI 2
/* Long enough that no case between two heartbeats comes near it. */
#define TEST_WATCHDOG_S 2

static void spin_forever(void)
{
	for (;;)
		asm volatile("pause" ::: "memory");
}

static void watchdog_ends_a_hang(struct kunit *test)
{
	u32 old;

	if (!plat_can_catch_faults())
		kunit_skip(test, "needs the bare-metal image");
	if (plat_cpu_count() < 2)
		kunit_skip(test, "the watchdog needs a second CPU");
	if (!opt_watchdog)
		kunit_skip(test, "watchdog=off");
	old = plat_watchdog_set_timeout(TEST_WATCHDOG_S);
	if (!old)
		kunit_skip(test, "no watchdog runs (see the # watchdog line)");
	KUNIT_EXPECT_FAULT(test, TRAP_NMI, spin_forever());
	plat_watchdog_set_timeout(old);
}

static const struct kunit_case watchdog_cases[] = {
	KUNIT_CASE(watchdog_ends_a_hang),
};

KUNIT_SUITE_DEFINE(watchdog_suite, "watchdog", watchdog_cases);
