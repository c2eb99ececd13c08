/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One run, from its options to its summary line, written once for the
 * image (kernel/main.c) and the hosted runner (host/main.c): the checks of
 * suite= and strategy=, the KTAP plan, the header and options lines,
 * the scaling, the suites, the relaxations, the counts and the summary.
 * A platform gives the few things that really differ as hooks, each with
 * its reason; a new option or header line is added here and appears in
 * both programs.
 */
#ifndef NTBOOT_LIB_RUNNER_H
#define NTBOOT_LIB_RUNNER_H

#include "include/compiler.h"
#include "include/types.h"
#include "lib/kunit.h"

/* The first header line's words that each platform measures its own way. */
struct runner_header {
	char ucode[24];
	u64 tsc_khz;
	const char *tsc_source;
	/* Where the active clock comes from; NULL: no eff_clock= word. */
	const char *eff_clock;
	/* The CPUs the suites may use. */
	unsigned int smp;
};

struct runner_platform {
	/* "platform=" of the header (the hosted runner's "host"); NULL: none.
	 */
	const char *platform;
	/*
	 * Where a suite left out of this build runs, for the refusal that
	 * names one: "the checking image (make ntcheck-image)".
	 */
	const char *checking_build;
	/*
	 * The image prints its plan before it brings up the machine, so that
	 * a bring-up that faults is reported inside a KTAP document; the
	 * hosted runner brings up first (its worker processes, its pinned
	 * CPU) and prints nothing to a run it refuses.
	 */
	bool plan_first;
	/*
	 * list=on on the hosted runner is a shell command's answer: the list
	 * alone, before any KTAP. The image boots for it all the same and
	 * reports its header with the list.
	 */
	bool list_alone;
	/* Lines between "KTAP version 1" and the plan (plan_first only). */
	void (*early_notes)(void);
	/*
	 * A bad option or a selection of nothing: @why said the platform's
	 * way (the image's KTAP "Bail out!" after the runner's empty plan,
	 * the hosted runner's stderr and exit status 2), after the runner
	 * listed the suites for a selection of nothing. Never returns.
	 */
	void (*refuse)(const char *why) __noreturn;
	/*
	 * The machine made ready to measure, and the first header line's
	 * words filled in @h. A bring-up that cannot go on stops the run
	 * itself.
	 */
	void (*bring_up)(struct runner_header *h);
	/* The platform's header lines after the build line; may be NULL. */
	void (*header_lines)(void);
	/*
	 * Printed inside the header's lines: the platform's own
	 * " key=value" words of the first line, after smp=, and where the
	 * options came from, the "# options" line's words before set=.
	 */
	void (*header_words)(void);
	void (*options_words)(void);
	/*
	 * Other processes that measure before this one (the hosted runner's
	 * processes=): how many ran in @nr, how many failed returned. NULL:
	 * none.
	 */
	unsigned int (*run_workers)(unsigned int *nr);
};

/*
 * The run: @options_error, where the options could not be read, refuses
 * it first. Returns whether anything failed: after the summary line, or
 * after the list alone (list_alone).
 */
bool runner_run(const struct runner_platform *p, const char *options_error);

/*
 * A fault outside any case, or a setup step that cannot go on: KTAP's
 * "Bail out!" with @reason, a failure counted, and the run's last lines:
 * the relaxations, the counts and the summary line. The platform stops
 * after it.
 */
void runner_bail_out(const char *reason);

/* The cases' totals so far, for a platform's end-of-run screen. */
const struct kunit_totals *runner_totals(void);

#endif
