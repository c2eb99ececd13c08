// SPDX-License-Identifier: GPL-2.0-only
/*
 * The patch postings say the non-temporal template path pollutes the
 * cache less than the cached one. This measures it: a buffer that a
 * program keeps warm (the size of L2, and of half the LLC) is read, one
 * memmap_init_zone_device() of a namespace whose memmap is several times
 * the LLC runs with strategy X, and the buffer is read again. The read
 * times are placed between two references of the same buffer:
 *
 *   warm   read right after a read: everything the caches keep
 *   cold   read after CLFLUSH of every line: nothing cached
 *   after  read after a read and one memmap init
 *
 *   evicted = (after - warm) / (cold - warm), clamped to 0..100 %
 *
 * The "idle" row is the control: the same read after a wait as long as
 * the fastest init, without one. What it evicts, the rest of the machine
 * evicted (interrupts, a hypervisor moving this CPU, cache neighbours).
 *
 * A read loads one word per line in a scattered order (a Fibonacci-hash
 * stride), so the prefetchers cannot hide the misses and the time tracks
 * the lines that are gone. Every memmap the runs wrote is checked with
 * memmap_verify() afterwards.
 */
#include "arch/x86/special_insns.h"
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "tests/engines/memmap_case.h"
#include "lib/string.h"
#include "lib/timing.h"
#include "model/memmap.h"
#include "tests/engines/bench_util.h"

#define SUITE "bench_pollution"

/* The memmap is this many times the LLC, so a cached init can flush it. */
#define MEMMAP_LLC_MULT 4
/* ...and at least this many times the buffer (tiny runs shrink both). */
#define MEMMAP_BUF_MULT 4
/*
 * Each "after" sample costs a whole memmap init: a few samples give a
 * stable median, since the evicted share hardly varies between runs.
 */
#define MAX_RUNS 5
#define POISON 0x5a

static struct {
	struct bench_caches caches;
	struct memmap m;
	bool have_memmap;
	u64 namespace_bytes;
	const char *scaled;	/* why the namespace is smaller, or NULL */
	u32 runs;
	u64 init_cycles_min;	/* the fastest memmap init of this buffer */
} pl;

struct pl_buf {
	const char *name;	/* "l2", "half_llc" */
	u8 *p;
	size_t bytes;
	size_t lines;
	size_t step;		/* in lines, coprime with @lines */
	size_t line;
};

static u64 read_sink;

static void read_buf(void *arg)
{
	const struct pl_buf *b = arg;
	const u8 *p = b->p;
	size_t idx = 0, step = b->step, lines = b->lines, line = b->line;
	u64 sum = 0;

	for (size_t i = 0; i < lines; i++) {
		sum += *(const volatile u64 *)(p + idx * line);
		idx += step;
		if (idx >= lines)
			idx -= lines;
	}
	WRITE_ONCE(read_sink, sum);
}

static void flush_buf(void *arg)
{
	const struct pl_buf *b = arg;

	for (size_t off = 0; off < b->bytes; off += b->line)
		clflush(b->p + off);
	mfence();
}

static void warm_then_init(void *arg)
{
	u64 t0;

	read_buf(arg);
	t0 = rdtsc_ordered();
	memmap_run(&pl.m);
	pl.init_cycles_min = min(pl.init_cycles_min, rdtsc_ordered() - t0);
}

/*
 * The control: as long as the fastest init took, without one. What it
 * evicts, something else took (interrupts, a hypervisor moving this
 * CPU, a neighbour on a shared cache).
 */
static void warm_then_idle(void *arg)
{
	u64 t0;

	read_buf(arg);
	t0 = rdtsc_ordered();
	while (rdtsc_ordered() - t0 < pl.init_cycles_min)
		asm volatile("pause");
}

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* About 0.618 of the buffer per step: neighbours are far apart in time. */
static size_t scatter_step(size_t lines)
{
	size_t step;

	if (lines < 3)
		return 1;
	step = (size_t)(((u64)lines * 2654435769ull) >> 32) | 1;
	while (gcd(step, lines) != 1)
		step += 2;
	return step % lines;
}

static bool buf_setup(struct kunit *test, struct pl_buf *b, const char *name,
		      u64 want, const char *what)
{
	u64 cap = memmap_bytes(&pl.m.cfg) / MEMMAP_BUF_MULT;
	u64 bytes = want;

	if (bytes > cap) {
		bytes = cap;
		kunit_info(test, "buffer %s scaled down from %s (%s) to %s: "
				 "a quarter of the %s memmap",
			   name, bench_size_str(want), what,
			   bench_size_str(cap), bench_size_str(cap * 4));
	}
	bytes = ALIGN_DOWN(bytes, SZ_4K);
	if (!bytes)
		bytes = SZ_4K;
	b->name = name;
	b->bytes = bytes;
	b->line = pl.caches.line_bytes;
	b->lines = bytes / b->line;
	b->step = scatter_step(b->lines);
	b->p = plat_alloc_aligned(bytes, bytes >= SZ_2M ? SZ_2M : SZ_4K);
	if (!b->p)
		return false;
	/* Non-zero contents; also faults every page in before timing. */
	memset(b->p, 0xa5, bytes);
	return true;
}

/*
 * A flushed read must be clearly slower than a warm one for the share to
 * mean anything: by a quarter at least (on silicon it is several times).
 */
static bool cold_is_slower(u64 warm, u64 cold)
{
	return cold > warm && cold - warm >= warm / 4;
}

/* (after - warm) / (cold - warm) in tenths of a percent, or -1. */
static int evicted_permille(u64 warm, u64 after, u64 cold)
{
	u64 v;

	if (!cold_is_slower(warm, cold))
		return -1;
	if (after <= warm)
		return 0;
	v = (after - warm) * 1000 / (cold - warm);
	return v > 1000 ? 1000 : (int)v;
}

static const char *permille_str(int pm)
{
	return pm < 0 ? "na" : bench_fixed(pm, 10, 1);
}

struct pl_row {
	const char *strategy;
	u64 after_ns;
	int pm;
};

struct pl_case {
	struct pl_buf b;
	struct bench_result warm, cold;
	/* Their samples, kept: a result's own last only to the next one. */
	u64 warm_samples[BENCH_MAX_RUNS], cold_samples[BENCH_MAX_RUNS];
	struct pl_row rows[32];
	unsigned int nr_rows;
};

/* Copy @r's samples into @keep and point @r at them. */
static void keep_samples(struct bench_result *r, u64 *keep)
{
	memcpy(keep, r->samples, r->runs * sizeof(*keep));
	r->samples = keep;
}

/*
 * One metric line and one row of the summary; samples_ns= are the runs
 * 2..N behind after_ns (@after must be the last measurement), and
 * warm_samples_ns= and cold_samples_ns= those behind warm_ns and cold_ns,
 * so that evicted_pct can be recomputed from what was measured.
 */
static void report(struct pl_case *c, const char *strategy,
		   const struct bench_result *after)
{
	/* 20 digits and a comma per sample. */
	static char warm[BENCH_MAX_RUNS * 21 + 32], cold[sizeof(warm)];
	int pm = evicted_permille(c->warm.median_ns, after->median_ns,
				  c->cold.median_ns);

	bench_format_samples_as(warm, sizeof(warm), "warm_samples_ns",
				&c->warm);
	bench_format_samples_as(cold, sizeof(cold), "cold_samples_ns",
				&c->cold);
	kunit_diag("# metric suite=" SUITE " strategy=%s buffer=%s "
		   "buffer_bytes=%zu page_size=%u mode=%s memmap_bytes=%zu "
		   "runs=%u warm_ns=%llu after_ns=%llu cold_ns=%llu "
		   "after_first_ns=%llu evicted_pct=%s node=%d",
		   strategy, c->b.name, c->b.bytes, pl.m.layout->size,
		   memmap_mode_name(pl.m.cfg.order), pl.m.bytes, after->runs,
		   c->warm.median_ns, after->median_ns, c->cold.median_ns,
		   after->first_ns, permille_str(pm),
		   plat_numa_node_of(c->b.p));
	/* Past the diagnostic line's buffer: the series go out as they are. */
	plat_console_write(warm, min(strlen(warm), sizeof(warm) - 1));
	plat_console_write(cold, min(strlen(cold), sizeof(cold) - 1));
	bench_print_samples(after);
	if (c->nr_rows < ARRAY_SIZE(c->rows))
		c->rows[c->nr_rows++] =
			(struct pl_row){ strategy, after->median_ns, pm };
}

static void print_summary(const struct pl_case *c)
{
	kunit_diag("# " SUITE " %s (%s) summary: share of the buffer evicted "
		   "by one memmap init of %s\n",
		   c->b.name, bench_size_str(c->b.bytes),
		   bench_size_str(pl.m.bytes));
	kunit_diag("# %-16s %12s %9s\n", "strategy", "after_us", "evicted");
	for (unsigned int i = 0; i < c->nr_rows; i++)
		kunit_diag("# %-16s %12s %8s%s\n", c->rows[i].strategy,
			   bench_fixed(c->rows[i].after_ns, 1000, 1),
			   permille_str(c->rows[i].pm),
			   c->rows[i].pm < 0 ? "" : "%");
}

/* Strategy @s: false when it wrote a wrong memmap (the test failed). */
static bool measure_strategy(struct kunit *test, struct pl_case *c,
			     const struct memmap_strategy *s)
{
	struct bench_result after;
	struct memmap_report rep;
	char why[120];

	if (memmap_set_strategy(&pl.m, s->name, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "%s: %s", s->name,
			      why);
		return false;
	}
	bench_progress(SUITE " %s buffer=%s", s->name, c->b.name);
	/* Poisoned, so the check proves this strategy wrote it all. */
	memmap_poison(&pl.m, POISON);
	warm_then_init(&c->b);
	bench_measure(&after, pl.runs, read_buf, &c->b, warm_then_init);
	if (!memmap_verify(&pl.m, &rep)) {
		memmap_report_format(&rep, why, sizeof(why));
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s wrote a wrong memmap: %s", s->name, why);
		return false;
	}
	report(c, s->name, &after);
	return true;
}

static void bench_buffer(struct kunit *test, const char *name, u64 want,
			 const char *what)
{
	/* Static: the rows make it too large for the image's stack. */
	static struct pl_case c;
	const struct memmap_strategy *s;
	struct bench_result idle;
	static struct bench_unreachable unreachable;
	char why[120], where[64];

	if (!pl.have_memmap)
		kunit_skip(test, "no memmap");
	memset(&c, 0, sizeof(c));
	if (!buf_setup(test, &c.b, name, want, what))
		kunit_skip(test, "cannot allocate %s",
			   bench_size_str(c.b.bytes));

	read_buf(&c.b);
	bench_measure(&c.warm, pl.runs, read_buf, &c.b, NULL);
	keep_samples(&c.warm, c.warm_samples);
	flush_buf(&c.b);
	bench_measure(&c.cold, pl.runs, read_buf, &c.b, flush_buf);
	keep_samples(&c.cold, c.cold_samples);
	kunit_info(test, "buffer %s %s: warm %llu ns, cold %llu ns (%s lines, "
			 "step %zu)",
		   name, bench_size_str(c.b.bytes), c.warm.median_ns,
		   c.cold.median_ns, bench_fixed(c.b.lines, 1, 0), c.b.step);
	if (!cold_is_slower(c.warm.median_ns, c.cold.median_ns))
		kunit_info(test, "a flushed buffer reads less than a quarter "
				 "slower than a warm one (no cache model, as "
				 "under QEMU TCG, or the buffer does not stay "
				 "cached): evicted_pct=na");

	pl.init_cycles_min = ~0ull;
	for_each_memmap_strategy(s) {
		if (!glob_list_match(opt_strategy, s->name))
			continue;
		if (!memmap_strategy_usable(s, pl.m.layout, why, sizeof(why))) {
			kunit_info(test, "%s skipped: %s", s->name, why);
			continue;
		}
		bench_unreachable_add(&unreachable, s, pl.m.layout);
		measure_strategy(test, &c, s);
	}
	ntb_snprintf(where, sizeof(where), "page_size=%u layout=%s",
		     pl.m.layout->size, pl.m.layout->name);
	bench_unreachable_print(&unreachable, where);
	if (pl.init_cycles_min != ~0ull) {
		read_buf(&c.b);
		bench_measure(&idle, pl.runs, read_buf, &c.b, warm_then_idle);
		kunit_info(test, "idle: the same read after %llu ns without a "
				 "memmap init (the fastest init's time): what "
				 "else evicts the buffer",
			   cycles_to_ns(pl.init_cycles_min));
		report(&c, "idle", &idle);
	}
	print_summary(&c);
	plat_free(c.b.p, c.b.bytes);
}

static void cache_sizes(struct kunit *test)
{
	const struct bench_caches *c = &pl.caches;

	bench_caches_print(SUITE, c);
	KUNIT_EXPECT_GT(test, c->l2_bytes, 0);
	KUNIT_EXPECT_GE(test, c->llc_bytes, c->l2_bytes);
	KUNIT_EXPECT_GE(test, c->line_bytes, 32);
	KUNIT_EXPECT_EQ(test, c->line_bytes & (c->line_bytes - 1), 0);
	if (c->l1d_bytes)
		KUNIT_EXPECT_LE(test, c->l1d_bytes, c->l2_bytes);
}

static void buffer_l2(struct kunit *test)
{
	bench_buffer(test, "l2", pl.caches.l2_bytes, "the L2");
}

static void buffer_half_llc(struct kunit *test)
{
	bench_buffer(test, "half_llc", pl.caches.llc_bytes / 2,
		     "half the LLC");
}

/*
 * The namespace: its memmap MEMMAP_LLC_MULT times the LLC, no larger than
 * the namespace option (a tiny one asks for a quick run) nor than free
 * memory allows.
 */
static u64 pick_namespace(unsigned int page_size)
{
	u64 want = ALIGN_UP(pl.caches.llc_bytes * MEMMAP_LLC_MULT / page_size *
				    4096,
			    SZ_2M);
	u64 avail = plat_mem_available();
	/* Half the room: the buffers need some too. 0: cannot tell. */
	u64 room = avail ? bench_mem_room() / 2 : ~0ull;

	pl.scaled = NULL;
	if (opt_namespace < want) {
		want = opt_namespace;
		pl.scaled = "the namespace option";
	}
	if (want / 4096 * page_size > room) {
		want = ALIGN_DOWN(room / page_size * 4096, SZ_2M);
		pl.scaled = "free memory";
	}
	return want;
}

static int pl_init(struct kunit_suite *suite, char *reason, size_t len)
{
	const struct page_layout *l =
		page_layout_for_size(opt_layout.n ?
					     opt_layout.v[0] : 64);
	struct memmap_config cfg;

	if (bench_kernel_base_only(reason, len))
		return 1;
	bench_progress_reset();
	bench_caches_detect(&pl.caches);
	pl.runs = min(min(opt_runs, (u32)BENCH_MAX_RUNS),
		      (u32)MAX_RUNS);
	pl.namespace_bytes = pick_namespace(l->size);
	if (pl.namespace_bytes < SZ_2M) {
		ntb_snprintf(reason, len, "too little memory for a memmap");
		return -1;
	}
	/* map=mem: the pollution is measured against the whole memmap */
	if (memmap_config_namespace(&cfg, l->id, MEMMAP_ORDER_FSDAX,
				    pl.namespace_bytes, PFN_MODE_RAM, reason,
				    len))
		return -1;
	cfg.drain = opt_drain;
	/* the series' claims on every layout: memmap_unreachable() says where */
	cfg.ungated = true;
	if (memmap_create(&pl.m, &cfg, NULL, 0, reason, len))
		return -1;
	pl.have_memmap = true;

	kunit_diag("# " SUITE ": memmap of a %s fsdax namespace, %s of %u-byte "
		   "struct pages = %s x the %s LLC%s%s%s; runs=%u%s\n",
		   bench_size_str(pl.namespace_bytes),
		   bench_size_str(pl.m.bytes), l->size,
		   bench_fixed(pl.m.bytes, pl.caches.llc_bytes, 2),
		   bench_size_str(pl.caches.llc_bytes),
		   pl.scaled ? " (limited by " : "", pl.scaled ? pl.scaled : "",
		   pl.scaled ? ")" : "", pl.runs,
		   opt_runs > pl.runs ?
			   " (fewer than asked: each sample is a whole "
			   "memmap init)" : "");
	if (pl.m.bytes < 2 * pl.caches.llc_bytes)
		kunit_diag("# " SUITE ": the memmap is less than twice the "
			   "LLC: even a cached init may leave part of a "
			   "buffer\n");
	kunit_diag("# " SUITE ": bytes counted = bytes written to the "
		   "destination: memmap_bytes is what one init writes\n");
	kunit_diag("# " SUITE ": times are medians of one read of the buffer "
		   "(a load per line); evicted_pct = (after - warm) / "
		   "(cold - warm)\n");
	return 0;
}

static void pl_exit(struct kunit_suite *suite)
{
	if (pl.have_memmap)
		memmap_destroy(&pl.m);
	pl.have_memmap = false;
}

static const struct kunit_case bench_pollution_cases[] = {
	KUNIT_CASE(cache_sizes),
	KUNIT_CASE(buffer_l2),
	KUNIT_CASE(buffer_half_llc),
};

KUNIT_SUITE_DEFINE(bench_pollution_suite, SUITE, bench_pollution_cases,
		   .suite_init = pl_init, .suite_exit = pl_exit,
		   .strategy_name = memmap_strategy_name_at,
		   .cpu_needs = KUNIT_NEEDS_SSE2,
		   .flags = KUNIT_SUITE_TIMED | KUNIT_SUITE_ONE_PROCESS);
