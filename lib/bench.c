// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/timing.h"

#define PROGRESS_INTERVAL_NS 10000000000ull

static u64 samples[BENCH_MAX_RUNS];
static u64 last_progress_tsc;

u64 bench_isqrt(u64 v)
{
	u64 r = 0, bit = 1ull << 62;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

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

int bench_measure(struct bench_result *r, u32 runs, void (*body)(void *),
		  void *arg, void (*between)(void *))
{
	u64 cyc0 = 0, ns0 = 0, cyc1, ns1, sum = 0, var = 0;
	unsigned __int128 acc = 0;
	unsigned int shift = 0;
	bool have_freq;
	u32 n;

	if (!runs || runs > BENCH_MAX_RUNS)
		return -1;
	r->runs = runs;
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
	r->eff_mhz = 0;
	if (have_freq && !plat_read_active_clock(&cyc1, &ns1, NULL))
		r->eff_mhz = bench_active_mhz(cyc0, ns0, cyc1, ns1);

	r->first_ns = samples[0];
	r->total_ns = 0;
	for (u32 i = 0; i < runs; i++)
		r->total_ns += samples[i];
	/* The seed's procedure: the first run apart, statistics of the rest. */
	n = runs > 1 ? runs - 1 : 1;
	{
		u64 *rest = runs > 1 ? samples + 1 : samples;

		r->min_ns = ~0ull;
		r->max_ns = 0;
		for (u32 i = 0; i < n; i++) {
			r->min_ns = min(r->min_ns, rest[i]);
			r->max_ns = max(r->max_ns, rest[i]);
			sum += rest[i];
		}
		r->mean_ns = sum / n;
		/*
		 * Squares of deviations of seconds overflow 64 bits: sum in
		 * 128, then scale down by whole powers of four (exact for the
		 * square root) until the mean square fits one division.
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
		var = (u64)acc / n;
		r->stddev_ns = bench_isqrt(var) << shift;
		r->median_ns = bench_median(rest, n);
	}
	return 0;
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
