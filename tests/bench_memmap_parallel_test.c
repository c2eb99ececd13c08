// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite=bench_memmap_parallel: memmap_init_zone_device() of one namespace
 * split over 1, 2, 4, ... and finally all CPUs, to show where the memory
 * bandwidth saturates. CPUs 0..k-1 each take one contiguous part of the
 * pfn range; a run is timed from the release of all k CPUs to the moment
 * the last one is done (its drains included). Every strategy at every
 * CPU count is one contender of interleaved rounds (docs/benchmarks.md);
 * each cold run is verified in full against a poisoned memmap, each later
 * run on a random sample of struct pages poisoned just before it.
 *
 * The parts are cut on boundaries of a folio and of a word of the
 * pageblock bitmap (eight pageblocks, 4096 pfns), so no two CPUs ever
 * write one struct page or one bitmap word: the kernel's bitmap update is
 * a plain read-modify-write. A namespace smaller than k parts leaves CPUs
 * idle; the metric says how many took part (cpus_used).
 *
 * Strategies: those named by strategy=, else v7.2-rc1 without and with
 * the series ("slow", "tmpl_nt_fixed"). Layout: the first of
 * layout=. Bytes counted = bytes written to the destination (struct pages
 * written times their size).
 */
#include "arch/x86/cpu.h"
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/work_split.h"
#include "lib/on_cpus.h"
#include "lib/printf.h"
#include "tests/engines/memmap_case.h"
#include "lib/string.h"
#include "lib/timing.h"
#include "model/memmap.h"
#include "tests/engines/bench_util.h"
#include "model/mm/mm_init.h"

/* Keep a tenth of free memory for everything else. */
/* pfns per word of the pageblock bitmap */
#define PAR_ALIGN_PFNS \
	(pageblock_nr_pages * (BITS_PER_LONG / NR_PAGEBLOCK_BITS))
/* The longest a CPU waits for the others. */
#define PAR_WAIT_MS 60000

static const char *const default_strategies[] = {"slow", "tmpl_nt_fixed"};

struct par_run;

struct par_worker {
	struct par_run *run;
	/*
	 * A private copy of the memmap bookkeeping: the run counters
	 * memmap_init_zone_device() keeps would otherwise be written by
	 * every CPU at once. The struct pages, the pgmap and the pageblock
	 * bitmap stay those of the shared memmap.
	 */
	struct memmap local;
	unsigned long start_pfn;
	unsigned long nr_pages;
} __aligned(64);

struct par_run {
	struct memmap *m;
	unsigned int k;
	/*
	 * on_cpus() starts CPUs 1..k-1 before the timed region and holds
	 * them at its start barrier; CPU 0's part releases them. The end
	 * barrier is where the last CPU to finish ends the run.
	 */
	struct on_cpus oc;
	struct cpu_barrier end;
	bool failed;
	/* A CPU that never came back may still write: keep the memory. */
	bool stuck;
	struct par_worker w[];
};

/* One strategy at one CPU count: a contender of the rounds. */
struct par_contender {
	struct kunit *test;
	struct par_run *r;
	const struct memmap_strategy *s;
	unsigned int k;
	unsigned int used;
	u32 index;
	u64 seed;
};

static void par_part(struct par_worker *w)
{
	struct memmap *m = w->run->m;

	if (w->nr_pages)
		memmap_init_zone_device(&w->local, w->start_pfn, w->nr_pages,
					&m->pgmap);
}

/* CPU @index's part of a run, then the wait for the last one. */
static void par_worker_fn(void *arg, unsigned int index)
{
	struct par_run *r = arg;
	struct cpu_barrier_waiter bw = {0};

	par_part(&r->w[index]);
	if (cpu_barrier_wait(&r->end, &bw, PAR_WAIT_MS * 1000ull))
		WRITE_ONCE(r->failed, true);
}

/* Start CPUs 1..k-1 for the next run and wait until they are waiting. */
static void par_launch(struct par_run *r)
{
	cpu_barrier_init(&r->end, r->k);
	on_cpus_init(&r->oc, r->k, par_worker_fn, r);
	r->oc.start_timeout_us = PAR_WAIT_MS * 1000ull;
	r->oc.timeout_us = PAR_WAIT_MS * 1000ull;
	if (on_cpus_start(&r->oc))
		r->failed = true;
}

/* Collect CPUs 1..k-1 after a run. */
static void par_collect(struct par_run *r)
{
	if (on_cpus_join(&r->oc))
		r->failed = true;
	r->stuck |= r->oc.stuck;
}

/* The timed body: CPU 0 releases the others, does its part, waits. */
static void par_body(void *arg)
{
	struct par_run *r = ((struct par_contender *)arg)->r;

	if (!r->failed)
		on_cpus_enter(&r->oc);
}

/* Split the device pfns of @m over @k CPUs; returns the CPUs with work. */
static unsigned int par_split(struct par_run *r, unsigned int k)
{
	struct memmap *m = r->m;
	unsigned long align = max(PAR_ALIGN_PFNS, 1ul << m->cfg.order);
	unsigned int used = 0;

	r->k = k;
	for (unsigned int i = 0; i < k; i++) {
		struct par_worker *w = &r->w[i];
		u64 s, e;

		work_split(m->cfg.start_pfn, m->cfg.nr_pages, k, align, i, &s,
			   &e);

		w->run = r;
		w->local = *m;
		w->start_pfn = s;
		w->nr_pages = e - s;
		used += w->nr_pages != 0;
	}
	return used;
}

/* 1, 2, 4, ... below @n, then @n. */
static unsigned int next_count(unsigned int k, unsigned int n)
{
	if (k >= n)
		return 0;
	return min(2 * k, n);
}

static u32 bench_runs(void)
{
	return opt_runs;
}

static bool strategy_wanted(const char *name)
{
	if (opt_strategy[0])
		return glob_list_match(opt_strategy, name);
	for (unsigned int i = 0; i < ARRAY_SIZE(default_strategies); i++)
		if (!strcmp(default_strategies[i], name))
			return true;
	return false;
}

#define SAMPLE_N 1024

static unsigned long sample_pfns[SAMPLE_N];

/* The cold run and the last are poisoned and checked in full. */
static bool full_check_run(u32 run)
{
	return !run || run + 1 == bench_runs();
}

/*
 * Untimed, before each run: this contender's strategy and split, the
 * poison its check needs (all of the memmap before the cold run and the
 * last, a random sample before the others), and CPUs 1..k-1 waiting for
 * the release.
 */
static void par_before(void *arg, u32 run)
{
	struct par_contender *c = arg;
	struct par_run *r = c->r;
	char why[160];
	u64 st = c->seed ^ ((u64)run << 32) ^ ((u64)c->index << 48);

	if (memmap_set_strategy(r->m, c->s->name, why, sizeof(why)))
		kunit_fail_at(c->test, __FILE__, __LINE__, "%s: %s",
			      c->s->name, why);
	c->used = par_split(r, c->k);
	if (full_check_run(run)) {
		memmap_poison_with(r->m, MEMMAP_POISON_DEFAULT,
				   bench_poison_streaming);
	} else {
		memmap_sample_pfns(r->m, sample_pfns, SAMPLE_N, &st);
		memmap_poison_pfns(r->m, sample_pfns, SAMPLE_N);
	}
	r->failed = r->stuck;
	if (!r->failed)
		par_launch(r);
	bench_progress("bench_memmap_parallel %s cpus=%u", c->s->name, c->k);
}

/* Untimed, after each run: every CPU back, and the memmap right. */
static bool par_after(void *arg, u32 run)
{
	struct par_contender *c = arg;
	struct par_run *r = c->r;
	struct memmap_report rep;
	char why[160];
	bool ok;

	par_collect(r);
	if (r->failed) {
		kunit_fail_at(c->test, __FILE__, __LINE__,
			      "run %u of %s cpus=%u: %s", run + 1, c->s->name,
			      c->k,
			      r->oc.why[0] ? r->oc.why :
					     "a CPU did not reach the end of "
					     "the run in time");
		return false;
	}
	ok = full_check_run(run) ?
		     memmap_verify(r->m, &rep) :
		     memmap_verify_pfns(r->m, sample_pfns, SAMPLE_N, &rep);
	if (ok)
		return true;
	memmap_report_format(&rep, why, sizeof(why));
	kunit_fail_at(c->test, __FILE__, __LINE__,
		      "run %u of %s page_size=%u %s cpus=%u wrote a wrong "
		      "memmap: %s",
		      run + 1, c->s->name, r->m->layout->size,
		      memmap_mode_name(r->m->cfg.order), c->k, why);
	return false;
}

static struct par_contender contenders[BENCH_MAX_ENTRIES];
static struct bench_entry entries[BENCH_MAX_ENTRIES];

/* The metric lines of one strategy, CPU counts in order. */
static void par_report(struct kunit *test, const struct memmap_strategy *s,
		       u32 n)
{
	struct memmap *m = contenders[0].r->m;
	unsigned int size = m->layout->size;
	u64 bytes = (u64)memmap_pages_written(m) * size;
	u64 one_cpu_ns = 0, best_ns = ~0ull;
	unsigned int best_k = 0;

	for (u32 i = 0; i < n; i++) {
		const struct bench_result *res = &entries[i].res;
		const struct par_contender *c = &contenders[i];

		if (c->s != s || entries[i].failed)
			continue;
		if (c->k == 1)
			one_cpu_ns = res->median_ns;
		if (res->median_ns < best_ns) {
			best_ns = res->median_ns;
			best_k = c->k;
		}
		kunit_diag("# metric suite=bench_memmap_parallel strategy=%s "
			"page_size=%u layout=%s mode=%s map=%s end_trunc=%llu "
			"pages=%lu bytes=%llu "
			"cpus=%u cpus_used=%u runs=%u first_ns=%llu "
			"median_ns=%llu min_ns=%llu max_ns=%llu mean_ns=%llu "
			"stddev_ns=%llu gbps=%s gbps_per_cpu=%s speedup=%s "
			"drain=%s",
			s->name, size, m->layout->name,
			memmap_mode_name(m->cfg.order),
			nd_pfn_mode_name(m->cfg.map),
			(unsigned long long)m->cfg.end_trunc, m->cfg.nr_pages,
			bytes,
			c->k, c->used, res->runs, res->first_ns,
			res->median_ns, res->min_ns, res->max_ns, res->mean_ns,
			res->stddev_ns, bench_gbps(bytes, res->median_ns),
			bench_gbps(bytes / (c->used ? c->used : 1),
				   res->median_ns),
			one_cpu_ns ? bench_fixed(one_cpu_ns,
						 res->median_ns ?: 1, 2) :
				     "na",
			opt_drain ? "on" : "off");
		bench_print_samples(res);
	}
	if (best_k)
		kunit_info(test,
			   "%s page_size=%u %s: fastest with %u CPUs, %s GB/s, "
			   "%sx one CPU",
			   s->name, size, memmap_mode_name(m->cfg.order), best_k,
			   bench_gbps(bytes, best_ns),
			   one_cpu_ns ? bench_fixed(one_cpu_ns, best_ns ?: 1, 2) :
					"na");
}

/*
 * Every wanted strategy at every CPU count over one memmap, interleaved:
 * a round runs each pair once, in a shuffled order.
 */
static void par_config(struct kunit *test, struct par_run *r, u64 seed)
{
	const struct page_layout *l = r->m->layout;
	unsigned int cpus = plat_cpu_count();
	const struct memmap_strategy *s;
	static struct bench_unreachable unreachable;
	char why[160], where[64];
	u32 n = 0;

	for_each_memmap_strategy(s) {
		if (!strategy_wanted(s->name))
			continue;
		if (!memmap_strategy_usable(s, l, why, sizeof(why))) {
			kunit_info(test, "%s skipped: %s", s->name, why);
			continue;
		}
		bench_unreachable_add(&unreachable, s, l);
		for (unsigned int k = 1; k; k = next_count(k, cpus)) {
			if (n == BENCH_MAX_ENTRIES) {
				kunit_info(test, "%s cpus=%u skipped: more "
						 "than %u contenders",
					   s->name, k, BENCH_MAX_ENTRIES);
				continue;
			}
			contenders[n] = (struct par_contender){
				.test = test, .r = r, .s = s, .k = k,
				.index = n, .seed = seed,
			};
			entries[n] = (struct bench_entry){
				.name = s->name, .body = par_body,
				.arg = &contenders[n], .before = par_before,
				.after = par_after,
			};
			n++;
		}
	}
	ntb_snprintf(where, sizeof(where), "page_size=%u layout=%s", l->size,
		     l->name);
	bench_unreachable_print(&unreachable, where);
	if (!n || bench_interleave(entries, n, bench_runs(), seed,
				   "bench_memmap_parallel"))
		return;
	for_each_memmap_strategy(s)
		par_report(test, s, n);
}

static void parallel_init_scaling(struct kunit *test)
{
	static const u32 modes[] = {MODE_FSDAX, MODE_DEVDAX2M, MODE_DEVDAX1G};
	const struct page_layout *l =
		page_layout_for_size(opt_layout.v[0]);
	unsigned int n = plat_cpu_count();
	size_t r_bytes = sizeof(struct par_run) + n * sizeof(struct par_worker);
	struct par_run *r;
	u64 seed = bench_seed();
	u64 ns;

	KUNIT_ASSERT_NOT_NULL(test, l);
	ns = bench_fit_namespace(test, l->size);
	/* Not kunit_kzalloc(): a CPU that never returns keeps it. */
	r = plat_alloc_aligned(r_bytes, 64);
	KUNIT_ASSERT_NOT_NULL(test, r);
	memset(r, 0, r_bytes);
	bench_progress_reset();
	kunit_info(test,
		   "namespace %llu MiB, page_size=%u, runs=%u, CPUs 1.."
		   "%u, drain=%s; bytes counted = bytes written to the "
		   "destination; %u rounds over every strategy and CPU "
		   "count, each in a shuffled order, seed=%llu",
		   ns >> 20, l->size, bench_runs(), n,
		   opt_drain ? "on" : "off (research mode)",
		   bench_runs(), seed);

	for (unsigned int mi = 0; mi < ARRAY_SIZE(modes) && !r->stuck; mi++) {
		struct memmap_config cfg;
		struct memmap m;
		char why[160];
		int order = memmap_mode_order(modes[mi]);

		if (!(opt_mode & modes[mi]) || order < 0)
			continue;
		if (ns < (4096ull << order)) {
			kunit_info(test,
				   "%s skipped: namespace smaller than "
				   "one folio",
				   memmap_mode_name(order));
			continue;
		}
		/*
		 * map=mem: the work split hands each CPU a range of pfns
		 * from the namespace's start, which an altmap would move.
		 */
		if (memmap_config_namespace(&cfg, l->id, order, ns,
					    PFN_MODE_RAM, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__, "%s: %s",
				      memmap_mode_name(order), why);
			continue;
		}
		cfg.drain = opt_drain;
		/* the series' claims on every layout: memmap_unreachable() says where */
		cfg.ungated = true;
		if (memmap_create(&m, &cfg, NULL, 0, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__, "%s: %s",
				      memmap_mode_name(order), why);
			continue;
		}
		r->m = &m;
		par_config(test, r, seed);
		r->m = NULL;
		if (!r->stuck)
			memmap_destroy(&m);
	}
	if (!r->stuck)
		plat_free(r, r_bytes);
}

static const struct kunit_case bench_memmap_parallel_cases[] = {
	KUNIT_CASE(parallel_init_scaling),
};

static int bench_memmap_parallel_init(struct kunit_suite *suite, char *reason,
				      size_t len)
{
	return bench_kernel_base_only(reason, len);
}

KUNIT_SUITE_DEFINE(bench_memmap_parallel_suite, "bench_memmap_parallel",
		   bench_memmap_parallel_cases,
		   .suite_init = bench_memmap_parallel_init,
		   .strategy_name = memmap_strategy_name_at,
		   .flags = KUNIT_SUITE_TIMED);
