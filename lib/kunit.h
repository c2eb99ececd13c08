/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small test framework shaped like the kernel's KUnit, so a kernel
 * developer reads the tests without a manual. Suites are declared where they
 * are written (a pointer in the "ntb_suites" linker section); the runner
 * walks the section and prints KTAP version 1 on the platform console.
 */
#ifndef NTBOOT_LIB_KUNIT_H
#define NTBOOT_LIB_KUNIT_H

#include "arch/x86/cpu.h"
#include "include/compiler.h"
#include "include/types.h"
#include "lib/jump.h"

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	const char *name;
	enum kunit_status status;
	char status_comment[128];
	/* Where a failed assertion or a skip jumps to. */
	ntb_jmp_buf abort_jmp;
	/* KUNIT_EXPECT_FAULT: vector we wait for, and the one that came. */
	ntb_jmp_buf fault_jmp;
	int fault_expected;
	int fault_caught;
	/*
	 * A scratch test inside a case: failures are recorded, not printed
	 * (the first one's message in status_comment).
	 */
	bool quiet;
	void *priv;
};

struct kunit_case {
	const char *name;
	void (*run_case)(struct kunit *test);
};

#define KUNIT_CASE(fn) { .name = #fn, .run_case = fn }

/* Suite flags */
#define KUNIT_SUITE_IMAGE_ONLY 0x1 /* needs bare metal: skipped when hosted */
#define KUNIT_SUITE_HOST_ONLY 0x2
/*
 * Benchmarks: timed loops run with the non-temporal store checker
 * (lib/ntcheck.h) off in a checking build; every other suite runs with it.
 */
#define KUNIT_SUITE_TIMED 0x4
/*
 * The suite parses options into the run's variables: the runner sets the
 * run's own aside before it and puts them back after (options_stash()).
 */
#define KUNIT_SUITE_PARSES_OPTIONS 0x8
/*
 * The suite tests the ordering checker itself: only the checking image
 * (make ntcheck-image) has it. A plain image does not list, count or run
 * it (its first lines name such suites), rather than report skips a
 * first run cannot act on.
 */
#define KUNIT_SUITE_CHECKING_ONLY 0x10

/*
 * A timed suite that measures with bench_measure(), not in interleaved
 * rounds: its samples stay in the process that took them, so the hosted
 * runner's worker processes do not run it (host/processes.c).
 */
#define KUNIT_SUITE_ONE_PROCESS 0x20

struct kunit_suite {
	const char *name;
	const struct kunit_case *test_cases;
	size_t num_cases;
	unsigned int flags;
	/* Optional; a non-zero return skips the whole suite with its reason. */
	int (*suite_init)(struct kunit_suite *suite, char *reason, size_t len);
	void (*suite_exit)(struct kunit_suite *suite);
	/*
	 * Suites that run strategies (strategy=): the i-th name it knows,
	 * NULL past the last. A strategy= glob must match a name of some
	 * selected suite; a suite none of whose names match is skipped.
	 */
	const char *(*strategy_name)(unsigned int i);
	/*
	 * Optional: how many of those names run whatever strategy= says
	 * (bench_memmap_init's kernel_patch= contenders): with any, the
	 * suite is not skipped for a strategy= that names none of them.
	 */
	unsigned int (*strategies_always)(void);
	/*
	 * CPU features (1 << enum x86_feature) the suite's own code executes
	 * unconditionally: without one the suite is skipped, naming it.
	 */
	u64 cpu_needs;
};

/* kunit_suite.cpu_needs of a suite built on MOVNTI, LFENCE or MFENCE. */
#define KUNIT_NEEDS_SSE2 (1ull << X86_FEATURE_SSE2)

#define kunit_test_suite(s)                                                  \
	static const struct kunit_suite *const __kunit_suite_ptr_##s          \
		__used __section("ntb_suites") __aligned(8) = &(s)

#define KUNIT_SUITE_DEFINE(var, sname, cases, ...)                           \
	static const struct kunit_suite var = { .name = sname,               \
						.test_cases = cases,         \
						.num_cases = ARRAY_SIZE(cases), \
						__VA_ARGS__ };               \
	kunit_test_suite(var)

struct kunit_totals {
	unsigned int passed;
	unsigned int failed;
	unsigned int skipped;
};

/*
 * The runner's options: suite= (comma-separated globs; "" = all),
 * strategy= (globs of the strategies to run; "" = all) and list=on
 * (list suites and options, run nothing).
 */
extern char opt_suite[];
extern char opt_strategy[];
extern bool opt_list;

/*
 * Suite selection: a comma-separated list of globs ("memcpy*,memmap*");
 * NULL or "" or "all" selects everything.
 */
bool kunit_suite_selected(const struct kunit_suite *suite, const char *filter);
unsigned int kunit_count_selected(const char *filter);
/* Names of selectable suites, for error messages and --list. */
void kunit_list_suites(void);
/* Does @filter name at least one suite? Used to reject typos. */
bool kunit_filter_matches_any(const char *filter, const char **bad_word);

/* Whether @suite is in this image (not checking-only in a plain one). */
bool kunit_suite_in_image(const struct kunit_suite *suite);

/*
 * "# checking image only: ..." naming the suites this image leaves out,
 * or nothing when it leaves none out.
 */
void kunit_print_left_out(void);

/* Whether @word (up to a comma) names only checking-only suites here. */
bool kunit_word_checking_only(const char *word);

/*
 * Does every glob of @strategies (strategy=) name a strategy of a suite
 * that @filter selects? False, with the reason in @why, for a typo or for
 * strategies that no selected suite runs: an option that selects nothing
 * is an error, not an empty pass. An empty @strategies selects all.
 */
bool kunit_strategies_valid(const char *filter, const char *strategies,
			    char *why, size_t len);

/*
 * Run every selected suite as numbered subtests @first_index.. of the top
 * level plan and add the results to @totals. Returns the next free index.
 */
unsigned int kunit_run_selected(const char *filter, unsigned int first_index,
				struct kunit_totals *totals);

/*
 * The first failed cases of the run as "suite.case", for end-of-run
 * summaries (the screen console shows them).
 */
#define KUNIT_MAX_FAILED_NAMES 32
unsigned int kunit_nr_failed_names(void);
const char *const *kunit_failed_names(void);

/* The case being run now, or NULL: used by the fault handler. */
struct kunit *kunit_current(void);
/* Whether the case running now belongs to a KUNIT_SUITE_TIMED suite. */
bool kunit_current_suite_timed(void);
/*
 * Select only KUNIT_SUITE_TIMED suites that are not
 * KUNIT_SUITE_ONE_PROCESS (a worker process of the hosted runner measures
 * those and nothing else).
 */
extern bool kunit_timed_only;

/*
 * Called by the platform's fault handler after it printed the fault.
 * Does not return when a case is running: the case is marked failed (or
 * the expected fault is recorded) and the runner continues. Returns if
 * no case is running.
 */
void kunit_fault(int vector, const char *name);

void kunit_fail_at(struct kunit *test, const char *file, int line,
		   const char *fmt, ...) __printf(4, 5);
void kunit_abort(struct kunit *test) __noreturn;
void kunit_info(struct kunit *test, const char *fmt, ...) __printf(2, 3);

/*
 * A diagnostic line ("# metric ...", "# progress ...") at the indentation
 * of where the run is now: inside a case, inside a suite or at the top
 * level. KTAP readers (kunit.py) take a line at a shallower indentation as
 * the end of the subtest, so everything printed mid-suite goes through here.
 * @fmt includes the "# " and the newline.
 */
void kunit_diag(const char *fmt, ...) __printf(1, 2);
void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
	__printf(2, 3);
#define kunit_skip(test, ...)                                                \
	do {                                                                 \
		kunit_mark_skipped(test, __VA_ARGS__);                       \
		kunit_abort(test);                                           \
	} while (0)

/* Per-suite scratch memory released after each case. */
void *kunit_kzalloc(struct kunit *test, size_t size);

/*
 * Operands keep their own types, so unsigned 64-bit values compare as
 * unsigned; the message shows both as signed decimal and as hex.
 */
#define KUNIT_BINARY_CMP(test, l, op, r, assert)                              \
	do {                                                                  \
		const __typeof__(l) __l = (l);                                \
		const __typeof__(r) __r = (r);                                \
		if (!(__l op __r)) {                                          \
			kunit_fail_at(test, __FILE__, __LINE__,               \
				      "Expected %s %s %s, but %s == %lld "    \
				      "(0x%llx), %s == %lld (0x%llx)",        \
				      #l, #op, #r, #l, (long long)__l,        \
				      (unsigned long long)__l, #r,            \
				      (long long)__r,                         \
				      (unsigned long long)__r);               \
			if (assert)                                           \
				kunit_abort(test);                            \
		}                                                             \
	} while (0)

#define KUNIT_EXPECT_EQ(t, l, r) KUNIT_BINARY_CMP(t, l, ==, r, false)
#define KUNIT_EXPECT_NE(t, l, r) KUNIT_BINARY_CMP(t, l, !=, r, false)
#define KUNIT_EXPECT_LT(t, l, r) KUNIT_BINARY_CMP(t, l, <, r, false)
#define KUNIT_EXPECT_LE(t, l, r) KUNIT_BINARY_CMP(t, l, <=, r, false)
#define KUNIT_EXPECT_GT(t, l, r) KUNIT_BINARY_CMP(t, l, >, r, false)
#define KUNIT_EXPECT_GE(t, l, r) KUNIT_BINARY_CMP(t, l, >=, r, false)
#define KUNIT_ASSERT_EQ(t, l, r) KUNIT_BINARY_CMP(t, l, ==, r, true)
#define KUNIT_ASSERT_NE(t, l, r) KUNIT_BINARY_CMP(t, l, !=, r, true)
#define KUNIT_ASSERT_LT(t, l, r) KUNIT_BINARY_CMP(t, l, <, r, true)
#define KUNIT_ASSERT_LE(t, l, r) KUNIT_BINARY_CMP(t, l, <=, r, true)
#define KUNIT_ASSERT_GT(t, l, r) KUNIT_BINARY_CMP(t, l, >, r, true)
#define KUNIT_ASSERT_GE(t, l, r) KUNIT_BINARY_CMP(t, l, >=, r, true)

#define KUNIT_EXPECT_TRUE(t, c) KUNIT_BINARY_CMP(t, !!(c), ==, 1, false)
#define KUNIT_EXPECT_FALSE(t, c) KUNIT_BINARY_CMP(t, !!(c), ==, 0, false)
#define KUNIT_ASSERT_TRUE(t, c) KUNIT_BINARY_CMP(t, !!(c), ==, 1, true)
#define KUNIT_ASSERT_FALSE(t, c) KUNIT_BINARY_CMP(t, !!(c), ==, 0, true)
#define KUNIT_ASSERT_NOT_NULL(t, p) KUNIT_BINARY_CMP(t, (p) != NULL, ==, 1, true)

bool kunit_streq_check(struct kunit *test, const char *file, int line,
		       const char *ls, const char *rs, const char *l,
		       const char *r);
#define KUNIT_EXPECT_STREQ(t, l, r)                                           \
	kunit_streq_check(t, __FILE__, __LINE__, #l, #r, l, r)
#define KUNIT_ASSERT_STREQ(t, l, r)                                           \
	do {                                                                  \
		if (!KUNIT_EXPECT_STREQ(t, l, r))                             \
			kunit_abort(t);                                       \
	} while (0)

/* Byte comparison that reports the first differing offset. */
bool kunit_memeq_check(struct kunit *test, const char *file, int line,
		       const char *ls, const char *rs, const void *l,
		       const void *r, size_t len);
#define KUNIT_EXPECT_MEMEQ(t, l, r, n)                                        \
	kunit_memeq_check(t, __FILE__, __LINE__, #l, #r, l, r, n)

/*
 * Run @stmt and require that it raises CPU exception @vec (X86_TRAP_*).
 * Only where plat_can_catch_faults(); elsewhere the case is skipped.
 */
#define KUNIT_EXPECT_FAULT(t, vec, stmt)                                      \
	do {                                                                  \
		if (!ntb_setjmp((t)->fault_jmp)) {                            \
			(t)->fault_caught = -1;                               \
			(t)->fault_expected = (vec);                          \
			/* the handler must see the store before stmt */      \
			barrier();                                            \
			stmt;                                                 \
			barrier();                                            \
			(t)->fault_expected = -1;                             \
			kunit_fail_at(t, __FILE__, __LINE__,                  \
				      "Expected fault %d from '%s', none came", \
				      (vec), #stmt);                          \
		} else {                                                      \
			(t)->fault_expected = -1;                             \
			KUNIT_EXPECT_EQ(t, (t)->fault_caught, (vec));         \
		}                                                             \
	} while (0)

#endif
