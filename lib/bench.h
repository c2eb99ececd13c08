/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The timing core of the benchmarks (docs/benchmarks.md): serialised TSC
 * reads around each timed run, no interrupts in a timed region (the image
 * never enables them; the hosted runner cannot promise it), a fixed run
 * count, and the postings' statistics: the first run alone, then min /
 * median / mean / max / stddev of the others, every sample kept so a
 * metric line can carry them all. Several contenders are measured in
 * rounds, in a shuffled order per round, so a drift of the machine is
 * spread over all of them. Effective CPU frequency from APERF/MPERF where
 * the platform can read them, so throttling shows beside the numbers.
 */
#ifndef NTBOOT_LIB_BENCH_H
#define NTBOOT_LIB_BENCH_H

#include "include/compiler.h"
#include "include/types.h"

/* The most runs= allows; with several processes, runs= x processes=. */
#define BENCH_MAX_RUNS 1000
/* The most processes one measurement spans (the hosted runner's processes=). */
#define BENCH_MAX_PROCESSES 32

/* runs=: timed runs per benchmark; seed=: the shuffles' seed, 0 = drawn. */
extern u32 opt_runs;
extern u64 opt_seed;

struct bench_result {
	u32 runs;		/* all runs of each process, its first included */
	/*
	 * The processes that measured it, one after another (the hosted
	 * runner's worker processes, docs/statistics.md); 1 in the image.
	 */
	u32 processes;
	/* The first run (with several processes, the median of the firsts). */
	u64 first_ns;
	/*
	 * Over runs 2..N of every process pooled (or the first alone when
	 * runs == 1).
	 */
	u64 min_ns, median_ns, mean_ns, max_ns, stddev_ns;
	u64 total_ns;
	/* Each process's median of its runs 2..N, in process order. */
	u64 proc_median_ns[BENCH_MAX_PROCESSES];
	/*
	 * Effective MHz during the timed runs (plat_read_active_clock());
	 * 0 when nothing measured it: metric lines then leave the key out.
	 */
	u64 eff_mhz;
	/*
	 * Every run in run order, the first included, one block of @runs per
	 * process in process order: valid until the next measurement.
	 */
	const u64 *samples;
};

/*
 * Time @body(@arg) @runs times. @between (may be NULL) runs untimed before
 * each run after the first. Returns 0, or -1 when @runs is out of range.
 */
int bench_measure(struct bench_result *r, u32 runs, void (*body)(void *),
		  void *arg, void (*between)(void *));

/*
 * Statistics of @runs samples in run order (the first apart) into @r;
 * @r->samples points at @samples.
 */
void bench_stats(struct bench_result *r, const u64 *samples, u32 runs);

/*
 * The same for @processes blocks of @runs samples, one per process: each
 * block's first run is that process's cold run and stays apart; the rest
 * are pooled, and each process's median is kept (@runs >= 2 when
 * @processes > 1).
 */
void bench_stats_processes(struct bench_result *r, const u64 *samples,
			   u32 runs, u32 processes);

/*
 * Runs 2..N of each process of @r, process after process, into @dst
 * (room for BENCH_MAX_RUNS). Returns how many.
 */
u32 bench_warm_samples(const struct bench_result *r, u64 *dst);

/*
 * The spread between processes: (highest - lowest process median) over
 * the median of the process medians, in millionths; 0 with one process.
 */
u64 bench_process_spread(const struct bench_result *r);

/* The most contenders one interleaved measurement takes. */
#define BENCH_MAX_ENTRIES 32

/*
 * One contender of bench_interleave(). The caller fills name, body, arg
 * and the hooks; the rest is the outcome.
 */
struct bench_entry {
	const char *name;
	void (*body)(void *arg);
	/*
	 * Or, in place of @body, work done in another process that times
	 * itself there with the same TSC: returns the cycles of the work
	 * alone, which are the run's time (no effective clock is read: the
	 * work ran on another thread). @after checks the work and fails the
	 * run where it failed, as for @body.
	 */
	u64 (*timed_body)(void *arg);
	void *arg;
	/* Untimed, before run @run (0: the cold first run). May be NULL. */
	void (*before)(void *arg, u32 run);
	/*
	 * Untimed, after run @run: false means the run's output was wrong
	 * (the hook has said why); the entry then takes no further part.
	 * May be NULL.
	 */
	bool (*after)(void *arg, u32 run);
	struct bench_result res;	/* when !failed */
	bool failed;
	u32 failed_run;			/* 1-based, when failed */
};

/*
 * Measure @n entries @runs times each, in @runs rounds: round 1 runs each
 * entry's cold first run, rounds 2..@runs the others; each round visits
 * every entry once, in an order shuffled from @seed (bench_shuffle()).
 * Samples are kept in a fixed pool (BENCH_MAX_ENTRIES x BENCH_MAX_RUNS).
 * @what names the work in the progress lines. Returns 0, or -1 when @n or
 * @runs is out of range.
 */
int bench_interleave(struct bench_entry *e, u32 n, u32 runs, u64 seed,
		     const char *what);

/*
 * One interleaved measurement as it passes from a process of the run to
 * the one that prints it (the hosted runner's workers).
 */
struct bench_record {
	u32 seq;		/* the process's n-th merged bench_interleave() */
	const char *what;
	u32 n, runs;
	const char *names[BENCH_MAX_ENTRIES];
	bool failed[BENCH_MAX_ENTRIES];
	u32 failed_run[BENCH_MAX_ENTRIES];
	u64 cycles[BENCH_MAX_ENTRIES], clk_ns[BENCH_MAX_ENTRIES];
	u64 *samples[BENCH_MAX_ENTRIES]; /* @runs each */
};

/*
 * The other processes of a run. A worker hands each measurement of a
 * timed suite to put(); the parent, the last of @nr processes to measure,
 * takes process @k's (0 .. @nr - 2) with get(), which fills the record's
 * samples, failures and clocks for the @seq, @what, names and @runs the
 * parent put there, or returns -1 saying why into @why.
 */
struct bench_processes {
	u32 nr;
	void (*put)(const struct bench_record *rec);
	int (*get)(u32 k, struct bench_record *rec, char *why, size_t len);
};

/* NULL (the default, and the image): one process measures. */
void bench_set_processes(const struct bench_processes *p);
/* How many processes measure each timed suite's benchmarks: 1 or more. */
u32 bench_processes_nr(void);

/*
 * Fisher-Yates: @order becomes a permutation of 0..@n-1 drawn from the
 * xorshift sequence in *@state (lib/prandom.h).
 */
void bench_shuffle(u32 *order, u32 n, u64 *state);

/*
 * The seed of the shuffles: seed= when given, else one drawn from the
 * TSC once per boot; never 0.
 */
u64 bench_seed(void);

/*
 * The limit of a benchmark: the fastest (lowest median) of @n fills whose
 * @ok is true, whatever kind of store it used. Its index, or -1.
 */
int bench_limit_best(const u64 *median_ns, const bool *ok, u32 n);

/*
 * " samples_ns=v2,v3,...": runs 2..N of @r in run order (nothing after
 * the '=' when there is one run), process after process, into @buf.
 * Returns the length it needs.
 */
int bench_format_samples(char *buf, size_t len, const struct bench_result *r);
/* The same under another key: " @key=v2,v3,..." (a line's other series). */
int bench_format_samples_as(char *buf, size_t len, const char *key,
			    const struct bench_result *r);

/*
 * " processes=P" and, with several, " proc_medians_ns=m1,...
 * proc_spread=0.123": what the samples stand on.
 */
int bench_format_processes(char *buf, size_t len,
			   const struct bench_result *r);

/*
 * The processes and the samples, written to the console after a line
 * begun without a newline.
 */
void bench_print_samples(const struct bench_result *r);

/* Median of @n values (sorted in place). */
u64 bench_median(u64 *v, u32 n);

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
