// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's two kernels (model/kernels.h): a case per entry of the
 * table of differences, each showing the model at 6.12 writing what
 * 6.12's source says and the default writing what the base's says. The
 * values are written down here from the two sources' rules, not read
 * from the table, so that a wrong table entry fails its case. Then the
 * 6.12 model over the whole 64-byte matrix against its expected pages,
 * and the configurations 6.12 refuses.
 */
#include "lib/kunit.h"
#include "lib/string.h"
#include "model/kernels.h"
#include "model/memmap.h"
#include "model/mm/internal.h"
#include "model/mm/mm_init.h"
#include "tests/engines/memmap_case.h"

/* mm_types.h TAIL_MAPPING: 0x400 + POISON_POINTER_DELTA (x86_64). */
#define TAIL_MAPPING_6_12 0xdead000000000400ULL

/* The model of kernel @k over the case range of @order and @type. */
static bool run_kernel(struct kunit *test, enum model_kernel k,
		       unsigned int order, enum memory_type type,
		       struct memmap *m)
{
	struct memmap_case c = {PAGE_LAYOUT_64, order, type, false};
	struct memmap_config cfg;

	memmap_case_config(&c, &cfg);
	cfg.kernel = k;
	if (!memmap_case_create(test, m, &cfg))
		return false;
	memmap_poison(m, 0x5a);
	memmap_run(m);
	if (!memmap_expect_model(test, m, model_kernel_name(k))) {
		memmap_destroy(m);
		return false;
	}
	return true;
}

/*
 * The head's _refcount (offset 52) of a @type page: 6.12's
 * __init_zone_device_page() sets 0 only for DEVICE_PRIVATE and
 * DEVICE_COHERENT; the base's for every type but GENERIC.
 */
static void expect_head_refcount(struct kunit *test, enum memory_type type,
				 u32 base, u32 v6_12)
{
	struct memmap m;

	if (!run_kernel(test, MODEL_KERNEL_BASE, 0, type, &m))
		return;
	KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, m.base_pfn + 5, 52), base);
	memmap_destroy(&m);
	if (!run_kernel(test, MODEL_KERNEL_6_12, 0, type, &m))
		return;
	KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, m.base_pfn + 5, 52), v6_12);
	memmap_destroy(&m);
}

static void refcount_fs_dax(struct kunit *test)
{
	expect_head_refcount(test, MEMORY_DEVICE_FS_DAX, 0, 1);
}

static void refcount_p2pdma(struct kunit *test)
{
	expect_head_refcount(test, MEMORY_DEVICE_PCI_P2PDMA, 0, 1);
	/* the types both kernels agree on */
	expect_head_refcount(test, MEMORY_DEVICE_PRIVATE, 0, 0);
	expect_head_refcount(test, MEMORY_DEVICE_COHERENT, 0, 0);
	expect_head_refcount(test, MEMORY_DEVICE_GENERIC, 1, 1);
}

/*
 * prep_compound_head() of kernel @k over three struct pages of 0xee, as
 * a folio of @order: what it stores, and where it stores nothing.
 */
static void prep_head_on_poison(enum model_kernel k, unsigned int order,
				u8 *pages)
{
	const struct page_layout *l = page_layout(PAGE_LAYOUT_64);

	memset(pages, 0xee, 3 * 64);
	kernel_prep_compound_head(k, l, (struct page *)pages, order);
}

static u32 get32(const u8 *p, unsigned int off)
{
	u32 v;

	memcpy(&v, p + off, 4);
	return v;
}

static u64 get64(const u8 *p, unsigned int off)
{
	u64 v;

	memcpy(&v, p + off, 8);
	return v;
}

/* 6.12: _large_mapcount 16, _entire_mapcount 20, _nr_pages_mapped 24. */
static void folio_entire_mapcount(struct kunit *test)
{
	u8 p[3 * 64] __aligned(64);

	prep_head_on_poison(MODEL_KERNEL_BASE, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 24), 0xffffffffu);
	prep_head_on_poison(MODEL_KERNEL_6_12, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 20), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 16), 0xffffffffu);
}

static void folio_nr_pages_mapped(struct kunit *test)
{
	u8 p[3 * 64] __aligned(64);

	prep_head_on_poison(MODEL_KERNEL_BASE, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 20), 0u);
	prep_head_on_poison(MODEL_KERNEL_6_12, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 24), 0u);
	/* _pincount at 28 in both */
	KUNIT_EXPECT_EQ(test, get32(p + 64, 28), 0u);
}

/*
 * 6.12's folio_set_order(): _folio_nr_pages, an unsigned int right after
 * _pincount (offset 32); memcg_data (56) is not the folio's. The base's
 * _nr_pages overlays memcg_data at 56.
 */
static void folio_nr_pages(struct kunit *test)
{
	u8 p[3 * 64] __aligned(64);
	struct memmap m;

	prep_head_on_poison(MODEL_KERNEL_BASE, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 56), 512u);
	KUNIT_EXPECT_EQ(test, get64(p + 64, 0) & 0xff, 9u);
	prep_head_on_poison(MODEL_KERNEL_6_12, 9, p);
	KUNIT_EXPECT_EQ(test, get32(p + 64, 32), 512u);
	KUNIT_EXPECT_EQ(test, get64(p + 64, 56), 0xeeeeeeeeeeeeeeeeULL);
	KUNIT_EXPECT_EQ(test, get64(p + 64, 0) & 0xff, 9u);

	/* in a run: memcg_data of page[1] stays 0, index holds the count */
	if (!run_kernel(test, MODEL_KERNEL_6_12, 18, MEMORY_DEVICE_GENERIC, &m))
		return;
	KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 1, 56), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 1, 32),
			1ULL << 18);
	memmap_destroy(&m);
}

/*
 * 6.12's prep_compound_head() stores nothing in page[1] past
 * _folio_nr_pages (36..63): no _mm_id fields, no _nr_pages at 56.
 */
static void expect_6_12_page1_tail_untouched(struct kunit *test,
					     const u8 *page1)
{
	for (unsigned int off = 36; off < 64; off++)
		if (page1[off] != 0xee) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "6.12's prep_compound_head() stored %#x "
				      "at page[1] offset %u",
				      page1[off], off);
			return;
		}
}

/* The base's CONFIG_MM_ID fields; 6.12 has none: nothing stored there. */
static void folio_mm_id_mapcount(struct kunit *test)
{
	u8 p[3 * 64] __aligned(64);

	prep_head_on_poison(MODEL_KERNEL_BASE, 9, p);
	KUNIT_EXPECT_EQ(test, get64(p + 64, 32), ~0ULL);
	prep_head_on_poison(MODEL_KERNEL_6_12, 9, p);
	expect_6_12_page1_tail_untouched(test, p + 64);
}

static void folio_mm_ids(struct kunit *test)
{
	u8 p[3 * 64] __aligned(64);

	prep_head_on_poison(MODEL_KERNEL_BASE, 9, p);
	KUNIT_EXPECT_EQ(test, get64(p + 64, 40), 0);
	prep_head_on_poison(MODEL_KERNEL_6_12, 9, p);
	expect_6_12_page1_tail_untouched(test, p + 64);
}

/*
 * 6.12 calls prep_compound_head() right after the first tail; tail 2's
 * own initialisation then rewrites 16 (zone_device_data = NULL) and 24
 * (mapping = TAIL_MAPPING) over _deferred_list. The base calls it after
 * every tail: the list points at itself.
 */
static void prep_head_after_first_tail(struct kunit *test)
{
	static const unsigned int orders[] = {MEMMAP_ORDER_DEVDAX_2M,
					      MEMMAP_ORDER_DEVDAX_1G};
	struct memmap m;

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		u64 list;

		if (!run_kernel(test, MODEL_KERNEL_BASE, orders[i],
				MEMORY_DEVICE_GENERIC, &m))
			return;
		list = (u64)(uptr)memmap_case_page(&m, m.base_pfn + 2) + 16;
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 2, 16),
				list);
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 2, 24),
				list);
		memmap_destroy(&m);
		if (!run_kernel(test, MODEL_KERNEL_6_12, orders[i],
				MEMORY_DEVICE_GENERIC, &m))
			return;
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 2, 16),
				0);
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, m.base_pfn + 2, 24),
				TAIL_MAPPING_6_12);
		/* tail 1 keeps the metadata in both */
		KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, m.base_pfn + 1, 16),
				0xffffffffu);
		memmap_destroy(&m);
	}
}

/*
 * The usemap of one whole section, every pageblock set MIGRATE_MOVABLE
 * (1) by kernel @k's store: 8 bits a pageblock (a byte of 0x01) in the
 * base, 4 in 6.12 (a nibble of 1), and as many longs per section.
 */
static void pageblock_bits(struct kunit *test)
{
	struct pageblock_flags pb;
	unsigned long start = MEMMAP_DEFAULT_START_PFN;

	KUNIT_ASSERT_EQ(test,
			pageblock_flags_alloc(&pb, start,
					      start + PAGES_PER_SECTION,
					      MODEL_KERNEL_BASE),
			0);
	for (unsigned long pfn = start; pfn < start + PAGES_PER_SECTION;
	     pfn += pageblock_nr_pages)
		kernel_set_pageblock_migratetype(MODEL_KERNEL_BASE, &pb, pfn,
						 MIGRATE_MOVABLE);
	for (unsigned int w = 0; w < 8; w++)
		KUNIT_EXPECT_EQ(test, pb.usemap[w], 0x0101010101010101UL);
	pageblock_flags_free(&pb);

	KUNIT_ASSERT_EQ(test,
			pageblock_flags_alloc(&pb, start,
					      start + PAGES_PER_SECTION,
					      MODEL_KERNEL_6_12),
			0);
	for (unsigned long pfn = start; pfn < start + PAGES_PER_SECTION;
	     pfn += pageblock_nr_pages)
		kernel_set_pageblock_migratetype(MODEL_KERNEL_6_12, &pb, pfn,
						 MIGRATE_MOVABLE);
	for (unsigned int w = 0; w < 4; w++)
		KUNIT_EXPECT_EQ(test, pb.usemap[w], 0x1111111111111111UL);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&pb, start + 700), 1);
	pageblock_flags_free(&pb);
}

/*
 * What the store replaces, over a word of all ones: the base clears the
 * migratetype and the isolate bit (bit 4) and keeps compaction's skip
 * bit (3); 6.12 clears the migratetype (MIGRATETYPE_MASK, 0x7) only.
 */
static void pageblock_mask(struct kunit *test)
{
	struct pageblock_flags pb;
	unsigned long start = MEMMAP_DEFAULT_START_PFN;

	KUNIT_ASSERT_EQ(
		test,
		pageblock_flags_alloc(&pb, start, start + 1, MODEL_KERNEL_BASE),
		0);
	pb.usemap[0] = ~0UL;
	kernel_set_pageblock_migratetype(MODEL_KERNEL_BASE, &pb, start,
					 MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, pb.usemap[0], 0xffffffffffffffe9UL);
	pageblock_flags_free(&pb);

	KUNIT_ASSERT_EQ(
		test,
		pageblock_flags_alloc(&pb, start, start + 1, MODEL_KERNEL_6_12),
		0);
	pb.usemap[0] = ~0UL;
	kernel_set_pageblock_migratetype(MODEL_KERNEL_6_12, &pb, start,
					 MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, pb.usemap[0], 0xfffffffffffffff9UL);
	pageblock_flags_free(&pb);
}

/* 6.12 has no mask form of compound_head: a memmap asking is refused. */
static void compound_info_mask(struct kunit *test)
{
	struct memmap_case c = {PAGE_LAYOUT_64, 9, MEMORY_DEVICE_GENERIC,
				false};
	struct memmap_config cfg;
	char why[160];

	memmap_case_config(&c, &cfg);
	cfg.compound_info_mask = true;
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), 0);
	cfg.kernel = MODEL_KERNEL_6_12;
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), -1);
	KUNIT_EXPECT_STREQ(test, why,
			   "kernel=6.12 has no mask form of compound_head");
}

/*
 * Each byte-visible or refused entry of the table, and its case. A new
 * entry of those kinds without a case here fails table_has_cases.
 */
static const struct {
	enum kernel_difference_id id;
	void (*run)(struct kunit *test);
} entry_cases[] = {
	{KDIFF_REFCOUNT_FS_DAX, refcount_fs_dax},
	{KDIFF_REFCOUNT_P2PDMA, refcount_p2pdma},
	{KDIFF_FOLIO_ENTIRE_MAPCOUNT, folio_entire_mapcount},
	{KDIFF_FOLIO_NR_PAGES_MAPPED, folio_nr_pages_mapped},
	{KDIFF_FOLIO_NR_PAGES, folio_nr_pages},
	{KDIFF_FOLIO_MM_ID_MAPCOUNT, folio_mm_id_mapcount},
	{KDIFF_FOLIO_MM_IDS, folio_mm_ids},
	{KDIFF_PREP_HEAD_AFTER_FIRST_TAIL, prep_head_after_first_tail},
	{KDIFF_PAGEBLOCK_BITS, pageblock_bits},
	{KDIFF_PAGEBLOCK_MASK, pageblock_mask},
	{KDIFF_COMPOUND_INFO_MASK, compound_info_mask},
};

static void table_has_cases(struct kunit *test)
{
	for (unsigned int i = 0; i < NR_KERNEL_DIFFERENCES; i++) {
		const struct kernel_difference *d = &kernel_differences[i];
		bool found = false;

		for (unsigned int j = 0; j < ARRAY_SIZE(entry_cases); j++)
			found |= entry_cases[j].id == i;
		if (d->kind != KDIFF_SHAPE && !found)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "entry %s has no case", d->id);
		/* a shape entry changes code, never bytes: no case */
		if (d->kind == KDIFF_SHAPE && found)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "shape entry %s has a bytes case", d->id);
		KUNIT_EXPECT_NE(test, d->value[MODEL_KERNEL_BASE],
				d->value[MODEL_KERNEL_6_12]);
	}
}

/* The 6.12 model over every 64-byte case against its expected pages. */
static void v6_12_matches_model(struct kunit *test)
{
	struct memmap_case cases[40];
	unsigned int n = memmap_cases_for_layout(PAGE_LAYOUT_64, cases);

	for (unsigned int i = 0; i < n; i++) {
		struct memmap_config cfg;
		struct memmap m;
		char name[48];

		memmap_case_config(&cases[i], &cfg);
		cfg.kernel = MODEL_KERNEL_6_12;
		memmap_case_name(&cases[i], name, sizeof(name));
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_poison(&m, 0x5a);
		memmap_run(&m);
		memmap_expect_model(test, &m, name);
		memmap_destroy(&m);
	}
}

/*
 * What 6.12 has: the slow path and the series backported to it
 * (patches/6.12/series/), named here on their own; every other strategy
 * (the project's own) and every layout but 64 refused, by name.
 */
static void v6_12_refuses(struct kunit *test)
{
	static const char *const has[] = {
		"slow", "tmpl_memcpy", "tmpl_nt_generic", "tmpl_nt_fixed",
	};
	const struct memmap_strategy *s;
	char why[200];
	unsigned int refused = 0;

	for_each_memmap_strategy(s)
	{
		bool r = memmap_kernel_refuses(MODEL_KERNEL_6_12, s,
					       page_layout(PAGE_LAYOUT_64), why,
					       sizeof(why));
		bool listed = false;

		for (size_t i = 0; i < ARRAY_SIZE(has); i++)
			listed |= !strcmp(s->name, has[i]);
		KUNIT_EXPECT_EQ(test, r, !listed);
		if (r && !strstr(why, "not the series"))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s refused without saying why: %s",
				      s->name, why);
		/* a loop at 6.12 exactly where it is not refused */
		KUNIT_EXPECT_EQ(test,
				memmap_init_lookup(s->copy, PAGE_LAYOUT_64,
						   MODEL_KERNEL_6_12,
						   false) != NULL,
				listed);
		refused += r;
		KUNIT_EXPECT_FALSE(
			test, memmap_kernel_refuses(MODEL_KERNEL_BASE, s, NULL,
						    why, sizeof(why)));
	}
	KUNIT_EXPECT_EQ(test, refused,
			memmap_nr_strategies - (unsigned int)ARRAY_SIZE(has));
	for (int lid = 0; lid < NR_PAGE_LAYOUTS; lid++)
		KUNIT_EXPECT_EQ(test,
				memmap_kernel_refuses(
					MODEL_KERNEL_6_12, NULL,
					page_layout((enum page_layout_id)lid),
					why, sizeof(why)),
				lid != PAGE_LAYOUT_64);
	KUNIT_EXPECT_STREQ(test, model_kernel_name(MODEL_KERNEL_6_12), "6.12");
}

/*
 * memmap_compare_kernel() on a memmap that stands for the kernel's: the
 * model's own bytes as another process at other addresses would hold
 * them (its pointers rebased), so the comparison must translate them
 * to find no difference; then one field of it changed at a time, each
 * named with both values.
 */
#define FAKE_PAGES 0x7f0000000000ULL
#define FAKE_PGMAP 0x42e2e0ULL

static void fake_kernel_run(const struct memmap *m, u8 *pages, u8 *bits,
			    struct memmap_kernel_run *k)
{
	u64 base = (u64)(uptr)m->pages, end = base + m->bytes;

	memcpy(pages, m->pages, m->bytes);
	for (size_t off = 0; off + 8 <= m->bytes; off += 8) {
		u64 w;

		memcpy(&w, pages + off, 8);
		if (w == (u64)(uptr)&m->pgmap)
			w = FAKE_PGMAP;
		else if ((w & ~1ULL) >= base && (w & ~1ULL) < end)
			w = w - base + FAKE_PAGES;
		memcpy(pages + off, &w, 8);
	}
	for (unsigned long i = 0; i < memmap_nr_pageblocks(m); i++)
		bits[i] = get_pfnblock_bits(&m->pageblocks,
					    memmap_pageblocks_pfn(m) +
						    i * pageblock_nr_pages);
	*k = (struct memmap_kernel_run){
		.pages = pages,
		.pages_addr = FAKE_PAGES,
		.pgmap_addr = FAKE_PGMAP,
		.pageblock_bits = bits,
	};
}

static void compare_kernel_names_fields(struct kunit *test)
{
	struct memmap m;
	struct memmap_kernel_run k;
	struct memmap_report r;
	unsigned long head = 0;
	u64 unused[16]; /* a struct page of any layout */
	u8 *pages, *bits;

	if (!run_kernel(test, MODEL_KERNEL_6_12, 9, MEMORY_DEVICE_GENERIC, &m))
		return;
	pages = kunit_kzalloc(test, m.bytes);
	bits = kunit_kzalloc(test, memmap_nr_pageblocks(&m));
	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_ASSERT_NOT_NULL(test, bits);
	while (memmap_expected_page(&m, m.base_pfn + head, unused, NULL,
				    NULL) != MEMMAP_ROLE_HEAD)
		head++;

	fake_kernel_run(&m, pages, bits, &k);
	KUNIT_EXPECT_TRUE(test, memmap_compare_kernel(&m, &k, &r));
	KUNIT_EXPECT_EQ(test, r.pages_checked, m.nr_pfns);

	/* tail 1's _refcount */
	pages[(head + 1) * 64 + 52] = 7;
	KUNIT_EXPECT_FALSE(test, memmap_compare_kernel(&m, &k, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, m.base_pfn + head + 1);
	KUNIT_EXPECT_STREQ(test, r.field, "_refcount");
	KUNIT_EXPECT_EQ(test, r.expected, 7);
	KUNIT_EXPECT_EQ(test, r.found, 0);

	/* the head's pgmap, another dev_pagemap */
	fake_kernel_run(&m, pages, bits, &k);
	k.pgmap_addr += 64;
	KUNIT_EXPECT_FALSE(test, memmap_compare_kernel(&m, &k, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, m.base_pfn + head);
	KUNIT_EXPECT_STREQ(test, r.field, "pgmap");
	KUNIT_EXPECT_EQ(test, r.expected, FAKE_PGMAP);

	/* a pageblock's migratetype */
	fake_kernel_run(&m, pages, bits, &k);
	bits[1] ^= 3;
	KUNIT_EXPECT_FALSE(test, memmap_compare_kernel(&m, &k, &r));
	KUNIT_EXPECT_TRUE(test, r.pageblock);
	KUNIT_EXPECT_EQ(test, r.pfn,
			memmap_pageblocks_pfn(&m) + pageblock_nr_pages);
	memmap_destroy(&m);
}

static const struct kunit_case memmap_kernels_cases[] = {
	KUNIT_CASE(refcount_fs_dax),
	KUNIT_CASE(refcount_p2pdma),
	KUNIT_CASE(folio_entire_mapcount),
	KUNIT_CASE(folio_nr_pages_mapped),
	KUNIT_CASE(folio_nr_pages),
	KUNIT_CASE(folio_mm_id_mapcount),
	KUNIT_CASE(folio_mm_ids),
	KUNIT_CASE(prep_head_after_first_tail),
	KUNIT_CASE(pageblock_bits),
	KUNIT_CASE(pageblock_mask),
	KUNIT_CASE(compound_info_mask),
	KUNIT_CASE(table_has_cases),
	KUNIT_CASE(v6_12_matches_model),
	KUNIT_CASE(v6_12_refuses),
	KUNIT_CASE(compare_kernel_names_fields),
};

KUNIT_SUITE_DEFINE(memmap_kernels_suite, "memmap_kernels",
		   memmap_kernels_cases);
