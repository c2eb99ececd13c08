// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hosted runner: the same suites as the image, in user space on Linux.
 * Built twice: build/host/ntboot-test with ASan/UBSan for `make check-host`,
 * and build/host/ntbench, optimised, for real timings on the host CPU.
 * Takes the image's key=value options as arguments.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/cpu.h"
#include "arch/x86/lib/clean_cache.h"
#include "include/platform.h"
#include "lib/build_info.h"
#include "lib/kunit.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/relaxations.h"
#include "lib/report_count.h"
#include "version.h"
#include "lib/run_context.h"
#include "lib/scale.h"
#include "tools/host/platform_linux.h"
#include "tools/host/processes.h"

static void usage(const char *prog)
{
	printf("usage: %s [key=value ...]\n", prog);
	printf("Runs the ntboot suites in user space and prints KTAP.\n");
	options_print_help();
}

/* The CPUs the run was given: the workers' before they pin themselves. */
static cpu_set_t given;

static void pin_to_one_cpu(void)
{
	cpu_set_t set, one;

	/*
	 * The suites run on one CPU, so TSC reads and caches stay on one
	 * core; the others are numbered for run-on-CPU work.
	 */
	CPU_ZERO(&set);
	CPU_ZERO(&given);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		given = set;
		for (int i = 0; i < CPU_SETSIZE; i++) {
			if (CPU_ISSET(i, &set)) {
				host_cpus_init(i);
				CPU_ZERO(&one);
				CPU_SET(i, &one);
				sched_setaffinity(0, sizeof(one), &one);
				return;
			}
		}
	}
	host_cpus_init(0);
}

int main(int argc, char **argv)
{
	struct kunit_totals totals = {0};
	struct opt_error err;
	const char *bad = NULL;
	char features[256], why[160], set[512], ucode[24];
	const char *eff_clock = NULL;
	u64 eff_cycles, eff_ns;
	unsigned int n, workers_failed;
	int worker;

	options_set_defaults();
	/* Only the parent makes a worker: its argument comes first. */
	worker = argc > 1 ? processes_worker_arg(argv[1]) : 0;
	if (worker < 0) {
		fprintf(stderr, "%s: %s: names no channel\n", argv[0], argv[1]);
		return 2;
	}
	for (int i = 1 + worker; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(argv[0]);
			return 0;
		}
		if (options_parse_word(argv[i], strlen(argv[i]), "argv",
				       &err)) {
			fprintf(stderr, "%s: %s\n", argv[0], err.msg);
			return 2;
		}
	}
	if (!kunit_filter_matches_any(opt_suite, &bad)) {
		fprintf(stderr,
			kunit_word_checking_only(bad)
				? "%s: suite=%s: '%s' runs only in a checking "
				  "build (build/host/ntboot-test)\n"
				: "%s: suite=%s: no suite matches '%s'\n",
			argv[0], opt_suite, bad);
		kunit_list_suites();
		return 2;
	}
	if (!kunit_strategies_valid(opt_suite, opt_strategy, why,
				    sizeof(why))) {
		fprintf(stderr, "%s: %s\n", argv[0], why);
		kunit_list_suites();
		return 2;
	}
	if (opt_list) {
		kunit_list_suites();
		options_print_help();
		return 0;
	}

	if (processes_plan(why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", argv[0], why);
		return 2;
	}

	pin_to_one_cpu();
	cpu_detect(&boot_cpu_data);
	clean_cache_init();
	host_calibrate_tsc(100);
	cpu_format_features(features, sizeof(features));
	host_read_microcode(sched_getcpu(), ucode, sizeof(ucode));

	/* Where eff_mhz comes from; "none": the metric lines leave it out. */
	if (plat_read_active_clock(&eff_cycles, &eff_ns, &eff_clock))
		eff_clock = "none";

	n = kunit_count_selected(opt_suite);
	kprintf("KTAP version 1\n1..%u\n", n);
	kunit_print_left_out();
	kprintf("# ntboot %s platform=host cpu=\"%s\" vendor=%s family=%u "
		"model=%u stepping=%u ucode=%s tsc_khz=%llu "
		"tsc_source=clock_monotonic "
		"eff_clock=%s smp=%u features=%s%s%s\n",
		NTB_VERSION, boot_cpu_data.brand, boot_cpu_data.vendor,
		boot_cpu_data.family, boot_cpu_data.model,
		boot_cpu_data.stepping, ucode,
		(unsigned long long)plat_tsc_khz(), eff_clock, plat_cpu_count(),
		features, opt_runs_id[0] ? " runs_id=" : "", opt_runs_id);
	build_info_print();
	/* What this run was asked, as the image's "# options" line has it. */
	options_format_set(set, sizeof(set));
	kprintf("# options argv set=\"%s\"\n", set);
	/* The sanitizer build, an emulated CPU: smaller benchmarks. */
	options_scale_for_platform();
	/* Several processes: the workers measure first, this one last. */
	workers_failed = processes_run_workers(argc, argv, &given);
	kunit_run_selected(opt_suite, 1, &totals);
	relaxation_print();
	report_count_print();
	if (workers_failed)
		kprintf("# processes: %u of %u workers failed (their lines "
			"are above)\n",
			workers_failed, opt_processes - 1);
	kprintf("ntboot: %u passed, %u failed, %u skipped\n", totals.passed,
		totals.failed, totals.skipped);
	return totals.failed || workers_failed ? 1 : 0;
}
