/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timing core of the benchmarks (DESIGN.md, "Measurement method"):
 * serialised TSC reads around each timed run, no interrupts in a timed
 * region (the image never enables them; the hosted runner cannot promise
 * it), a fixed run count, and the seed's statistics: the first run alone,
 * then min / median / mean / max / stddev of the others. Effective CPU
 * frequency from APERF/MPERF where the platform can read them, so
 * throttling shows beside the numbers.
 */
#ifndef NTBOOT_LIB_BENCH_H
#define NTBOOT_LIB_BENCH_H

#include "include/compiler.h"
#include "include/types.h"

/* The most runs= allows (lib/options.c). */
#define BENCH_MAX_RUNS 1000

struct bench_result {
	u32 runs;		/* all runs, the first included */
	u64 first_ns;
	/* Over runs 2..N (or the first alone when runs == 1). */
	u64 min_ns, median_ns, mean_ns, max_ns, stddev_ns;
	u64 total_ns;
	/*
	 * Effective MHz during the timed runs (plat_read_active_clock());
	 * 0 when nothing measured it: metric lines then leave the key out.
	 */
	u64 eff_mhz;
};

/*
 * Time @body(@arg) @runs times. @between (may be NULL) runs untimed before
 * each run after the first. Returns 0, or -1 when @runs is out of range.
 */
int bench_measure(struct bench_result *r, u32 runs, void (*body)(void *),
		  void *arg, void (*between)(void *));

/* Median of @n values (sorted in place). */
u64 bench_median(u64 *v, u32 n);
/* Integer square root, for the standard deviation. */
u64 bench_isqrt(u64 v);

/*
 * "12.345" style figures: @num / @den with @decimals digits, into a
 * small static ring of buffers so several fit in one kprintf.
 */
const char *bench_fixed(u64 num, u64 den, unsigned int decimals);

/*
 * "eff_mhz=N " for a metric line, or "" when it was not measured: a
 * figure nobody measured is left out, never printed as 0.
 */
const char *bench_eff_mhz_key(const struct bench_result *r);

/* MHz from two plat_read_active_clock() readings; 0 if none between. */
u64 bench_active_mhz(u64 cycles0, u64 ns0, u64 cycles1, u64 ns1);

/* GB/s (10^9 bytes per second) for @bytes in @ns, as bench_fixed text. */
const char *bench_gbps(u64 bytes, u64 ns);

/*
 * A "# progress ..." line at most every 10 s during long work, so a
 * person at a serial console sees the run is alive.
 */
void bench_progress(const char *fmt, ...) __printf(1, 2);
/* Restart the 10 s clock (at the start of a suite). */
void bench_progress_reset(void);

#endif
