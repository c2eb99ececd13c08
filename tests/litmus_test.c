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
 *
 * The synthetic cases at the end prove that judgement can fail: bodies
 * that always produce one chosen outcome run through the same engine, and
 * each table entry's relaxed outcome must fail exactly the forbidden
 * entries.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/engines/litmus.h"
/* Generated from tests/litmus.tests by tools/tso-enum (build/gen/). */
#include "litmus_tests.h"

static void litmus_case(struct kunit *test);
static void litmus_synth_relaxed(struct kunit *test);
static void litmus_synth_other(struct kunit *test);

/* clang-format off */
#define LITMUS_CASE(nm) { .name = nm, .run_case = litmus_case },

static const struct kunit_case litmus_cases[] = {
	LITMUS_GEN_CASES(LITMUS_CASE)
	KUNIT_CASE(litmus_synth_relaxed),
	KUNIT_CASE(litmus_synth_other),
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

/*
 * Synthetic bodies: instead of a test's instructions, each thread writes
 * the values of one chosen outcome (P0 also writes the final memory
 * values), so every iteration produces that outcome. The run goes
 * through the same engine, counting and judging as a real one.
 */
#define LITMUS_SYNTH_ITERS 4

static u32 synth_want[LITMUS_MAX_SLOTS];

static void synth_body(unsigned int me, const struct litmus_test *t, u32 *x,
		       u32 *y, u32 *r)
{
	const struct litmus_shape *sh = t->shape;

	for (unsigned int s = 0; s < sh->nr_slots; s++) {
		const struct litmus_slot *sl = &sh->slot[s];

		if (sl->src == LITMUS_SRC_FINAL && me == 0)
			WRITE_ONCE(*(sl->reg ? y : x), synth_want[s]);
		else if (sl->src == me)
			r[sl->reg] = synth_want[s];
	}
}

static void synth_p0(const struct litmus_test *t, u32 *x, u32 *y, u32 *r)
{
	synth_body(0, t, x, y, r);
}

static void synth_p1(const struct litmus_test *t, u32 *x, u32 *y, u32 *r)
{
	synth_body(1, t, x, y, r);
}

/*
 * Run table entry @t with bodies that always produce @want and check the
 * verdict: the run completes, and it fails (on a scratch test, so this
 * case does not) exactly when @want_verdict is LITMUS_FORBIDDEN.
 */
static void synth_check(struct kunit *test, const struct litmus_test *t,
			const u32 *want, enum litmus_verdict want_verdict)
{
	struct kunit scratch = {.name = "synthetic", .quiet = true};
	struct litmus_config cfg = {.iters = LITMUS_SYNTH_ITERS,
				    .timed = false,
				    .hang_ms = litmus_cfg.hang_ms};
	struct litmus_shape sh = *t->shape;
	struct litmus_test st = *t;
	enum litmus_verdict got;
	char what[64];
	size_t pos = 0;

	for (unsigned int s = 0; s < sh.nr_slots; s++)
		pos += ntb_snprintf(what + pos, sizeof(what) - pos, "%s%s=%u",
				    s ? "," : "", sh.slot[s].label, want[s]);
	memcpy(synth_want, want, sizeof(synth_want));
	sh.body[0] = synth_p0;
	sh.body[1] = synth_p1;
	st.shape = &sh;
	got = litmus_run(&scratch, &st, &litmus_pairs[0], &cfg);
	if (got != want_verdict || (scratch.status == KUNIT_FAILURE) !=
					   (want_verdict == LITMUS_FORBIDDEN))
		kunit_fail_at(
			test, __FILE__, __LINE__,
			"%s with the outcome %s forced: judged %s "
			"(case %s), expected %s",
			t->name, what,
			got == LITMUS_OK	  ? "allowed"
			: got == LITMUS_FORBIDDEN ? "forbidden"
						  : "(run failed)",
			scratch.status == KUNIT_FAILURE ? "failed" : "passed",
			want_verdict == LITMUS_OK ? "allowed" : "forbidden");
}

/* Each entry's relaxed outcome fails its case exactly when forbidden. */
static void litmus_synth_relaxed(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(litmus_tests); i++) {
		const struct litmus_test *t = &litmus_tests[i];

		synth_check(test, t, t->shape->target,
			    t->relaxed_allowed ? LITMUS_OK : LITMUS_FORBIDDEN);
	}
}

/*
 * The rest of the judgement: a sequentially consistent outcome passes
 * every entry, and a value no execution writes (3 in every slot) fails
 * every entry.
 */
static void litmus_synth_other(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(litmus_tests); i++) {
		const struct litmus_test *t = &litmus_tests[i];
		unsigned int nr = t->shape->nr_slots, key = 0;
		u32 v[LITMUS_MAX_SLOTS];

		while (key < (1u << (2 * nr)) &&
		       !(t->sc[key / 32] & (1u << (key % 32))))
			key++;
		KUNIT_ASSERT_LT(test, key, 1u << (2 * nr));
		for (unsigned int s = 0; s < nr; s++)
			v[s] = (key >> (2 * s)) & 3;
		synth_check(test, t, v, LITMUS_OK);
		for (unsigned int s = 0; s < nr; s++)
			v[s] = LITMUS_VAL_MAX;
		synth_check(test, t, v, LITMUS_FORBIDDEN);
	}
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
		   .suite_init = litmus_suite_init,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
