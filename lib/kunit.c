// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite runner: walks the "ntb_suites" section and prints KTAP version 1
 * (Documentation/dev-tools/ktap.rst). Every result line is written the
 * moment the case ends, so a log cut short by a crash still holds all that
 * ran before it.
 */
#include "lib/kunit.h"
#include "lib/glob.h"
#include "lib/ntcheck.h"
#include "lib/printf.h"
#include "lib/options.h"
#include "lib/string.h"
#include "include/platform.h"
#include "lib/timing.h"

extern const struct kunit_suite *const __start_ntb_suites[];
extern const struct kunit_suite *const __stop_ntb_suites[];

DEFINE_OPTION_STRING(suite, 256, NULL,
		     "suites to run: comma-separated globs (memcpy*,memmap*)");
DEFINE_OPTION_STRING(strategy, 256, NULL,
		     "copy strategies to benchmark (globs)");
DEFINE_OPTION_BOOL(list, false, "list the suites and stop (on/off)");

static struct kunit *current_test;
static bool in_suite;

static char failed_names[KUNIT_MAX_FAILED_NAMES][64];
static const char *failed_name_ptrs[KUNIT_MAX_FAILED_NAMES];
static unsigned int nr_failed_names;

unsigned int kunit_nr_failed_names(void)
{
	return nr_failed_names;
}

const char *const *kunit_failed_names(void)
{
	return failed_name_ptrs;
}

static void remember_failure(const char *suite, const char *name)
{
	if (nr_failed_names == KUNIT_MAX_FAILED_NAMES)
		return;
	ntb_snprintf(failed_names[nr_failed_names], sizeof(failed_names[0]),
		     "%s.%s", suite, name);
	failed_name_ptrs[nr_failed_names] = failed_names[nr_failed_names];
	nr_failed_names++;
}

#define KUNIT_MAX_ALLOCS 32
static struct {
	void *ptr;
	size_t size;
} case_allocs[KUNIT_MAX_ALLOCS];
static unsigned int nr_case_allocs;

#define for_each_suite(s)                                               \
	for (const struct kunit_suite *const *__p = __start_ntb_suites; \
	     __p < __stop_ntb_suites && ((s) = *__p, 1); __p++)

static const struct kunit_suite *current_suite;
bool kunit_timed_only;

struct kunit *kunit_current(void)
{
	return current_test;
}

bool kunit_current_suite_timed(void)
{
	return current_test && current_suite &&
	       (current_suite->flags & KUNIT_SUITE_TIMED);
}

bool kunit_suite_in_image(const struct kunit_suite *suite)
{
	return !(suite->flags & KUNIT_SUITE_CHECKING_ONLY) || ntcheck_built();
}

bool kunit_suite_selected(const struct kunit_suite *suite, const char *filter)
{
	return kunit_suite_in_image(suite) &&
	       (!kunit_timed_only ||
		((suite->flags & KUNIT_SUITE_TIMED) &&
		 !(suite->flags & KUNIT_SUITE_ONE_PROCESS))) &&
	       glob_list_match(filter, suite->name);
}

void kunit_print_left_out(void)
{
	const struct kunit_suite *s;
	unsigned int n = 0;

	for_each_suite (s) {
		if (kunit_suite_in_image(s))
			continue;
		kprintf("%s%s", n++ ? "," : "# checking image only: ", s->name);
	}
	if (n)
		kprintf(" (they test the ordering checker, which this image is "
			"built without: make ntcheck-image runs them)\n");
}

static size_t word_len(const char *word)
{
	size_t n = 0;

	while (word[n] && word[n] != ',')
		n++;
	return n;
}

bool kunit_word_checking_only(const char *word)
{
	const struct kunit_suite *s;
	size_t n = word_len(word);
	bool hidden = false;

	for_each_suite (s) {
		if (!glob_match_n(word, n, s->name))
			continue;
		if (kunit_suite_in_image(s))
			return false;
		hidden = true;
	}
	return hidden;
}

unsigned int kunit_count_selected(const char *filter)
{
	const struct kunit_suite *s;
	unsigned int n = 0;

	for_each_suite (s)
		if (kunit_suite_selected(s, filter))
			n++;
	return n;
}

void kunit_list_suites(void)
{
	const struct kunit_suite *s;

	for_each_suite (s) {
		const char *name;

		if (!kunit_suite_in_image(s))
			continue;
		kprintf("# suite %s cases=%zu%s", s->name, s->num_cases,
			(s->flags & KUNIT_SUITE_IMAGE_ONLY) ? " image_only"
							    : "");
		for (unsigned int i = 0;
		     s->strategy_name && (name = s->strategy_name(i)); i++)
			kprintf("%s%s", i ? "," : " strategies=", name);
		kprintf("\n");
	}
}

bool kunit_filter_matches_any(const char *filter, const char **bad_word)
{
	const char *p = filter;

	if (!filter || !*filter)
		return true;
	/* Every word of the list must select something: typos are errors. */
	while (*p) {
		const char *end = p;
		const struct kunit_suite *s;
		bool any = false;

		while (*end && *end != ',')
			end++;
		if (end - p == 3 && !strncmp(p, "all", 3))
			any = true;
		for_each_suite (s)
			if (kunit_suite_in_image(s) &&
			    glob_match_n(p, end - p, s->name))
				any = true;
		if (!any) {
			if (bad_word)
				*bad_word = p;
			return false;
		}
		p = *end ? end + 1 : end;
	}
	return true;
}

static bool suite_has_strategy(const struct kunit_suite *s, const char *glob,
			       size_t len)
{
	const char *name;

	for (unsigned int i = 0; (name = s->strategy_name(i)); i++)
		if (glob_match_n(glob, len, name))
			return true;
	return false;
}

bool kunit_strategies_valid(const char *filter, const char *strategies,
			    char *why, size_t len)
{
	const struct kunit_suite *s;
	const char *p = strategies;
	bool takes = false;

	if (!strategies || !*strategies)
		return true;
	for_each_suite (s)
		if (s->strategy_name && kunit_suite_selected(s, filter))
			takes = true;
	if (!takes) {
		ntb_snprintf(why, len,
			     "strategy=%s: no selected suite runs "
			     "strategies (the bench_* suites do)",
			     strategies);
		return false;
	}
	while (*p) {
		const char *end = p;
		bool any = false;

		while (*end && *end != ',')
			end++;
		for_each_suite (s)
			if (s->strategy_name &&
			    kunit_suite_selected(s, filter) &&
			    suite_has_strategy(s, p, end - p))
				any = true;
		if (!any) {
			ntb_snprintf(why, len,
				     "strategy=%s: '%.*s' names no "
				     "strategy of the selected suites (list=on "
				     "lists them)",
				     strategies, (int)(end - p), p);
			return false;
		}
		p = *end ? end + 1 : end;
	}
	return true;
}

/* Does the CPU have what the suite executes? Else why not, in @reason. */
static bool suite_cpu_ok(const struct kunit_suite *s, char *reason, size_t len)
{
	for (int f = 0; f < X86_NR_FEATURES; f++) {
		if ((s->cpu_needs & (1ull << f)) &&
		    !boot_cpu_has((enum x86_feature)f)) {
			ntb_snprintf(reason, len,
				     "the CPU reports no %s, which "
				     "this suite executes%s",
				     x86_feature_name((enum x86_feature)f),
				     f == X86_FEATURE_SSE2
					     ? " (every x86-64 CPU has it: "
					       "check the CPU model)"
					     : "");
			return false;
		}
	}
	return true;
}

/* The suite's strategies that strategy= leaves: none means a skip. */
static bool suite_strategies_selected(const struct kunit_suite *s, char *reason,
				      size_t len)
{
	const char *name;

	if (!s->strategy_name || !opt_strategy[0])
		return true;
	if (s->strategies_always && s->strategies_always())
		return true;
	for (unsigned int i = 0; (name = s->strategy_name(i)); i++)
		if (glob_list_match(opt_strategy, name))
			return true;
	ntb_snprintf(reason, len,
		     "strategy=%s selects none of its strategies "
		     "(list=on lists them)",
		     opt_strategy);
	return false;
}

void *kunit_kzalloc(struct kunit *test, size_t size)
{
	void *p;

	if (nr_case_allocs >= KUNIT_MAX_ALLOCS) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "too many kunit_kzalloc() in one case");
		return NULL;
	}
	p = plat_alloc_aligned(size, 64);
	if (!p)
		return NULL;
	memset(p, 0, size);
	case_allocs[nr_case_allocs].ptr = p;
	case_allocs[nr_case_allocs].size = size;
	nr_case_allocs++;
	return p;
}

static void kunit_release_allocs(void)
{
	while (nr_case_allocs) {
		nr_case_allocs--;
		plat_free(case_allocs[nr_case_allocs].ptr,
			  case_allocs[nr_case_allocs].size);
	}
}

void kunit_fail_at(struct kunit *test, const char *file, int line,
		   const char *fmt, ...)
{
	char msg[800];
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A scratch test keeps its first failure for the case to read. */
	if (test->quiet && test->status != KUNIT_FAILURE)
		ntb_snprintf(test->status_comment, sizeof(test->status_comment),
			     "%s", msg);
	test->status = KUNIT_FAILURE;
	if (test->quiet)
		return;
	kprintf("    # %s: EXPECTATION FAILED at %s:%d\n    # %s\n", test->name,
		file, line, msg);
}

void kunit_abort(struct kunit *test)
{
	ntb_longjmp(test->abort_jmp, 1);
}

void kunit_info(struct kunit *test, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kprintf("    # %s: %s\n", test->name, msg);
}

void kunit_diag(const char *fmt, ...)
{
	va_list ap;

	/* vkprintf() never cuts a line, however long */
	kprintf("%s", current_test ? "    " : in_suite ? "  " : "");
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
}

void kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(test->status_comment, sizeof(test->status_comment), fmt,
		      ap);
	va_end(ap);
	if (test->status != KUNIT_FAILURE)
		test->status = KUNIT_SKIPPED;
}

bool kunit_streq_check(struct kunit *test, const char *file, int line,
		       const char *ls, const char *rs, const char *l,
		       const char *r)
{
	if (l && r && !strcmp(l, r))
		return true;
	kunit_fail_at(test, file, line,
		      "Expected %s == %s, but \"%s\" != \"%s\"", ls, rs,
		      l ? l : "(null)", r ? r : "(null)");
	return false;
}

bool kunit_memeq_check(struct kunit *test, const char *file, int line,
		       const char *ls, const char *rs, const void *l,
		       const void *r, size_t len)
{
	const u8 *a = l, *b = r;

	for (size_t i = 0; i < len; i++) {
		if (a[i] != b[i]) {
			kunit_fail_at(
				test, file, line,
				"Expected %s == %s over %zu bytes, first "
				"difference at offset %zu: 0x%02x != 0x%02x",
				ls, rs, len, i, a[i], b[i]);
			return false;
		}
	}
	return true;
}

void kunit_fault(int vector, const char *name)
{
	struct kunit *test = current_test;

	if (!test)
		return;
	if (test->fault_expected >= 0) {
		test->fault_caught = vector;
		test->fault_expected = -1;
		ntb_longjmp(test->fault_jmp, 1);
	}
	test->status = KUNIT_FAILURE;
	kprintf("    # %s: unexpected CPU exception %s (vector %d); case aborted\n",
		test->name, name, vector);
	ntb_longjmp(test->abort_jmp, 1);
}

static const char *status_word(enum kunit_status s)
{
	return s == KUNIT_FAILURE ? "not ok" : "ok";
}

/* One kprintf: a result line must not be split by another CPU's line. */
static void print_result(int indent, unsigned int index, const char *name,
			 enum kunit_status status, const char *comment)
{
	if (status == KUNIT_SKIPPED)
		kprintf("%*sok %u %s # SKIP %s\n", indent, "", index, name,
			comment && *comment ? comment : "no reason given");
	else
		kprintf("%*s%s %u %s\n", indent, "", status_word(status), index,
			name);
}

/*
 * The jump target lives in its own frame so that nothing of the caller's
 * is clobbered by the longjmp of a failed assertion or a fault.
 */
static __noinline void run_case(const struct kunit_suite *suite,
				const struct kunit_case *c, struct kunit *test)
{
	plat_watchdog_pet();
	current_test = test;
	current_suite = suite;
	ntcheck_case_begin(!(suite->flags & KUNIT_SUITE_TIMED));
	if (!ntb_setjmp(test->abort_jmp))
		c->run_case(test);
	/* The end of a case publishes: nothing may be left pending. */
	ntcheck_case_end();
	current_test = NULL;
	current_suite = NULL;
}

static enum kunit_status run_suite(const struct kunit_suite *suite,
				   struct kunit_totals *t, char *reason,
				   size_t reason_len)
{
	unsigned int pass = 0, fail = 0, skip = 0;
	bool skip_all = false;

	kprintf("  KTAP version 1\n  # Subtest: %s\n", suite->name);
	in_suite = true;
	kprintf("  1..%zu\n", suite->num_cases);

	if ((suite->flags & KUNIT_SUITE_IMAGE_ONLY) &&
	    !strcmp(plat_name(), "host")) {
		skip_all = true;
		ntb_snprintf(reason, reason_len, "needs the bare-metal image");
	} else if ((suite->flags & KUNIT_SUITE_HOST_ONLY) &&
		   strcmp(plat_name(), "host")) {
		skip_all = true;
		ntb_snprintf(reason, reason_len, "host only");
	} else if (!suite_cpu_ok(suite, reason, reason_len)) {
		skip_all = true;
	} else if (!suite_strategies_selected(suite, reason, reason_len)) {
		skip_all = true;
	} else if ((suite->flags & KUNIT_SUITE_PARSES_OPTIONS) &&
		   options_stash(reason, reason_len)) {
		skip_all = true;
	} else if (suite->suite_init &&
		   suite->suite_init((struct kunit_suite *)suite, reason,
				     reason_len)) {
		skip_all = true;
	}

	for (size_t i = 0; i < suite->num_cases; i++) {
		const struct kunit_case *c = &suite->test_cases[i];
		struct kunit test = {.name = c->name,
				     .status = KUNIT_SUCCESS,
				     .fault_expected = -1,
				     .fault_caught = -1};
		u64 t0, t1;

		if (skip_all) {
			print_result(2, i + 1, c->name, KUNIT_SKIPPED, reason);
			skip++;
			continue;
		}
		t0 = rdtsc_ordered();
		run_case(suite, c, &test);
		t1 = rdtsc_ordered();
		kunit_release_allocs();
		kprintf("    # %s: duration_us=%llu\n", c->name,
			(unsigned long long)cycles_to_ns(t1 - t0) / 1000);
		print_result(2, i + 1, c->name, test.status,
			     test.status_comment);
		if (test.status == KUNIT_FAILURE) {
			fail++;
			remember_failure(suite->name, c->name);
		} else if (test.status == KUNIT_SKIPPED) {
			if (!skip++)
				ntb_snprintf(reason, reason_len, "%s",
					     test.status_comment);
		} else
			pass++;
	}
	if (suite->suite_exit && !skip_all)
		suite->suite_exit((struct kunit_suite *)suite);
	/* The run's own options back, whatever the suite parsed. */
	if (suite->flags & KUNIT_SUITE_PARSES_OPTIONS)
		options_unstash();

	kprintf("  # %s: pass:%u fail:%u skip:%u total:%zu\n", suite->name,
		pass, fail, skip, suite->num_cases);
	in_suite = false;
	t->passed += pass;
	t->failed += fail;
	t->skipped += skip;
	if (fail)
		return KUNIT_FAILURE;
	/* All skipped: the suite's reason is its first case's. */
	if (skip == suite->num_cases)
		return KUNIT_SKIPPED;
	return KUNIT_SUCCESS;
}

unsigned int kunit_run_selected(const char *filter, unsigned int first_index,
				struct kunit_totals *totals)
{
	const struct kunit_suite *s;
	unsigned int index = first_index;

	ntcheck_init();
	for_each_suite (s) {
		enum kunit_status st;
		char reason[128] = "";

		if (!kunit_suite_selected(s, filter))
			continue;
		st = run_suite(s, totals, reason, sizeof(reason));
		print_result(0, index, s->name, st, reason);
		index++;
	}
	return index;
}
