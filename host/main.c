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
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/runner.h"
#include "host/platform_linux.h"
#include "host/processes.h"
#include "tests/engines/kernel_patch.h"

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

static const char *prog;
static int nr_args;
static char **args;

/* Nothing printed to stdout yet: the reason on stderr, exit status 2. */
static void __noreturn refuse(const char *why)
{
	fprintf(stderr, "%s: %s\n", prog, why);
	exit(2);
}

/* The processes planned, this one pinned, the TSC and the clocks read. */
static void bring_up(struct runner_header *h)
{
	char why[160];
	u64 eff_cycles, eff_ns;

	if (processes_plan(why, sizeof(why)))
		refuse(why);
	/*
	 * kernel_patch='s runners, before any process measures and before
	 * this one is pinned: minutes the first time, said on stderr; the
	 * workers find them kept.
	 */
	kernel_patch_build_all();
	pin_to_one_cpu();
	cpu_detect(&boot_cpu_data);
	clean_cache_init();
	host_calibrate_tsc(100);
	host_read_microcode(sched_getcpu(), h->ucode, sizeof(h->ucode));
	h->tsc_khz = plat_tsc_khz();
	h->tsc_source = "clock_monotonic";
	/* Where eff_mhz comes from; "none": the metric lines leave it out. */
	if (plat_read_active_clock(&eff_cycles, &eff_ns, &h->eff_clock))
		h->eff_clock = "none";
	h->smp = plat_cpu_count();
}

static void header_words(void)
{
	char features[256];

	cpu_format_features(features, sizeof(features));
	kprintf(" features=%s", features);
}

/* What this run was asked, as the image's "# options" line has it. */
static void options_words(void)
{
	kprintf(" argv");
}

static unsigned int run_workers(unsigned int *nr)
{
	*nr = opt_processes - 1;
	return processes_run_workers(nr_args, args, &given);
}

static const struct runner_platform host_platform = {
	.platform = "host",
	.checking_build = "a checking build (build/host/ntboot-test)",
	.list_alone = true,
	.refuse = refuse,
	.bring_up = bring_up,
	.header_words = header_words,
	.options_words = options_words,
	.run_workers = run_workers,
};

int main(int argc, char **argv)
{
	struct opt_error err;
	const char *options_error = NULL;
	int worker;

	prog = argv[0];
	nr_args = argc;
	args = argv;
	options_set_defaults();
	/* Only the parent makes a worker: its argument comes first. */
	worker = argc > 1 ? processes_worker_arg(argv[1]) : 0;
	if (worker < 0) {
		fprintf(stderr, "%s: %s: names no channel\n", argv[0], argv[1]);
		return 2;
	}
	for (int i = 1 + worker; i < argc && !options_error; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(argv[0]);
			return 0;
		}
		if (options_parse_word(argv[i], strlen(argv[i]), "argv", &err))
			options_error = err.msg;
	}
	/* an option that adds to nothing that runs is no empty pass */
	if (!options_error && kernel_patches()->n &&
	    !glob_list_match(opt_suite, "bench_memmap_init"))
		options_error = "kernel_patch=: its contenders run in "
				"bench_memmap_init, which suite= leaves out";
	return runner_run(&host_platform, options_error) ? 1 : 0;
}
