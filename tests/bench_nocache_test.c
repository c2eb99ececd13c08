// SPDX-License-Identifier: GPL-2.0-only
/*
 * The question of "use nocache copy in copy_from_iter_nocache()",
 * without a filesystem: how fast does data get from a
 * hot source (a pipe's pages, in the posting: splice() to a DAX file) into
 * a large destination that must reach memory? The posting measured
 * 641 MB/s for copy-then-flush and 2134 MB/s for the nocache copy.
 *
 * Chunks of 64 B .. 64 KiB are copied from a small source ring (it stays
 * in the cache) into a destination of 1 GiB (scaled to the namespace
 * option and to free memory), walking through it as successive write()s
 * walk through a file; each timed run writes the next 1/16 of it,
 * wrapping around, so a cached copy meets the write-backs of the lines it
 * dirtied before, as it would in the steady state. Per chunk:
 *
 *   memcpy                 cached copy, nothing forces the data out
 *   copy_clean_<method>    memcpy_then_clean() with CLWB, CLFLUSHOPT and
 *                          CLFLUSH in turn (each one the CPU has): the
 *                          way the posting replaced
 *   nocache                memcpy_nocache(), 8 x MOVNTI a round
 *
 * A chunk that needs a drain (all but memcpy) is followed by SFENCE, as
 * the kernel's pmem write path drains before the write returns; with
 * drain=off (research) one SFENCE ends each run instead. Bytes counted =
 * bytes written to the destination.
 *
 * The methods of one chunk size run interleaved (docs/benchmarks.md):
 * rounds in a shuffled order, continuing one walk. The source ring holds
 * a different non-zero pattern in each of its chunk-sized slots; each
 * cold run writes into poison and is checked in full, each later run on
 * a random sample of its chunks poisoned just before it, and the chunk
 * after every run must still be poison: a missed, doubled or misplaced
 * chunk or a write past the end fails the case, naming the run.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/lib/clean_cache.h"
#include "arch/x86/lib/copy_clean.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/printf.h"
#include "tests/engines/memmap_case.h"
#include "lib/string.h"
#include "lib/verdict.h"
#include "tests/engines/bench_util.h"

#define SUITE "bench_nocache_copy"

/*
 * The question of "use nocache copy in copy_from_iter_nocache()" is about
 * file writes: 1 GiB stands for a big file.
 */
#define DEST_BYTES SZ_1G
/*
 * The hot source: twice the largest chunk, so neighbouring chunks differ
 * even at 64 KiB; well inside any L2 (a pipe holds 64 KiB).
 */
#define MAX_CHUNK (64u << 10)
#define SRC_BYTES (2 * MAX_CHUNK)
/* A timed run writes this share of the destination. */
#define RUN_SHARE 16
/* Keep a tenth of free memory for everything else. */
#define POISON 0x00

enum copy_kind { COPY_CACHED, COPY_CLEAN, COPY_NOCACHE };

struct nc_method {
	const char *name;
	enum copy_kind kind;
	enum clean_cache_method clean;	/* COPY_CLEAN only */
};

static const struct nc_method nc_methods[] = {
	{ "memcpy", COPY_CACHED },
	{ "copy_clean_clwb", COPY_CLEAN, CLEAN_CACHE_CLWB },
	{ "copy_clean_clflushopt", COPY_CLEAN, CLEAN_CACHE_CLFLUSHOPT },
	{ "copy_clean_clflush", COPY_CLEAN, CLEAN_CACHE_CLFLUSH },
	{ "nocache", COPY_NOCACHE },
};

#define NR_METHODS ARRAY_SIZE(nc_methods)

static const char *nc_method_name(unsigned int i)
{
	return i < NR_METHODS ? nc_methods[i].name : NULL;
}

static struct {
	u8 *src;
	u8 *dst;
	size_t dst_bytes;	/* a multiple of SRC_BYTES */
	size_t alloc_bytes;
	size_t run_bytes;	/* per timed run, a multiple of MAX_CHUNK */
	u32 runs;
	/* drain=off (research): one SFENCE per run, not one per chunk. */
	bool drain_each;
	struct bench_caches caches;
} nc;

struct nc_job {
	const struct nc_method *m;
	size_t chunk;
	size_t slots;		/* chunk-sized slots in the source ring */
	size_t pos;		/* next destination offset */
	size_t slot;		/* its source slot: (pos / chunk) % slots */
};

/*
 * One loop per kind, so the timed loop has no choice in it. The slot of
 * a chunk depends only on its place in the destination, which is what
 * the check relies on when the walk wraps.
 */
#define NC_WALK(j, copy_stmt, drain_stmt)                                     \
	do {                                                                  \
		u8 *__dst = nc.dst, *__src = nc.src;                          \
		size_t __pos = (j)->pos, __slot = (j)->slot;                  \
		size_t __chunk = (j)->chunk;                                  \
                                                                              \
		for (size_t __done = 0; __done < nc.run_bytes;                \
		     __done += __chunk) {                                     \
			u8 *d = __dst + __pos;                                \
			const u8 *s = __src + __slot * __chunk;               \
                                                                              \
			copy_stmt;                                            \
			drain_stmt;                                           \
			__pos += __chunk;                                     \
			if (++__slot == (j)->slots)                           \
				__slot = 0;                                   \
			if (__pos == nc.dst_bytes) {                          \
				__pos = 0;                                    \
				__slot = 0;                                   \
			}                                                     \
		}                                                             \
		(j)->pos = __pos;                                             \
		(j)->slot = __slot;                                           \
	} while (0)

static void walk_cached(void *arg)
{
	struct nc_job *j = arg;

	NC_WALK(j, memcpy(d, s, __chunk), (void)0);
}

static void walk_clean(void *arg)
{
	struct nc_job *j = arg;
	const bool each = nc.drain_each;

	NC_WALK(j, memcpy_then_clean(d, s, __chunk),
		if (each) memcpy_nt_drain());
	memcpy_nt_drain();
}

static void walk_nocache(void *arg)
{
	struct nc_job *j = arg;
	const bool each = nc.drain_each;

	NC_WALK(j, memcpy_nocache(d, s, __chunk),
		if (each) memcpy_nt_drain());
	memcpy_nt_drain();
}

/* A word of slot @slot of the source for chunk size @chunk: never zero. */
static u64 src_word(size_t chunk, size_t slot, size_t word)
{
	u64 v = ((u64)(slot + 1) << 40) ^ ((u64)chunk << 20) ^ word;

	return (v * 0x9e3779b97f4a7c15ull) | 1;
}

static void fill_source(size_t chunk)
{
	u64 *w = (u64 *)nc.src;
	size_t words = chunk / 8;

	for (size_t slot = 0; slot < SRC_BYTES / chunk; slot++)
		for (size_t i = 0; i < words; i++)
			w[slot * words + i] = src_word(chunk, slot, i);
}

/* The bytes of destination offset @off if the walk wrote it. */
static u64 expected_word(const struct nc_job *j, size_t off)
{
	size_t k = off / j->chunk, words = j->chunk / 8;
	const u64 *s = (const u64 *)nc.src + (k % j->slots) * words;

	return s[(off % j->chunk) / 8];
}

/*
 * Chunk @k of the destination holds what the walk puts there. Word
 * compares: the image's memcmp() goes a byte at a time.
 */
static bool chunk_ok(struct kunit *test, const struct nc_job *j, u32 run,
		     size_t k)
{
	const u64 *d = (const u64 *)nc.dst;
	size_t words = j->chunk / 8;

	for (size_t i = 0; i < words; i++) {
		size_t off = k * j->chunk + i * 8;
		u64 want = expected_word(j, off);

		if (d[off / 8] == want)
			continue;
		kunit_fail_at(test, __FILE__, __LINE__,
			      "run %u of %s chunk=%zu: destination byte %zu "
			      "(chunk %zu) is 0x%llx, expected 0x%llx",
			      run + 1, j->m->name, j->chunk, off, k,
			      d[off / 8], want);
		return false;
	}
	return true;
}

static bool chunk_poisoned(struct kunit *test, const struct nc_job *j,
			   u32 run, size_t k)
{
	const u64 *d = (const u64 *)nc.dst;

	for (size_t off = k * j->chunk; off < (k + 1) * j->chunk; off += 8) {
		if (d[off / 8] == (u64)POISON * 0x0101010101010101ull)
			continue;
		kunit_fail_at(test, __FILE__, __LINE__,
			      "run %u of %s chunk=%zu: wrote byte %zu, past "
			      "the %zu bytes of its run",
			      run + 1, j->m->name, j->chunk, off, nc.run_bytes);
		return false;
	}
	return true;
}

static bool method_usable(const struct nc_method *m, char *why, size_t len)
{
	if (m->kind == COPY_CLEAN &&
	    !clean_cache_method_supported(m->clean)) {
		ntb_snprintf(why, len, "no %s",
			     clean_cache_method_name(m->clean));
		return false;
	}
	return true;
}

/* The reference of speedup_vs_copy_clean: the method the kernel picks. */
static const struct nc_method *reference_method(void)
{
	enum clean_cache_method best = clean_cache_best_method();

	for (unsigned int i = 0; i < NR_METHODS; i++)
		if (nc_methods[i].kind == COPY_CLEAN &&
		    nc_methods[i].clean == best)
			return &nc_methods[i];
	return NULL;
}

/*
 * The methods of one chunk size share one walk through the destination:
 * what a run writes depends only on where, so any method may continue
 * where the one before stopped, and the rounds can mix them.
 */
static struct {
	struct kunit *test;
	size_t pos;			/* where the next run starts */
	size_t sample[256];		/* chunks poisoned before this run */
	unsigned int nr_sample;
	u64 seed;
} walk;

struct nc_contender {
	struct nc_job j;
	u32 index;
	enum clean_cache_method old;
};

/* The chunk after a run: still poison afterwards, or the run overran. */
static size_t guard_chunk(const struct nc_job *j)
{
	return ((walk.pos + nc.run_bytes) % nc.dst_bytes) / j->chunk;
}

/* The cold run and the last are checked in full, the others on samples. */
static bool full_check_run(u32 run)
{
	return !run || run + 1 == nc.runs;
}

static void nc_before(void *arg, u32 run)
{
	struct nc_contender *c = arg;
	struct nc_job *j = &c->j;
	size_t first = walk.pos / j->chunk, n = nc.run_bytes / j->chunk;
	/* At most 1 MiB of the run's chunks, at most 256 of them. */
	unsigned int want = (unsigned int)min(min((size_t)SZ_1M / j->chunk,
						  (size_t)ARRAY_SIZE(walk.sample)),
					      n);
	u64 st = walk.seed ^ ((u64)run << 32) ^ ((u64)c->index << 48);

	j->pos = walk.pos;
	j->slot = first % j->slots;
	if (full_check_run(run)) {
		/* The cold run and the last: into poison, checked in full. */
		bench_poison_streaming(nc.dst + walk.pos, POISON,
				       nc.run_bytes);
		walk.nr_sample = 0;
	} else {
		walk.sample[0] = first + n - 1;		/* the last chunk */
		for (unsigned int i = 1; i < want; i++)
			walk.sample[i] = first + prandom_u64(&st) % n;
		walk.nr_sample = want;
		for (unsigned int i = 0; i < want; i++)
			memset(nc.dst + walk.sample[i] * j->chunk, POISON,
			       j->chunk);
	}
	memset(nc.dst + guard_chunk(j) * j->chunk, POISON, j->chunk);
	if (j->m->kind == COPY_CLEAN &&
	    !clean_cache_use_method(j->m->clean, &c->old))
		kunit_fail_at(walk.test, __FILE__, __LINE__, "cannot force %s",
			      clean_cache_method_name(j->m->clean));
}

static bool nc_after(void *arg, u32 run)
{
	struct nc_contender *c = arg;
	struct nc_job *j = &c->j;
	size_t first = walk.pos / j->chunk, n = nc.run_bytes / j->chunk;
	bool ok = true;

	if (j->m->kind == COPY_CLEAN)
		clean_cache_use_method(c->old, NULL);
	if (j->pos != (walk.pos + nc.run_bytes) % nc.dst_bytes) {
		kunit_fail_at(walk.test, __FILE__, __LINE__,
			      "run %u of %s chunk=%zu ended at byte %zu, not "
			      "%zu", run + 1, j->m->name, j->chunk, j->pos,
			      (walk.pos + nc.run_bytes) % nc.dst_bytes);
		return false;
	}
	if (full_check_run(run)) {
		for (size_t k = first; ok && k < first + n; k++)
			ok = chunk_ok(walk.test, j, run, k);
	} else {
		for (unsigned int i = 0; ok && i < walk.nr_sample; i++)
			ok = chunk_ok(walk.test, j, run, walk.sample[i]);
	}
	ok = ok && chunk_poisoned(walk.test, j, run, guard_chunk(j));
	walk.pos = j->pos;
	return ok;
}

static void bench_chunk(struct kunit *test, size_t chunk)
{
	static struct nc_contender con[NR_METHODS];
	static struct bench_entry e[NR_METHODS];
	static struct verdict_samples vs[NR_METHODS];
	static u64 warm[NR_METHODS][BENCH_MAX_RUNS];
	const struct nc_method *ref = reference_method();
	u64 ref_ns = 0;
	char why[64];
	u32 n = 0, nv = 0;

	fill_source(chunk);
	walk.test = test;
	walk.pos = 0;
	walk.seed = bench_seed();
	for (unsigned int i = 0; i < NR_METHODS; i++) {
		const struct nc_method *m = &nc_methods[i];
		void (*fn)(void *) = m->kind == COPY_CACHED ? walk_cached :
				     m->kind == COPY_CLEAN  ? walk_clean :
							      walk_nocache;

		if (!glob_list_match(opt_strategy, m->name))
			continue;
		if (!method_usable(m, why, sizeof(why))) {
			kunit_info(test, "%s skipped: %s", m->name, why);
			continue;
		}
		con[n] = (struct nc_contender){
			.j = { .m = m, .chunk = chunk,
			       .slots = SRC_BYTES / chunk },
			.index = n,
		};
		e[n] = (struct bench_entry){ .name = m->name, .body = fn,
					     .arg = &con[n],
					     .before = nc_before,
					     .after = nc_after };
		n++;
	}
	if (!n)
		kunit_skip(test, "strategy=%s selects no method (%s, %s, %s, "
				 "%s, %s)",
			   opt_strategy, nc_methods[0].name,
			   nc_methods[1].name, nc_methods[2].name,
			   nc_methods[3].name, nc_methods[4].name);

	kunit_info(test, "%u rounds, each in a shuffled order, seed=%llu",
		   nc.runs, walk.seed);
	if (bench_interleave(e, n, nc.runs, walk.seed, SUITE))
		return;
	for (u32 i = 0; i < n; i++)
		if (con[i].j.m == ref && !e[i].failed)
			ref_ns = e[i].res.median_ns;

	/* Only verified results become numbers. */
	for (u32 i = 0; i < n; i++) {
		const struct bench_result *r = &e[i].res;

		if (e[i].failed)
			continue;
		kunit_diag("# metric suite=" SUITE " method=%s chunk=%zu "
			   "bytes=%zu dest_bytes=%zu runs=%u first_ns=%llu "
			   "median_ns=%llu min_ns=%llu max_ns=%llu "
			   "mean_ns=%llu stddev_ns=%llu mbps=%s gbps=%s "
			   "speedup_vs_copy_clean=%s copy_clean=%s drain=%s "
			   "%snode=%d",
			   con[i].j.m->name, chunk, nc.run_bytes,
			   nc.dst_bytes, r->runs, r->first_ns, r->median_ns,
			   r->min_ns, r->max_ns, r->mean_ns, r->stddev_ns,
			   bench_fixed((u64)nc.run_bytes * 1000,
				       r->median_ns ? r->median_ns : 1, 0),
			   bench_gbps(nc.run_bytes, r->median_ns),
			   ref_ns && r->median_ns ?
				   bench_fixed(ref_ns, r->median_ns, 2) :
				   "na",
			   ref ? ref->name : "none",
			   nc.drain_each ? "each_chunk" : "each_run",
			   bench_eff_mhz_key(r), plat_numa_node_of(nc.dst));
		bench_print_samples(r);
		vs[nv] = (struct verdict_samples){
			.name = con[i].j.m->name,
			.ns = warm[nv],
			.n = bench_warm_samples(r, warm[nv]),
			.processes = r->processes,
		};
		nv++;
	}
	if (nv)
		verdict_publish(&(struct verdict_config){
					.suite = SUITE, .chunk = chunk,
					.copy_clean = ref ? ref->name : NULL },
				vs, nv);
	/* The posting's comparison, at the chunk its claim names. */
	const struct verdict_claim *cl = NULL;
	const struct verdict_config here = {.suite = SUITE, .chunk = chunk};

	for (unsigned int c = 0; c < verdict_nr_claims && !cl; c++)
		if (verdict_claim_covers(&verdict_claims[c], &here))
			cl = &verdict_claims[c];
	for (u32 i = 0; i < n; i++) {
		u64 nc_ns = e[i].res.median_ns;

		if (!cl || !ref_ns || e[i].failed ||
		    con[i].j.m->kind != COPY_NOCACHE)
			continue;
		kunit_info(test,
			   "the posting (splice to DAX, xfs): %s (%sx); "
			   "here %s %s MB/s -> nocache %s MB/s (%sx)",
			   cl->posted,
			   bench_fixed(cl->posted_num, cl->posted_den ?: 1, 2),
			   ref->name,
			   bench_fixed((u64)nc.run_bytes * 1000, ref_ns, 0),
			   bench_fixed((u64)nc.run_bytes * 1000, nc_ns ?: 1, 0),
			   bench_fixed(ref_ns, nc_ns ?: 1, 2));
	}
}

#define DEFINE_CHUNK_CASE(sz)                                                 \
	static void chunk_##sz(struct kunit *test)                            \
	{                                                                     \
		bench_chunk(test, sz);                                        \
	}

DEFINE_CHUNK_CASE(64)
DEFINE_CHUNK_CASE(256)
DEFINE_CHUNK_CASE(1024)
DEFINE_CHUNK_CASE(4096)
DEFINE_CHUNK_CASE(16384)
DEFINE_CHUNK_CASE(65536)

/*
 * The destination: DEST_BYTES, no larger than the namespace option (a
 * tiny namespace asks for a quick run) nor than free memory allows.
 */
static size_t pick_dest(char *why, size_t len)
{
	u64 want = DEST_BYTES, avail = plat_mem_available();
	u64 room = bench_mem_room();

	why[0] = 0;
	/* 0: the platform cannot tell; the allocation below will. */
	if (!avail)
		room = ~0ull;
	if (opt_namespace < want) {
		want = opt_namespace;
		ntb_snprintf(why, len, "namespace=%s",
			     bench_size_str(opt_namespace));
	}
	if (room < want + SRC_BYTES) {
		want = room > SRC_BYTES ? room - SRC_BYTES : 0;
		ntb_snprintf(why, len, "%s free", bench_size_str(avail));
	}
	/* Whole source rings, whole largest chunks per run. */
	return ALIGN_DOWN(want, (u64)SRC_BYTES * RUN_SHARE);
}

static int nc_init(struct kunit_suite *suite, char *reason, size_t len)
{
	char why[64];
	size_t dst;

	bench_progress_reset();
	bench_caches_detect(&nc.caches);
	dst = pick_dest(why, sizeof(why));
	while (dst >= SRC_BYTES * RUN_SHARE) {
		nc.dst = plat_alloc_aligned(dst, SZ_2M);
		if (nc.dst)
			break;
		ntb_snprintf(why, sizeof(why), "allocating %s failed",
			     bench_size_str(dst));
		dst = ALIGN_DOWN(dst / 2, (u64)SRC_BYTES * RUN_SHARE);
	}
	nc.src = plat_alloc_aligned(SRC_BYTES, 4096);
	if (!nc.dst || !nc.src) {
		if (nc.dst)
			plat_free(nc.dst, dst);
		if (nc.src)
			plat_free(nc.src, SRC_BYTES);
		nc.dst = nc.src = NULL;
		ntb_snprintf(reason, len, "cannot allocate a %s destination",
			     bench_size_str(SRC_BYTES * RUN_SHARE));
		return -1;
	}
	nc.dst_bytes = nc.alloc_bytes = dst;
	nc.run_bytes = dst / RUN_SHARE;
	nc.runs = min(opt_runs, (u32)BENCH_MAX_RUNS);
	nc.drain_each = opt_drain;

	bench_caches_print(SUITE, &nc.caches);
	kunit_diag("# " SUITE ": bytes counted = bytes written to the "
		   "destination; mbps = 10^6 bytes/s of the median run\n");
	kunit_diag("# " SUITE ": destination %s%s%s%s, %s per run (1/%u of it, "
		   "the walk wraps), source ring %s, runs=%u%s\n",
		   bench_size_str(dst),
		   why[0] ? " (scaled down from 1 GiB: " : "", why,
		   why[0] ? ")" : "", bench_size_str(nc.run_bytes),
		   RUN_SHARE, bench_size_str(SRC_BYTES), nc.runs,
		   opt_runs > nc.runs ? " (clamped: the timing core "
						"keeps no more samples)" : "");
	if (dst < 2 * nc.caches.llc_bytes)
		kunit_diag("# " SUITE ": the destination is less than twice "
			   "the %s LLC: cached copies may stay in it and "
			   "look fast\n",
			   bench_size_str(nc.caches.llc_bytes));
	kunit_diag("# " SUITE ": copy_clean_* and nocache drain (SFENCE) after "
		   "%s; speedup_vs_copy_clean is against %s, the method "
		   "clean_cache_range() picks on this CPU\n",
		   nc.drain_each ? "each chunk" :
				   "each run only (drain=off: research mode)",
		   reference_method() ? reference_method()->name : "none");
	return 0;
}

static void nc_exit(struct kunit_suite *suite)
{
	plat_free(nc.dst, nc.alloc_bytes);
	plat_free(nc.src, SRC_BYTES);
	nc.dst = nc.src = NULL;
}

static const struct kunit_case bench_nocache_cases[] = {
	KUNIT_CASE(chunk_64),	 KUNIT_CASE(chunk_256),
	KUNIT_CASE(chunk_1024),	 KUNIT_CASE(chunk_4096),
	KUNIT_CASE(chunk_16384), KUNIT_CASE(chunk_65536),
};

KUNIT_SUITE_DEFINE(bench_nocache_suite, SUITE, bench_nocache_cases,
		   .suite_init = nc_init, .suite_exit = nc_exit,
		   .strategy_name = nc_method_name,
		   .cpu_needs = KUNIT_NEEDS_SSE2,
		   .flags = KUNIT_SUITE_TIMED);
