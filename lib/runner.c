// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's sequence, for both programs. Each line is printed the moment
 * what it says exists: the plan before the header where the platform asks
 * for it, every case's result as it ends (lib/kunit.c), the summary last.
 */
#include "lib/runner.h"
#include "arch/x86/cpu.h"
#include "lib/build_info.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/relaxations.h"
#include "lib/report_count.h"
#include "lib/run_context.h"
#include "lib/scale.h"
#include "version.h"

static struct kunit_totals totals;
/* Worker processes that ran before this one, and how many failed. */
static unsigned int nr_workers, workers_failed;

/* suite= and strategy= select something; else why not, in @why. */
static bool selection_valid(const struct runner_platform *p, char *why,
			    size_t len)
{
	const char *bad = NULL;

	if (!kunit_filter_matches_any(opt_suite, &bad)) {
		if (kunit_word_checking_only(bad))
			ntb_snprintf(why, len, "suite=%s: '%s' runs only in %s",
				     opt_suite, bad, p->checking_build);
		else
			ntb_snprintf(why, len,
				     "suite=%s: no suite matches '%s'",
				     opt_suite, bad);
		return false;
	}
	return kunit_strategies_valid(opt_suite, opt_strategy, why, len);
}

static void list_all(void)
{
	kunit_list_suites();
	options_print_help();
}

static void print_plan(void)
{
	kprintf("1..%u\n", opt_list ? 0 : kunit_count_selected(opt_suite));
	kunit_print_left_out();
}

static void print_header(const struct runner_platform *p,
			 const struct runner_header *h)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	char set[512];

	kprintf("# ntboot %s%s%s cpu=\"%s\" vendor=%s family=%u model=%u "
		"stepping=%u ucode=%s tsc_khz=%llu tsc_source=%s%s%s smp=%u",
		NTB_VERSION, p->platform ? " platform=" : "",
		p->platform ? p->platform : "", c->brand, c->vendor, c->family,
		c->model, c->stepping, h->ucode, (unsigned long long)h->tsc_khz,
		h->tsc_source, h->eff_clock ? " eff_clock=" : "",
		h->eff_clock ? h->eff_clock : "", h->smp);
	p->header_words();
	kprintf("%s%s\n", opt_runs_id[0] ? " runs_id=" : "", opt_runs_id);
	build_info_print();
	if (p->header_lines)
		p->header_lines();
	/* set=: what the run was asked, from every source, for a history. */
	kprintf("# options");
	p->options_words();
	options_format_set(set, sizeof(set));
	kprintf(" set=\"%s\"\n", set);
}

/*
 * A KTAP document begun (plan_first) ends with its plan, empty; the suites
 * listed where @list (a selection of nothing), then the platform's refusal.
 */
static void __noreturn refuse(const struct runner_platform *p, const char *why,
			      bool list)
{
	if (p->plan_first)
		kprintf("1..0\n");
	if (list)
		kunit_list_suites();
	p->refuse(why);
}

/* The run's last lines. Returns whether anything failed. */
static bool finish(void)
{
	relaxation_print();
	report_count_print();
	if (workers_failed)
		kprintf("# processes: %u of %u workers failed (their lines "
			"are above)\n",
			workers_failed, nr_workers);
	kprintf("ntboot: %u passed, %u failed, %u skipped\n", totals.passed,
		totals.failed, totals.skipped);
	return totals.failed || workers_failed;
}

bool runner_run(const struct runner_platform *p, const char *options_error)
{
	struct runner_header h = {.ucode = "unknown"};
	/* suite= holds up to 255 bytes: room for the word it names. */
	char why[320];

	if (p->plan_first) {
		kprintf("KTAP version 1\n");
		if (p->early_notes)
			p->early_notes();
	}
	if (options_error)
		refuse(p, options_error, false);
	if (!selection_valid(p, why, sizeof(why)))
		refuse(p, why, true);
	if (opt_list && p->list_alone) {
		list_all();
		return false;
	}
	if (p->plan_first)
		print_plan();
	p->bring_up(&h);
	if (!p->plan_first) {
		kprintf("KTAP version 1\n");
		print_plan();
	}
	print_header(p, &h);
	/* The sanitizer build, an emulated CPU: smaller benchmarks. */
	options_scale_for_platform();

	if (opt_list) {
		list_all();
		return finish();
	}
	/* Several processes: the workers measure first, this one last. */
	if (p->run_workers)
		workers_failed = p->run_workers(&nr_workers);
	kunit_run_selected(opt_suite, 1, &totals);
	return finish();
}

void runner_bail_out(const char *reason)
{
	kprintf("Bail out! %s\n", reason);
	totals.failed++;
	finish();
}

const struct kunit_totals *runner_totals(void)
{
	return &totals;
}
