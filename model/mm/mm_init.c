// SPDX-License-Identifier: GPL-2.0-only
/*
 * memmap_init_zone_device() in two ways that must write the same bytes.
 *
 * The slow path is the kernel's code as it stands under the seed patches:
 * every struct page zeroed and built field by field by
 * __init_zone_device_page(); the tails of a folio the same, then linked
 * by prep_compound_tail(); the folio metadata written by
 * prep_compound_head() once the tails are done; the pageblock flags of
 * the range set in one pass at the end.
 *
 * The template path is the seed series: a head and a tail struct page are
 * built once through the slow path; each pfn then gets a copy of the
 * right one, after its pfn-dependent fields are refreshed. The copy is
 * the strategy: a cached memcpy(), memcpy_nt() (memcpy_flushcache()), or
 * a wider store from the copy registry. Pageblock-aligned pfns get a
 * cached copy. Non-temporal copies are drained (SFENCE) before
 * memmap_init_compound() reads and writes the head, before
 * prep_compound_head() writes into the first tails, and before returning.
 *
 * In a checking build (lib/ntcheck.h) the points where the order matters
 * are declared: every cached store of the template path to the memmap
 * (the pageblock-aligned copies, __SetPageHead(), prep_compound_head())
 * is checked against the non-temporal lines still pending on this CPU,
 * and memmap_init_compound() and the return publish what was written.
 *
 * Each strategy is compiled into its own loop for each layout
 * (DEFINE_MEMMAP_INIT below): the strategy and the struct page size are
 * constants inside, so a fixed-size memcpy_flushcache() really is the
 * inline MOVNTI sequence and no per-page call or switch picks the copy.
 */
#include "model/mm/mm_init.h"
#include "arch/x86/lib/copy_simd.h"
#include "arch/x86/lib/copy_template.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/lib/copy_clean.h"
#include "arch/x86/special_insns.h"
#include "lib/ntcheck.h"
#include "model/include/linux/memremap.h"
#include "model/include/linux/pageblock-flags.h"

/* The size of a layout as a constant the compiler sees. */
#define LAYOUT_SIZE(lid)                                                     \
	((lid) == PAGE_LAYOUT_64 ? 64u : (lid) == PAGE_LAYOUT_96 ? 96u : 80u)

static __always_inline struct page *pfn_to_page(const struct memmap *m,
						const struct page_layout *l,
						unsigned long pfn)
{
	return (struct page *)((char *)m->pages +
			       (pfn - m->base_pfn) * l->size);
}

/* ---------------------------------------------------------------------
 * The slow path: include/linux/mm.h, page-flags.h, mm/internal.h,
 * mm/mm_init.c
 */

static __always_inline void mm_zero_struct_page(const struct page_layout *l,
						struct page *page)
{
	__builtin_memset(page, 0, l->size);
}

static __always_inline void set_page_zone(struct page *page,
					  unsigned long zone)
{
	page->flags &= ~(ZONES_MASK << ZONES_PGSHIFT);
	page->flags |= (zone & ZONES_MASK) << ZONES_PGSHIFT;
}

static __always_inline void set_page_node(struct page *page,
					  unsigned long node)
{
	page->flags &= ~(NODES_MASK << NODES_PGSHIFT);
	page->flags |= (node & NODES_MASK) << NODES_PGSHIFT;
}

/*
 * No set_page_section(): with SPARSEMEM_VMEMMAP the section number is not
 * kept in page->flags, so nothing here depends on @pfn.
 */
static __always_inline void set_page_links(struct page *page,
					   unsigned long zone,
					   unsigned long node,
					   unsigned long pfn)
{
	set_page_zone(page, zone);
	set_page_node(page, node);
}

static __always_inline void init_page_count(struct page *page)
{
	page->_refcount = 1;
}

static __always_inline void set_page_count(struct page *page, int v)
{
	page->_refcount = v;
}

static __always_inline void page_cpupid_reset_last(const struct page_layout *l,
						   struct page *page)
{
	if (l->offset[PAGE_FIELD_LAST_CPUPID] >= 0) {
		*(int *)page_field_ptr(l, page, PAGE_FIELD_LAST_CPUPID) =
			(int)(-1 & LAST_CPUPID_MASK);
		return;
	}
	page->flags &= ~(LAST_CPUPID_MASK << l->last_cpupid_pgshift);
	page->flags |= (-1UL & LAST_CPUPID_MASK) << l->last_cpupid_pgshift;
}

static __always_inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static __always_inline void __SetPageReserved(struct page *page)
{
	page->flags |= 1UL << PG_reserved;
}

static __always_inline void __SetPageHead(struct page *page)
{
	page->flags |= 1UL << PG_head;
}

/*
 * compound_info_has_mask() of 7.1: a power-of-two struct page and
 * CONFIG_HUGETLB_PAGE_OPTIMIZE_VMEMMAP.
 */
static __always_inline bool compound_info_has_mask(const struct memmap *m,
						   const struct page_layout *l)
{
	return m->cfg.compound_info_mask && !(l->size & (l->size - 1));
}

static __always_inline void set_compound_head(const struct memmap *m,
					      const struct page_layout *l,
					      struct page *tail,
					      const struct page *head,
					      unsigned int order)
{
	unsigned int shift;

	if (!compound_info_has_mask(m, l)) {
		tail->compound_head = (unsigned long)head | 1;
		return;
	}
	/* struct pages of a folio are naturally aligned: head = tail & mask */
	shift = order + (unsigned int)__builtin_ctz(l->size);
	tail->compound_head = (~0UL << shift) | 1;
}

static __always_inline struct page *page_folio(const struct memmap *m,
					       const struct page_layout *l,
					       struct page *page)
{
	unsigned long info = page->compound_head;

	if (!(info & 1))
		return page;
	if (compound_info_has_mask(m, l))
		return (struct page *)((unsigned long)page & info);
	return (struct page *)(info - 1);
}

static __always_inline void __init_single_page(const struct page_layout *l,
					       struct page *page,
					       unsigned long pfn,
					       unsigned long zone, int nid)
{
	mm_zero_struct_page(l, page);
	set_page_links(page, zone, (unsigned long)nid, pfn);
	init_page_count(page);
	page->_mapcount = -1;
	page_cpupid_reset_last(l, page);
	/* page_kasan_tag_reset(): x86_64 has no KASAN software tags */
	INIT_LIST_HEAD(&page->lru);
}

static __always_inline void __init_zone_device_page(const struct memmap *m,
						    const struct page_layout *l,
						    struct page *page,
						    unsigned long pfn,
						    unsigned long zone_idx,
						    int nid,
						    struct dev_pagemap *pgmap)
{
	__init_single_page(l, page, pfn, zone_idx, nid);

	/* Reserved until the onlining phase associates it with a zone. */
	__SetPageReserved(page);

	/*
	 * lru is unioned with the folio's pgmap and zone_device_data. The
	 * page is no tail yet (lru points at itself), so its folio is the
	 * page itself.
	 */
	page_folio(m, l, page)->pgmap = pgmap;
	page->zone_device_data = NULL;

	/*
	 * Pages other than MEMORY_DEVICE_GENERIC go straight to the driver's
	 * allocator, which sets the count to 1 when it hands a page out.
	 */
	switch (pgmap->type) {
	case MEMORY_DEVICE_FS_DAX:
	case MEMORY_DEVICE_PRIVATE:
	case MEMORY_DEVICE_COHERENT:
	case MEMORY_DEVICE_PCI_P2PDMA:
		set_page_count(page, 0);
		break;
	case MEMORY_DEVICE_GENERIC:
		break;
	}
}

static __always_inline void prep_compound_tail(const struct memmap *m,
					       const struct page_layout *l,
					       struct page *tail,
					       const struct page *head,
					       unsigned int order)
{
	tail->mapping = (void *)TAIL_MAPPING;
	set_compound_head(m, l, tail, head, order);
	tail->private = 0;
}

static __always_inline void folio_set_order(struct folio_page1 *folio,
					    unsigned int order)
{
	folio->_flags_1 = (folio->_flags_1 & ~0xffUL) | order;
	folio->_nr_pages = 1U << order;
}

/*
 * The folio metadata in the first and second tail. It overlays fields
 * the tails' own initialisation wrote (zone_device_data, mapping, index,
 * memcg_data of page[1]; zone_device_data and mapping of page[2]), so it
 * must come after them.
 */
static __always_inline void prep_compound_head(const struct page_layout *l,
					       struct page *page,
					       unsigned int order)
{
	struct folio_page1 *f1 = (struct folio_page1 *)nth_page(l, page, 1);
	struct folio_page2 *f2 = (struct folio_page2 *)nth_page(l, page, 2);

	folio_set_order(f1, order);
	f1->_large_mapcount = -1;
	f1->_nr_pages_mapped = 0;		/* CONFIG_PAGE_MAPCOUNT */
	f1->_mm_ids = 0;			/* CONFIG_MM_ID */
	f1->_mm_id_mapcount[0] = -1;
	f1->_mm_id_mapcount[1] = -1;
	f1->_pincount = 0;			/* 64BIT */
	f1->_entire_mapcount = -1;
	if (order > 1)
		INIT_LIST_HEAD(&f2->_deferred_list);
}

/* The bytes prep_compound_head() stores to, declared to the checker. */
static __always_inline void
ntcheck_prep_compound_head(const bool checked, const struct page_layout *l,
			   struct page *page, unsigned int order)
{
	struct folio_page2 *f2 = (struct folio_page2 *)nth_page(l, page, 2);

	ntcheck_model_cached_store(checked, nth_page(l, page, 1),
				   sizeof(struct folio_page1),
				   "prep_compound_head()");
	if (order > 1)
		ntcheck_model_cached_store(checked, &f2->_deferred_list,
					   sizeof(f2->_deferred_list),
					   "prep_compound_head()");
}

/*
 * With a compound geometry and the memmap in RAM, the vmemmap of a folio
 * beyond its first VMEMMAP_RESERVE_NR pages maps one shared page of tail
 * struct pages: only the struct pages of those first pages are unique.
 * The model's ranges are all hot-plugged (no early section).
 */
static __always_inline unsigned long
compound_nr_pages(const struct memmap *m, const struct page_layout *l,
		  const struct vmem_altmap *altmap,
		  const struct dev_pagemap *pgmap)
{
	if (!m->cfg.vmemmap_optimize || !vmemmap_can_optimize(l, altmap, pgmap))
		return pgmap_vmemmap_nr(pgmap);

	return VMEMMAP_RESERVE_NR * (PAGE_SIZE / l->size);
}

/* Every pageblock that starts inside the range becomes @mt. */
static void pageblock_migratetype_init_range(struct memmap *m,
					     unsigned long start_pfn,
					     unsigned long nr_pages,
					     enum migratetype mt)
{
	unsigned long pfn = pageblock_align(start_pfn);
	unsigned long end = start_pfn + nr_pages;

	for (; pfn < end; pfn += pageblock_nr_pages)
		set_pageblock_migratetype(&m->pageblocks, pfn, mt);
}

/* ---------------------------------------------------------------------
 * The template path
 */

union page_template {
	struct page page;
	u8 bytes[MAX_STRUCT_PAGE_SIZE];
};

static __always_inline bool memmap_copy_nt(const enum memmap_copy copy)
{
	switch (copy) {
	case MEMMAP_SLOW:
	case MEMMAP_TMPL_MEMCPY:
	case MEMMAP_FILL_MOV:
	/* the kernel's nocache copy ends with its own SFENCE */
	case MEMMAP_TMPL_NOCACHE:
		return false;
	default:
		return true;
	}
}

static __always_inline bool memmap_copy_fill(const enum memmap_copy copy)
{
	return copy >= MEMMAP_FILL_MOV;
}

/*
 * memcpy_nt_drain() at @at, counted for the tests; in a checked loop
 * (docs/ntcheck.md) it also retires the stores the loop recorded.
 */
static __always_inline void memmap_drain(struct memmap *m,
					 const enum memmap_copy copy,
					 const bool checked,
					 enum memmap_drain_point at)
{
	if (!memmap_copy_nt(copy) || !m->cfg.drain)
		return;
	m->drains[at]++;
	memcpy_nt_drain();
	ntcheck_model_drained(checked);
}

/* A checked loop's record of what a non-temporal copy or fill wrote. */
static __always_inline void memmap_nt_written(const struct memmap *m,
					      const enum memmap_copy copy,
					      const bool checked,
					      const void *p, size_t n)
{
	if (memmap_copy_nt(copy))
		ntcheck_model_store(checked, p, n, m->strategy->name);
}

/*
 * Refresh what depends on the pfn before the copy. On x86_64 nothing
 * does: no section number in page->flags (SPARSEMEM_VMEMMAP), no
 * page->virtual (WANT_PAGE_VIRTUAL), no KASAN tag. So a template is the
 * same for every pfn, and only the tail's compound_head changes, per
 * folio. That is also why a whole run of pages can come from one
 * template (the fill strategies).
 */
static __always_inline void
zone_device_page_update_template(struct page *template, unsigned long pfn)
{
}

/* One struct page from the template with the strategy's copy. */
static __always_inline void tmpl_copy_page(const enum memmap_copy copy,
					   const unsigned int size,
					   struct page *page,
					   const struct page *template)
{
	switch (copy) {
	case MEMMAP_SLOW:
		break;
	case MEMMAP_TMPL_MEMCPY:
		/* the kernel's memcpy() of a constant size: inline moves */
		__builtin_memcpy(page, template, size);
		break;
	case MEMMAP_TMPL_NT_GENERIC:
		__memcpy_flushcache(page, template, size);
		break;
	case MEMMAP_TMPL_NT_FIXED:
		memcpy_nt(page, template, size);
		break;
	case MEMMAP_TMPL_NOCACHE:
		memcpy_nocache(page, template, size);
		break;
	case MEMMAP_TMPL_SSE2_NT:
		memcpy_sse2_nt(page, template, size);
		break;
	case MEMMAP_TMPL_AVX_NT:
		memcpy_avx_nt(page, template, size);
		break;
	case MEMMAP_TMPL_AVX512_NT:
		memcpy_avx512_nt(page, template, size);
		break;
	case MEMMAP_TMPL_MOVDIR64B:
		movdir64b(page, template);
		break;
	case MEMMAP_FILL_MOV:
	case MEMMAP_FILL_MOVNTI:
	case MEMMAP_FILL_SSE2:
	case MEMMAP_FILL_AVX:
	case MEMMAP_FILL_AVX512:
	case NR_MEMMAP_COPIES:
		break;
	}
}

/* @nr back-to-back copies of the template (fill strategies only). */
static __always_inline void tmpl_fill(const enum memmap_copy copy,
				      const unsigned int size,
				      struct page *page,
				      const struct page *template,
				      unsigned long nr)
{
	size_t n = nr * size;

	switch (copy) {
	case MEMMAP_FILL_MOV:
		if (size == 64)
			tmpl_fill_mov_64(page, template, n);
		else if (size == 80)
			tmpl_fill_mov_80(page, template, n);
		else
			tmpl_fill_mov_96(page, template, n);
		break;
	case MEMMAP_FILL_MOVNTI:
		if (size == 64)
			tmpl_fill_movnti_64(page, template, n);
		else if (size == 80)
			tmpl_fill_movnti_80(page, template, n);
		else
			tmpl_fill_movnti_96(page, template, n);
		break;
	case MEMMAP_FILL_SSE2:
		if (size == 64)
			tmpl_fill_sse2_64(page, template, n);
		else if (size == 80)
			tmpl_fill_sse2_80(page, template, n);
		else
			tmpl_fill_sse2_96(page, template, n);
		break;
	case MEMMAP_FILL_AVX:
		if (size == 64)
			tmpl_fill_avx_64(page, template, n);
		else
			tmpl_fill_avx_96(page, template, n);
		break;
	case MEMMAP_FILL_AVX512:
		tmpl_fill_avx512_64(page, template, n);
		break;
	default:
		break;
	}
}

/*
 * Pageblock-aligned pfns take a cached copy (DESIGN.md). While the
 * migratetype was set page by page, right after the copy, the page was
 * looked at again (page_zone() finds the pageblock bitmap of a zone
 * without SPARSEMEM, and CONFIG_DEBUG_VM checks it), and a line still in
 * a write-combining buffer must be flushed first. With the pageblock
 * pass after the loop only the cost is left: one predictable branch per
 * page.
 */
static __always_inline void
zone_device_page_init_from_template(const struct memmap *m,
				    const enum memmap_copy copy,
				    const bool checked,
				    const unsigned int size, struct page *page,
				    struct page *template, unsigned long pfn)
{
	zone_device_page_update_template(template, pfn);
	if (pageblock_aligned(pfn)) {
		ntcheck_model_cached_store(checked, page, size,
					   "the pageblock-aligned copy");
		__builtin_memcpy(page, template, size);
		return;
	}
	if (memmap_copy_fill(copy))
		tmpl_fill(copy, size, page, template, 1);
	else
		tmpl_copy_page(copy, size, page, template);
	memmap_nt_written(m, copy, checked, page, size);
}

/*
 * [pfn, end_pfn) from one template, in runs that stop at pageblock
 * boundaries so that the aligned pfns still get their cached copy.
 */
static __always_inline void zone_device_fill_range(const struct memmap *m,
						   const enum memmap_copy copy,
						   const bool checked,
						   const unsigned int size,
						   struct page *page,
						   struct page *template,
						   unsigned long pfn,
						   unsigned long end_pfn)
{
	while (pfn < end_pfn) {
		unsigned long run_end;

		if (pageblock_aligned(pfn)) {
			ntcheck_model_cached_store(checked, page, size,
						   "the pageblock-aligned copy");
			__builtin_memcpy(page, template, size);
			page = (struct page *)((char *)page + size);
			pfn++;
			continue;
		}
		run_end = min(pageblock_align(pfn), end_pfn);
		tmpl_fill(copy, size, page, template, run_end - pfn);
		memmap_nt_written(m, copy, checked, page,
				  (run_end - pfn) * size);
		page = (struct page *)((char *)page + (run_end - pfn) * size);
		pfn = run_end;
	}
}

/* ---------------------------------------------------------------------
 * memmap_init_compound() and memmap_init_zone_device(), for one strategy
 */

static __always_inline void memmap_init_compound(struct memmap *m,
						 const enum page_layout_id lid,
						 const enum memmap_copy copy,
						 const bool checked,
						 struct page *head,
						 unsigned long head_pfn,
						 unsigned long zone_idx,
						 int nid,
						 struct dev_pagemap *pgmap,
						 unsigned long nr_pages,
						 struct page *tail_template)
{
	const struct page_layout *l = &page_layouts[lid];
	const unsigned int size = LAYOUT_SIZE(lid);
	unsigned long pfn, end_pfn = head_pfn + nr_pages;
	unsigned int order = pgmap->vmemmap_shift;
	struct page *page;

	ntcheck_model_cached_store(checked, &head->flags, sizeof(head->flags),
				   "__SetPageHead()");
	__SetPageHead(head);

	if (copy == MEMMAP_SLOW) {
		for (pfn = head_pfn + 1; pfn < end_pfn; pfn++) {
			page = pfn_to_page(m, l, pfn);
			__init_zone_device_page(m, l, page, pfn, zone_idx, nid,
						pgmap);
			prep_compound_tail(m, l, page, head, order);
			set_page_count(page, 0);
		}
		prep_compound_head(l, head, order);
		return;
	}

	/* The tail template belongs to this folio from here on. */
	set_compound_head(m, l, tail_template, head, order);
	page = nth_page(l, head, 1);
	if (memmap_copy_fill(copy)) {
		zone_device_fill_range(m, copy, checked, size, page,
				       tail_template, head_pfn + 1, end_pfn);
	} else {
		for (pfn = head_pfn + 1; pfn < end_pfn; pfn++) {
			zone_device_page_init_from_template(m, copy, checked,
							    size, page,
							    tail_template, pfn);
			page = (struct page *)((char *)page + size);
		}
	}

	/*
	 * prep_compound_head() overwrites parts of the first two tails:
	 * their copies must not land after it.
	 */
	memmap_drain(m, copy, checked, MEMMAP_DRAIN_BEFORE_PREP_HEAD);
	ntcheck_prep_compound_head(checked, l, head, order);
	prep_compound_head(l, head, order);
}

static __always_inline void
__memmap_init_zone_device(struct memmap *m, const enum page_layout_id lid,
			  const enum memmap_copy copy, const bool checked,
			  unsigned long start_pfn,
			  unsigned long nr_pages, struct dev_pagemap *pgmap)
{
	const struct page_layout *l = &page_layouts[lid];
	const unsigned int size = LAYOUT_SIZE(lid);
	unsigned long pfn, end_pfn = start_pfn + nr_pages;
	struct vmem_altmap *altmap = pgmap_altmap(pgmap);
	unsigned long pfns_per_compound = pgmap_vmemmap_nr(pgmap);
	const unsigned long zone_idx = ZONE_DEVICE;
	int nid = m->cfg.nid;
	union page_template head_template __aligned(64);
	union page_template tail_template __aligned(64);

	/*
	 * memmap_init_range() already took care of the struct pages that
	 * hold the memmap: start after them.
	 */
	if (altmap) {
		start_pfn = altmap->base_pfn + vmem_altmap_offset(altmap);
		nr_pages = end_pfn - start_pfn;
	}

	if (copy != MEMMAP_SLOW) {
		__init_zone_device_page(m, l, &head_template.page, start_pfn,
					zone_idx, nid, pgmap);
		if (pfns_per_compound > 1) {
			struct page *head = pfn_to_page(m, l, start_pfn);

			__init_zone_device_page(m, l, &tail_template.page,
						start_pfn + 1, zone_idx, nid,
						pgmap);
			prep_compound_tail(m, l, &tail_template.page, head,
					   pgmap->vmemmap_shift);
			set_page_count(&tail_template.page, 0);
		}
	}

	if (memmap_copy_fill(copy) && pfns_per_compound == 1) {
		/* order-0 pages: the whole range is one template */
		zone_device_fill_range(m, copy, checked, size,
				       pfn_to_page(m, l, start_pfn),
				       &head_template.page, start_pfn, end_pfn);
		goto out;
	}

	for (pfn = start_pfn; pfn < end_pfn; pfn += pfns_per_compound) {
		struct page *page = pfn_to_page(m, l, pfn);
		unsigned long nr;

		if (copy == MEMMAP_SLOW)
			__init_zone_device_page(m, l, page, pfn, zone_idx, nid,
						pgmap);
		else
			zone_device_page_init_from_template(m, copy, checked,
							    size, page,
							    &head_template.page,
							    pfn);

		if (pfns_per_compound == 1)
			continue;

		/* memmap_init_compound() starts with a store to the head */
		memmap_drain(m, copy, checked, MEMMAP_DRAIN_BEFORE_COMPOUND);
		ntcheck_model_publish(checked, "memmap_init_compound()");

		/*
		 * The kernel initialises whole folios: namespaces are
		 * aligned to them. The model also takes ranges that end
		 * inside a folio and stops at their end.
		 */
		nr = min(compound_nr_pages(m, l, altmap, pgmap), end_pfn - pfn);
		memmap_init_compound(m, lid, copy, checked, page, pfn,
				     zone_idx, nid,
				     pgmap, nr, &tail_template.page);
	}
out:
	memmap_drain(m, copy, checked, MEMMAP_DRAIN_BEFORE_RETURN);
	ntcheck_model_publish(checked,
			      "the return of memmap_init_zone_device()");

	pageblock_migratetype_init_range(m, start_pfn, nr_pages,
					 MIGRATE_MOVABLE);
	m->nr_initialised = nr_pages;
}

/*
 * Two loops per strategy and layout: memmap_init_<COPY>_<LAYOUT>, the
 * plain one the benchmarks time (and tools/check-objcode reads), and
 * memmap_init_<COPY>_<LAYOUT>_checked, the same with the ordering
 * checker's model-level hooks (docs/ntcheck.md), run when the checker is
 * on for the running case.
 */
#define DEFINE_MEMMAP_INIT(copy, lid)                                        \
	static void memmap_init_##copy##_##lid(struct memmap *m,              \
					       unsigned long start_pfn,       \
					       unsigned long nr_pages,        \
					       struct dev_pagemap *pgmap)     \
	{                                                                     \
		__memmap_init_zone_device(m, lid, copy, false, start_pfn,     \
					  nr_pages, pgmap);                   \
	}                                                                     \
	static void memmap_init_##copy##_##lid##_checked(                     \
		struct memmap *m, unsigned long start_pfn,                    \
		unsigned long nr_pages, struct dev_pagemap *pgmap)            \
	{                                                                     \
		__memmap_init_zone_device(m, lid, copy, true, start_pfn,      \
					  nr_pages, pgmap);                   \
	}

/* Copies that serve any size. */
#define DEFINE_MEMMAP_INIT_ANY(lid)                                          \
	DEFINE_MEMMAP_INIT(MEMMAP_SLOW, lid)                                  \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_MEMCPY, lid)                           \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_NT_GENERIC, lid)                       \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_NT_FIXED, lid)                         \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_NOCACHE, lid)                          \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_SSE2_NT, lid)                          \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_AVX_NT, lid)                           \
	DEFINE_MEMMAP_INIT(MEMMAP_TMPL_AVX512_NT, lid)                        \
	DEFINE_MEMMAP_INIT(MEMMAP_FILL_MOV, lid)                              \
	DEFINE_MEMMAP_INIT(MEMMAP_FILL_MOVNTI, lid)                           \
	DEFINE_MEMMAP_INIT(MEMMAP_FILL_SSE2, lid)

DEFINE_MEMMAP_INIT_ANY(PAGE_LAYOUT_64)
DEFINE_MEMMAP_INIT_ANY(PAGE_LAYOUT_80_KMSAN)
DEFINE_MEMMAP_INIT_ANY(PAGE_LAYOUT_80_CPUPID)
DEFINE_MEMMAP_INIT_ANY(PAGE_LAYOUT_96)
/* 64 bytes only: one MOVDIR64B or one zmm per page */
DEFINE_MEMMAP_INIT(MEMMAP_TMPL_MOVDIR64B, PAGE_LAYOUT_64)
DEFINE_MEMMAP_INIT(MEMMAP_FILL_AVX512, PAGE_LAYOUT_64)
/* whole ymm registers: 64 and 96 bytes */
DEFINE_MEMMAP_INIT(MEMMAP_FILL_AVX, PAGE_LAYOUT_64)
DEFINE_MEMMAP_INIT(MEMMAP_FILL_AVX, PAGE_LAYOUT_96)

#define MEMMAP_INIT_ENTRY(copy, lid)                                         \
	[copy][lid] = { memmap_init_##copy##_##lid,                           \
			memmap_init_##copy##_##lid##_checked }
#define MEMMAP_INIT_ENTRIES_ANY(lid)                                         \
	MEMMAP_INIT_ENTRY(MEMMAP_SLOW, lid),                                  \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_MEMCPY, lid),                           \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_NT_GENERIC, lid),                       \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_NT_FIXED, lid),                         \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_NOCACHE, lid),                          \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_SSE2_NT, lid),                          \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_AVX_NT, lid),                           \
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_AVX512_NT, lid),                        \
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_MOV, lid),                              \
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_MOVNTI, lid),                           \
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_SSE2, lid)

static const memmap_init_fn
memmap_init_fns[NR_MEMMAP_COPIES][NR_PAGE_LAYOUTS][2] = {
	MEMMAP_INIT_ENTRIES_ANY(PAGE_LAYOUT_64),
	MEMMAP_INIT_ENTRIES_ANY(PAGE_LAYOUT_80_KMSAN),
	MEMMAP_INIT_ENTRIES_ANY(PAGE_LAYOUT_80_CPUPID),
	MEMMAP_INIT_ENTRIES_ANY(PAGE_LAYOUT_96),
	MEMMAP_INIT_ENTRY(MEMMAP_TMPL_MOVDIR64B, PAGE_LAYOUT_64),
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_AVX512, PAGE_LAYOUT_64),
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_AVX, PAGE_LAYOUT_64),
	MEMMAP_INIT_ENTRY(MEMMAP_FILL_AVX, PAGE_LAYOUT_96),
};

memmap_init_fn memmap_init_lookup(enum memmap_copy copy,
				  enum page_layout_id layout, bool checked)
{
	if (copy >= NR_MEMMAP_COPIES || layout >= NR_PAGE_LAYOUTS)
		return NULL;
	return memmap_init_fns[copy][layout][checked];
}

/* The checked loop when the checker records for the running case. */
void memmap_init_zone_device(struct memmap *m, unsigned long start_pfn,
			     unsigned long nr_pages, struct dev_pagemap *pgmap)
{
	if (ntcheck_active())
		m->init_checked(m, start_pfn, nr_pages, pgmap);
	else
		m->init(m, start_pfn, nr_pages, pgmap);
}
