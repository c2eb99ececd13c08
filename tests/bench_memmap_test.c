// SPDX-License-Identifier: GPL-2.0-only
/*
 * The postings' measurement: memmap_init_zone_device() of a pmem namespace
 * (default 100 GiB: 26,214,400 struct pages), 30 times per strategy, the
 * first run apart, for each struct page size and namespace mode; and in
 * the same rounds the machine's limit: the fastest fill of the same number
 * of bytes by any kind of store (cached, each non-temporal width, rep
 * stosb). Strategies and fills run interleaved, each round in a shuffled
 * order (docs/benchmarks.md). Every run is checked outside the timing:
 * the cold first run of each against a fully poisoned memmap, in full;
 * the others on a random sample of struct pages poisoned just before.
 * Bytes counted = bytes written to the destination (struct pages the run
 * writes, times their size).
 *
 *   bench_limit        the fills alone, over the memmap of 64-byte pages
 *   bench_memmap_init  every usable strategy and fill, with limit_frac
 */

#include "arch/x86/cpu.h"
#include "arch/x86/lib/copy_variant.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/bench_summary.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/printf.h"
#include "tests/engines/memmap_case.h"
#include "lib/string.h"
#include "lib/verdict.h"
#include "model/memmap.h"
#include "tests/engines/bench_util.h"
#include "tests/engines/kernel_memmap.h"
#include "tests/engines/state_probe.h"

#define BUF_ALIGN (2ull << 20)

/* Struct pages (or 64-byte blocks of a fill) checked after each run. */
#define SAMPLE_N 1024
/* the kernel's runner poisons the same sample where it writes */
_Static_assert(SAMPLE_N <= KERNEL_MEMMAP_POISON_MAX,
	       "a sample the kernel's runner takes struct page by struct page");
/* result_keys(): seven numbers of up to 20 digits and their keys. */
#define RESULT_KEYS_LEN 224

/* What a fill writes with rep stosb: one non-zero byte. */
#define STOSB_BYTE 0xa5

/*
 * The limit fills: template stores of non-zero data, and rep stosb
 * (manifest/strategies.yaml, limits).
 */
struct limit_fill {
	const char *name;    /* metric strategy name */
	const char *variant; /* copy registry fill; NULL: rep stosb */
};

static const struct limit_fill limit_fills[] = {LIMIT_FILLS};

#define NR_FILLS ARRAY_SIZE(limit_fills)

/* A non-zero 64-byte pattern: zero stores can be eliminated (Ice Lake). */
static u8 fill_template[64] __aligned(64);
static u8 stosb_pattern[64] __aligned(64);

static unsigned long sample_pfns[SAMPLE_N];
static size_t sample_off[SAMPLE_N];

/*
 * One contender of an interleaved measurement: a memmap strategy or a
 * limit fill, over the same buffer.
 */
/* How a test's strategy goes wrong in its bad run. */
enum corrupt_how {
	CORRUPT_TAIL,	  /* zeroes the last sixteenth after the run */
	CORRUPT_SKIP,	  /* writes nothing */
	CORRUPT_ONE_PAGE, /* zeroes one struct page outside the sample */
};

struct contender {
	struct kunit *test;
	const char *name;
	const char *config; /* "page_size=64 mode=fsdax" */
	u64 seed;
	u32 index;
	u32 run; /* 0-based, set by before() */
	/* A memmap strategy ... */
	struct memmap *m;
	const struct memmap_strategy *s;
	/* ... or the kernel's own code (strategy=kernel, ...) ... */
	struct kernel_memmap *k;
	char kernel_why[300]; /* why its last run did not run */
	/* ... or a fill, or the state probe (tests/engines/state_probe.h). */
	const struct limit_fill *fill;
	bool probe;
	u64 probe_value; /* what this run of the probe writes */
	const struct copy_variant *v;
	void *dst;
	size_t bytes;
	/*
	 * Tests only: in run @corrupt_run (1-based) the body goes wrong as
	 * @corrupt_how says, as a strategy would that went wrong once in
	 * many runs.
	 */
	u32 corrupt_run;
	enum corrupt_how corrupt_how;
};

static bool fill_usable(const struct limit_fill *f,
			const struct copy_variant **v, char *why, size_t len)
{
	*v = NULL;
	if (!f->variant)
		return true;
	*v = copy_variant_find(f->variant);
	if (!*v) {
		ntb_snprintf(why, len, "no copy variant %s", f->variant);
		return false;
	}
	return copy_variant_usable(*v, why, len);
}

static const u8 *fill_pattern(const struct contender *c)
{
	return c->v ? fill_template : stosb_pattern;
}

static void fill_body(void *arg)
{
	struct contender *c = arg;

	if (!c->v) {
		memset_rep_stosb(c->dst, STOSB_BYTE, c->bytes);
		return;
	}
	c->v->copy(c->dst, fill_template, c->bytes);
	if (c->v->needs_drain)
		memcpy_nt_drain();
}

/*
 * One struct page wrong, at a pfn the run's sample does not hold: only a
 * check of the whole memmap sees it.
 */
static void corrupt_one_page(struct contender *c)
{
	unsigned long pfn = c->m->base_pfn + c->m->nr_pfns / 2;

	for (unsigned int i = 0; i < SAMPLE_N; i++) {
		if (sample_pfns[i] == pfn) {
			pfn++;
			i = -1u; /* look again from the start */
		}
	}
	memset((char *)c->m->pages +
		       (pfn - c->m->base_pfn) * c->m->layout->size,
	       0, c->m->layout->size);
}

static void probe_body(void *arg)
{
	struct contender *c = arg;

	state_probe_run(c->dst, c->bytes, c->probe_value);
}

static void memmap_body(void *arg)
{
	struct contender *c = arg;

	if (unlikely(c->corrupt_run) && c->run + 1 == c->corrupt_run) {
		size_t tail = c->m->bytes / 16;

		if (c->corrupt_how == CORRUPT_SKIP)
			return;
		memmap_run(c->m);
		if (c->corrupt_how == CORRUPT_ONE_PAGE)
			corrupt_one_page(c);
		else
			memset((char *)c->m->pages + c->m->bytes - tail, 0,
			       tail);
		return;
	}
	memmap_run(c->m);
}

/* The random sample of run @run of contender @c: the same before and after. */
static u64 sample_state(const struct contender *c)
{
	u64 st = c->seed ^ ((u64)c->run << 32) ^ ((u64)c->index << 48);

	return st ? st : 1;
}

static void draw_fill_sample(const struct contender *c)
{
	u64 st = sample_state(c);
	size_t blocks = c->bytes / 64;

	sample_off[0] = 0;
	sample_off[1] = (blocks - 1) * 64;
	for (unsigned int i = 2; i < SAMPLE_N; i++)
		sample_off[i] = prandom_u64(&st) % blocks * 64;
}

/*
 * The cold run and the last are checked in full: everything is poisoned
 * (zeroed, for a fill) before them and verified after. The runs between
 * are checked on a fresh sample each, which keeps the untimed work small
 * next to the timed.
 */
static bool full_check_run(u32 run)
{
	return !run || run + 1 == opt_runs;
}

static void contender_before(void *arg, u32 run)
{
	struct contender *c = arg;
	char why[120];
	u64 st;

	c->run = run;
	if (c->probe) {
		c->probe_value = sample_state(c);
		if (full_check_run(run)) {
			state_probe_poison(c->dst, c->bytes, c->probe_value);
			return;
		}
		draw_fill_sample(c);
		for (unsigned int i = 0; i < SAMPLE_N; i++)
			state_probe_poison_line(c->dst, sample_off[i],
						c->probe_value);
		return;
	}
	if (c->fill) {
		if (full_check_run(run)) {
			bench_poison_streaming(c->dst, 0, c->bytes);
			return;
		}
		draw_fill_sample(c);
		for (unsigned int i = 0; i < SAMPLE_N; i++)
			memset((u8 *)c->dst + sample_off[i], 0, 64);
		return;
	}
	if (c->k) {
		if (full_check_run(run)) {
			kernel_memmap_poison(c->k, NULL, 0,
					     bench_poison_streaming);
			return;
		}
		st = sample_state(c);
		memmap_sample_pfns(&c->k->ref->m, sample_pfns, SAMPLE_N, &st);
		kernel_memmap_poison(c->k, sample_pfns, SAMPLE_N, NULL);
		return;
	}
	if (memmap_set_strategy(c->m, c->s->name, why, sizeof(why)))
		kunit_fail_at(c->test, __FILE__, __LINE__, "%s: %s", c->s->name,
			      why);
	/* Poison, so verification proves this run wrote what it checks. */
	if (full_check_run(run)) {
		memmap_poison_with(c->m, MEMMAP_POISON_DEFAULT,
				   bench_poison_streaming);
		return;
	}
	st = sample_state(c);
	memmap_sample_pfns(c->m, sample_pfns, SAMPLE_N, &st);
	memmap_poison_pfns(c->m, sample_pfns, SAMPLE_N);
}

static bool fill_check(struct contender *c, size_t off)
{
	if (!memcmp((u8 *)c->dst + off, fill_pattern(c), 64))
		return true;
	kunit_fail_at(c->test, __FILE__, __LINE__,
		      "run %u of %s (%s): wrong data at byte %zu of %zu",
		      c->run + 1, c->name, c->config, off, c->bytes);
	return false;
}

/* The probe's run @run, checked as contender_after() says. */
static bool probe_check(struct contender *c, u32 run)
{
	size_t bad = 0;
	bool ok = true;

	if (full_check_run(run))
		ok = state_probe_check(c->dst, c->bytes, c->probe_value, &bad);
	else
		for (unsigned int i = 0; ok && i < SAMPLE_N; i++) {
			bad = sample_off[i];
			ok = state_probe_check_line(c->dst, bad,
						    c->probe_value);
		}
	if (!ok)
		kunit_fail_at(c->test, __FILE__, __LINE__,
			      "run %u of %s (%s): wrong word in the line at "
			      "byte %zu of %zu",
			      run + 1, c->name, c->config, bad, c->bytes);
	return ok;
}

/* The kernel's run @run, checked as contender_after() says. */
static bool kernel_check(struct contender *c, u32 run)
{
	struct memmap_report rep;
	char why[200];

	if (c->kernel_why[0]) {
		kunit_fail_at(c->test, __FILE__, __LINE__,
			      "run %u of %s (%s): the kernel's code did not "
			      "run: %s",
			      run + 1, c->name, c->config, c->kernel_why);
		return false;
	}
	if (kernel_memmap_check(c->k, full_check_run(run) ? NULL : sample_pfns,
				SAMPLE_N, &rep))
		return true;
	memmap_report_format(&rep, why, sizeof(why));
	kunit_fail_at(c->test, __FILE__, __LINE__,
		      "run %u of %s (%s): the kernel's "
		      "memmap_init_zone_device() and the model (slow, "
		      "kernel=6.12) differ: %s",
		      run + 1, c->name, c->config, why);
	return false;
}

/*
 * After each run, outside the timing: the cold run and the last in full
 * (everything was poisoned before them), the others on their sample.
 */
static bool contender_after(void *arg, u32 run)
{
	struct contender *c = arg;
	struct memmap_report rep;
	char why[160];
	bool ok;

	if (c->probe)
		return probe_check(c, run);
	if (c->fill) {
		if (full_check_run(run)) {
			for (size_t off = 0; off < c->bytes; off += 64)
				if (!fill_check(c, off))
					return false;
			return true;
		}
		for (unsigned int i = 0; i < SAMPLE_N; i++)
			if (!fill_check(c, sample_off[i]))
				return false;
		return true;
	}
	if (c->k)
		return kernel_check(c, run);
	ok = full_check_run(run)
		     ? memmap_verify(c->m, &rep)
		     : memmap_verify_pfns(c->m, sample_pfns, SAMPLE_N, &rep);
	if (ok)
		return true;
	memmap_report_format(&rep, why, sizeof(why));
	kunit_fail_at(c->test, __FILE__, __LINE__,
		      "run %u of %s (%s) wrote a wrong memmap: %s", run + 1,
		      c->name, c->config, why);
	return false;
}

static void init_template(void)
{
	for (unsigned int i = 0; i < sizeof(fill_template); i++)
		fill_template[i] = (u8)(0xa5 ^ (i * 37));
	memset(stosb_pattern, STOSB_BYTE, sizeof(stosb_pattern));
}

/* A strategy, the model's or the kernel's: what gets a metric line. */
static bool is_strategy(const struct contender *c)
{
	return c->s || c->k;
}

/* The kernel's run, timed in its runner around the call alone. */
static u64 kernel_body(void *arg)
{
	struct contender *c = arg;

	c->kernel_why[0] = 0;
	return kernel_memmap_run(c->k, c->kernel_why, sizeof(c->kernel_why));
}

static void contender_entry(struct bench_entry *e, struct contender *c)
{
	*e = (struct bench_entry){
		.name = c->name,
		.body = c->k	   ? NULL
			: c->probe ? probe_body
			: c->fill  ? fill_body
				   : memmap_body,
		.timed_body = c->k ? kernel_body : NULL,
		.arg = c,
		.before = contender_before,
		.after = contender_after,
	};
}

/*
 * Add the usable fills over @bytes of @buf to @c/@e from index *@n;
 * unusable ones are said in a line of @test.
 */
static void add_fills(struct kunit *test, struct contender *c,
		      struct bench_entry *e, u32 *n, void *buf, size_t bytes,
		      const char *config, u64 seed)
{
	for (unsigned int i = 0; i < NR_FILLS; i++) {
		const struct copy_variant *v;
		char why[80];

		if (!fill_usable(&limit_fills[i], &v, why, sizeof(why))) {
			kunit_info(test, "%s skipped: %s", limit_fills[i].name,
				   why);
			continue;
		}
		c[*n] = (struct contender){
			.test = test,
			.name = limit_fills[i].name,
			.config = config,
			.seed = seed,
			.index = *n,
			.fill = &limit_fills[i],
			.v = v,
			.dst = buf,
			.bytes = ALIGN_DOWN(bytes, 64),
		};
		contender_entry(&e[*n], &c[*n]);
		(*n)++;
	}
}

/* The state probe over the first lines of @buf, at index *@n. */
static void add_probe(struct kunit *test, struct contender *c,
		      struct bench_entry *e, u32 *n, void *buf, size_t bytes,
		      const char *config, u64 seed)
{
	if (*n == BENCH_MAX_ENTRIES)
		return;
	c[*n] = (struct contender){
		.test = test,
		.name = STATE_PROBE_NAME,
		.config = config,
		.seed = seed,
		.index = *n,
		.probe = true,
		.dst = buf,
		.bytes = state_probe_bytes(bytes),
	};
	contender_entry(&e[*n], &c[*n]);
	(*n)++;
}

/* "runs=... stddev_ns=...": a result's figures, as every metric line has. */
static const char *result_keys(char *buf, size_t len,
			       const struct bench_result *r)
{
	ntb_snprintf(buf, len,
		     "runs=%u first_ns=%llu median_ns=%llu min_ns=%llu "
		     "max_ns=%llu mean_ns=%llu stddev_ns=%llu",
		     r->runs, r->first_ns, r->median_ns, r->min_ns, r->max_ns,
		     r->mean_ns, r->stddev_ns);
	return buf;
}

static void print_probe(const struct contender *c, const struct bench_entry *e,
			const char *context)
{
	const struct bench_result *r = &e->res;
	char keys[RESULT_KEYS_LEN];

	kunit_diag("# metric suite=bench_probe strategy=%s%s "
		   "bytes=%zu lines=%zu %s ns_per_line=%s %snode=%d",
		   c->name, context, c->bytes, c->bytes / 64,
		   result_keys(keys, sizeof(keys), r),
		   bench_fixed(r->median_ns, c->bytes / 64, 3),
		   bench_eff_mhz_key(r), plat_numa_node_of(c->dst));
	bench_print_samples(r);
}

static void print_fill(const struct contender *c, const struct bench_entry *e,
		       const char *context)
{
	const struct bench_result *r = &e->res;
	char keys[RESULT_KEYS_LEN];

	kunit_diag("# metric suite=bench_limit strategy=%s variant=%s%s "
		   "bytes=%zu %s gbps=%s %snode=%d",
		   c->name, c->v ? c->v->name : "rep_stosb", context, c->bytes,
		   result_keys(keys, sizeof(keys), r),
		   bench_gbps(c->bytes, r->median_ns), bench_eff_mhz_key(r),
		   plat_numa_node_of(c->dst));
	bench_print_samples(r);
}

/*
 * The fastest of the fills among @e[0..@n): its index, or -1. The fills
 * are the entries whose contender has a fill.
 */
static int fastest_fill(const struct contender *c, const struct bench_entry *e,
			u32 n)
{
	u64 med[BENCH_MAX_ENTRIES];
	bool ok[BENCH_MAX_ENTRIES];

	for (u32 i = 0; i < n; i++) {
		ok[i] = c[i].fill && !e[i].failed;
		med[i] = e[i].res.median_ns;
	}
	return bench_limit_best(med, ok, n);
}

/*
 * The limit line: which fill is the limit and what every fill took, so
 * the choice can be checked from the log alone.
 */
static void print_limit_line(const char *suite, const char *config,
			     const struct contender *c,
			     const struct bench_entry *e, u32 n, int best)
{
	char fills[256];
	int len = 0;

	fills[0] = 0;
	for (u32 i = 0; i < n; i++)
		if (c[i].fill && !e[i].failed && len < (int)sizeof(fills))
			len += ntb_snprintf(fills + len, sizeof(fills) - len,
					    "%s%s:%llu", len ? "," : "",
					    c[i].name, e[i].res.median_ns);
	kunit_diag("# %s: limit %s limit_best=%s limit_ns=%llu fills_ns=%s\n",
		   suite, config, best >= 0 ? c[best].name : "none",
		   best >= 0 ? e[best].res.median_ns : 0ull,
		   fills[0] ? fills : "none");
}

static unsigned int max_layout_size(void)
{
	unsigned int m = 64;

	for (u32 i = 0; i < opt_layout.n; i++)
		m = max(m, opt_layout.v[i]);
	return m;
}

static struct contender contenders[BENCH_MAX_ENTRIES];
static struct bench_entry entries[BENCH_MAX_ENTRIES];
/* The contenders and the limit of the last bench_one_config(), for tests. */
static u32 last_n;
static int last_best;

static void bench_limit_fills(struct kunit *test)
{
	u64 ns = bench_fit_namespace(test, 64);
	size_t bytes = ns / 4096 * 64;
	void *buf = plat_alloc_aligned(bytes, BUF_ALIGN);
	u64 seed = bench_seed();
	char ctx[64];
	u32 n = 0;
	int best;

	if (!buf)
		kunit_skip(test, "cannot allocate %zu MiB", bytes >> 20);
	init_template();
	kunit_info(test,
		   "bytes counted = bytes written to the destination; "
		   "region = the memmap of a %llu MiB namespace at 64 bytes "
		   "per struct page; %u rounds, shuffled, seed=%llu",
		   ns >> 20, opt_runs, seed);
	ntb_snprintf(ctx, sizeof(ctx), " namespace_mib=%llu", ns >> 20);
	add_fills(test, contenders, entries, &n, buf, bytes, "page_size=64",
		  seed);
	if (n && !bench_interleave(entries, n, opt_runs, seed, "bench_limit")) {
		best = fastest_fill(contenders, entries, n);
		print_limit_line("bench_limit", "page_size=64", contenders,
				 entries, n, best);
		for (u32 i = 0; i < n; i++)
			if (!entries[i].failed)
				print_fill(&contenders[i], &entries[i], ctx);
	}
	plat_free(buf, bytes);
}

static void print_table(void)
{
	bool any_beats = false;

	kunit_diag("# bench_memmap_init summary (median of runs 2..N; bytes "
		   "counted = bytes written; limit = the fastest fill)\n");
	kunit_diag("# %-16s %5s %-9s %12s %9s %9s %8s %s\n", "strategy", "size",
		   "mode", "median_ms", "ns/page", "vs_slow", "of_limit",
		   "limit");
	for (unsigned int i = 0; i < bench_summary_count(); i++) {
		const struct bench_summary_row *t = bench_summary_get(i);
		bool beats = t->limit_ns && t->median_ns < t->limit_ns;

		any_beats |= beats;
		kunit_diag("# %-16s %5u %-9s %12s %9s %8sx %7s%% %s%s\n",
			   t->strategy, t->page_size, t->mode,
			   bench_fixed(t->median_ns, 1000000, 2),
			   bench_fixed(t->median_ns, t->pages, 3),
			   t->slow_ns ? bench_fixed(t->slow_ns, t->median_ns, 2)
				      : "-",
			   t->limit_ns ? bench_fixed(t->limit_ns * 100,
						     t->median_ns, 1)
				       : "-",
			   t->limit, beats ? " (beats the limit)" : "");
	}
	if (any_beats)
		kunit_diag("# beats the limit: faster than every fill of the "
			   "same bytes in the same rounds; a finding about the "
			   "fills (they are not the fastest way to write "
			   "these bytes here), not a figure to clamp\n");
}

/* Where the memmap of the running benchmark lives, for its lines. */
static const char *memmap_in_name = "dram";

static bool strategy_selected(const char *name)
{
	return glob_list_match(opt_strategy, name);
}

/*
 * bench_memmap_init's strategies: the model's, then the kernel's own
 * code, one build each (strategy=kernel, kernel_series, ...:
 * tests/engines/kernel_memmap.h).
 */
static const char *bench_memmap_strategy_name(unsigned int i)
{
	if (i >= memmap_nr_strategies)
		return i - memmap_nr_strategies < kernel_memmap_nr_builds()
			       ? kernel_memmap_builds[i - memmap_nr_strategies]
					 .name
			       : NULL;
	return memmap_strategy_name_at(i);
}

/* kernel_patch='s contenders: they run whatever strategy= says. */
static unsigned int bench_memmap_patches(void)
{
	return kernel_patches()->n;
}

/*
 * Why a kernel contender did not run here: what to install or build (a
 * skip), or what the options asked that it cannot do (a failure when
 * nothing else ran), each with the contender's name; "" when it ran.
 */
static char kernel_skip[340], kernel_refused[240];

/*
 * Build @b is in the run: a patch file's (kernel_patch= names it), named,
 * or the kernel as Debian ships it (and its twin with plain returns) with
 * the model at 6.12 and no strategy= (the comparison is what kernel=6.12
 * is for).
 */
static bool kernel_selected(const struct kernel_memmap_build *b)
{
	if (b->patch)
		return true;
	return strategy_selected(b->name) &&
	       (opt_strategy[0] ||
		(opt_kernel == MODEL_KERNEL_6_12 &&
		 kernel_memmap_is_stock(kernel_memmap_object_of(b))));
}

/*
 * The kernel's own code, each selected build started in @k[] on @cfg's
 * namespace as the next contenders (*@n) of layout @l's configuration
 * @config, all checked against the one reference @ref (made here, for
 * the first). Returns the number added; a build not added was refused or
 * skipped (said, and kept for the suite's end), or failed (@test failed naming
 * why).
 */
static unsigned int add_kernels(struct kunit *test, struct kernel_memmap *k,
				struct kernel_memmap_ref *ref,
				const struct page_layout *l,
				const struct memmap_config *cfg,
				const char *config, u64 seed, u32 *n)
{
	unsigned int added = 0;
	char why[300];
	int r;

	unsigned int nr_builds = kernel_memmap_nr_builds();

	for (unsigned int i = 0; i < nr_builds; i++) {
		const struct kernel_memmap_build *b = &kernel_memmap_builds[i];

		if (!kernel_selected(b))
			continue;
		/* the tests' inner runs judge the model's strategies alone */
		if (b->patch && test->quiet)
			continue;
		/* a twin of plain returns where the run sets them all */
		if (b->plain_returns &&
		    plat_kernel_returns_set(why, sizeof(why))) {
			if (opt_strategy[0]) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "strategy=%s and %s together: "
					      "the variable sets the return "
					      "sites of every kernel "
					      "contender, %s's are plain "
					      "returns; unset it, or leave %s "
					      "out",
					      b->name, why, b->name, b->name);
				return added;
			}
			kunit_info(test,
				   "%s %s left out: %s sets the return sites "
				   "of every kernel contender",
				   b->name, config, why);
			continue;
		}
		if (kernel_memmap_refuses(b, l, why, sizeof(why))) {
			kunit_info(test, "%s %s refused: %s", b->name, config,
				   why);
			ntb_snprintf(kernel_refused, sizeof(kernel_refused),
				     "%s: %s", b->name, why);
			continue;
		}
		if (*n == BENCH_MAX_ENTRIES && b->patch) {
			/* every file is a contender: one left out fails */
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s %s: no room: more than %u contenders "
				      "(strategy= leaves some of the others "
				      "out)",
				      b->name, config, BENCH_MAX_ENTRIES);
			continue;
		}
		if (*n == BENCH_MAX_ENTRIES) {
			kunit_info(test,
				   "%s %s skipped: more than %u contenders",
				   b->name, config, BENCH_MAX_ENTRIES);
			continue;
		}
		if (!ref->made &&
		    kernel_memmap_ref_make(ref, cfg, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "strategy=%s %s: the model at 6.12: %s",
				      b->name, config, why);
			return added;
		}
		r = kernel_memmap_start(test, &k[i], b, ref, config, why,
					sizeof(why));
		if (r == 0) {
			kunit_info(test, "%s %s skipped: %s", b->name, config,
				   why);
			ntb_snprintf(kernel_skip, sizeof(kernel_skip), "%s: %s",
				     b->name, why);
		}
		if (r <= 0)
			continue;
		contenders[*n] = (struct contender){
			.test = test,
			.name = b->name,
			.config = config,
			.seed = seed,
			.index = *n,
			.k = &k[i],
		};
		contender_entry(&entries[*n], &contenders[*n]);
		(*n)++;
		added++;
	}
	return added;
}

/* The band within which the model's cost is taken as the kernel's. */
#define MODEL_OVER_KERNEL_LO 970000ull /* VERDICT_SCALE */
#define MODEL_OVER_KERNEL_HI 1030000ull

/*
 * @v's ratio as a line gives it, @name=ratio ci_low= ci_high= scope=
 * processes= (the interval "-" where it has none), into @buf.
 */
static const char *judged_ratio_keys(char *buf, size_t len, const char *name,
				     const struct verdict *v)
{
	char ci[48];

	ntb_snprintf(buf, len, "%s=%s %s scope=%s processes=%u", name,
		     bench_fixed(v->speedup, VERDICT_SCALE, 3),
		     verdict_format_ci(ci, sizeof(ci), v),
		     verdict_scope_name(v->scope), max(v->processes, 1u));
	return buf;
}

/*
 * How far the model's cost is from the kernel's in one configuration:
 * the model's strategy @model_name (the build's model:, the slow path for
 * the kernel as Debian ships it, tmpl_nt_fixed for the series) over the
 * kernel's own code of that build (@kernel_code: the build, or its twin
 * with plain returns, as the model has no thunk), judged as a claim's
 * two sides are (verdict_judge(): over processes where there are
 * several, else over the runs), with its interval.
 */
static void print_model_over_kernel(const char *config,
				    const struct verdict_config *where,
				    const struct verdict_samples *vs, u32 nv,
				    const char *model_name,
				    const char *kernel_code)
{
	static const struct verdict_claim claim = {
		.what = "the model over the kernel's own code of one build",
		.suite = "bench_memmap_init",
	};
	const struct verdict_samples *model, *kernel;
	enum verdict_band band;
	char why[32] = "", keys[128];
	struct verdict v;

	model = verdict_find_samples(vs, nv, model_name);
	kernel = verdict_find_samples(vs, nv, kernel_code);
	if (!model || !kernel)
		return;
	verdict_judge(&claim, where, model, kernel, &v);
	/* runs=1: no run after the cold one to judge */
	if (!v.n_before || !v.n_after)
		return;
	/* In the band only by an interval: an estimate alone says nothing. */
	band = verdict_in_band(&v, MODEL_OVER_KERNEL_LO, MODEL_OVER_KERNEL_HI);
	if (band == VERDICT_BAND_UNTESTED)
		verdict_no_interval_reason(why, sizeof(why), &v);
	kunit_diag(
		"# model_over_kernel suite=bench_memmap_init %s "
		"model=%s model_kernel=%s kernel_code=%s model_ns=%llu "
		"kernel_ns=%llu %s band=%s..%s in_band=%s%s%s\n",
		config, model_name, model_kernel_name(opt_kernel), kernel_code,
		v.before_ns, v.after_ns,
		judged_ratio_keys(keys, sizeof(keys), "model_over_kernel", &v),
		bench_fixed(MODEL_OVER_KERNEL_LO, VERDICT_SCALE, 3),
		bench_fixed(MODEL_OVER_KERNEL_HI, VERDICT_SCALE, 3),
		verdict_band_name(band), why[0] ? " reason=" : "", why);
}

/*
 * What the CPU's return thunk costs the kernel's code in one
 * configuration: each build that ran beside its twin with plain returns
 * (@kernels[], as kernel_memmap_builds[]), the build over the twin,
 * judged as a claim's two sides are, with its interval.
 */
static void print_mitigations(const char *config,
			      const struct verdict_config *where,
			      const struct verdict_samples *vs, u32 nv,
			      const struct kernel_memmap *kernels)
{
	static const struct verdict_claim claim = {
		.what = "the kernel's code on its return thunk over the same "
			"with plain returns",
		.suite = "bench_memmap_init",
	};

	for (unsigned int i = 0; i < KERNEL_MEMMAP_NR_BUILDS; i++) {
		const struct kernel_memmap_build *b = &kernel_memmap_builds[i];
		const struct kernel_memmap_build *twin =
			kernel_memmap_plain_twin(b);
		const struct verdict_samples *thunk, *plain;
		char why[32] = "", keys[128];
		struct verdict v;

		if (!twin || !kernels[i].started)
			continue;
		thunk = verdict_find_samples(vs, nv, b->name);
		plain = verdict_find_samples(vs, nv, twin->name);
		if (!thunk || !plain)
			continue;
		verdict_judge(&claim, where, thunk, plain, &v);
		if (!v.n_before || !v.n_after)
			continue; /* runs=1: no run after the cold one */
		if (!v.has_ci)
			verdict_no_interval_reason(why, sizeof(why), &v);
		kunit_diag("# mitigation suite=bench_memmap_init %s "
			   "kernel_code=%s ret_code=%s return_thunk=%s "
			   "return_thunk_from=\"%s\" thunk_ns=%llu "
			   "ret_ns=%llu %s%s%s\n",
			   config, b->name, twin->name,
			   kernels[i].call.return_thunk,
			   kernels[i].call.return_thunk_from, v.before_ns,
			   v.after_ns,
			   judged_ratio_keys(keys, sizeof(keys), "cost", &v),
			   why[0] ? " reason=" : "", why);
	}
}

/*
 * Every selected strategy and every fill of one layout and mode over one
 * namespace, interleaved. @corrupt (tests): the strategy whose run
 * @corrupt_run goes wrong, as @how says. Returns the number of
 * strategies measured.
 */
static unsigned int bench_one_config(struct kunit *test,
				     const struct page_layout *l,
				     unsigned int order, u64 ns, void *buf,
				     size_t buf_bytes, u64 seed,
				     const char *corrupt, u32 corrupt_run,
				     enum corrupt_how how)
{
	const struct memmap_strategy *s;
	struct memmap_config cfg;
	struct memmap m;
	u64 slow_ns = 0, limit_ns = 0, bytes;
	const char *slow_name = NULL;
	unsigned long written;
	static struct bench_unreachable unreachable;
	char why[200], config[80], ctx[112], where[112], unreach[200];
	char kernel_key[24]; /* " kernel=6.12", or "" for the base */
	static struct verdict_samples vs[BENCH_MAX_ENTRIES];
	static u64 warm[BENCH_MAX_ENTRIES][BENCH_MAX_RUNS];
	/* the kernel's builds, and the bytes all of them must write */
	static struct kernel_memmap kernels[KERNEL_MEMMAP_MAX_BUILDS];
	static struct kernel_memmap_ref kref;
	unsigned int n_kernels;
	struct verdict_config where_judged;
	unsigned int done = 0, n_strategies = 0;
	u32 n = 0, nv = 0;
	int best;

	if (memmap_config_namespace(&cfg, l->id, order, ns, opt_map, unreach,
				    sizeof(unreach))) {
		kunit_fail_at(test, __FILE__, __LINE__, "page_size=%u %s: %s",
			      l->size, memmap_mode_name(order), unreach);
		return 0;
	}
	cfg.drain = opt_drain;
	/* the series' claims on every layout: memmap_unreachable() says where
	 */
	cfg.ungated = true;
	cfg.kernel = opt_kernel;
	if (memmap_create(&m, &cfg, buf, buf_bytes, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "page_size=%u %s: %s",
			      l->size, memmap_mode_name(order), why);
		return 0;
	}
	written = memmap_pages_written(&m);
	bytes = (u64)written * l->size;
	ntb_snprintf(kernel_key, sizeof(kernel_key), "%s%s",
		     opt_kernel ? " kernel=" : "",
		     opt_kernel ? model_kernel_name(opt_kernel) : "");
	ntb_snprintf(config, sizeof(config), "page_size=%u mode=%s map=%s%s",
		     l->size, memmap_mode_name(order),
		     nd_pfn_mode_name(opt_map), kernel_key);
	ntb_snprintf(ctx, sizeof(ctx), " for=bench_memmap_init %s", config);
	add_fills(test, contenders, entries, &n, buf, bytes, config, seed);
	add_probe(test, contenders, entries, &n, buf, bytes, config, seed);

	for_each_memmap_strategy(s)
	{
		if (!strategy_selected(s->name))
			continue;
		if (!memmap_strategy_usable(s, l, why, sizeof(why))) {
			kunit_info(test, "%s %s skipped: %s", s->name, config,
				   why);
			continue;
		}
		if (memmap_kernel_refuses(opt_kernel, s, l, why, sizeof(why))) {
			kunit_info(test, "%s %s refused: %s", s->name, config,
				   why);
			continue;
		}
		if (n == BENCH_MAX_ENTRIES) {
			kunit_info(test,
				   "%s %s skipped: more than %u "
				   "contenders",
				   s->name, config, BENCH_MAX_ENTRIES);
			continue;
		}
		bench_unreachable_add(&unreachable, s, l);
		contenders[n] = (struct contender){
			.test = test,
			.name = s->name,
			.config = config,
			.seed = seed,
			.index = n,
			.m = &m,
			.s = s,
			.corrupt_run = corrupt && !strcmp(corrupt, s->name)
					       ? corrupt_run
					       : 0,
			.corrupt_how = how,
		};
		contender_entry(&entries[n], &contenders[n]);
		n++;
		n_strategies++;
	}
	n_kernels =
		add_kernels(test, kernels, &kref, l, &cfg, config, seed, &n);
	n_strategies += n_kernels;
	/* Nothing of the kernel's to time: no fills alone either. */
	if (opt_kernel && !n_strategies)
		goto out;
	ntb_snprintf(where, sizeof(where), "%s layout=%s", config, l->name);
	if (!test->quiet)
		bench_unreachable_print(&unreachable, where);
	/* A namespace the kernel would not create: timed, and said so. */
	if (unreach[0] && !test->quiet && n)
		kunit_diag("# unreachable: %s strategies=all: %s\n", where,
			   unreach);
	unreachable.nr = 0;
	/* the kernel contenders' bytes, once, before any of them runs */
	if (n_kernels)
		kernel_memmap_ref_write(&kref);
	if (!n ||
	    bench_interleave(entries, n, opt_runs, seed, "bench_memmap_init"))
		goto out;

	best = fastest_fill(contenders, entries, n);
	last_n = n;
	last_best = best;
	if (best >= 0)
		limit_ns = entries[best].res.median_ns;
	if (!test->quiet)
		print_limit_line("bench_memmap_init", config, contenders,
				 entries, n, best);
	for (u32 i = 0; i < n; i++)
		if (contenders[i].fill && !entries[i].failed && !test->quiet)
			print_fill(&contenders[i], &entries[i], ctx);
	for (u32 i = 0; i < n; i++)
		if (contenders[i].probe && !entries[i].failed && !test->quiet)
			print_probe(&contenders[i], &entries[i], ctx);
	for (u32 i = 0; i < n; i++)
		if (contenders[i].s && !entries[i].failed &&
		    contenders[i].s->copy == MEMMAP_SLOW) {
			slow_ns = entries[i].res.median_ns;
			slow_name = contenders[i].name;
		}

	/* Only verified strategies become numbers. */
	for (u32 i = 0; i < n; i++) {
		const struct bench_result *r = &entries[i].res;
		char keys[RESULT_KEYS_LEN];
		/*
		 * The pages its run initialised: the kernel's are those of its
		 * reference (compared with it page for page), and the model's
		 * memmap never runs where the kernel's code is alone.
		 */
		unsigned long pages = contenders[i].k ? kref.m.nr_initialised
						      : m.nr_initialised;

		if (!is_strategy(&contenders[i]) || entries[i].failed)
			continue;
		done++;
		if (test->quiet)
			continue;
		kunit_diag(
			"# metric suite=bench_memmap_init strategy=%s "
			"page_size=%u layout=%s mode=%s map=%s memmap_in=%s "
			"end_trunc=%llu pages=%lu written=%lu "
			"bytes=%llu %s ns_per_page=%s gbps=%s limit_frac=%s limit=%s "
			"drain=%s %snode=%d limit_ns=%llu "
			"beats_limit=%d%s",
			contenders[i].name, l->size, l->name,
			memmap_mode_name(order), nd_pfn_mode_name(opt_map),
			memmap_in_name, (unsigned long long)cfg.end_trunc,
			pages, written, bytes,
			result_keys(keys, sizeof(keys), r),
			bench_fixed(r->median_ns, pages, 3),
			bench_gbps(bytes, r->median_ns),
			limit_ns ? bench_fixed(limit_ns, r->median_ns, 3) : "0",
			best >= 0 ? contenders[best].name : "none",
			opt_drain ? "on" : "off", bench_eff_mhz_key(r),
			plat_numa_node_of(buf), limit_ns,
			limit_ns && r->median_ns < limit_ns, kernel_key);
		bench_print_samples(r);
		bench_summary_add(&(struct bench_summary_row){
			.strategy = contenders[i].name,
			.page_size = l->size,
			.mode = memmap_mode_name(order),
			.median_ns = r->median_ns,
			.pages = pages,
			.limit_ns = limit_ns,
			.limit = best >= 0 ? contenders[best].name : "-",
			.slow_ns = slow_ns,
		});
		vs[nv] = (struct verdict_samples){
			.name = contenders[i].name,
			.ns = warm[nv],
			.n = bench_warm_samples(r, warm[nv]),
			.processes = r->processes,
		};
		nv++;
	}
	/* The fills and the probe, for the states: do they follow them? */
	for (u32 i = 0; i < n && !test->quiet; i++) {
		if (is_strategy(&contenders[i]) || entries[i].failed)
			continue;
		vs[nv] = (struct verdict_samples){
			.name = contenders[i].name,
			.ns = warm[nv],
			.n = bench_warm_samples(&entries[i].res, warm[nv]),
			.processes = entries[i].res.processes,
			.kind = contenders[i].probe ? VERDICT_SAMPLES_PROBE
						    : VERDICT_SAMPLES_FILL,
		};
		nv++;
	}
	where_judged = (struct verdict_config){
		.suite = "bench_memmap_init",
		.page_size = l->size,
		.mode = memmap_mode_name(order),
		.map = nd_pfn_mode_name(opt_map),
		.baseline = slow_name,
	};
	/* The kernel's code: every run checked, and the model's cost. */
	for (u32 i = 0; i < n && !test->quiet; i++)
		if (contenders[i].k && !entries[i].failed)
			kunit_diag("# kernel-memmap: suite=bench_memmap_init "
				   "strategy=%s %s pfns=%lu pageblocks=%lu "
				   "identical=1 model=slow model_kernel=6.12 "
				   "timed=yes runs=%u\n",
				   contenders[i].name, config, m.nr_pfns,
				   contenders[i].k->call.nr_pageblocks,
				   opt_runs);
	if (!test->quiet) {
		/* each build and twin that ran beside its model: */
		for (unsigned int i = 0; i < KERNEL_MEMMAP_NR_BUILDS; i++)
			print_model_over_kernel(config, &where_judged, vs, nv,
						kernel_memmap_builds[i].model,
						kernel_memmap_builds[i].name);
		print_mitigations(config, &where_judged, vs, nv, kernels);
	}
	/* The postings' claims this configuration can judge. */
	if (nv)
		verdict_publish(&where_judged, vs, nv);
out:
	for (unsigned int i = 0; i < KERNEL_MEMMAP_MAX_BUILDS; i++)
		kernel_memmap_stop(&kernels[i]);
	kernel_memmap_ref_free(&kref);
	memmap_destroy(&m);
	return done;
}

static void bench_memmap_all(struct kunit *test)
{
	static const u32 modes[] = {MODE_FSDAX, MODE_DEVDAX2M, MODE_DEVDAX1G};
	unsigned int max_size = max_layout_size();
	u64 ns;
	size_t buf_bytes;
	bool in_pmem;
	void *buf =
		bench_memmap_buffer(test, max_size, &ns, &buf_bytes, &in_pmem);
	unsigned int measured = 0;
	char why[200];
	u64 seed = bench_seed();

	if (!buf && test->status != KUNIT_FAILURE)
		kunit_skip(test, "cannot allocate %zu MiB", buf_bytes >> 20);
	if (!buf)
		return;
	memmap_in_name = in_pmem ? "pmem" : "dram";
	kernel_skip[0] = kernel_refused[0] = 0;
	/* kernel_patch='s builds, before the first round (found kept here
	 * where the run's parent built them before its workers) */
	kernel_patch_build_all();
	init_template();
	bench_summary_reset();
	kunit_info(test,
		   "namespace %llu MiB (%llu pfns), runs=%u, drain=%s; "
		   "bytes counted = bytes written to the destination; "
		   "limit = the fastest fill of the same bytes; %u "
		   "rounds, each in a shuffled order, seed=%llu",
		   ns >> 20, ns / 4096, opt_runs,
		   opt_drain ? "on" : "off (research mode)", opt_runs, seed);
	if (opt_kernel)
		kunit_info(test,
			   "kernel=%s: the model writes what that kernel "
			   "writes (docs/model.md, \"The two kernels\")",
			   model_kernel_name(opt_kernel));
	for (u32 li = 0; li < opt_layout.n; li++) {
		const struct page_layout *l =
			page_layout_for_size(opt_layout.v[li]);

		if (memmap_kernel_refuses(opt_kernel, NULL, l, why,
					  sizeof(why))) {
			kunit_info(test, "layout=%s refused: %s", l->name, why);
			continue;
		}

		for (unsigned int mi = 0; mi < ARRAY_SIZE(modes); mi++) {
			unsigned int order;

			if (!(opt_mode & modes[mi]))
				continue;
			order = memmap_mode_order(modes[mi]);
			/* A namespace smaller than one folio has no devdax
			 * mode. */
			if (ns < (4096ull << order)) {
				kunit_info(test,
					   "%s skipped: namespace smaller "
					   "than one folio",
					   memmap_mode_name(order));
				continue;
			}
			measured += bench_one_config(test, l, order, ns, buf,
						     buf_bytes, seed, NULL, 0,
						     CORRUPT_TAIL);
		}
	}
	/* the kernel's code alone, and it cannot run here */
	if (!measured && kernel_skip[0] && test->status != KUNIT_FAILURE)
		kunit_mark_skipped(test, "%s", kernel_skip);
	/* the kernel's code alone, refused: an option that ran nothing */
	else if (!measured && kernel_refused[0] &&
		 test->status != KUNIT_FAILURE)
		kunit_fail_at(test, __FILE__, __LINE__, "nothing ran: %s",
			      kernel_refused);
	/* kernel= refuses what strategy= and layout= chose: say so. */
	else if (opt_kernel && !measured && test->status != KUNIT_FAILURE)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "kernel=%s: no selected strategy and layout "
			      "runs on it (it has strategy=slow on layout=64)",
			      model_kernel_name(opt_kernel));
	print_table();
	if (!in_pmem)
		plat_free(buf, buf_bytes);
}

#ifdef NTB_HOST_TESTS
/*
 * The checks of every run catch a strategy that goes wrong in one run
 * after the first (the cold run is checked in full anyway): the case
 * expects to fail, so it runs inside a child kunit context.
 */
static void bench_memmap_catches_bad_run(struct kunit *test)
{
	const struct page_layout *l = page_layout_for_size(64);
	u64 ns = 64ull << 20;
	size_t bytes = ns / 4096 * 64;
	void *buf = plat_alloc_aligned(bytes, BUF_ALIGN);
	u32 saved_runs = opt_runs;
	struct kunit inner;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	init_template();
	opt_runs = 5;
	for (u32 bad = 0; bad < 8; bad++) {
		u32 bad_run = 2 + bad / 2;
		unsigned int done;
		char want[32];

		inner = (struct kunit){.name = "inner", .quiet = true};
		done = bench_one_config(&inner, l, 0, ns, buf, bytes, 7,
					"tmpl_memcpy", bad_run,
					bad % 2 ? CORRUPT_SKIP : CORRUPT_TAIL);
		ntb_snprintf(want, sizeof(want), "run %u of tmpl_memcpy ",
			     bad_run);
		if (inner.status != KUNIT_FAILURE ||
		    strncmp(inner.status_comment, want, strlen(want)))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "run %u of tmpl_memcpy %s; the checks "
				      "said \"%s\"",
				      bad_run,
				      bad % 2 ? "wrote nothing"
					      : "wrote a wrong memmap",
				      inner.status_comment);
		/* The others are still measured and reported. */
		KUNIT_EXPECT_GT(test, done, 0);
	}
	/*
	 * One struct page wrong in the last run, outside that run's sample:
	 * the full check after the last run finds it.
	 */
	inner = (struct kunit){.name = "inner", .quiet = true};
	bench_one_config(&inner, l, 0, ns, buf, bytes, 7, "tmpl_memcpy",
			 opt_runs, CORRUPT_ONE_PAGE);
	if (inner.status != KUNIT_FAILURE ||
	    !strstr(inner.status_comment, "run 5 of tmpl_memcpy "))
		kunit_fail_at(test, __FILE__, __LINE__,
			      "one page wrong in the last run went unseen; the "
			      "checks said \"%s\"",
			      inner.status_comment);
	/* And no false alarm when nothing goes wrong. */
	inner = (struct kunit){.name = "inner", .quiet = true};
	KUNIT_EXPECT_GT(test,
			bench_one_config(&inner, l, 0, ns, buf, bytes, 7, NULL,
					 0, CORRUPT_TAIL),
			0);
	KUNIT_EXPECT_STREQ(test, inner.status_comment, "");
	KUNIT_EXPECT_TRUE(test, inner.status != KUNIT_FAILURE);
	/* The limit is the fill with the lowest median, of any kind. */
	KUNIT_ASSERT_GE(test, last_best, 0);
	KUNIT_EXPECT_TRUE(test, contenders[last_best].fill != NULL);
	for (u32 i = 0; i < last_n; i++)
		if (contenders[i].fill)
			KUNIT_EXPECT_LE(test, entries[last_best].res.median_ns,
					entries[i].res.median_ns);
	opt_runs = saved_runs;
	bench_summary_reset();
	plat_free(buf, bytes);
}
#endif

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
#ifdef NTB_HOST_TESTS
	KUNIT_CASE(bench_memmap_catches_bad_run),
#endif
	KUNIT_CASE(bench_memmap_all),
};

KUNIT_SUITE_DEFINE(bench_limit_suite, "bench_limit", bench_limit_cases,
		   .suite_init = bench_init, .flags = KUNIT_SUITE_TIMED);
KUNIT_SUITE_DEFINE(bench_memmap_suite, "bench_memmap_init", bench_memmap_cases,
		   .suite_init = bench_init,
		   .strategy_name = bench_memmap_strategy_name,
		   .strategies_always = bench_memmap_patches,
		   .flags = KUNIT_SUITE_TIMED);
