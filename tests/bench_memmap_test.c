// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeds' measurement: memmap_init_zone_device() of a pmem namespace
 * (default 100 GiB: 26,214,400 struct pages), 30 times per strategy, the
 * first run apart, for each struct page size and namespace mode; and in
 * the same run the machine's limit, a streaming-store fill of the same
 * number of bytes. The memmap is poisoned before the first run and verified
 * against the model after the last, outside the timing. Bytes counted = bytes written to the destination (struct pages
 * the run writes, times their size).
 *
 *   bench_limit        limit_nt64/128/256/512 and limit_cached fills
 *   bench_memmap_init  every usable strategy, with limit_frac
 */
#include "arch/x86/cpu.h"
#include "arch/x86/lib/copy_variant.h"
#include "arch/x86/lib/memcpy_nt.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/run_context.h"
#include "lib/string.h"
#include "mm/memmap.h"
#include "tests/bench_util.h"

#define BUF_ALIGN (2ull << 20)

/* The limit fills: template stores of non-zero data, widest last. */
static const struct {
	const char *name;	/* metric strategy name */
	const char *variant;	/* copy registry fill */
} limit_fills[] = {
	{ "limit_cached", "tmpl_mov_64" },
	{ "limit_nt64", "tmpl_movnti_64" },
	{ "limit_nt128", "tmpl_sse2_64" },
	{ "limit_nt256", "tmpl_avx_64" },
	{ "limit_nt512", "tmpl_avx512_64" },
};

/* A non-zero 64-byte pattern: zero stores can be eliminated (Ice Lake). */
static u8 fill_template[64] __aligned(64);

struct fill_job {
	const struct copy_variant *v;
	void *dst;
	size_t bytes;
};

static void fill_body(void *arg)
{
	struct fill_job *j = arg;

	j->v->copy(j->dst, fill_template, j->bytes);
	if (j->v->needs_drain)
		memcpy_nt_drain();
}

static bool fill_verify(const struct fill_job *j, size_t *bad)
{
	const u8 *p = j->dst;

	for (size_t off = 0; off < j->bytes; off += 64) {
		if (memcmp(p + off, fill_template, 64)) {
			*bad = off;
			return false;
		}
	}
	return true;
}

static void init_template(void)
{
	for (unsigned int i = 0; i < sizeof(fill_template); i++)
		fill_template[i] = (u8)(0xa5 ^ (i * 37));
}

/*
 * Time the widest non-temporal fill the CPU has over @bytes of @buf: the
 * limit of the same run. Returns its median in ns, 0 if none usable, and
 * fails the test if the fill wrote the wrong bytes.
 */
static u64 measure_limit(struct kunit *test, const char *name,
			 const char *variant, void *buf, size_t bytes,
			 bool print, const char *context)
{
	const struct copy_variant *v = copy_variant_find(variant);
	struct fill_job job = { .v = v, .dst = buf, .bytes = bytes };
	struct bench_result r;
	char why[80];
	size_t bad;

	if (!v || !copy_variant_usable(v, why, sizeof(why)))
		return 0;
	bytes = ALIGN_DOWN(bytes, 64);
	if (!bytes)
		return 0;
	job.bytes = bytes;
	memset(buf, 0, bytes);
	if (bench_measure(&r, run_options.runs, fill_body, &job, NULL))
		return 0;
	if (!fill_verify(&job, &bad)) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s wrote wrong data at byte %zu of %zu", name,
			      bad, bytes);
		return 0;
	}
	if (print)
		kunit_diag("# metric suite=bench_limit strategy=%s variant=%s%s "
			   "bytes=%zu runs=%u first_ns=%llu median_ns=%llu "
			   "min_ns=%llu max_ns=%llu mean_ns=%llu stddev_ns=%llu "
			   "gbps=%s eff_mhz=%llu node=%d\n",
			   name, variant, context, bytes, r.runs, r.first_ns,
			   r.median_ns, r.min_ns, r.max_ns, r.mean_ns,
			   r.stddev_ns, bench_gbps(bytes, r.median_ns),
			   r.eff_mhz, plat_numa_node_of(buf));
	return r.median_ns;
}

/* The widest limit fill usable here: its index, or -1. */
static int widest_limit(void)
{
	char why[80];

	for (int i = ARRAY_SIZE(limit_fills) - 1; i > 0; i--) {
		const struct copy_variant *v =
			copy_variant_find(limit_fills[i].variant);

		if (v && copy_variant_usable(v, why, sizeof(why)))
			return i;
	}
	return -1;
}

static unsigned int max_layout_size(void)
{
	unsigned int m = 64;

	for (u32 i = 0; i < run_options.nr_layouts; i++)
		m = max(m, run_options.layouts[i]);
	return m;
}

static void bench_limit_fills(struct kunit *test)
{
	u64 ns = bench_fit_namespace(test, 64);
	size_t bytes = ns / 4096 * 64;
	void *buf = plat_alloc_aligned(bytes, BUF_ALIGN);
	char ctx[64];

	if (!buf)
		kunit_skip(test, "cannot allocate %zu MiB", bytes >> 20);
	init_template();
	kunit_info(test, "bytes counted = bytes written to the destination; "
			 "region = the memmap of a %llu MiB namespace at 64 bytes "
			 "per struct page", ns >> 20);
	ntb_snprintf(ctx, sizeof(ctx), " namespace_mib=%llu", ns >> 20);
	for (unsigned int i = 0; i < ARRAY_SIZE(limit_fills); i++) {
		char why[80];
		const struct copy_variant *v =
			copy_variant_find(limit_fills[i].variant);

		if (!v || !copy_variant_usable(v, why, sizeof(why))) {
			kunit_info(test, "%s skipped: %s", limit_fills[i].name,
				   v ? why : "no such copy variant");
			continue;
		}
		bench_progress("bench_limit %s", limit_fills[i].name);
		measure_limit(test, limit_fills[i].name,
			      limit_fills[i].variant, buf, bytes, true, ctx);
	}
	plat_free(buf, bytes);
}

/* One row of the end-of-suite table. */
struct table_row {
	const char *strategy;
	unsigned int page_size;
	unsigned int order;
	u64 median_ns;
	u64 pages;
	u64 limit_ns;
	u64 slow_ns;
};

#define TABLE_MAX 256
static struct table_row table[TABLE_MAX];
static unsigned int table_rows;

static void print_table(void)
{
	kunit_diag("# bench_memmap_init summary (median of runs 2..N; bytes "
		"counted = bytes written)\n");
	kunit_diag("# %-16s %5s %-9s %12s %9s %9s %8s\n", "strategy", "size",
		"mode", "median_ms", "ns/page", "vs_slow", "of_limit");
	for (unsigned int i = 0; i < table_rows; i++) {
		const struct table_row *t = &table[i];

		kunit_diag("# %-16s %5u %-9s %12s %9s %8sx %7s%%\n", t->strategy,
			t->page_size, memmap_mode_name(t->order),
			bench_fixed(t->median_ns, 1000000, 2),
			bench_fixed(t->median_ns, t->pages, 3),
			t->slow_ns ? bench_fixed(t->slow_ns, t->median_ns, 2) :
				     "-",
			t->limit_ns ? bench_fixed(t->limit_ns * 100,
						  t->median_ns, 1) :
				      "-");
	}
}

struct memmap_job {
	struct memmap *m;
};

static void memmap_body(void *arg)
{
	memmap_run(((struct memmap_job *)arg)->m);
}

static void memmap_between(void *arg)
{
	bench_progress("bench_memmap_init %s page_size=%u",
		       ((struct memmap_job *)arg)->m->strategy->name,
		       ((struct memmap_job *)arg)->m->layout->size);
}

static bool strategy_selected(const char *name)
{
	return glob_list_match(run_options.strategy, name);
}

/* All strategies of one layout and mode over one namespace. */
static void bench_one_config(struct kunit *test, const struct page_layout *l,
			     unsigned int order, u64 ns, void *buf,
			     size_t buf_bytes, int limit_idx)
{
	const struct memmap_strategy *s;
	struct memmap_config cfg;
	struct memmap m;
	u64 slow_ns = 0, limit_ns = 0, bytes;
	unsigned long written;
	char why[120];

	memmap_config_namespace(&cfg, l->id, order, ns);
	cfg.drain = run_options.drain;
	if (memmap_create(&m, &cfg, buf, buf_bytes, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "page_size=%u %s: %s",
			      l->size, memmap_mode_name(order), why);
		return;
	}
	written = memmap_pages_written(&m);
	bytes = (u64)written * l->size;
	if (limit_idx >= 0) {
		char ctx[80];

		ntb_snprintf(ctx, sizeof(ctx), " for=bench_memmap_init "
			     "page_size=%u mode=%s", l->size,
			     memmap_mode_name(order));
		limit_ns = measure_limit(test, limit_fills[limit_idx].name,
					 limit_fills[limit_idx].variant, buf,
					 bytes, true, ctx);
	}

	for_each_memmap_strategy(s) {
		struct memmap_job job = { .m = &m };
		struct memmap_report rep;
		struct bench_result r;

		if (!strategy_selected(s->name))
			continue;
		if (!memmap_strategy_usable(s, l, why, sizeof(why))) {
			kunit_info(test, "%s page_size=%u %s skipped: %s",
				   s->name, l->size, memmap_mode_name(order),
				   why);
			continue;
		}
		if (memmap_set_strategy(&m, s->name, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__, "%s: %s",
				      s->name, why);
			continue;
		}
		/* Poison, so verification proves this strategy wrote it all. */
		memmap_poison(&m, 0x5a);
		bench_measure(&r, run_options.runs, memmap_body, &job,
			      memmap_between);
		if (!memmap_verify(&m, &rep)) {
			memmap_report_format(&rep, why, sizeof(why));
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s page_size=%u %s wrote a wrong memmap: %s",
				      s->name, l->size, memmap_mode_name(order),
				      why);
			continue;
		}
		if (s->copy == MEMMAP_SLOW)
			slow_ns = r.median_ns;
		kunit_diag("# metric suite=bench_memmap_init strategy=%s "
			"page_size=%u layout=%s mode=%s pages=%lu written=%lu "
			"bytes=%llu runs=%u first_ns=%llu median_ns=%llu "
			"min_ns=%llu max_ns=%llu mean_ns=%llu stddev_ns=%llu "
			"ns_per_page=%s gbps=%s limit_frac=%s limit=%s "
			"drain=%s eff_mhz=%llu node=%d\n",
			s->name, l->size, l->name, memmap_mode_name(order),
			m.nr_initialised, written, bytes, r.runs, r.first_ns,
			r.median_ns, r.min_ns, r.max_ns, r.mean_ns,
			r.stddev_ns, bench_fixed(r.median_ns, m.nr_initialised, 3),
			bench_gbps(bytes, r.median_ns),
			limit_ns ? bench_fixed(limit_ns, r.median_ns, 3) : "0",
			limit_idx >= 0 ? limit_fills[limit_idx].name : "none",
			run_options.drain ? "on" : "off", r.eff_mhz,
			plat_numa_node_of(buf));
		if (table_rows < TABLE_MAX)
			table[table_rows++] = (struct table_row){
				.strategy = s->name,
				.page_size = l->size,
				.order = order,
				.median_ns = r.median_ns,
				.pages = m.nr_initialised,
				.limit_ns = limit_ns,
				.slow_ns = slow_ns,
			};
	}
	memmap_destroy(&m);
}

static void bench_memmap_all(struct kunit *test)
{
	static const u32 modes[] = { MODE_FSDAX, MODE_DEVDAX2M, MODE_DEVDAX1G };
	unsigned int max_size = max_layout_size();
	u64 ns = bench_fit_namespace(test, max_size);
	size_t buf_bytes = ns / 4096 * max_size;
	void *buf = plat_alloc_aligned(buf_bytes, BUF_ALIGN);
	int limit_idx = widest_limit();

	if (!buf)
		kunit_skip(test, "cannot allocate %zu MiB", buf_bytes >> 20);
	init_template();
	table_rows = 0;
	kunit_info(test, "namespace %llu MiB (%llu pfns), runs=%u, drain=%s; "
			 "bytes counted = bytes written to the destination; "
			 "limit = %s over the same bytes",
		   ns >> 20, ns / 4096, run_options.runs,
		   run_options.drain ? "on" : "off (research mode)",
		   limit_idx >= 0 ? limit_fills[limit_idx].name : "none");
	for (u32 li = 0; li < run_options.nr_layouts; li++) {
		const struct page_layout *l =
			page_layout_for_size(run_options.layouts[li]);

		for (unsigned int mi = 0; mi < ARRAY_SIZE(modes); mi++) {
			unsigned int order;

			if (!(run_options.modes & modes[mi]))
				continue;
			order = memmap_mode_order(modes[mi]);
			/* A namespace smaller than one folio has no devdax mode. */
			if (ns < (4096ull << order)) {
				kunit_info(test, "%s skipped: namespace smaller "
						 "than one folio",
					   memmap_mode_name(order));
				continue;
			}
			bench_one_config(test, l, order, ns, buf, buf_bytes,
					 limit_idx);
		}
	}
	print_table();
	plat_free(buf, buf_bytes);
}

static void bench_suite_start(void)
{
	bench_progress_reset();
}

static int bench_init(struct kunit_suite *suite, char *reason, size_t len)
{
	bench_suite_start();
	return 0;
}

static const struct kunit_case bench_limit_cases[] = {
	KUNIT_CASE(bench_limit_fills),
};

static const struct kunit_case bench_memmap_cases[] = {
	KUNIT_CASE(bench_memmap_all),
};

KUNIT_SUITE_DEFINE(bench_limit_suite, "bench_limit", bench_limit_cases,
		   .suite_init = bench_init, .flags = KUNIT_SUITE_TIMED);
KUNIT_SUITE_DEFINE(bench_memmap_suite, "bench_memmap_init",
		   bench_memmap_cases, .suite_init = bench_init,
		   .flags = KUNIT_SUITE_TIMED);
