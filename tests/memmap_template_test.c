// SPDX-License-Identifier: GPL-2.0-only
/*
 * The template path against the slow path: every strategy this CPU can
 * run must leave byte-identical struct pages and pageblock flags, for
 * every struct page layout, memory type, folio order and altmap; and the
 * non-temporal ones must drain at exactly the three points of
 * "mm: use memcpy_nt() in zone-device template copies",
 * and not at all with drain=off.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

static void strategies_listed(struct kunit *test)
{
	static const char *const required[] = {
		"slow", "tmpl_memcpy", "tmpl_nt_generic", "tmpl_nt_fixed",
		"fill_movnti",
	};
	const struct memmap_strategy *s, *t;
	char why[96];

	for (size_t i = 0; i < ARRAY_SIZE(required); i++) {
		s = memmap_strategy_find(required[i]);
		KUNIT_EXPECT_TRUE(test, s != NULL);
		if (!s)
			continue;
		/* MOVNTI is SSE2, part of x86_64: these run everywhere */
		for (int lid = 0; lid < NR_PAGE_LAYOUTS; lid++) {
			const struct page_layout *l =
				page_layout((enum page_layout_id)lid);
			bool ok = memmap_strategy_usable(s, l, why,
							 sizeof(why));

			if (!ok)
				kunit_info(test, "%s/%s: %s", s->name, l->name,
					   why);
			KUNIT_EXPECT_TRUE(test, ok);
		}
	}
	for_each_memmap_strategy(s) {
		const struct memmap_strategy *end =
			memmap_strategies + memmap_nr_strategies;

		for (t = s + 1; t < end; t++)
			KUNIT_EXPECT_TRUE(test, strcmp(s->name, t->name) != 0);
		KUNIT_EXPECT_EQ(test, s->variant == NULL,
				s->copy == MEMMAP_SLOW);
	}
	KUNIT_EXPECT_TRUE(test, memmap_strategy_find(NULL) ==
					memmap_strategy_find("slow"));
	KUNIT_EXPECT_TRUE(test, memmap_strategy_find("tmpl_bogus") == NULL);

	/* what no layout can take is refused with a reason */
	s = memmap_strategy_find("tmpl_movdir64b");
	KUNIT_EXPECT_FALSE(test, memmap_strategy_usable(
					 s, page_layout(PAGE_LAYOUT_96), why,
					 sizeof(why)));
	KUNIT_EXPECT_TRUE(test, why[0] != '\0');
	s = memmap_strategy_find("fill_avx");
	KUNIT_EXPECT_FALSE(test, memmap_strategy_usable(
					 s, page_layout(PAGE_LAYOUT_80_CPUPID),
					 why, sizeof(why)));
	KUNIT_EXPECT_TRUE(test, why[0] != '\0');
}

struct snapshot {
	u8 *pages;
	unsigned long *usemap;
	size_t usemap_bytes;
};

/*
 * Run every strategy of @usable on the memmap of @c and compare with the
 * slow path's bytes. Returns the number of strategies compared.
 */
static unsigned int compare_strategies(struct kunit *test,
				       const struct memmap_case *c,
				       enum model_kernel kernel,
				       const bool *usable,
				       struct snapshot *snap)
{
	struct memmap_config cfg;
	struct memmap m;
	unsigned int compared = 0;
	char name[64], why[96];

	memmap_case_config(c, &cfg);
	cfg.kernel = kernel;
	memmap_case_name(c, name, sizeof(name));
	if (kernel != MODEL_KERNEL_BASE)
		ntb_snprintf(name + strlen(name), sizeof(name) - strlen(name),
			     "/kernel=%s", model_kernel_name(kernel));
	if (!memmap_case_create(test, &m, &cfg))
		return 0;
	memmap_poison(&m, 0xa5);
	memmap_run(&m);
	memmap_expect_model(test, &m, name);
	memcpy(snap->pages, m.pages, m.bytes);
	/* the kernel's bits a pageblock: 6.12's usemap is half the base's */
	snap->usemap_bytes = m.pageblocks.nr_sections *
			     usemap_longs_per_section(m.pageblocks.bits) *
			     sizeof(unsigned long);
	memcpy(snap->usemap, m.pageblocks.usemap, snap->usemap_bytes);

	for (unsigned int i = 0; i < memmap_nr_strategies; i++) {
		const struct memmap_strategy *s = &memmap_strategies[i];

		if (s->copy == MEMMAP_SLOW || !usable[i])
			continue;
		if (memmap_set_strategy(&m, s->name, why, sizeof(why))) {
			kunit_fail_at(test, __FILE__, __LINE__, "%s: %s",
				      s->name, why);
			continue;
		}
		memmap_poison(&m, 0xa5);
		memmap_run(&m);
		if (memcmp(m.pages, snap->pages, m.bytes)) {
			size_t off = 0;

			while (((u8 *)m.pages)[off] == snap->pages[off])
				off++;
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s [%s]: differs from the slow path at "
				      "pfn %#lx byte %zu",
				      name, s->name,
				      m.base_pfn + off / m.layout->size,
				      off % m.layout->size);
		}
		KUNIT_EXPECT_EQ(test, memcmp(m.pageblocks.usemap, snap->usemap,
					     snap->usemap_bytes),
				0);
		memmap_expect_model(test, &m, name);
		compared++;
	}
	memmap_destroy(&m);
	return compared;
}

static void identical_for_layout(struct kunit *test, enum page_layout_id lid,
				 enum model_kernel kernel)
{
	const struct page_layout *l = page_layout(lid);
	struct memmap_case cases[32];
	unsigned int n = memmap_cases_for_layout(lid, cases), compared = 0;
	bool usable[NR_MEMMAP_COPIES + 4];
	unsigned int nr_usable = 0;
	struct snapshot snap;
	size_t max_bytes = 0;
	char why[96];

	KUNIT_ASSERT_LE(test, memmap_nr_strategies, ARRAY_SIZE(usable));
	for (unsigned int i = 0; i < memmap_nr_strategies; i++) {
		const struct memmap_strategy *s = &memmap_strategies[i];

		usable[i] = memmap_strategy_usable(s, l, why, sizeof(why)) &&
			    !memmap_kernel_refuses(kernel, s, l, why,
						   sizeof(why));
		if (usable[i])
			nr_usable++;
		else
			kunit_info(test, "%s skipped: %s", s->name, why);
	}
	for (unsigned int i = 0; i < n; i++) {
		struct memmap_config cfg;

		memmap_case_config(&cases[i], &cfg);
		max_bytes = max(max_bytes, memmap_bytes(&cfg));
	}
	snap.pages = kunit_kzalloc(test, max_bytes);
	snap.usemap = kunit_kzalloc(test, 16 * USEMAP_LONGS_PER_SECTION *
						  sizeof(unsigned long));
	KUNIT_ASSERT_NOT_NULL(test, snap.pages);
	KUNIT_ASSERT_NOT_NULL(test, snap.usemap);

	for (unsigned int i = 0; i < n; i++)
		compared += compare_strategies(test, &cases[i], kernel, usable,
					       &snap);
	kunit_info(test, "%u configurations x %u strategies: %u runs compared",
		   n, nr_usable - 1, compared);
	KUNIT_EXPECT_EQ(test, compared, n * (nr_usable - 1));
}

static void identical_64(struct kunit *test)
{
	identical_for_layout(test, PAGE_LAYOUT_64, MODEL_KERNEL_BASE);
}

/*
 * 6.12 (kernel=6.12): the series backported to it (patches/6.12/series/)
 * against 6.12's slow path, its one layout; the byte-for-byte check of
 * the kernel's series build against the same slow path
 * (tools/check-kernel-memmap) then makes these the series' compiled bytes.
 */
static void identical_64_v6_12(struct kunit *test)
{
	identical_for_layout(test, PAGE_LAYOUT_64, MODEL_KERNEL_6_12);
}

static void identical_80_kmsan(struct kunit *test)
{
	identical_for_layout(test, PAGE_LAYOUT_80_KMSAN, MODEL_KERNEL_BASE);
}

static void identical_80_cpupid(struct kunit *test)
{
	identical_for_layout(test, PAGE_LAYOUT_80_CPUPID, MODEL_KERNEL_BASE);
}

static void identical_96(struct kunit *test)
{
	identical_for_layout(test, PAGE_LAYOUT_96, MODEL_KERNEL_BASE);
}

static void check_drains(struct kunit *test, struct memmap *m,
			 const struct memmap_strategy *s, bool drain,
			 unsigned long heads)
{
	const unsigned long *d = m->drains;
	bool on = s->nt && drain;

	unsigned int findings;
	char first[400];

	m->cfg.drain = drain;
	ntcheck_expect_begin();
	memmap_run(m);
	findings = ntcheck_expect_end(first, sizeof(first));
	/*
	 * The ordering checker, on in this case in every build (the checked
	 * loop's hooks, or the primitives' in a checking build): silent
	 * with the drains; without them every non-temporal strategy leaves
	 * something undrained.
	 */
	if (ntcheck_active() && s->nt && !drain) {
		KUNIT_EXPECT_GT(test, findings, 0u);
	} else if (ntcheck_active()) {
		KUNIT_EXPECT_EQ(test, findings, 0u);
		if (findings)
			kunit_info(test, "%s: %s", s->name, first);
	}
	KUNIT_EXPECT_EQ(test, d[MEMMAP_DRAIN_BEFORE_COMPOUND], on ? heads : 0);
	KUNIT_EXPECT_EQ(test, d[MEMMAP_DRAIN_BEFORE_PREP_HEAD], on ? heads : 0);
	KUNIT_EXPECT_EQ(test, d[MEMMAP_DRAIN_BEFORE_RETURN], on ? 1 : 0);
	/* drains or not, the same bytes */
	memmap_expect_model(test, m, s->name);
}

/*
 * Drains: one before each memmap_init_compound() and each
 * prep_compound_head() (a folio each), one before returning; none for
 * cached copies or the slow path; none at all with drain=off. The same
 * three at 6.12 (kernel=6.12), whose prep_compound_head() and its drain
 * come right after the first tail.
 */
static void drain_points(struct kunit *test)
{
	static const unsigned int orders[] = { 0, 9, 18 };
	static const enum model_kernel kernels[] = { MODEL_KERNEL_BASE,
						     MODEL_KERNEL_6_12 };
	const struct memmap_strategy *s;
	char why[96];

	for (size_t k = 0; k < ARRAY_SIZE(kernels); k++) {
		for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
			for (int altmap = 0; altmap < 2; altmap++) {
				struct memmap_case c = { PAGE_LAYOUT_64,
							 orders[o],
							 MEMORY_DEVICE_FS_DAX,
							 altmap };
				struct memmap_config cfg;
				struct memmap m;
				unsigned long heads;
				unsigned int ran = 0;

				memmap_case_config(&c, &cfg);
				cfg.kernel = kernels[k];
				if (!memmap_case_create(test, &m, &cfg))
					return;
				heads = orders[o] ? memmap_nr_heads(&m) : 0;
				KUNIT_EXPECT_EQ(test, memmap_nr_heads(&m),
						orders[o] == 9	? 3 :
						orders[o] == 18 ? 1 :
								  1200);

				for_each_memmap_strategy(s) {
					if (memmap_set_strategy(&m, s->name,
								why,
								sizeof(why)))
						continue;
					for (int drain = 1; drain >= 0; drain--)
						check_drains(test, &m, s, drain,
							     heads);
					ran += s->nt;
				}
				/* the series' NT copies run at either kernel */
				KUNIT_EXPECT_GE(test, ran, 2u);
				memmap_destroy(&m);
			}
		}
	}
}

/*
 * The series' gate (zone_device_page_init_optimization_enabled()): a
 * KASAN or KMSAN build, or the page_ref_set tracepoint on, takes the slow
 * path whatever the strategy: no template copy, so no drain, and the same
 * bytes. A layout with KMSAN's metadata is a KMSAN build. With none of
 * them, or with the gate opened (cfg.ungated), the strategy's own path
 * runs.
 */
static void sanitizer_gate(struct kunit *test)
{
	static const struct {
		enum page_layout_id layout;
		bool kasan, tracepoint, ungated, template_path;
	} cases[] = {
		{ PAGE_LAYOUT_64, false, false, false, true },
		{ PAGE_LAYOUT_64, true, false, false, false },
		{ PAGE_LAYOUT_64, false, true, false, false },
		{ PAGE_LAYOUT_80_KMSAN, false, false, false, false },
		{ PAGE_LAYOUT_96, false, false, false, false },
		{ PAGE_LAYOUT_80_CPUPID, false, false, false, true },
		{ PAGE_LAYOUT_80_KMSAN, false, false, true, true },
		{ PAGE_LAYOUT_64, true, true, true, true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct memmap_case c = { cases[i].layout, 9,
					 MEMORY_DEVICE_GENERIC, false };
		const struct page_layout *l = page_layout(cases[i].layout);
		unsigned long heads;
		struct memmap_config cfg;
		struct memmap m;
		char name[96];

		memmap_case_config(&c, &cfg);
		KUNIT_EXPECT_EQ(test, cfg.kmsan, l->kmsan);
		cfg.strategy = "tmpl_nt_fixed";
		cfg.kasan = cases[i].kasan;
		cfg.page_ref_tracepoint = cases[i].tracepoint;
		cfg.ungated = cases[i].ungated;
		if (!memmap_case_create(test, &m, &cfg))
			return;
		ntb_snprintf(name, sizeof(name),
			     "%s layout %s%s%s%s", cfg.strategy, l->name,
			     cfg.kasan ? " kasan" : "",
			     cfg.page_ref_tracepoint ? " page_ref_set" : "",
			     cfg.ungated ? " ungated" : "");
		memmap_run(&m);
		heads = cases[i].template_path ? memmap_nr_heads(&m) : 0;
		if (m.template_path != cases[i].template_path)
			kunit_info(test, "%s: the %s path ran", name,
				   m.template_path ? "template" : "slow");
		KUNIT_EXPECT_EQ(test, m.template_path,
				cases[i].template_path);
		KUNIT_EXPECT_EQ(test, m.drains[MEMMAP_DRAIN_BEFORE_COMPOUND],
				heads);
		KUNIT_EXPECT_EQ(test, m.drains[MEMMAP_DRAIN_BEFORE_RETURN],
				cases[i].template_path ? 1ul : 0ul);
		memmap_expect_model(test, &m, name);
		memmap_destroy(&m);
	}
}

/*
 * Which (strategy, layout) pairs the kernel cannot reach, and why: the
 * line the benchmarks print. The series and the slow path on the 64-byte
 * layout are reachable; everything else names its reason.
 */
static void unreachable_configurations(struct kunit *test)
{
	static const struct {
		const char *strategy;
		enum page_layout_id layout;
		const char *reason;	/* NULL: reachable */
	} cases[] = {
		{ "slow", PAGE_LAYOUT_64, NULL },
		{ "tmpl_memcpy", PAGE_LAYOUT_64, NULL },
		{ "tmpl_nt_generic", PAGE_LAYOUT_64, NULL },
		{ "tmpl_nt_fixed", PAGE_LAYOUT_64, NULL },
		{ "slow", PAGE_LAYOUT_80_KMSAN, NULL },
		{ "tmpl_nt_fixed", PAGE_LAYOUT_80_KMSAN, "KASAN/KMSAN" },
		{ "slow", PAGE_LAYOUT_80_CPUPID, "last_cpupid" },
		{ "tmpl_nt_fixed", PAGE_LAYOUT_80_CPUPID, "last_cpupid" },
		{ "slow", PAGE_LAYOUT_96, "last_cpupid" },
		{ "tmpl_nt_fixed", PAGE_LAYOUT_96, "KASAN/KMSAN" },
		{ "fill_mov", PAGE_LAYOUT_64, "project's own" },
		{ "tmpl_nocache", PAGE_LAYOUT_64, "project's own" },
		{ "tmpl_sse2_nt", PAGE_LAYOUT_64, "project's own" },
	};
	char buf[320];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct memmap_strategy *s =
			memmap_strategy_find(cases[i].strategy);
		const char *why;

		KUNIT_ASSERT_NOT_NULL(test, s);
		why = memmap_unreachable(s, page_layout(cases[i].layout), buf,
					 sizeof(buf));
		if (!cases[i].reason && why)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s on %s: reachable, but \"%s\"",
				      cases[i].strategy,
				      page_layout(cases[i].layout)->name, why);
		if (cases[i].reason &&
		    (!why || !strstr(why, cases[i].reason)))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s on %s: want a reason naming %s, got "
				      "%s", cases[i].strategy,
				      page_layout(cases[i].layout)->name,
				      cases[i].reason, why ? why : "none");
	}
}

/* What a config starts as: the kernel's behaviour, slow path. */
static void config_defaults(struct kunit *test)
{
	struct memmap_config cfg;

	memmap_config_init(&cfg, PAGE_LAYOUT_64, 0, MEMORY_DEVICE_FS_DAX,
			   MEMMAP_DEFAULT_START_PFN, 512);
	KUNIT_EXPECT_TRUE(test, cfg.drain);
	KUNIT_EXPECT_TRUE(test, cfg.vmemmap_optimize);
	KUNIT_EXPECT_FALSE(test, cfg.compound_info_mask);
	KUNIT_EXPECT_STREQ(test, cfg.strategy, "slow");
	/* the kernel's gate in force; a 64-byte page is no KMSAN build */
	KUNIT_EXPECT_FALSE(test, cfg.ungated);
	KUNIT_EXPECT_FALSE(test, cfg.kmsan);
	KUNIT_EXPECT_FALSE(test, cfg.kasan);
	KUNIT_EXPECT_FALSE(test, cfg.page_ref_tracepoint);
}

/* A caller's buffer is used as it is, and too small a one is refused. */
static void caller_buffer(struct kunit *test)
{
	struct memmap_config cfg;
	struct memmap m;
	char why[96];
	size_t bytes;
	void *buf;

	memmap_config_init(&cfg, PAGE_LAYOUT_80_CPUPID, 9,
			   MEMORY_DEVICE_GENERIC, MEMMAP_CASE_START, 1030);
	cfg.strategy = "tmpl_nt_fixed";
	bytes = memmap_bytes(&cfg);
	buf = kunit_kzalloc(test, bytes);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, memmap_create(&m, &cfg, buf, bytes - 1, why,
					    sizeof(why)),
			-1);
	KUNIT_ASSERT_EQ(test, memmap_create(&m, &cfg, buf, bytes, why,
					    sizeof(why)),
			0);
	/* placed as in a vmemmap: pfn * 80 bytes from a line boundary */
	KUNIT_EXPECT_EQ(test, memmap_line_offset(&cfg),
			(size_t)(MEMMAP_CASE_START * 80) % 64);
	KUNIT_EXPECT_TRUE(test,
			  (char *)m.pages == (char *)buf +
						   memmap_line_offset(&cfg));
	memmap_run(&m);
	memmap_expect_model(test, &m, "caller buffer");
	memmap_destroy(&m);
}

static const struct kunit_case memmap_template_cases[] = {
	KUNIT_CASE(strategies_listed),
	KUNIT_CASE(identical_64),
	KUNIT_CASE(identical_64_v6_12),
	KUNIT_CASE(identical_80_kmsan),
	KUNIT_CASE(identical_80_cpupid),
	KUNIT_CASE(identical_96),
	KUNIT_CASE(drain_points),
	KUNIT_CASE(sanitizer_gate),
	KUNIT_CASE(config_defaults),
	KUNIT_CASE(unreachable_configurations),
	KUNIT_CASE(caller_buffer),
};

KUNIT_SUITE_DEFINE(memmap_template_suite, "memmap_template",
		   memmap_template_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
