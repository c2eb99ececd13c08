// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite=memmap_smp: is a memmap that one CPU initialised with
 * non-temporal stores complete for every other CPU once it is published?
 *
 * One CPU (the writer, the last one) runs memmap_init_zone_device() over
 * a poisoned memmap and then sets a flag with a plain store. Every other
 * CPU (the readers, CPU 0 included) has the last struct pages of the run
 * in its cache from before, waits for the flag, and then at once compares
 * those struct pages with the model (the "early" check: the stores that
 * were issued last are the ones a missing drain leaves in flight), and
 * afterwards runs memmap_verify() over everything.
 *
 * With drains (the default) the template path ends with an SFENCE before
 * it returns, so the flag cannot become visible before any struct page:
 * one difference on any reader fails the test. With drain=off (research
 * mode) nothing orders the NT stores before the flag; what the readers
 * saw is reported, not failed. Strategies with cached stores need no
 * drain on x86 (stores are not reordered with stores): they must always
 * be complete, drain=off or not.
 */
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/on_cpus.h"
#include "lib/printf.h"
#include "lib/scale.h"
#include "tests/engines/bench_util.h"
#include "tests/engines/memmap_case.h"
#include "lib/string.h"
#include "lib/timing.h"
#include "model/memmap.h"

/* Struct pages the early check looks at: the last ones written. */
#define EARLY_PAGES 64
/*
 * The memmap: the namespace option, at most this many pfns (a 256 MiB
 * namespace; 4 MiB of 64-byte struct pages, more than most L2 caches).
 */
#define SMP_MAX_PFNS 65536ul
/* Slow platforms run fewer rounds and a smaller memmap (lib/scale.c). */
#define SMP_ROUNDS 10
/* The longest anyone waits for a partner. */
#define SMP_WAIT_MS 20000
#define POISON 0x5a

struct smp_reader_result {
	unsigned int early_diffs; /* struct pages wrong at the flag */
	bool verified;
	bool ok;
	bool timed_out;
	struct memmap_report rep;
} __aligned(64);

struct smp_run;

struct smp_worker {
	struct smp_run *run;
	unsigned int cpu;
	struct smp_reader_result res;
};

struct smp_run {
	struct memmap *m;
	unsigned int writer;
	unsigned int nr_readers;
	u64 wait_cycles;
	/* The early check: pfns and what the model says they must hold. */
	unsigned int nr_early;
	unsigned long early_pfn[EARLY_PAGES];
	u8 *early_expected;
	u32 ready __aligned(64);     /* readers with the pages cached */
	u32 published __aligned(64); /* the writer's flag */
	u32 abort __aligned(64);
	bool writer_timed_out;
	/* Starts and joins the CPUs of a round; kept with the memory. */
	struct on_cpus oc;
	/* A CPU that never came back may still write: keep the memory. */
	bool stuck;
	u64 write_ns;
};

static void *page_of(const struct memmap *m, unsigned long pfn)
{
	return (char *)m->pages + (pfn - m->base_pfn) * m->layout->size;
}

static bool waited_too_long(const struct smp_run *r, u64 start)
{
	return rdtsc() - start > r->wait_cycles || READ_ONCE(r->abort);
}

static void smp_reader(struct smp_worker *w)
{
	struct smp_run *r = w->run;
	const struct memmap *m = r->m;
	unsigned int size = m->layout->size;
	unsigned int diffs = 0;
	u64 sum = 0, start;

	/*
	 * Bring the poisoned lines into this CPU's cache: a stale copy here
	 * is what an undrained NT store would leave visible.
	 */
	for (unsigned int i = 0; i < r->nr_early; i++) {
		const u64 *p = page_of(m, r->early_pfn[i]);

		for (unsigned int b = 0; b < size / 8; b++)
			sum += READ_ONCE(p[b]);
	}
	barrier();
	__atomic_add_fetch(&r->ready, 1, __ATOMIC_SEQ_CST);
	start = rdtsc();
	while (!__atomic_load_n(&r->published, __ATOMIC_ACQUIRE)) {
		if (waited_too_long(r, start)) {
			w->res.timed_out = true;
			return;
		}
		asm volatile("pause");
	}
	for (unsigned int i = 0; i < r->nr_early; i++)
		if (memcmp(page_of(m, r->early_pfn[i]),
			   r->early_expected + (size_t)i * size, size))
			diffs++;
	w->res.early_diffs = diffs;
	w->res.ok = memmap_verify(m, &w->res.rep);
	w->res.verified = true;
	/* Keep the warming loads: the compiler must not drop them. */
	asm volatile("" : : "r"(sum));
}

static void smp_writer(struct smp_worker *w)
{
	struct smp_run *r = w->run;
	u64 start = rdtsc(), t0, t1;

	while (__atomic_load_n(&r->ready, __ATOMIC_ACQUIRE) != r->nr_readers) {
		if (waited_too_long(r, start)) {
			r->writer_timed_out = true;
			WRITE_ONCE(r->abort, 1);
			return;
		}
		asm volatile("pause");
	}
	t0 = rdtsc_ordered();
	memmap_run(r->m);
	t1 = rdtsc_ordered();
	/*
	 * A plain store: only the drains inside the run order it. The
	 * memmap changes hands here: nothing may still be pending.
	 */
	ntcheck_publish("the hand-off to the reader CPUs");
	__atomic_store_n(&r->published, 1, __ATOMIC_RELEASE);
	r->write_ns = cycles_to_ns(t1 - t0);
}

/* CPU @index of a round: the writer or one of the readers. */
static void smp_part(void *arg, unsigned int index)
{
	struct smp_worker *w = (struct smp_worker *)arg + index;

	if (index == w->run->writer)
		smp_writer(w);
	else
		smp_reader(w);
}

/* The last @EARLY_PAGES struct pages the run writes, and their contents. */
static void pick_early_pages(struct smp_run *r)
{
	const struct memmap *m = r->m;
	unsigned int size = m->layout->size;
	unsigned long pfn = m->base_pfn + m->nr_pfns;

	r->nr_early = 0;
	while (pfn-- > m->base_pfn && r->nr_early < EARLY_PAGES) {
		u8 *out = r->early_expected + (size_t)r->nr_early * size;
		enum memmap_role role;

		role = memmap_expected_page(m, pfn, out, NULL, NULL);
		if (role == MEMMAP_ROLE_HEAD || role == MEMMAP_ROLE_TAIL)
			r->early_pfn[r->nr_early++] = pfn;
	}
}

/* Totals of one strategy over its rounds. */
struct smp_totals {
	unsigned int rounds;
	unsigned int early_diffs;  /* summed over readers and rounds */
	unsigned int early_rounds; /* rounds with an early difference */
	unsigned int verify_fails;
	u64 write_ns;
	struct memmap_report first_bad;
	bool have_bad;
};

/*
 * One round: everyone is started, the readers warm up, the writer runs,
 * the readers check. Returns false if a CPU could not be used.
 */
static bool smp_round(struct kunit *test, struct smp_run *r,
		      struct smp_worker *w, unsigned int n,
		      struct smp_totals *t)
{
	bool round_early = false;
	u64 wait_us = SMP_WAIT_MS * 2000ull;

	memmap_poison(r->m, POISON);
	r->ready = 0;
	r->published = 0;
	r->abort = 0;
	r->writer_timed_out = false;
	for (unsigned int cpu = 0; cpu < n; cpu++)
		memset(&w[cpu].res, 0, sizeof(w[cpu].res));

	/* CPU 0 is a reader; every CPU is waited for, failed ones too. */
	on_cpus_init(&r->oc, n, smp_part, w);
	r->oc.timeout_us = wait_us;
	if (on_cpus(&r->oc)) {
		r->stuck |= r->oc.stuck;
		kunit_fail_at(test, __FILE__, __LINE__, "%s", r->oc.why);
		return false;
	}
	if (r->writer_timed_out) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "writer CPU %u: only %u of %u readers got ready "
			      "within %u ms",
			      r->writer, READ_ONCE(r->ready), r->nr_readers,
			      SMP_WAIT_MS);
		return false;
	}
	t->rounds++;
	t->write_ns += r->write_ns;
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		struct smp_reader_result *res = &w[cpu].res;

		if (cpu == r->writer)
			continue;
		if (res->timed_out) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "reader CPU %u: no flag from writer CPU "
				      "%u within %u ms",
				      cpu, r->writer, SMP_WAIT_MS);
			continue;
		}
		t->early_diffs += res->early_diffs;
		round_early |= res->early_diffs != 0;
		if (res->verified && !res->ok) {
			t->verify_fails++;
			if (!t->have_bad) {
				t->first_bad = res->rep;
				t->have_bad = true;
			}
		}
	}
	t->early_rounds += round_early;
	return true;
}

static void smp_one(struct kunit *test, struct smp_run *r, struct smp_worker *w,
		    unsigned int n, const struct memmap_strategy *s,
		    unsigned int rounds)
{
	struct memmap *m = r->m;
	struct smp_totals t = {0};
	bool must_be_clean = opt_drain || !s->nt;
	char why[160];

	if (memmap_set_strategy(m, s->name, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "%s: %s", s->name, why);
		return;
	}
	pick_early_pages(r);
	for (unsigned int i = 0; i < rounds; i++)
		if (!smp_round(test, r, w, n, &t))
			return;

	kprintf("    # memmap_smp strategy=%s page_size=%u mode=%s "
		"pages=%lu writer=%u readers=%u rounds=%u drain=%s nt=%u "
		"write_ns=%llu early_pages=%u early_diffs=%u "
		"early_rounds=%u verify_fails=%u\n",
		s->name, m->layout->size, memmap_mode_name(m->cfg.order),
		m->nr_pfns, r->writer, r->nr_readers, t.rounds,
		opt_drain ? "on" : "off", s->nt,
		t.rounds ? t.write_ns / t.rounds : 0, r->nr_early,
		t.early_diffs, t.early_rounds, t.verify_fails);
	if (t.have_bad)
		memmap_report_format(&t.first_bad, why, sizeof(why));
	if (!t.early_diffs && !t.verify_fails)
		return;
	if (must_be_clean)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s page_size=%u %s: readers saw %u stale struct "
			      "pages right after the flag and %u incomplete "
			      "memmaps over %u rounds%s%s",
			      s->name, m->layout->size,
			      memmap_mode_name(m->cfg.order), t.early_diffs,
			      t.verify_fails, t.rounds,
			      t.have_bad ? "; first: " : "",
			      t.have_bad ? why : "");
	else
		kunit_info(test,
			   "drain=off: %s page_size=%u %s: readers saw "
			   "%u stale struct pages right after the flag (in %u "
			   "of %u rounds) and %u incomplete memmaps%s%s",
			   s->name, m->layout->size,
			   memmap_mode_name(m->cfg.order), t.early_diffs,
			   t.early_rounds, t.rounds, t.verify_fails,
			   t.have_bad ? "; first: " : "",
			   t.have_bad ? why : "");
}

/* Every selected layout and strategy for one mode. */
static void smp_layouts(struct kunit *test, struct smp_run *r,
			struct smp_worker *w, unsigned int n,
			unsigned int order, unsigned long nr,
			unsigned int rounds)
{
	for (u32 li = 0; li < opt_layout.n && !r->stuck; li++) {
		const struct page_layout *l =
			page_layout_for_size(opt_layout.v[li]);
		const struct memmap_strategy *s;
		struct memmap_config cfg;
		struct memmap m;
		char why[160];

		if (!l)
			continue;
		memmap_config_init(&cfg, l->id, order,
				   order ? MEMORY_DEVICE_GENERIC
					 : MEMORY_DEVICE_FS_DAX,
				   MEMMAP_DEFAULT_START_PFN, nr);
		cfg.drain = opt_drain;
		if (memmap_create(&m, &cfg, NULL, 0, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "page_size=%u: %s", l->size, why);
			continue;
		}
		r->m = &m;
		for_each_memmap_strategy(s) {
			if (r->stuck)
				break;
			if (!glob_list_match(opt_strategy, s->name))
				continue;
			if (!memmap_strategy_usable(s, l, why, sizeof(why))) {
				kunit_info(test, "%s page_size=%u skipped: %s",
					   s->name, l->size, why);
				continue;
			}
			smp_one(test, r, w, n, s, rounds);
		}
		r->m = NULL;
		if (!r->stuck)
			memmap_destroy(&m);
	}
}

static void memmap_smp_mode(struct kunit *test, u32 mode)
{
	const char *pfns_why, *rounds_why;
	u64 max_pfns =
		platform_scaled(SCALE_SMP_MAX_PFNS, SMP_MAX_PFNS, &pfns_why);
	unsigned int n = plat_cpu_count(), rounds;
	unsigned long nr = min(opt_namespace >> PAGE_SHIFT, max_pfns);
	size_t early_bytes = EARLY_PAGES * MAX_STRUCT_PAGE_SIZE;
	int order = memmap_mode_order(mode);
	struct smp_worker *w;
	struct smp_run *r;

	if (n < 2)
		kunit_skip(test, "one CPU: nobody to read the memmap");
	if (order < 0 || !(opt_mode & mode))
		kunit_skip(test, "%s is not in mode= (add it to run this case)",
			   order < 0 ? "this mode" : memmap_mode_name(order));
	rounds = platform_scaled(SCALE_SMP_ROUNDS, SMP_ROUNDS, &rounds_why);
	if (pfns_why)
		kunit_info(test,
			   "%s: memmap scaled down to at most %llu pfns "
			   "(from %lu)",
			   pfns_why, max_pfns, SMP_MAX_PFNS);
	if (rounds_why)
		kunit_info(test,
			   "%s: rounds per strategy scaled down to %u "
			   "(from %u)",
			   rounds_why, rounds, SMP_ROUNDS);
	/* Not kunit_kzalloc(): a CPU that never returns keeps them. */
	r = plat_alloc_aligned(sizeof(*r), 64);
	w = plat_alloc_aligned(n * sizeof(*w), 64);
	if (r) {
		memset(r, 0, sizeof(*r));
		r->early_expected = plat_alloc_aligned(early_bytes, 64);
	}
	if (!r || !w || !r->early_expected) {
		kunit_fail_at(test, __FILE__, __LINE__, "out of memory");
		goto out;
	}
	memset(w, 0, n * sizeof(*w));
	r->writer = n - 1;
	r->nr_readers = n - 1;
	r->wait_cycles =
		SMP_WAIT_MS * tsc_khz_for_deadlines();
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		w[cpu].run = r;
		w[cpu].cpu = cpu;
	}
	kunit_info(test,
		   "writer CPU %u, readers CPUs 0-%u, %lu pfns, %u "
		   "rounds per strategy, drain=%s",
		   r->writer, n - 2, nr, rounds,
		   opt_drain ? "on" : "off (research mode)");
	smp_layouts(test, r, w, n, (unsigned int)order, nr, rounds);
	if (r->stuck)
		return;
out:
	if (r)
		plat_free(r->early_expected, early_bytes);
	plat_free(w, n * sizeof(*w));
	plat_free(r, sizeof(*r));
}

static void memmap_smp_fsdax(struct kunit *test)
{
	memmap_smp_mode(test, MODE_FSDAX);
}

static void memmap_smp_devdax2m(struct kunit *test)
{
	memmap_smp_mode(test, MODE_DEVDAX2M);
}

static void memmap_smp_devdax1g(struct kunit *test)
{
	memmap_smp_mode(test, MODE_DEVDAX1G);
}

static const struct kunit_case memmap_smp_cases[] = {
	KUNIT_CASE(memmap_smp_fsdax),
	KUNIT_CASE(memmap_smp_devdax2m),
	KUNIT_CASE(memmap_smp_devdax1g),
};

KUNIT_SUITE_DEFINE(memmap_smp_suite, "memmap_smp", memmap_smp_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
