// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite=memmap_smp: once the CPU that ran memmap_init_zone_device() hands
 * the range on with a plain store, does another CPU see every struct page
 * complete?
 *
 * The visibility engine (tests/engines/memmap_vis.h) runs many short
 * rounds on each pair of CPUs the litmus suite names (SMT siblings, two
 * cores, two packages): the writer initialises a small memmap (the tail
 * end of a namespace, memmap_smp.pfns= struct pages) and sets the flag;
 * the reader, spinning on the flag, copies the most recently written
 * struct pages first and compares them with the model.
 *
 * With drains (the default) the template path's last SFENCE orders every
 * NT store before the flag: one stale struct page fails the case. The
 * strategies with cached stores need no drain on x86 (stores are not
 * reordered with stores): they must be complete drain=off or not. With
 * drain=off (research mode) x86 allows the NT strategies' pages to be
 * stale at the flag: the count is the observation, printed in the litmus
 * form; a strategy whose stale pages no reader saw is "not observed",
 * never a pass of the ordering (and the first round, which runs the
 * checked loop, lets the ordering checker name the missing drains).
 */
#include "include/platform.h"
#include "lib/bench.h"
#include "lib/glob.h"
#include "lib/kunit.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/relaxations.h"
#include "lib/scale.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/bench_util.h"
#include "tests/engines/litmus.h"
#include "tests/engines/memmap_case.h"
#include "tests/engines/memmap_vis.h"

/*
 * Rounds per strategy, layout, mode and pair. The built-in default was
 * chosen by measurement (docs/ordering-observed.md); the slow platforms
 * of lib/scale.c run fewer, a set option runs exactly that many.
 */
#define SMP_DEFAULT_ROUNDS 20000ull
DEFINE_OPTION_U64_NAMED(smp_rounds, "memmap_smp.rounds", SMP_DEFAULT_ROUNDS, 1,
			100000000ull,
			"memmap_smp: rounds per strategy, layout, mode and "
			"CPU pair (20000)");
DECLARE_OPTION(smp_rounds);
/* The memmap of one round: the tail of a namespace. */
#define SMP_DEFAULT_PFNS 512ull
DEFINE_OPTION_U64_NAMED(smp_pfns, "memmap_smp.pfns", SMP_DEFAULT_PFNS, 4, 65536,
			"memmap_smp: struct pages one round writes (512)");
DEFINE_OPTION_NUMBER_NAMED(u32, smp_check, "memmap_smp.check", 16, NULL, 1,
			   MEMMAP_VIS_MAX_CHECK, NULL,
			   "memmap_smp: the newest struct pages a reader "
			   "copies at the flag (16)");

enum smp_place { SMP_PLACE_FIXED, SMP_PLACE_RANDOM };
static const struct opt_word place_words[] = {
	{"fixed", SMP_PLACE_FIXED},
	{"random", SMP_PLACE_RANDOM},
	{NULL, 0},
};
DEFINE_OPTION_NUMBER_NAMED(enum smp_place, smp_place, "memmap_smp.place",
			   SMP_PLACE_FIXED, place_words, 1, 0, NULL,
			   "memmap_smp: fixed (one memmap) or random (16 "
			   "memmaps at random line offsets, one per round) "
			   "(fixed)");
DEFINE_OPTION_NUMBER_NAMED(bool, smp_noise, "memmap_smp.noise", false,
			   opt_bool_words, 1, 0, NULL,
			   "memmap_smp: the CPUs outside the pair stream "
			   "stores meanwhile (off)");

#define SMP_HANG_MS 2000
#define SMP_HANG_MS_SLOW 20000
#define SMP_RANDOM_INSTANCES 16
/* The test of the test: rounds and pages written after the flag. */
#define SMP_LATE_ROUNDS 20
#define SMP_LATE_PAGES 2

static struct litmus_pair smp_pairs[LITMUS_MAX_PAIRS];
static unsigned int smp_nr_pairs;

static u64 smp_hang_ms(void)
{
	const char *who;

	return platform_scaled(SCALE_ON_CPUS_SHORT_US, 0, &who)
		       ? SMP_HANG_MS_SLOW
		       : SMP_HANG_MS;
}

static void smp_config(struct memmap_vis_config *c, const struct page_layout *l,
		       unsigned int order, unsigned long nr,
		       const struct litmus_pair *pair, const char *strategy)
{
	memset(c, 0, sizeof(*c));
	memmap_config_init(&c->cfg, l->id, order,
			   order ? MEMORY_DEVICE_GENERIC : MEMORY_DEVICE_FS_DAX,
			   MEMMAP_DEFAULT_START_PFN, nr);
	c->cfg.drain = opt_drain;
	/* The correctness suites reach every strategy's own copy. */
	c->cfg.ungated = true;
	c->strategy = strategy;
	c->writer = pair->cpu[1];
	c->reader = pair->cpu[0];
	c->instances =
		opt_smp_place == SMP_PLACE_RANDOM ? SMP_RANDOM_INSTANCES : 1;
	c->check_pages = opt_smp_check;
	c->seed = opt_seed ^ ((u64)l->size << 32) ^ order;
	c->hang_ms = smp_hang_ms();
	if (opt_smp_noise) {
		unsigned int n = plat_cpu_count();

		for (unsigned int cpu = 0;
		     cpu < n && c->nr_noise < MEMMAP_VIS_MAX_NOISE; cpu++)
			if (cpu != pair->cpu[0] && cpu != pair->cpu[1])
				c->noise[c->nr_noise++] = cpu;
	}
}

static const char *observation_word(u64 stale, u64 rounds)
{
	if (!stale)
		return "Never";
	return stale == rounds ? "Always" : "Sometimes";
}

/* One strategy on one layout, mode and pair: run, print, judge. */
static bool smp_one(struct kunit *test, const struct page_layout *l,
		    unsigned int order, unsigned long nr,
		    const struct litmus_pair *pair,
		    const struct memmap_strategy *s, u64 rounds)
{
	struct memmap_vis_config c;
	struct memmap_vis_result *r;
	bool allowed = !opt_drain && s->nt;
	const char *mode = memmap_mode_name(order);
	char bad[160] = "";
	bool stuck;

	r = plat_alloc_aligned(sizeof(*r), 64);
	if (!r) {
		kunit_fail_at(test, __FILE__, __LINE__, "out of memory");
		return false;
	}
	smp_config(&c, l, order, nr, pair, s->name);
	c.rounds = rounds;
	if (memmap_vis_run(&c, r)) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s page_size=%u %s on CPUs %u,%u (%s): %s",
			      s->name, l->size, mode, c.writer, c.reader,
			      pair->kind, r->why);
		stuck = r->stuck;
		if (!stuck)
			plat_free(r, sizeof(*r));
		return !stuck;
	}
	kprintf("    # memmap_smp strategy=%s page_size=%u mode=%s "
		"cpus=%u,%u pair=%s pfns=%lu place=%s noise=%u check_pages=%u "
		"rounds=%llu drain=%s nt=%u write_ns=%llu round_ns=%llu "
		"stale_rounds=%llu stale_pages=%llu max_stale=%u "
		"verifies=%llu verify_fails=%llu %s\n",
		s->name, l->size, mode, c.writer, c.reader, pair->kind, nr,
		c.instances > 1 ? "random" : "fixed", c.nr_noise, r->nr_check,
		r->rounds, opt_drain ? "on" : "off", s->nt, r->write_ns,
		r->round_ns, r->stale_rounds, r->stale_pages, r->max_stale,
		r->verifies, r->verify_fails,
		allowed ? "allowed" : "forbidden");
	kprintf("    # Observation memmap_smp+%s+%u+%s%s@%u,%u %s %llu %llu\n",
		s->name, l->size, mode, opt_drain ? "" : "+drain_off", c.writer,
		c.reader, observation_word(r->stale_rounds, r->rounds),
		r->stale_rounds, r->rounds - r->stale_rounds);
	relaxation_record(allowed, r->stale_rounds);
	if (r->verify_fails)
		memmap_report_format(&r->first_bad, bad, sizeof(bad));
	if (!allowed && (r->stale_rounds || r->verify_fails))
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s page_size=%u %s on CPUs %u,%u (%s): stale "
			      "struct pages at the flag in %llu of %llu "
			      "rounds (%llu pages, first pfn 0x%lx, number "
			      "%u from the newest), %llu incomplete memmaps"
			      "%s%s",
			      s->name, l->size, mode, c.writer, c.reader,
			      pair->kind, r->stale_rounds, r->rounds,
			      r->stale_pages, r->first_stale_pfn,
			      r->first_stale_rank + 1, r->verify_fails,
			      bad[0] ? "; first: " : "", bad);
	else if (allowed && !test->quiet)
		kunit_info(test,
			   "drain=off: %s page_size=%u %s on CPUs %u,%u (%s): "
			   "%s",
			   s->name, l->size, mode, c.writer, c.reader,
			   pair->kind,
			   r->stale_rounds ? "stale struct pages observed"
					   : "stale struct pages not observed "
					     "(not a pass of the ordering)");
	/*
	 * verify_fails where stale pages are allowed: the reader's full
	 * check, right after its copy, found stores still not landed. The
	 * same relaxation, seen later; printed, not judged.
	 */
	plat_free(r, sizeof(*r));
	return true;
}

static u64 smp_rounds_for_run(struct kunit *test)
{
	const char *who;
	u64 rounds;

	if (option_is_set(smp_rounds))
		return opt_smp_rounds;
	rounds = platform_scaled(SCALE_SMP_ROUNDS, opt_smp_rounds, &who);
	if (who)
		kunit_info(test, "%s: rounds scaled down to %llu (from %llu)",
			   who, rounds, opt_smp_rounds);
	return rounds;
}

static unsigned long smp_pfns_for_run(struct kunit *test)
{
	const char *who;
	u64 cap = platform_scaled(SCALE_SMP_MAX_PFNS, 65536, &who);

	if (opt_smp_pfns <= cap)
		return (unsigned long)opt_smp_pfns;
	kunit_info(test, "%s: memmap_smp.pfns capped at %llu (from %llu)", who,
		   cap, opt_smp_pfns);
	return (unsigned long)cap;
}

static void memmap_smp_mode(struct kunit *test, u32 mode)
{
	int order = memmap_mode_order(mode);
	unsigned long nr;
	u64 rounds;

	if (order < 0 || !(opt_mode & mode))
		kunit_skip(test, "%s is not in mode= (add it to run this case)",
			   order < 0 ? "this mode" : memmap_mode_name(order));
	rounds = smp_rounds_for_run(test);
	nr = smp_pfns_for_run(test);
	kunit_info(test,
		   "%llu rounds of %lu struct pages per strategy and layout "
		   "on %u CPU pair(s), drain=%s",
		   rounds, nr, smp_nr_pairs,
		   opt_drain ? "on" : "off (research mode)");
	if (opt_smp_noise && plat_cpu_count() <= 2)
		kunit_info(test, "memmap_smp.noise=on: no CPU outside the "
				 "pair to make noise");
	for (u32 li = 0; li < opt_layout.n; li++) {
		const struct page_layout *l =
			page_layout_for_size(opt_layout.v[li]);
		const struct memmap_strategy *s;
		char why[160];

		if (!l)
			continue;
		for_each_memmap_strategy(s)
		{
			if (!glob_list_match(opt_strategy, s->name))
				continue;
			if (!memmap_strategy_usable(s, l, why, sizeof(why))) {
				kunit_info(test, "%s page_size=%u skipped: %s",
					   s->name, l->size, why);
				continue;
			}
			for (unsigned int p = 0; p < smp_nr_pairs; p++)
				if (!smp_one(test, l, (unsigned int)order, nr,
					     &smp_pairs[p], s, rounds))
					return; /* a CPU is stuck */
		}
	}
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

/*
 * The recency order the readers check first: the last pfns for order-0
 * pages; for folios the first two tails, the tails from the last down,
 * the head; no tail the run leaves to the shared vmemmap page.
 */
static void memmap_smp_recent_pages_first(struct kunit *test)
{
	static const struct {
		enum page_layout_id layout;
		unsigned int order;
		unsigned long nr;
	} shapes[] = {
		{PAGE_LAYOUT_64, 0, 100},
		{PAGE_LAYOUT_80_CPUPID, MEMMAP_ORDER_DEVDAX_2M, 1024},
		{PAGE_LAYOUT_64, MEMMAP_ORDER_DEVDAX_2M, 1024},
		{PAGE_LAYOUT_96, MEMMAP_ORDER_DEVDAX_2M, 600},
	};
	unsigned long pfns[MEMMAP_VIS_MAX_CHECK];
	u8 scratch[MAX_STRUCT_PAGE_SIZE];

	for (unsigned int i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct memmap_config cfg;
		unsigned long base = MEMMAP_DEFAULT_START_PFN, end, head;
		unsigned long last_tail = 0;
		unsigned int n;
		struct memmap m;
		char why[160];

		memmap_config_init(&cfg, shapes[i].layout, shapes[i].order,
				   shapes[i].order ? MEMORY_DEVICE_GENERIC
						   : MEMORY_DEVICE_FS_DAX,
				   base, shapes[i].nr);
		if (memmap_create(&m, &cfg, NULL, 0, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__, "shape %u: %s",
				      i, why);
			continue;
		}
		end = base + shapes[i].nr;
		n = memmap_vis_recent_pfns(&m, pfns, ARRAY_SIZE(pfns));
		KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(pfns));
		for (unsigned int j = 0; j < n; j++)
			KUNIT_EXPECT_NE(test,
					memmap_expected_page(&m, pfns[j],
							     scratch, NULL,
							     NULL),
					MEMMAP_ROLE_SHARED);
		if (!shapes[i].order) {
			for (unsigned int j = 0; j < n; j++)
				KUNIT_EXPECT_EQ(test, pfns[j], end - 1 - j);
			memmap_destroy(&m);
			continue;
		}
		head = base + (((end - 1 - base) >> shapes[i].order)
			       << shapes[i].order);
		for (unsigned long p = end; p-- > head;)
			if (memmap_expected_page(&m, p, scratch, NULL, NULL) ==
			    MEMMAP_ROLE_TAIL) {
				last_tail = p;
				break;
			}
		KUNIT_EXPECT_EQ(test, pfns[0], head + 1);
		KUNIT_EXPECT_EQ(test, pfns[1], head + 2);
		/* the copy loop's last store, right after prep_compound_head()
		 */
		KUNIT_EXPECT_EQ(test, pfns[2], last_tail);
		memmap_destroy(&m);
	}
}

/*
 * The test of the test, deterministic on any CPU and under emulation: a
 * writer that stores the newest struct pages only after the flag (plain
 * stores, ordered) must be caught in every round, and a writer that does
 * everything before it in none. A reader that skips the newest pages
 * fails the first half.
 */
static void memmap_smp_reader_sees_late_pages(struct kunit *test)
{
	static const unsigned int orders[] = {0, MEMMAP_ORDER_DEVDAX_2M};
	const struct page_layout *l = page_layout(PAGE_LAYOUT_80_CPUPID);

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++)
		for (unsigned int late = 0; late <= SMP_LATE_PAGES;
		     late += SMP_LATE_PAGES) {
			struct memmap_vis_config c;
			struct memmap_vis_result *r;

			r = plat_alloc_aligned(sizeof(*r), 64);
			if (!r) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "out of memory");
				return;
			}
			smp_config(&c, l, orders[i], 1024, &smp_pairs[0],
				   "slow");
			c.cfg.drain = true;
			c.instances = 2;
			c.rounds = SMP_LATE_ROUNDS;
			c.late_pages = late;
			if (memmap_vis_run(&c, r)) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "late=%u %s: %s", late,
					      memmap_mode_name(orders[i]),
					      r->why);
				if (r->stuck)
					return;
				plat_free(r, sizeof(*r));
				continue;
			}
			KUNIT_EXPECT_EQ(test, r->rounds, (u64)SMP_LATE_ROUNDS);
			KUNIT_EXPECT_EQ(test, r->stale_rounds,
					late ? (u64)SMP_LATE_ROUNDS : 0);
			KUNIT_EXPECT_EQ(test, r->stale_pages,
					(u64)late * SMP_LATE_ROUNDS);
			if (late)
				KUNIT_EXPECT_EQ(test, r->first_stale_rank, 0u);
			KUNIT_EXPECT_EQ(test, r->verify_fails, 0ull);
			plat_free(r, sizeof(*r));
		}
}

static int memmap_smp_suite_init(struct kunit_suite *suite, char *reason,
				 size_t len)
{
	if (plat_cpu_count() < 2) {
		ntb_snprintf(reason, len, "one CPU: nobody to read the memmap");
		return 1;
	}
	if (bench_kernel_base_only(reason, len))
		return 1;
	smp_nr_pairs = litmus_pick_pairs(smp_pairs, LITMUS_MAX_PAIRS);
	if (!smp_nr_pairs) {
		ntb_snprintf(reason, len, "no two CPUs that take work");
		return 1;
	}
	return 0;
}

static const struct kunit_case memmap_smp_cases[] = {
	KUNIT_CASE(memmap_smp_recent_pages_first),
	KUNIT_CASE(memmap_smp_reader_sees_late_pages),
	KUNIT_CASE(memmap_smp_fsdax),
	KUNIT_CASE(memmap_smp_devdax2m),
	KUNIT_CASE(memmap_smp_devdax1g),
};

KUNIT_SUITE_DEFINE(memmap_smp_suite, "memmap_smp", memmap_smp_cases,
		   .suite_init = memmap_smp_suite_init,
		   .strategy_name = memmap_strategy_name_at,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
