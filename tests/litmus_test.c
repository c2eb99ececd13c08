// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite=litmus: what non-temporal stores and fences allow across CPUs.
 *
 * The tests are described once, in tests/litmus.tests: each shape's two
 * threads, what is observed, and the table that says whether the
 * reordering each test is about is allowed. tools/tso-enum derives every
 * test's allowed outcomes from an operational x86-TSO model with
 * write-combining buffers, fails the build where the table disagrees, and
 * writes build/gen/litmus_tests.h, which gives this suite its thread
 * bodies, its outcome slots and its table. docs/litmus-model.md explains
 * the model and where the Intel SDM is silent.
 *
 * The shapes (x, y start at 0; "nt" marks a MOVNTI store):
 *
 *   MP     P0: x = 1; y = 1           P1: r0 = y; r1 = x
 *          relaxed: 1:y=1, 1:x=0  (P1 sees the flag but not the data)
 *   2+2W   P0: x = 1; y = 2           P1: y = 1; x = 2
 *          relaxed: final x=1, y=1  (each thread's first store lands last)
 *   SB     P0: x = 1; r0 = y          P1: y = 1; r0 = x
 *          relaxed: 0:y=0, 1:x=0
 *   LB     P0: r0 = x; y = 1          P1: r0 = y; x = 1
 *          relaxed: 0:x=1, 1:y=1
 *   CoRR   P0: x = 1                  P1: r0 = x; r1 = x
 *          relaxed: 1:r0=1, 1:r1=0  (a newer value, then an older one)
 *   CoWW   P0: x = 1; x = 2           P1: r0 = x; r1 = x
 *          relaxed: final x != 2, or P1 reads the values backwards
 *
 * Variants: "+nt" makes each thread's first store non-temporal, "+nt2"
 * the second one, "+ntnt" both; "+sfence", "+mfence", "+lock" put that
 * fence between a thread's two accesses (LOCK: a locked add to the
 * thread's own stack, as the kernel's smp_mb()). The MP fence is on the
 * writer only: x86 does not reorder loads with loads, the reader needs
 * none. Every shape with two variables runs with x and y on separate cache
 * lines (".sep") and in one line (".same"); coherence has one variable.
 *
 * An outcome is judged against the sets of its table entry: "sc" (some
 * interleaving of the threads reaches it), "allowed" (the relaxed outcome,
 * where the table allows it) or "forbidden" (anything else: a forbidden
 * reordering or a value no execution can produce), which fails the case.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/litmus.h"
/* Generated from tests/litmus.tests by tools/tso-enum (build/gen/). */
#include "litmus_tests.h"

static void litmus_case(struct kunit *test);

/* clang-format off */
#define LITMUS_CASE(nm) { .name = nm, .run_case = litmus_case },

static const struct kunit_case litmus_cases[] = {
	LITMUS_GEN_CASES(LITMUS_CASE)
};
/* clang-format on */

/* Chosen once per suite run, read by every case. */
static struct litmus_pair litmus_pairs[LITMUS_MAX_PAIRS];
static unsigned int litmus_nr_pairs;
static struct litmus_config litmus_cfg;

static void litmus_case(struct kunit *test)
{
	const struct litmus_test *t = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(litmus_tests); i++)
		if (!strcmp(litmus_tests[i].name, test->name))
			t = &litmus_tests[i];
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (unsigned int p = 0; p < litmus_nr_pairs; p++)
		litmus_run(test, t, &litmus_pairs[p], &litmus_cfg);
}

static int litmus_suite_init(struct kunit_suite *suite, char *reason,
			     size_t len)
{
	if (plat_cpu_count() < 2) {
		ntb_snprintf(reason, len,
			     "one CPU: every litmus test needs two");
		return 1;
	}
	litmus_nr_pairs = litmus_pick_pairs(litmus_pairs, LITMUS_MAX_PAIRS);
	if (!litmus_nr_pairs) {
		ntb_snprintf(reason, len, "no two CPUs that take work");
		return 1;
	}
	litmus_config_init(&litmus_cfg,
			   (unsigned int)suite->num_cases * litmus_nr_pairs);
	return 0;
}

KUNIT_SUITE_DEFINE(litmus_suite, "litmus", litmus_cases,
		   .suite_init = litmus_suite_init);
