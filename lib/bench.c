// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/int_sqrt.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/sort_u64.h"
#include "lib/prandom.h"
#include "lib/options.h"
#include "lib/string.h"
#include "lib/timing.h"

#define PROGRESS_INTERVAL_NS 10000000000ull

/* The timing core keeps every sample: BENCH_MAX_RUNS of them. */
DEFINE_OPTION_U32(runs, 30, 1, BENCH_MAX_RUNS,
		  "timed runs per benchmark (30)");
DEFINE_OPTION_U64(seed, 0, 1, ~0ull,
		  "seed of the benchmarks' run order (repeats a run; default "
		  "drawn)");

static u64 samples[BENCH_MAX_RUNS];
static u64 last_progress_tsc;

u64 bench_median(u64 *v, u32 n)
{
	/* n is at most BENCH_MAX_RUNS, usually 29. */
	sort_u64(v, n);
	return n ? sorted_median(v, n) : 0;
}

void bench_stats(struct bench_result *r, const u64 *samples, u32 runs)
{
	bench_stats_processes(r, samples, runs, 1);
}

void bench_stats_processes(struct bench_result *r, const u64 *samples,
			   u32 runs, u32 processes)
{
	static u64 rest[BENCH_MAX_RUNS], sorted[BENCH_MAX_RUNS];
	u64 firsts[BENCH_MAX_PROCESSES];
	unsigned __int128 acc = 0;
	unsigned int shift = 0;
	u32 n = 0;
	u64 sum = 0;

	if (!processes || processes > BENCH_MAX_PROCESSES ||
	    (processes > 1 && runs < 2))
		processes = 1;
	r->runs = runs;
	r->processes = processes;
	r->samples = samples;
	r->total_ns = 0;
	/*
	 * The postings' procedure, in each process: the first run apart, the
	 * rest's statistics; the rest of every process pooled.
	 */
	for (u32 p = 0; p < processes; p++) {
		const u64 *block = samples + (size_t)p * runs;
		u32 from = runs > 1 ? 1 : 0, m = 0;

		firsts[p] = block[0];
		for (u32 i = 0; i < runs; i++)
			r->total_ns += block[i];
		for (u32 i = from; i < runs; i++) {
			rest[n++] = block[i];
			sorted[m++] = block[i];
		}
		r->proc_median_ns[p] = bench_median(sorted, m);
	}
	r->first_ns = processes > 1 ? bench_median(firsts, processes) :
				      samples[0];
	r->min_ns = ~0ull;
	r->max_ns = 0;
	for (u32 i = 0; i < n; i++) {
		r->min_ns = min(r->min_ns, rest[i]);
		r->max_ns = max(r->max_ns, rest[i]);
		sum += rest[i];
		sorted[i] = rest[i];
	}
	r->mean_ns = sum / n;
	/*
	 * Squares of deviations of seconds overflow 64 bits: sum in 128, then
	 * scale down by whole powers of four (exact for the square root)
	 * until the mean square fits one division.
	 */
	for (u32 i = 0; i < n; i++) {
		u64 d = rest[i] > r->mean_ns ? rest[i] - r->mean_ns :
					       r->mean_ns - rest[i];

		acc += (unsigned __int128)d * d;
	}
	while (acc >> 64) {
		acc >>= 2;
		shift++;
	}
	r->stddev_ns = int_sqrt128((u64)acc / n) << shift;
	r->median_ns = bench_median(sorted, n);
}

u32 bench_warm_samples(const struct bench_result *r, u64 *dst)
{
	u32 nr = r->processes ? r->processes : 1, n = 0;

	for (u32 p = 0; p < nr; p++)
		for (u32 i = 1; i < r->runs; i++)
			dst[n++] = r->samples[(size_t)p * r->runs + i];
	return n;
}

u64 bench_process_spread(const struct bench_result *r)
{
	u64 m[BENCH_MAX_PROCESSES], lo = ~0ull, hi = 0, mid;

	if (r->processes < 2)
		return 0;
	for (u32 p = 0; p < r->processes; p++) {
		m[p] = r->proc_median_ns[p];
		lo = min(lo, m[p]);
		hi = max(hi, m[p]);
	}
	mid = bench_median(m, r->processes);
	return mid ? (u64)((unsigned __int128)(hi - lo) * 1000000 / mid) : 0;
}

int bench_measure(struct bench_result *r, u32 runs, void (*body)(void *),
		  void *arg, void (*between)(void *))
{
	u64 cyc0 = 0, ns0 = 0, cyc1, ns1;
	bool have_freq;

	if (!runs || runs > BENCH_MAX_RUNS)
		return -1;
	have_freq = !plat_read_active_clock(&cyc0, &ns0, NULL);
	for (u32 i = 0; i < runs; i++) {
		u64 t0, t1;

		if (i && between)
			between(arg);
		t0 = rdtsc_ordered();
		body(arg);
		t1 = rdtsc_ordered();
		samples[i] = cycles_to_ns(t1 - t0);
	}
	bench_stats(r, samples, runs);
	r->eff_mhz = 0;
	if (have_freq && !plat_read_active_clock(&cyc1, &ns1, NULL))
		r->eff_mhz = bench_active_mhz(cyc0, ns0, cyc1, ns1);
	return 0;
}

void bench_shuffle(u32 *order, u32 n, u64 *state)
{
	for (u32 i = 0; i < n; i++)
		order[i] = i;
	for (u32 i = n; i > 1; i--) {
		u32 j = (u32)(prandom_u64(state) % i);
		u32 t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

u64 bench_seed(void)
{
	static u64 drawn;

	if (opt_seed)
		return opt_seed;
	while (!drawn) {
		/* Mix the TSC so close boots do not get close seeds. */
		u64 x = rdtsc() * 0x9e3779b97f4a7c15ull;

		drawn = x ^ (x >> 29);
	}
	return drawn;
}

static const struct bench_processes *processes;
/* The merged bench_interleave()s so far: the key a record is found by. */
static u32 merged_seq;

void bench_set_processes(const struct bench_processes *p)
{
	processes = p;
	merged_seq = 0;
}

u32 bench_processes_nr(void)
{
	return processes && processes->nr > 1 ? processes->nr : 1;
}

/*
 * Only the timed suites are measured by every process (the workers run
 * nothing else), and one that failed to take the other processes' samples
 * is reported in the case that asked for them.
 */
static bool merged_here(void)
{
	return processes && kunit_current_suite_timed();
}

static void record_fill(struct bench_record *rec, const struct bench_entry *e,
			u32 n, u32 runs, const char *what)
{
	memset(rec, 0, sizeof(*rec));
	rec->seq = merged_seq;
	rec->what = what;
	rec->n = n;
	rec->runs = runs;
	for (u32 i = 0; i < n; i++)
		rec->names[i] = e[i].name;
}

/*
 * The parent: the other processes' runs into blocks 0 .. nr - 2 of each
 * entry's pool row (its own are in the last). An entry that failed its
 * check in any process fails here, naming the process.
 */
static int take_other_processes(struct bench_entry *e, u32 n, u32 runs,
				const char *what, u64 (*pool)[BENCH_MAX_RUNS],
				u64 *cycles, u64 *clk_ns)
{
	static struct bench_record rec;
	char why[160];

	for (u32 k = 0; k + 1 < processes->nr; k++) {
		record_fill(&rec, e, n, runs, what);
		for (u32 i = 0; i < n; i++)
			rec.samples[i] = pool[i] + (size_t)k * runs;
		if (processes->get(k, &rec, why, sizeof(why))) {
			kunit_fail_at(kunit_current(), __FILE__, __LINE__,
				      "%s: process %u of %u: %s", what, k + 1,
				      processes->nr, why);
			return -1;
		}
		for (u32 i = 0; i < n; i++) {
			cycles[i] += rec.cycles[i];
			clk_ns[i] += rec.clk_ns[i];
			if (!rec.failed[i] || e[i].failed)
				continue;
			e[i].failed = true;
			e[i].failed_run = rec.failed_run[i];
			kunit_fail_at(kunit_current(), __FILE__, __LINE__,
				      "%s: %s failed its check in process %u "
				      "of %u, run %u",
				      what, e[i].name, k + 1, processes->nr,
				      rec.failed_run[i]);
		}
	}
	return 0;
}

int bench_interleave(struct bench_entry *e, u32 n, u32 runs, u64 seed,
		     const char *what)
{
	static u64 pool[BENCH_MAX_ENTRIES][BENCH_MAX_RUNS];
	static struct bench_record rec;
	/* Effective-frequency clock over each entry's timed runs only. */
	u64 cycles[BENCH_MAX_ENTRIES] = { 0 }, clk_ns[BENCH_MAX_ENTRIES] = { 0 };
	u32 order[BENCH_MAX_ENTRIES];
	u64 state = seed ? seed : 1;
	bool merged = merged_here();
	u32 nr = merged ? bench_processes_nr() : 1;
	/* This process's runs go in the last block: it measures last. */
	size_t own = (size_t)(nr - 1) * runs;

	if (!n || n > BENCH_MAX_ENTRIES || !runs || runs > BENCH_MAX_RUNS ||
	    (size_t)runs * nr > BENCH_MAX_RUNS || (nr > 1 && runs < 2))
		return -1;
	for (u32 i = 0; i < n; i++) {
		e[i].failed = false;
		e[i].failed_run = 0;
		memset(&e[i].res, 0, sizeof(e[i].res));
	}
	for (u32 run = 0; run < runs; run++) {
		bench_shuffle(order, n, &state);
		for (u32 k = 0; k < n; k++) {
			struct bench_entry *x = &e[order[k]];
			u64 c0, n0, c1, n1, t0, t1;
			bool freq;

			if (x->failed)
				continue;
			bench_progress("%s round %u/%u %s", what, run + 1, runs,
				       x->name);
			if (x->before)
				x->before(x->arg, run);
			freq = false;
			if (x->timed_body) {
				t0 = 0;
				t1 = x->timed_body(x->arg);
			} else {
				freq = !plat_read_active_clock(&c0, &n0, NULL);
				t0 = rdtsc_ordered();
				x->body(x->arg);
				t1 = rdtsc_ordered();
			}
			if (freq && !plat_read_active_clock(&c1, &n1, NULL) &&
			    c1 > c0 && n1 > n0) {
				cycles[order[k]] += c1 - c0;
				clk_ns[order[k]] += n1 - n0;
			}
			pool[order[k]][own + run] = cycles_to_ns(t1 - t0);
			if (x->after && !x->after(x->arg, run)) {
				x->failed = true;
				x->failed_run = run + 1;
			}
		}
	}
	if (merged && processes->put) {
		record_fill(&rec, e, n, runs, what);
		for (u32 i = 0; i < n; i++) {
			rec.failed[i] = e[i].failed;
			rec.failed_run[i] = e[i].failed_run;
			rec.cycles[i] = cycles[i];
			rec.clk_ns[i] = clk_ns[i];
			rec.samples[i] = pool[i];
		}
		processes->put(&rec);
	}
	if (nr > 1 && processes->get &&
	    take_other_processes(e, n, runs, what, pool, cycles, clk_ns))
		return -1;
	if (merged)
		merged_seq++;
	for (u32 i = 0; i < n; i++) {
		if (e[i].failed)
			continue;
		bench_stats_processes(&e[i].res, pool[i], runs, nr);
		e[i].res.eff_mhz = bench_active_mhz(0, 0, cycles[i], clk_ns[i]);
	}
	return 0;
}

int bench_limit_best(const u64 *median_ns, const bool *ok, u32 n)
{
	int best = -1;

	for (u32 i = 0; i < n; i++)
		if (ok[i] && median_ns[i] &&
		    (best < 0 || median_ns[i] < median_ns[best]))
			best = (int)i;
	return best;
}

int bench_format_samples(char *buf, size_t len, const struct bench_result *r)
{
	return bench_format_samples_as(buf, len, "samples_ns", r);
}

int bench_format_samples_as(char *buf, size_t len, const char *key,
			    const struct bench_result *r)
{
	int n = ntb_snprintf(buf, len, " %s=", key);
	u32 nr = r->processes ? r->processes : 1;
	bool first = true;

	for (u32 p = 0; p < nr; p++) {
		const u64 *block = r->samples + (size_t)p * r->runs;

		for (u32 i = 1; i < r->runs; i++) {
			size_t at = (size_t)n < len ? (size_t)n : len;

			n += ntb_snprintf(buf + at, len - at, "%s%llu",
					  first ? "" : ",", block[i]);
			first = false;
		}
	}
	return n;
}

int bench_format_processes(char *buf, size_t len,
			   const struct bench_result *r)
{
	u32 nr = r->processes ? r->processes : 1;
	int n = ntb_snprintf(buf, len, " processes=%u", nr);
	size_t at;

	if (nr < 2)
		return n;
	for (u32 p = 0; p < nr; p++) {
		at = (size_t)n < len ? (size_t)n : len;
		n += ntb_snprintf(buf + at, len - at, "%s%llu",
				  p ? "," : " proc_medians_ns=",
				  r->proc_median_ns[p]);
	}
	at = (size_t)n < len ? (size_t)n : len;
	n += ntb_snprintf(buf + at, len - at, " proc_spread=%s",
			  bench_fixed(bench_process_spread(r), 1000000, 3));
	return n;
}

void bench_print_samples(const struct bench_result *r)
{
	/* 20 digits and a comma per sample and per process median. */
	static char buf[(BENCH_MAX_RUNS + BENCH_MAX_PROCESSES) * 21 + 96];
	int n = bench_format_processes(buf, sizeof(buf), r);

	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	n += bench_format_samples(buf + n, sizeof(buf) - (size_t)n, r);
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	plat_console_write(buf, (size_t)n);
	plat_console_write("\n", 1);
}

const char *bench_fixed(u64 num, u64 den, unsigned int decimals)
{
	static char ring[8][32];
	static unsigned int next;
	char *buf = ring[next++ % ARRAY_SIZE(ring)];

	ntb_fmt_fixed(buf, sizeof(ring[0]), num, den, decimals);
	return buf;
}

u64 bench_active_mhz(u64 cycles0, u64 ns0, u64 cycles1, u64 ns1)
{
	u64 c = cycles1 - cycles0, t = ns1 - ns0;

	/* A counter that did not move measured nothing. */
	if (cycles1 <= cycles0 || ns1 <= ns0)
		return 0;
	/* cycles per µs; c * 1000 fits 64 bits for over 200 days at 1 GHz */
	return (u64)((unsigned __int128)c * 1000 / t);
}

const char *bench_eff_mhz_key(const struct bench_result *r)
{
	static char ring[8][32];
	static unsigned int next;
	char *buf = ring[next++ % ARRAY_SIZE(ring)];

	if (!r->eff_mhz)
		return "";
	ntb_snprintf(buf, sizeof(ring[0]), "eff_mhz=%llu ", r->eff_mhz);
	return buf;
}

const char *bench_gbps(u64 bytes, u64 ns)
{
	/* bytes/ns is GB/s (10^9 bytes per second). */
	return bench_fixed(bytes, ns ? ns : 1, 2);
}

void bench_progress_reset(void)
{
	last_progress_tsc = rdtsc();
}

void bench_progress(const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	u64 now = rdtsc();

	plat_watchdog_pet();
	if (cycles_to_ns(now - last_progress_tsc) < PROGRESS_INTERVAL_NS)
		return;
	last_progress_tsc = now;
	va_start(ap, fmt);
	ntb_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kunit_diag("# progress %s\n", msg);
}
