// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compound device pages (devdax): the tails' link to their head, the
 * folio metadata prep_compound_head() writes into the first two tails
 * after them, whatever strategy copied the tails, the vmemmap-optimised
 * count of struct pages per folio, both encodings of compound_head, and
 * ranges that end inside a folio.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

/* what memmap_poison(m, 0x77) leaves in a word */
#define POISON_WORD 0x7777777777777777ULL

/* flags of a device page of node 3, last_cpupid in the flags */
#define FLAGS_TAIL 0x00e7ffffc0002000UL

/*
 * A tail's flags for the node of @m: zone 4 at bit 51, the node at 54,
 * PG_reserved, and last_cpupid (21 ones at bit 30) unless the layout
 * gives it a field.
 */
static u64 tail_flags(const struct memmap *m)
{
	u64 f = (4UL << 51) | ((u64)m->cfg.nid << 54) | (1UL << 13);

	if (m->layout->offset[PAGE_FIELD_LAST_CPUPID] < 0)
		f |= 0x1fffffUL << 30;
	return f;
}

static bool make(struct kunit *test, struct memmap *m, enum page_layout_id lid,
		 unsigned int order, bool altmap, const char *strategy)
{
	struct memmap_case c = { lid, order, MEMORY_DEVICE_GENERIC, altmap };
	struct memmap_config cfg;

	memmap_case_config(&c, &cfg);
	cfg.strategy = strategy;
	if (!memmap_case_create(test, m, &cfg))
		return false;
	memmap_poison(m, 0x77);
	memmap_run(m);
	return true;
}

/* The tail values of docs/model.md, on a 2 MiB folio of 64-byte pages. */
static void tail_fields(struct kunit *test)
{
	struct memmap m;
	unsigned long head, pfn;

	if (!make(test, &m, PAGE_LAYOUT_64, 9, true, "slow"))
		return;
	head = memmap_case_first(&m);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, head, 0),
			FLAGS_TAIL | (1UL << PG_head));
	KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, head, 52), 1);
	for (pfn = head + 3; pfn < head + 512; pfn++) {
		u64 want_head = (u64)(uptr)memmap_case_page(&m, head) + 1;

		if (memmap_case_u64(&m, pfn, 8) != want_head ||
		    memmap_case_u64(&m, pfn, 0) != FLAGS_TAIL ||
		    memmap_case_u64(&m, pfn, 24) != TAIL_MAPPING ||
		    memmap_case_u64(&m, pfn, 40) != 0 ||
		    memmap_case_u32(&m, pfn, 48) != 0xffffffffu ||
		    memmap_case_u32(&m, pfn, 52) != 0) {
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 8),
					want_head);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 0),
					FLAGS_TAIL);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 24),
					TAIL_MAPPING);
			KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, pfn, 52), 0);
			kunit_info(test, "first wrong tail: pfn %#lx", pfn);
			break;
		}
	}
	/* the next folio starts over with a head */
	KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, head + 512, 8),
			(u64)(uptr)&m.pgmap);
	memmap_expect_model(test, &m, "tails");
	memmap_destroy(&m);
}

static void check_folio_metadata(struct kunit *test, const struct memmap *m,
				 unsigned long head, unsigned int order)
{
	unsigned long p1 = head + 1, p2 = head + 2;
	u64 page2 = (u64)(uptr)memmap_case_page(m, p2);

	/* page[1]: order in the low byte of the flags, PG_head clear */
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p1, 0), tail_flags(m) | order);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p1, 8),
			(u64)(uptr)memmap_case_page(m, head) + 1);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 16), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 20), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 24), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 28), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p1, 32), ~0ULL);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p1, 40), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 48), 0xffffffffu);
	KUNIT_EXPECT_EQ(test, memmap_case_u32(m, p1, 52), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p1, 56), 1ULL << order);
	/* page[2]: the deferred-split list, empty */
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p2, 16), page2 + 16);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, p2, 24), page2 + 16);
	/* page[3] keeps what every tail has there */
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, head + 3, 16), 0);
	KUNIT_EXPECT_EQ(test, memmap_case_u64(m, head + 3, 24), TAIL_MAPPING);
}

static void folio_metadata(struct kunit *test)
{
	struct memmap m;

	if (!make(test, &m, PAGE_LAYOUT_64, 9, false, "slow"))
		return;
	for (unsigned long h = memmap_case_first(&m);
	     h < m.base_pfn + m.nr_pfns; h += 512)
		check_folio_metadata(test, &m, h, 9);
	memmap_destroy(&m);

	if (!make(test, &m, PAGE_LAYOUT_96, 18, true, "slow"))
		return;
	check_folio_metadata(test, &m, memmap_case_first(&m), 18);
	memmap_destroy(&m);
}

/*
 * The first tails are copied like the others and then overwritten by
 * prep_compound_head(): every strategy must end with the slow path's
 * page[1] and page[2], bytes for bytes.
 */
static void metadata_whatever_copied_tails(struct kunit *test)
{
	static const enum page_layout_id lids[] = {
		PAGE_LAYOUT_64, PAGE_LAYOUT_80_CPUPID, PAGE_LAYOUT_96,
	};

	for (size_t i = 0; i < ARRAY_SIZE(lids); i++) {
		const struct page_layout *l = page_layout(lids[i]);
		const struct memmap_strategy *s;
		u8 want[2][MAX_STRUCT_PAGE_SIZE];
		struct memmap m;
		unsigned long head;
		char why[96];

		if (!make(test, &m, lids[i], 9, false, "slow"))
			return;
		head = memmap_case_first(&m) + 512;
		memcpy(want, memmap_case_page(&m, head + 1), 2 * l->size);

		for_each_memmap_strategy(s) {
			if (memmap_set_strategy(&m, s->name, why, sizeof(why)))
				continue;
			memmap_poison(&m, 0x77);
			memmap_run(&m);
			if (memcmp(want, memmap_case_page(&m, head + 1),
				   2 * l->size)) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "%s/%s: page[1..2] differ",
					      l->name, s->name);
			}
			check_folio_metadata(test, &m, head, 9);
		}
		memmap_destroy(&m);
	}
}

/*
 * 64-byte struct pages without an altmap: 2 vmemmap pages a folio hold
 * 128 unique struct pages; the rest of the folio's memmap is shared and
 * not written. 80 and 96 bytes (not a power of two), an altmap, or the
 * option off: every struct page.
 */
static void vmemmap_optimized_count(struct kunit *test)
{
	static const struct {
		enum page_layout_id lid;
		unsigned int order;
		bool altmap, optimize;
		unsigned long written;	/* struct pages of the first folio */
	} cases[] = {
		{ PAGE_LAYOUT_64, 9, false, true, 128 },
		{ PAGE_LAYOUT_64, 18, false, true, 128 },
		{ PAGE_LAYOUT_64, 9, true, true, 512 },
		{ PAGE_LAYOUT_64, 9, false, false, 512 },
		{ PAGE_LAYOUT_64, 18, false, false, 900 },
		{ PAGE_LAYOUT_80_KMSAN, 9, false, true, 512 },
		{ PAGE_LAYOUT_80_CPUPID, 18, false, true, 900 },
		{ PAGE_LAYOUT_96, 9, false, true, 512 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct memmap_case c = { cases[i].lid, cases[i].order,
					 MEMORY_DEVICE_GENERIC,
					 cases[i].altmap };
		struct memmap_config cfg;
		struct memmap m;
		unsigned long head, last, written = 0;

		memmap_case_config(&c, &cfg);
		cfg.vmemmap_optimize = cases[i].optimize;
		cfg.strategy = "tmpl_nt_fixed";
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_poison(&m, 0x77);
		memmap_run(&m);
		head = memmap_case_first(&m);
		last = min(head + (1UL << cases[i].order),
			   m.base_pfn + m.nr_pfns);
		for (unsigned long pfn = head; pfn < last; pfn++)
			if (memmap_case_u64(&m, pfn, 0) != POISON_WORD)
				written = pfn - head + 1;
		KUNIT_EXPECT_EQ(test, written, cases[i].written);
		memmap_expect_model(test, &m, "vmemmap count");
		memmap_destroy(&m);
	}
}

/*
 * compound_info as a mask (7.1 with HVO): the same word in every tail of
 * every folio of an order; tail & mask is the head when the memmap is
 * naturally aligned, as the vmemmap is. Not for 80 or 96 bytes.
 */
static void compound_info_mask(struct kunit *test)
{
	static const struct {
		unsigned int order;
		u64 mask;
	} cases[] = {
		{ 9, 0xffffffffffff8001ULL },
		{ 18, 0xffffffffff000001ULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct memmap_config cfg;
		struct memmap m;
		unsigned long nr = cases[i].order == 9 ? 2048 : 600;
		size_t bytes = nr * 64;
		size_t align = 64UL << cases[i].order;
		const struct memmap_strategy *s;
		char why[96];
		u8 *buf;

		memmap_config_init(&cfg, PAGE_LAYOUT_64, cases[i].order,
				   MEMORY_DEVICE_GENERIC,
				   MEMMAP_DEFAULT_START_PFN, nr);
		cfg.compound_info_mask = true;
		/* aligned like a vmemmap: heads at multiples of 64 << order */
		buf = plat_alloc_aligned(bytes, align);
		if (!buf)
			kunit_skip(test, "no %zu-byte aligned memory", align);
		if (memmap_create(&m, &cfg, buf, bytes, why, sizeof(why))) {
			plat_free(buf, bytes);
			kunit_fail_at(test, __FILE__, __LINE__, "%s", why);
			return;
		}
		for_each_memmap_strategy(s) {
			unsigned long pfn, end = m.base_pfn + min(nr, 128UL);

			if (memmap_set_strategy(&m, s->name, why, sizeof(why)))
				continue;
			memmap_poison(&m, 0x77);
			memmap_run(&m);
			for (pfn = m.base_pfn + 1; pfn < end; pfn++) {
				uptr tail = (uptr)memmap_case_page(&m, pfn);
				u64 info = memmap_case_u64(&m, pfn, 8);

				if (info != cases[i].mask ||
				    (tail & info) != (uptr)buf) {
					KUNIT_EXPECT_EQ(test, info,
							cases[i].mask);
					KUNIT_EXPECT_EQ(test, tail & info,
							(uptr)buf);
					break;
				}
			}
			memmap_expect_model(test, &m, s->name);
		}
		memmap_destroy(&m);
		plat_free(buf, bytes);
	}

	/* a non-power-of-two struct page keeps head + 1 */
	{
		struct memmap m;
		struct memmap_case c = { PAGE_LAYOUT_96, 9,
					 MEMORY_DEVICE_GENERIC, false };
		struct memmap_config cfg;
		unsigned long head;

		memmap_case_config(&c, &cfg);
		cfg.compound_info_mask = true;
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_run(&m);
		head = memmap_case_first(&m);
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, head + 9, 8),
				(u64)(uptr)memmap_case_page(&m, head) + 1);
		memmap_expect_model(test, &m, "96 mask");
		memmap_destroy(&m);
	}
}

/*
 * A range ending inside a folio: the model stops at the end, with the
 * head metadata written; the kernel only sees whole folios.
 */
static void folio_cut_by_range_end(struct kunit *test)
{
	struct memmap_config cfg;
	struct memmap m;
	char why[96];

	memmap_config_init(&cfg, PAGE_LAYOUT_80_CPUPID, 9,
			   MEMORY_DEVICE_FS_DAX, MEMMAP_CASE_START, 512 + 3);
	cfg.strategy = "tmpl_nt_fixed";
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_poison(&m, 0x77);
	memmap_run(&m);
	KUNIT_EXPECT_EQ(test, memmap_nr_heads(&m), 2);
	check_folio_metadata(test, &m, cfg.start_pfn, 9);
	/* page[1] of the cut folio still says order 9, 512 pages */
	KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, cfg.start_pfn + 513, 56),
			512);
	memmap_expect_model(test, &m, "cut folio");
	memmap_destroy(&m);

	cfg.nr_pages = 512 + 2;
	KUNIT_EXPECT_EQ(test, memmap_create(&m, &cfg, NULL, 0, why,
					    sizeof(why)),
			-1);
}

/*
 * Whole 1 GiB folios, as a devdax namespace has them: 64-byte pages
 * write 128 of each folio's 262144 struct pages; with 96-byte pages the
 * slow path and the fixed-size template write all of them.
 */
static void gigantic_folios(struct kunit *test)
{
	static const struct {
		enum page_layout_id lid;
		const char *strategy;
	} runs[] = {
		{ PAGE_LAYOUT_64, "slow" },
		{ PAGE_LAYOUT_64, "tmpl_nt_fixed" },
		{ PAGE_LAYOUT_96, "slow" },
		{ PAGE_LAYOUT_96, "tmpl_nt_fixed" },
	};
	unsigned long nr = 2 * (1UL << 18) + 200;

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		struct memmap_config cfg;
		struct memmap m;

		memmap_config_init(&cfg, runs[i].lid, 18, MEMORY_DEVICE_GENERIC,
				   MEMMAP_DEFAULT_START_PFN, nr);
		cfg.strategy = runs[i].strategy;
		if (memmap_bytes(&cfg) > plat_mem_available() / 2)
			kunit_skip(test, "%zu bytes of memmap do not fit",
				   memmap_bytes(&cfg));
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_poison(&m, 0x77);
		memmap_run(&m);
		KUNIT_EXPECT_EQ(test, memmap_nr_heads(&m), 3);
		check_folio_metadata(test, &m, cfg.start_pfn + (1UL << 18), 18);
		memmap_expect_model(test, &m, runs[i].strategy);
		memmap_destroy(&m);
	}
}

static const struct kunit_case memmap_compound_cases[] = {
	KUNIT_CASE(tail_fields),
	KUNIT_CASE(folio_metadata),
	KUNIT_CASE(metadata_whatever_copied_tails),
	KUNIT_CASE(vmemmap_optimized_count),
	KUNIT_CASE(compound_info_mask),
	KUNIT_CASE(folio_cut_by_range_end),
	KUNIT_CASE(gigantic_folios),
};

KUNIT_SUITE_DEFINE(memmap_compound_suite, "memmap_compound",
		   memmap_compound_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
