// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/int_sqrt.h"
#include "lib/kunit.h"
#include "lib/printf.h"
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
	/* Insertion sort: n is at most BENCH_MAX_RUNS, usually 29. */
	for (u32 i = 1; i < n; i++) {
		u64 x = v[i];
		u32 j = i;

		while (j && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	if (!n)
		return 0;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_stats(struct bench_result *r, const u64 *samples, u32 runs)
{
	static u64 sorted[BENCH_MAX_RUNS];
	/* The postings' procedure: the first run apart, the rest's statistics. */
	const u64 *rest = runs > 1 ? samples + 1 : samples;
	u32 n = runs > 1 ? runs - 1 : 1;
	unsigned __int128 acc = 0;
	unsigned int shift = 0;
	u64 sum = 0;

	r->runs = runs;
	r->samples = samples;
	r->first_ns = samples[0];
	r->total_ns = 0;
	for (u32 i = 0; i < runs; i++)
		r->total_ns += samples[i];
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

int bench_interleave(struct bench_entry *e, u32 n, u32 runs, u64 seed,
		     const char *what)
{
	static u64 pool[BENCH_MAX_ENTRIES][BENCH_MAX_RUNS];
	/* Effective-frequency clock over each entry's timed runs only. */
	u64 cycles[BENCH_MAX_ENTRIES] = { 0 }, clk_ns[BENCH_MAX_ENTRIES] = { 0 };
	u32 order[BENCH_MAX_ENTRIES];
	u64 state = seed ? seed : 1;

	if (!n || n > BENCH_MAX_ENTRIES || !runs || runs > BENCH_MAX_RUNS)
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
			freq = !plat_read_active_clock(&c0, &n0, NULL);
			t0 = rdtsc_ordered();
			x->body(x->arg);
			t1 = rdtsc_ordered();
			if (freq && !plat_read_active_clock(&c1, &n1, NULL) &&
			    c1 > c0 && n1 > n0) {
				cycles[order[k]] += c1 - c0;
				clk_ns[order[k]] += n1 - n0;
			}
			pool[order[k]][run] = cycles_to_ns(t1 - t0);
			if (x->after && !x->after(x->arg, run)) {
				x->failed = true;
				x->failed_run = run + 1;
			}
		}
	}
	for (u32 i = 0; i < n; i++) {
		if (e[i].failed)
			continue;
		bench_stats(&e[i].res, pool[i], runs);
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

	for (u32 i = 1; i < r->runs; i++) {
		size_t at = (size_t)n < len ? (size_t)n : len;

		n += ntb_snprintf(buf + at, len - at, "%s%llu",
				  i > 1 ? "," : "", r->samples[i]);
	}
	return n;
}

void bench_print_samples(const struct bench_result *r)
{
	/* 20 digits and a comma per sample. */
	static char buf[BENCH_MAX_RUNS * 21 + 32];
	int n = bench_format_samples(buf, sizeof(buf), r);

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
