/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The platforms too slow for the real sizes (an emulated CPU, the
 * sanitizer build of the host tests) and every number they get instead:
 * the benchmark defaults (namespace=, runs=) and the suites' own budgets.
 * A suite asks platform_scaled() rather than testing the platform itself,
 * so lib/scale.c stays the one place that knows them.
 */
#ifndef NTBOOT_LIB_SCALE_H
#define NTBOOT_LIB_SCALE_H

#include "include/types.h"

/* The slow platforms, a bit each: platform_scaled_on() takes a mask. */
#define SLOW_SANITIZER (1u << 0)
#define SLOW_TCG (1u << 1)

/* A suite's number that a slow platform may replace. */
enum scale_knob {
	SCALE_LITMUS_SUITE_MS,	/* suite=litmus: a timed suite's budget */
	SCALE_SMP_MAX_PFNS,	/* suite=memmap_smp: the largest memmap */
	SCALE_SMP_ROUNDS,	/* suite=memmap_smp: rounds per strategy */
	SCALE_ON_CPUS_SHORT_US, /* suite=on_cpus: a wait meant to run out */
	SCALE_AP_ONLINE_US,	/* smp_init(): how long an AP may take */
	NR_SCALE_KNOBS
};

struct platform_scale {
	const char *name;      /* "emulated CPU (TCG)" */
	unsigned int id;       /* SLOW_TCG */
	bool (*applies)(void); /* NULL: always */
	const char *defaults;  /* "namespace=64M runs=3" */
	const char *why;
	u64 knob[NR_SCALE_KNOBS]; /* 0: the suite keeps its own */
};

/*
 * The slow platforms run smaller benchmarks unless namespace= and runs=
 * say otherwise: apply their defaults and print one line that says so.
 */
void options_scale_for_platform(void);

/*
 * Apply @p's defaults and write the line to print into @line. Returns 0,
 * or -1 with the reason in @line.
 */
int options_scale(const struct platform_scale *p, char *line, size_t len);

/*
 * @knob here: the value of the first slow platform that applies and sets
 * it, else @dflt. @who, when not NULL, gets that platform's name, or NULL
 * when @dflt stands, for the line that says what was scaled.
 */
u64 platform_scaled(enum scale_knob knob, u64 dflt, const char **who);

/* The same on the slow platforms in @present (SLOW_*), whatever runs. */
u64 platform_scaled_on(unsigned int present, enum scale_knob knob, u64 dflt,
		       const char **who);

#endif
