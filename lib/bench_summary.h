/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows of bench_memmap_init's end-of-suite table (strategy, median,
 * speed-up over the slow path, share of the limit), kept where both the
 * serial table and the end-of-run screen read them.
 */
#ifndef NTBOOT_LIB_BENCH_SUMMARY_H
#define NTBOOT_LIB_BENCH_SUMMARY_H

#include "include/types.h"

#define BENCH_SUMMARY_MAX 256

struct bench_summary_row {
	const char *strategy;
	unsigned int page_size;
	const char *mode;
	u64 median_ns;
	u64 pages;
	u64 limit_ns;	   /* the fastest fill's median; 0: none */
	const char *limit; /* its name */
	u64 slow_ns;	   /* the slow path's median; 0: not measured */
};

void bench_summary_reset(void);
/* Keeps a copy; rows past BENCH_SUMMARY_MAX are counted, not kept. */
void bench_summary_add(const struct bench_summary_row *row);
unsigned int bench_summary_count(void);
unsigned int bench_summary_dropped(void);
const struct bench_summary_row *bench_summary_get(unsigned int i);

#endif
