// SPDX-License-Identifier: GPL-2.0-only
/*
 * The relaxation totals and the "# relaxations" line the run ends with:
 * a forbidden outcome seen even once is counted (it is the run's failure
 * in a line a lab reads), one never seen is not. The tests sum their own
 * totals: the run's are left to the litmus and memmap_smp suites.
 */
#include "lib/kunit.h"
#include "lib/relaxations.h"

static void forbidden_outcome_observed(struct kunit *test)
{
	struct relaxation_totals t = {0};
	char line[RELAXATION_LINE_MAX];

	relaxation_add(&t, true, 12);
	relaxation_add(&t, true, 0);
	relaxation_add(&t, false, 0);
	/* once, and 2^32 times: a count is 64 bits wide */
	relaxation_add(&t, false, 1);
	relaxation_add(&t, false, 1ull << 32);
	KUNIT_EXPECT_EQ(test, t.allowed, 2u);
	KUNIT_EXPECT_EQ(test, t.allowed_observed, 1u);
	KUNIT_EXPECT_EQ(test, t.forbidden, 3u);
	KUNIT_EXPECT_EQ(test, t.forbidden_observed, 2u);
	KUNIT_EXPECT_GT(test, relaxation_format(&t, line, sizeof(line)), 0);
	KUNIT_EXPECT_STREQ(test, line,
			   "# relaxations allowed=2 observed=1 forbidden=3 "
			   "forbidden_observed=2\n");
}

static void forbidden_outcome_not_observed(struct kunit *test)
{
	struct relaxation_totals t = {0};
	char line[RELAXATION_LINE_MAX];

	relaxation_add(&t, true, 3);
	relaxation_add(&t, false, 0);
	relaxation_add(&t, false, 0);
	KUNIT_EXPECT_EQ(test, t.forbidden, 2u);
	KUNIT_EXPECT_EQ(test, t.forbidden_observed, 0u);
	relaxation_format(&t, line, sizeof(line));
	KUNIT_EXPECT_STREQ(test, line,
			   "# relaxations allowed=1 observed=1 forbidden=2 "
			   "forbidden_observed=0\n");
}

/* Nothing recorded: no line (a run without ordering tests says nothing). */
static void nothing_recorded(struct kunit *test)
{
	struct relaxation_totals t = {0};
	char line[RELAXATION_LINE_MAX] = "x";

	KUNIT_EXPECT_EQ(test, relaxation_format(&t, line, sizeof(line)), 0);
	KUNIT_EXPECT_STREQ(test, line, "");
}

/* The widest line fits the room the run prints it from. */
static void widest_line_fits(struct kunit *test)
{
	struct relaxation_totals t = {~0u, ~0u, ~0u, ~0u};
	char line[RELAXATION_LINE_MAX];

	KUNIT_EXPECT_LT(test, relaxation_format(&t, line, sizeof(line)),
			(int)sizeof(line));
}

static const struct kunit_case relaxations_cases[] = {
	KUNIT_CASE(forbidden_outcome_observed),
	KUNIT_CASE(forbidden_outcome_not_observed),
	KUNIT_CASE(nothing_recorded),
	KUNIT_CASE(widest_line_fits),
};

KUNIT_SUITE_DEFINE(relaxations_suite, "relaxations", relaxations_cases);
