// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's mm/mm_init.c at Linux v7.2-rc1 with the series "mm: use
 * memcpy_nt() in zone-device template copies" (its template path, and
 * the fixed-size memcpy_flushcache() of "x86/string: extend
 * memcpy_flushcache() fixed-size fastpaths"): memmap_init_zone_device()
 * in two ways that must write the same bytes. docs/model.md lists every
 * function with its kernel source, its status and the test that pins it.
 *
 * The slow path is the kernel without the series: every struct page
 * zeroed and built field by field by __init_zone_device_page(); the
 * tails of a folio the same, then linked by prep_compound_tail(); the
 * folio metadata written by prep_compound_head() once all the tails are
 * done (the order of the series' context); the pageblock flags of the
 * range set in one pass at the end.
 *
 * The template path is the series: a head and a tail struct page are
 * built once through the slow path; each pfn then gets a copy of the
 * right one, after its pfn-dependent fields are refreshed. The copy is
 * the strategy (manifest/strategies.yaml): the series' memcpy() or
 * memcpy_nt() (memcpy_flushcache()), or one of the project's own wider
 * copies and fills. Non-temporal copies are drained (SFENCE) before
 * memmap_init_compound() stores to the head, before prep_compound_head()
 * writes into the first tails, and before returning. The series' gate
 * keeps KASAN and KMSAN builds, and runs with the page_ref_set tracepoint
 * on, on the slow path whatever the strategy; the benchmarks open it to
 * time the series' claims for the KMSAN layouts and say where the kernel
 * could not run them (memmap_unreachable()).
 *
 * The points where the order matters are declared to the ordering
 * checker (lib/ntcheck.h): every cached store of the template path to
 * the memmap (__SetPageHead(), prep_compound_head()) is checked against
 * the non-temporal lines still pending on this CPU, and
 * memmap_init_compound() and the return publish what was written.
 *
 * Each strategy is compiled into its own loops for each layout
 * (DEFINE_MEMMAP_INIT below): the strategy and the struct page size are
 * constants inside, so a fixed-size memcpy_flushcache() really is the
 * inline MOVNTI sequence and no per-page switch picks the copy.
 *
 * kernel=6.12 (model/kernels.h) has loops of its own for the slow path
 * and the series' strategies (DEFINE_MEMMAP_INIT_V6_12): the series as
 * backported to 6.12 (patches/6.12/series/), with 6.12's order of
 * prep_compound_head() and the compiled shape of the kernel's build of
 * it: memmap_init_compound() out of line, and the per-page template copy
 * a call where that build keeps it out of line.
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
#include "model/mm/internal.h"

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
 * The slow path
 */

/*
 * mm/mm_init.c __init_single_page(). No set_page_address(): x86_64 has no
 * WANT_PAGE_VIRTUAL.
 */
static __always_inline void __init_single_page(const struct page_layout *l,
					       struct page *page,
					       unsigned long pfn,
					       unsigned long zone, int nid)
{
	mm_zero_struct_page(l, page);
	set_page_links(page, zone, (unsigned long)nid, pfn);
	init_page_count(page);
	atomic_set_int(&page->_mapcount, -1);
	page_cpupid_reset_last(l, page);
	/* page_kasan_tag_reset(): x86_64 has no KASAN software tags */
	INIT_LIST_HEAD(&page->lru);
}

/*
 * mm/mm_init.c __init_zone_device_page() of kernel @k. The base: the
 * refcount is 0 for every type but MEMORY_DEVICE_GENERIC (FS_DAX and
 * PCI_P2PDMA included), as in mainline since FS_DAX pages became
 * refcounted folios, and the pgmap is stored through page_folio(). 6.12:
 * FS_DAX and PCI_P2PDMA pages keep init_page_count()'s 1, and the pgmap
 * is stored into the page (model/kernels.h: REFCOUNT_*,
 * PGMAP_THROUGH_FOLIO).
 */
static __always_inline void
init_zone_device_page_body(const enum model_kernel k, const struct memmap *m,
			   const struct page_layout *l, struct page *page,
			   unsigned long pfn, unsigned long zone_idx, int nid,
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
	if (kernel_value(k, KDIFF_PGMAP_THROUGH_FOLIO))
		page_folio(m, l, page)->pgmap = pgmap;
	else
		page->pgmap = pgmap;
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
		/* 6.12: FS_DAX and PCI_P2PDMA keep init_page_count()'s 1 */
		if (kernel_value(k, KDIFF_REFCOUNT_FS_DAX) &&
		    pgmap->type == MEMORY_DEVICE_FS_DAX)
			break;
		if (kernel_value(k, KDIFF_REFCOUNT_P2PDMA) &&
		    pgmap->type == MEMORY_DEVICE_PCI_P2PDMA)
			break;
		set_page_count(page, 0);
		break;
	case MEMORY_DEVICE_GENERIC:
		break;
	}
}

/*
 * The kernel's __init_zone_device_page() is static, called from two
 * places, and GCC keeps it out of line: the slow path makes one call per
 * struct page (docs/model.md, "The compiled shape"). The model has one
 * copy per layout, each with its struct page size folded in, and the
 * same call per page.
 */
#define DEFINE_INIT_ZONE_DEVICE_PAGE(lid, ...)                                \
	static __noinline void __init_zone_device_page_##lid(                 \
		const struct memmap *m, struct page *page, unsigned long pfn, \
		unsigned long zone_idx, int nid, struct dev_pagemap *pgmap)   \
	{                                                                     \
		init_zone_device_page_body(MODEL_KERNEL_BASE, m,              \
					   &page_layouts[lid], page, pfn,     \
					   zone_idx, nid, pgmap);             \
	}
PAGE_LAYOUTS(DEFINE_INIT_ZONE_DEVICE_PAGE, )

/* 6.12's, for its one layout (64 bytes), out of line as the kernel's. */
static __noinline void __init_zone_device_page_v6_12_PAGE_LAYOUT_64(
	const struct memmap *m, struct page *page, unsigned long pfn,
	unsigned long zone_idx, int nid, struct dev_pagemap *pgmap)
{
	init_zone_device_page_body(MODEL_KERNEL_6_12, m,
				   &page_layouts[PAGE_LAYOUT_64], page, pfn,
				   zone_idx, nid, pgmap);
}

static __always_inline void
__init_zone_device_page(const enum model_kernel k, const struct memmap *m,
			const struct page_layout *l, struct page *page,
			unsigned long pfn, unsigned long zone_idx, int nid,
			struct dev_pagemap *pgmap)
{
	if (k == MODEL_KERNEL_6_12) {
		/* memmap_config_check() keeps 6.12 to the 64-byte layout */
		__init_zone_device_page_v6_12_PAGE_LAYOUT_64(
			m, page, pfn, zone_idx, nid, pgmap);
		return;
	}
#define INIT_ZONE_DEVICE_PAGE_CASE(lid, ...)                               \
	case lid:                                                          \
		__init_zone_device_page_##lid(m, page, pfn, zone_idx, nid, \
					      pgmap);                      \
		break;
	switch (l->id) {
		PAGE_LAYOUTS(INIT_ZONE_DEVICE_PAGE_CASE, )
	default:
		break;
	}
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
 * mm/mm_init.c compound_nr_pages(). With a compound geometry and the
 * memmap in RAM, the vmemmap of a folio
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

/*
 * mm/mm_init.c pageblock_migratetype_init_range(): every pageblock that
 * starts inside the range becomes @mt (the bitmap of
 * model/include/linux/pageblock-flags.h; no cond_resched()).
 */
static __always_inline void kernel_pageblock_migratetype_init_range(
	const enum model_kernel k, struct memmap *m, unsigned long start_pfn,
	unsigned long nr_pages, enum migratetype mt)
{
	unsigned long pfn = pageblock_align(start_pfn);
	unsigned long end = start_pfn + nr_pages;

	for (; pfn < end; pfn += pageblock_nr_pages)
		kernel_set_pageblock_migratetype(k, &m->pageblocks, pfn, mt);
}

/* One function per kernel: the base's, and 6.12's. */
static void pageblock_migratetype_init_range(struct memmap *m,
					     unsigned long start_pfn,
					     unsigned long nr_pages,
					     enum migratetype mt)
{
	kernel_pageblock_migratetype_init_range(MODEL_KERNEL_BASE, m, start_pfn,
						nr_pages, mt);
}

static void pageblock_migratetype_init_range_v6_12(struct memmap *m,
						   unsigned long start_pfn,
						   unsigned long nr_pages,
						   enum migratetype mt)
{
	kernel_pageblock_migratetype_init_range(MODEL_KERNEL_6_12, m, start_pfn,
						nr_pages, mt);
}

/* ---------------------------------------------------------------------
 * The template path
 */

union page_template {
	struct page page;
	u8 bytes[MAX_STRUCT_PAGE_SIZE];
};

/* Weakly ordered stores that the drains order: the list's nt column. */
#define MEMMAP_COPY_NT_CASE(name, COPY, v, k, is_nt, ...)                   \
	case MEMMAP_##COPY:                                                   \
		return is_nt;
static __always_inline bool memmap_copy_nt(const enum memmap_copy copy)
{
	switch (copy) {
		MEMMAP_STRATEGIES(MEMMAP_COPY_NT_CASE)
	case NR_MEMMAP_COPIES:
		break;
	}
	return false;
}

/*
 * The project's fills, runs of pages from one template (tmpl_fill()): the
 * list's write column. A write kind not named here fails to compile.
 */
#define MEMMAP_WRITE_FILL_none false
#define MEMMAP_WRITE_FILL_copy false
#define MEMMAP_WRITE_FILL_copy_sized false
#define MEMMAP_WRITE_FILL_fill true
#define MEMMAP_COPY_FILL_CASE(name, COPY, write, ...)                        \
	case MEMMAP_##COPY:                                                   \
		return MEMMAP_WRITE_FILL_##write;
static __always_inline bool memmap_copy_fill(const enum memmap_copy copy)
{
	switch (copy) {
		MEMMAP_STRATEGIES(MEMMAP_COPY_FILL_CASE)
	case NR_MEMMAP_COPIES:
		break;
	}
	return false;
}

/*
 * The series' zone_device_page_init_optimization_enabled(): sanitizer
 * builds keep their instrumented stores (a template copy would hide the
 * field stores from KASAN and give KMSAN the template's shadow), and with
 * the page_ref_set tracepoint on every refcount store must reach it. In
 * all three the kernel takes the slow path. m->cfg.ungated opens the gate
 * for the benchmarks and the suites that exercise every copy.
 */
static bool zone_device_page_init_optimization_enabled(const struct memmap *m)
{
	if (m->cfg.ungated)
		return true;
	if (m->cfg.kasan || m->cfg.kmsan)
		return false;
	if (m->cfg.page_ref_tracepoint)
		return false;
	return true;
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

/*
 * The per-page copies: one for each "copy" and "copy_sized" strategy of
 * the list, named after it, tmpl_copy_<name>(), with one signature.
 * @size is the struct page size, a constant in each loop, and
 * __always_inline keeps it one inside: the series' memcpy_nt() of a
 * constant size stays the inline MOVNTI sequence (tools/check-objcode).
 */

/* The kernel's memcpy() of a constant size: inline moves. */
static __always_inline void tmpl_copy_tmpl_memcpy(struct page *page,
						  const struct page *template,
						  const unsigned int size)
{
	__builtin_memcpy(page, template, size);
}

/* The series before its fixed-size fastpaths: a __memcpy_flushcache() call. */
static __always_inline void
tmpl_copy_tmpl_nt_generic(struct page *page, const struct page *template,
			  const unsigned int size)
{
	__memcpy_flushcache(page, template, size);
}

/* The series: memcpy_nt() of a constant size, inline MOVNTI. */
static __always_inline void tmpl_copy_tmpl_nt_fixed(struct page *page,
						    const struct page *template,
						    const unsigned int size)
{
	memcpy_nt(page, template, size);
}

/* The project's: the kernel's nocache copy, which fences each copy. */
static __always_inline void tmpl_copy_tmpl_nocache(struct page *page,
						   const struct page *template,
						   const unsigned int size)
{
	memcpy_nocache(page, template, size);
}

/* The project's: a call to its SSE2 MOVNTDQ copy. */
static __always_inline void tmpl_copy_tmpl_sse2_nt(struct page *page,
						   const struct page *template,
						   const unsigned int size)
{
	memcpy_sse2_nt(page, template, size);
}

/* The project's: a call to its AVX VMOVNTDQ copy. */
static __always_inline void tmpl_copy_tmpl_avx_nt(struct page *page,
						  const struct page *template,
						  const unsigned int size)
{
	memcpy_avx_nt(page, template, size);
}

/* The project's: a call to its AVX-512 VMOVNTDQ copy. */
static __always_inline void
tmpl_copy_tmpl_avx512_nt(struct page *page, const struct page *template,
			 const unsigned int size)
{
	memcpy_avx512_nt(page, template, size);
}

/* The project's: one inline MOVDIR64B, the whole 64-byte page. */
static __always_inline void
tmpl_copy_tmpl_movdir64b(struct page *page, const struct page *template,
			 const unsigned int size)
{
	movdir64b(page, template);
}

/*
 * One struct page from the template with the strategy's copy, a case per
 * strategy of the list: its tmpl_copy_<name>() for a copy, nothing for
 * the slow path and the fills. A write kind not named here fails to
 * compile, and so does a copy strategy without its function.
 */
#define TMPL_COPY_PAGE_none(name)
#define TMPL_COPY_PAGE_copy(name) tmpl_copy_##name(page, template, size);
#define TMPL_COPY_PAGE_copy_sized TMPL_COPY_PAGE_copy
#define TMPL_COPY_PAGE_fill(name)
#define TMPL_COPY_PAGE_CASE(name, COPY, write, ...)                          \
	case MEMMAP_##COPY:                                                   \
		TMPL_COPY_PAGE_##write(name) break;
static __always_inline void tmpl_copy_page(const enum memmap_copy copy,
					   const unsigned int size,
					   struct page *page,
					   const struct page *template)
{
	switch (copy) {
		MEMMAP_STRATEGIES(TMPL_COPY_PAGE_CASE)
	case NR_MEMMAP_COPIES:
		break;
	}
}

/*
 * A fill by struct page size, a chain over the sizes of the strategy's
 * layout set (MEMMAP_L_<set>_SIZES): only those sizes are named (a fill
 * has functions for those alone), each ending the case; any other size,
 * whose loops are never emitted, writes nothing. Picked by the set's name, so
 * the preprocessor resolves it and no call to a missing size is written at any
 * -O.
 */
#define TMPL_FILL_SIZE(sz, kind)                            \
	if (size == sz) {                                   \
		tmpl_fill_##kind##_##sz(page, template, n); \
		break;                                      \
	}

/*
 * @nr back-to-back copies of the template, a case per strategy of the
 * list: for a fill, its tmpl_fill_<variant>_<size>() (a misspelt variant
 * is an undeclared function, an error); nothing for the others.
 */
#define TMPL_FILL_none(kind, sizes)
#define TMPL_FILL_copy(kind, sizes)
#define TMPL_FILL_copy_sized(kind, sizes)
#define TMPL_FILL_fill(kind, sizes) sizes(TMPL_FILL_SIZE, kind)
#define TMPL_FILL_CASE(name, COPY, write, variant, nt, layouts, ...) \
	case MEMMAP_##COPY:                                          \
		TMPL_FILL_##write(variant, layouts##_SIZES) break;
static __always_inline void tmpl_fill(const enum memmap_copy copy,
				      const unsigned int size,
				      struct page *page,
				      const struct page *template,
				      unsigned long nr)
{
	size_t n = nr * size;

	switch (copy) {
		MEMMAP_STRATEGIES(TMPL_FILL_CASE)
	case NR_MEMMAP_COPIES:
		break;
	}
}

/*
 * The series' zone_device_page_init_from_template(): refresh the
 * template for @pfn, then the strategy's copy.
 */
static __always_inline void
zone_device_page_init_from_template(const struct memmap *m,
				    const enum memmap_copy copy,
				    const bool checked,
				    const unsigned int size, struct page *page,
				    struct page *template, unsigned long pfn)
{
	zone_device_page_update_template(template, pfn);
	if (memmap_copy_fill(copy))
		tmpl_fill(copy, size, page, template, 1);
	else
		tmpl_copy_page(copy, size, page, template);
	memmap_nt_written(m, copy, checked, page, size);
}

/*
 * 6.12's zone_device_page_init_from_template() as the kernel's build of
 * the series compiles it (Debian's configuration, GCC 12): out of line,
 * one call per struct page, where the copy is code of its own (memcpy()'s
 * moves, memcpy_nt()'s MOVNTI: tmpl_memcpy, tmpl_nt_fixed), and inlined
 * where the copy is a call (__memcpy_flushcache(): tmpl_nt_generic).
 * tools/check-objcode --out-of-line holds the model's choice to the
 * kernel's objects, build by build (docs/model.md, "The model's cost
 * against the kernel's").
 */
static __always_inline bool
template_copy_out_of_line_v6_12(const enum memmap_copy copy)
{
	return copy == MEMMAP_TMPL_MEMCPY || copy == MEMMAP_TMPL_NT_FIXED;
}

/*
 * What kernel=6.12 has of the strategy list (model/kernels.h;
 * memmap_kernel_refuses()): the kernel's slow path and the series'
 * strategies, by their origin; the project's own are not the series.
 * V6_12_HAS_<origin>(X, args...) is X(args...) for those, nothing else.
 */
#define V6_12_HAS_MEMMAP_KERNEL(X, ...) X(__VA_ARGS__)
#define V6_12_HAS_MEMMAP_SERIES(X, ...) X(__VA_ARGS__)
#define V6_12_HAS_MEMMAP_OWN(X, ...)

#define DEFINE_TEMPLATE_COPY_V6_12(name, COPY)                             \
	static __noinline __maybe_unused void                              \
		zone_device_page_init_from_template_v6_12_##name(          \
			struct page *page, struct page *template,          \
			unsigned long pfn)                                 \
	{                                                                  \
		zone_device_page_update_template(template, pfn);           \
		tmpl_copy_page(MEMMAP_##COPY, LAYOUT_SIZE(PAGE_LAYOUT_64), \
			       page, template);                            \
	}
#define DEFINE_TEMPLATE_COPY_V6_12_OF(name, COPY, w, v, nt, layouts, origin, \
				      ...)                                   \
	V6_12_HAS_##origin(DEFINE_TEMPLATE_COPY_V6_12, name, COPY)
MEMMAP_STRATEGIES(DEFINE_TEMPLATE_COPY_V6_12_OF)

#define TEMPLATE_COPY_V6_12_CASE(name, COPY)                     \
	case MEMMAP_##COPY:                                       \
		zone_device_page_init_from_template_v6_12_##name( \
			page, template, pfn);                     \
		break;
#define TEMPLATE_COPY_V6_12_CASE_OF(name, COPY, w, v, nt, layouts, origin, \
				    ...)                                   \
	V6_12_HAS_##origin(TEMPLATE_COPY_V6_12_CASE, name, COPY)
/* The out-of-line copy of @copy at 6.12: its function, one call. */
static __always_inline void
template_copy_call_v6_12(const enum memmap_copy copy, struct page *page,
			 struct page *template, unsigned long pfn)
{
	switch (copy) {
		MEMMAP_STRATEGIES(TEMPLATE_COPY_V6_12_CASE_OF)
	default:
		break;
	}
}

/*
 * The template copy of kernel @k: 6.12's out of line where its build
 * keeps it so, else inline.
 */
static __always_inline void
kernel_page_init_from_template(const struct memmap *m,
			       const enum model_kernel k,
			       const enum memmap_copy copy, const bool checked,
			       const unsigned int size, struct page *page,
			       struct page *template, unsigned long pfn)
{
	if (k == MODEL_KERNEL_6_12 && template_copy_out_of_line_v6_12(copy)) {
		template_copy_call_v6_12(copy, page, template, pfn);
		memmap_nt_written(m, copy, checked, page, size);
		return;
	}
	zone_device_page_init_from_template(m, copy, checked, size, page,
					    template, pfn);
}

/*
 * [pfn, end_pfn) from one template in one fill: the project's own, for
 * the fill strategies.
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
	if (pfn >= end_pfn)
		return;
	tmpl_fill(copy, size, page, template, end_pfn - pfn);
	memmap_nt_written(m, copy, checked, page, (end_pfn - pfn) * size);
}

/*
 * The backport's zone_device_tail_page_init() (patches/6.12/series/): a
 * tail page as 6.12's memmap_init_compound() leaves it, but for
 * compound_head, which the folio's memmap_init_compound() writes into the
 * template. 6.12's prep_compound_tail() takes a head and an index, not a
 * page of its own, so the template's mapping, private and refcount are
 * written here, field by field.
 */
static __always_inline void
zone_device_tail_page_init_v6_12(const struct memmap *m, struct page *page,
				 unsigned long pfn, unsigned long zone_idx,
				 int nid, struct dev_pagemap *pgmap)
{
	__init_zone_device_page(MODEL_KERNEL_6_12, m,
				&page_layouts[PAGE_LAYOUT_64], page, pfn,
				zone_idx, nid, pgmap);
	page->mapping = (void *)TAIL_MAPPING;
	page->private = 0;
	set_page_count(page, 0);
}

/* ---------------------------------------------------------------------
 * memmap_init_compound() and memmap_init_zone_device(), for one strategy
 */

/*
 * memmap_init_compound()'s slow path as kernel @k has it, from the table
 * (model/kernels.h): 6.12 links a tail by its index and calls
 * prep_compound_head() right after the first tail
 * (PREP_TAIL_BY_INDEX, PREP_HEAD_AFTER_FIRST_TAIL). The base's stays
 * written out in memmap_init_compound() itself: its loops compile as
 * they did before 6.12 was modelled (docs/model.md, "The two kernels").
 */
static __always_inline void
memmap_init_compound_slow(struct memmap *m, const enum model_kernel k,
			  const struct page_layout *l, struct page *head,
			  unsigned long head_pfn, unsigned long zone_idx,
			  int nid, struct dev_pagemap *pgmap,
			  unsigned long nr_pages)
{
	unsigned long pfn, end_pfn = head_pfn + nr_pages;
	unsigned int order = pgmap->vmemmap_shift;

	for (pfn = head_pfn + 1; pfn < end_pfn; pfn++) {
		struct page *page = pfn_to_page(m, l, pfn);

		__init_zone_device_page(k, m, l, page, pfn, zone_idx, nid,
					pgmap);
		if (kernel_value(k, KDIFF_PREP_TAIL_BY_INDEX))
			prep_compound_tail_by_index(l, head, pfn - head_pfn);
		else
			prep_compound_tail(m, l, page, head, order);
		set_page_count(page, 0);
		/*
		 * 6.12: the folio metadata right after the first tail, which
		 * the second tail's initialisation then partly overwrites.
		 */
		if (kernel_value(k, KDIFF_PREP_HEAD_AFTER_FIRST_TAIL) &&
		    pfn == head_pfn + 1)
			kernel_prep_compound_head(k, l, head, order);
	}
	if (!kernel_value(k, KDIFF_PREP_HEAD_AFTER_FIRST_TAIL))
		kernel_prep_compound_head(k, l, head, order);
}

/*
 * The first tail's copy drained, then prep_compound_head() over it, as
 * the backport of "mm: use memcpy_nt() in zone-device template copies"
 * has them inside 6.12's first-tail branch.
 */
static __always_inline void
template_prep_compound_head_v6_12(struct memmap *m, const enum model_kernel k,
				  const struct page_layout *l,
				  const enum memmap_copy copy,
				  const bool checked, struct page *head,
				  unsigned int order)
{
	memmap_drain(m, copy, checked, MEMMAP_DRAIN_BEFORE_PREP_HEAD);
	ntcheck_prep_compound_head(checked, l, head, order);
	kernel_prep_compound_head(k, l, head, order);
}

/*
 * memmap_init_compound()'s template path as the series backported to 6.12
 * has it (patches/6.12/series/): the tail template's compound_head once
 * per folio, each tail a copy of it, and prep_compound_head() right after
 * the first tail (PREP_HEAD_AFTER_FIRST_TAIL), the first tail's copy
 * drained before it. The second tail's copy then overwrites what
 * prep_compound_head() wrote in it (_deferred_list), as 6.12's own
 * initialisation of that tail does; the tails copied after it are drained
 * before the next folio's memmap_init_compound() or before the return.
 */
static __always_inline void memmap_init_compound_template_v6_12(
	struct memmap *m, const enum model_kernel k,
	const struct page_layout *l, const enum memmap_copy copy,
	const bool checked, const unsigned int size, struct page *head,
	unsigned long head_pfn, unsigned int order, unsigned long nr_pages,
	struct page *tail_template)
{
	unsigned long pfn, end_pfn = head_pfn + nr_pages;

	set_compound_head_v6_12(tail_template, head);
	for (pfn = head_pfn + 1; pfn < end_pfn; pfn++) {
		/* 6.12's: the page from its pfn, each time round */
		struct page *page = pfn_to_page(m, l, pfn);

		kernel_page_init_from_template(m, k, copy, checked, size, page,
					       tail_template, pfn);
		if (pfn == head_pfn + 1)
			template_prep_compound_head_v6_12(m, k, l, copy,
							  checked, head, order);
	}
}

/*
 * mm/mm_init.c memmap_init_compound(): the head flag, the tails, then
 * prep_compound_head() after all of them (the series' order; 6.12 calls it
 * after the first tail). The template path is the series'.
 */
static __always_inline void
memmap_init_compound(struct memmap *m, const enum model_kernel k,
		     const enum page_layout_id lid, const enum memmap_copy copy,
		     const bool checked, struct page *head,
		     unsigned long head_pfn, unsigned long zone_idx, int nid,
		     struct dev_pagemap *pgmap, unsigned long nr_pages,
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

	if (copy == MEMMAP_SLOW && k != MODEL_KERNEL_BASE) {
		memmap_init_compound_slow(m, k, l, head, head_pfn, zone_idx,
					  nid, pgmap, nr_pages);
		return;
	}
	if (k != MODEL_KERNEL_BASE) {
		memmap_init_compound_template_v6_12(m, k, l, copy, checked,
						    size, head, head_pfn, order,
						    nr_pages, tail_template);
		return;
	}
	if (copy == MEMMAP_SLOW) {
		for (pfn = head_pfn + 1; pfn < end_pfn; pfn++) {
			page = pfn_to_page(m, l, pfn);
			__init_zone_device_page(k, m, l, page, pfn, zone_idx,
						nid, pgmap);
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

/*
 * 6.12's memmap_init_compound() as the kernel's build compiles it: out of
 * line, one call per folio (memmap_init_compound.constprop.0 in every
 * build of kernels:), its loop keeping what it needs across the calls of
 * its own; the base's is inlined into its loops as before. One function
 * per strategy of 6.12 and per checked or plain loop, so that the plain
 * one carries nothing of the checker.
 */
#define DEFINE_MEMMAP_INIT_COMPOUND_V6_12_ONE(name, COPY, checked_, sfx)    \
	static __noinline void memmap_init_compound_v6_12_##name##sfx(        \
		struct memmap *m, struct page *head, unsigned long head_pfn,  \
		unsigned long zone_idx, int nid, struct dev_pagemap *pgmap,   \
		unsigned long nr_pages, struct page *tail_template)           \
	{                                                                     \
		memmap_init_compound(m, MODEL_KERNEL_6_12, PAGE_LAYOUT_64,    \
				     MEMMAP_##COPY, checked_, head, head_pfn, \
				     zone_idx, nid, pgmap, nr_pages,          \
				     tail_template);                          \
	}
#define DEFINE_MEMMAP_INIT_COMPOUND_V6_12(name, COPY)              \
	DEFINE_MEMMAP_INIT_COMPOUND_V6_12_ONE(name, COPY, false, )  \
	DEFINE_MEMMAP_INIT_COMPOUND_V6_12_ONE(name, COPY, true, _checked)
#define DEFINE_MEMMAP_INIT_COMPOUND_V6_12_OF(name, COPY, w, v, nt, layouts, \
					     origin, ...)                   \
	V6_12_HAS_##origin(DEFINE_MEMMAP_INIT_COMPOUND_V6_12, name, COPY)
MEMMAP_STRATEGIES(DEFINE_MEMMAP_INIT_COMPOUND_V6_12_OF)

#define MEMMAP_INIT_COMPOUND_V6_12_CASE(name, COPY)                          \
	case MEMMAP_##COPY:                                                   \
		if (checked)                                                  \
			memmap_init_compound_v6_12_##name##_checked(          \
				m, head, head_pfn, zone_idx, nid, pgmap,      \
				nr_pages, tail_template);                     \
		else                                                          \
			memmap_init_compound_v6_12_##name(m, head, head_pfn,  \
							  zone_idx, nid,      \
							  pgmap, nr_pages,    \
							  tail_template);     \
		break;
#define MEMMAP_INIT_COMPOUND_V6_12_CASE_OF(name, COPY, w, v, nt, layouts, \
					   origin, ...)                   \
	V6_12_HAS_##origin(MEMMAP_INIT_COMPOUND_V6_12_CASE, name, COPY)

/* memmap_init_compound() of kernel @k: 6.12's out of line, the base's not. */
static __always_inline void
kernel_memmap_init_compound(struct memmap *m, const enum model_kernel k,
			    const enum page_layout_id lid,
			    const enum memmap_copy copy, const bool checked,
			    struct page *head, unsigned long head_pfn,
			    unsigned long zone_idx, int nid,
			    struct dev_pagemap *pgmap, unsigned long nr_pages,
			    struct page *tail_template)
{
	if (k != MODEL_KERNEL_6_12) {
		memmap_init_compound(m, k, lid, copy, checked, head, head_pfn,
				     zone_idx, nid, pgmap, nr_pages,
				     tail_template);
		return;
	}
	switch (copy) {
		MEMMAP_STRATEGIES(MEMMAP_INIT_COMPOUND_V6_12_CASE_OF)
	default:
		break;
	}
}

/*
 * mm/mm_init.c memmap_init_zone_device(), with the series' template path.
 * struct memmap plays the zone; no cond_resched() and no pr_debug() (the
 * model keeps its count in m->nr_initialised).
 */
static __always_inline void
__memmap_init_zone_device(struct memmap *m, const enum model_kernel k,
			  const enum page_layout_id lid,
			  const enum memmap_copy copy, const bool checked,
			  unsigned long start_pfn, unsigned long nr_pages,
			  struct dev_pagemap *pgmap)
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

	m->template_path = copy != MEMMAP_SLOW;
	/*
	 * memmap_init_range() already took care of the struct pages that
	 * hold the memmap: start after them.
	 */
	if (altmap) {
		start_pfn = altmap->base_pfn + vmem_altmap_offset(altmap);
		nr_pages = end_pfn - start_pfn;
	}

	if (copy != MEMMAP_SLOW) {
		__init_zone_device_page(k, m, l, &head_template.page, start_pfn,
					zone_idx, nid, pgmap);
		if (pfns_per_compound > 1 && k == MODEL_KERNEL_6_12) {
			zone_device_tail_page_init_v6_12(m, &tail_template.page,
							 start_pfn + 1,
							 zone_idx, nid, pgmap);
		} else if (pfns_per_compound > 1) {
			struct page *head = pfn_to_page(m, l, start_pfn);

			__init_zone_device_page(k, m, l, &tail_template.page,
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
			__init_zone_device_page(k, m, l, page, pfn, zone_idx,
						nid, pgmap);
		else
			kernel_page_init_from_template(m, k, copy, checked,
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
		kernel_memmap_init_compound(m, k, lid, copy, checked, page,
					    pfn, zone_idx, nid, pgmap, nr,
					    &tail_template.page);
	}
out:
	memmap_drain(m, copy, checked, MEMMAP_DRAIN_BEFORE_RETURN);
	ntcheck_model_publish(checked,
			      "the return of memmap_init_zone_device()");

	if (k == MODEL_KERNEL_6_12)
		pageblock_migratetype_init_range_v6_12(m, start_pfn, nr_pages,
						       MIGRATE_MOVABLE);
	else
		pageblock_migratetype_init_range(m, start_pfn, nr_pages,
						 MIGRATE_MOVABLE);
	m->nr_initialised = nr_pages;
}

/*
 * Two loops per strategy and layout: memmap_init_<COPY>_<LAYOUT>, the
 * plain one the benchmarks time (and tools/check-objcode reads), and
 * memmap_init_<COPY>_<LAYOUT>_checked, the same with the ordering
 * checker's model-level hooks (docs/ntcheck.md), run when the checker is
 * on for the running case. Each first asks the series' gate, as
 * memmap_init_zone_device() does once per call, and where it is shut
 * calls the slow loop of its layout (defined first: "slow" heads the
 * list).
 */
#define DEFINE_MEMMAP_INIT_FN(fn, slow_fn, k, copy, lid, checked_)           \
	static __maybe_unused void fn(struct memmap *m,                       \
				      unsigned long start_pfn,                \
				      unsigned long nr_pages,                 \
				      struct dev_pagemap *pgmap)              \
	{                                                                     \
		if (copy != MEMMAP_SLOW &&                                    \
		    !zone_device_page_init_optimization_enabled(m)) {         \
			slow_fn(m, start_pfn, nr_pages, pgmap);               \
			return;                                               \
		}                                                             \
		__memmap_init_zone_device(m, k, lid, copy, checked_,          \
					  start_pfn, nr_pages, pgmap);        \
	}
#define DEFINE_MEMMAP_INIT(copy, lid)                                       \
	DEFINE_MEMMAP_INIT_FN(memmap_init_##copy##_##lid,                   \
			      memmap_init_MEMMAP_SLOW_##lid,                \
			      MODEL_KERNEL_BASE, copy, lid, false)          \
	DEFINE_MEMMAP_INIT_FN(memmap_init_##copy##_##lid##_checked,         \
			      memmap_init_MEMMAP_SLOW_##lid##_checked,      \
			      MODEL_KERNEL_BASE, copy, lid, true)

/*
 * Every (strategy, layout) pair of the list (manifest/strategies.yaml),
 * compiled where the strategy's layouts include the layout; the others
 * are never referenced and not emitted.
 */
#define DEFINE_MEMMAP_INIT_OF(lid, copy) DEFINE_MEMMAP_INIT(copy, lid)
#define DEFINE_MEMMAP_INIT_LAYOUTS(name, COPY, ...) \
	PAGE_LAYOUTS(DEFINE_MEMMAP_INIT_OF, MEMMAP_##COPY)
MEMMAP_STRATEGIES(DEFINE_MEMMAP_INIT_LAYOUTS)

/*
 * 6.12's loops, on the 64-byte layout only (model/kernels.h;
 * memmap_kernel_refuses()): the slow path, and the series backported to
 * it (patches/6.12/series/) for each strategy of the series (origin
 * series: tmpl_memcpy, tmpl_nt_generic, tmpl_nt_fixed), behind the
 * series' gate as the base's are. The project's own copies and fills are
 * not the series and have no 6.12 loop. Functions of their own, so that
 * the base's loops carry no test of the kernel; named
 * memmap_init_v6_12_<COPY>_PAGE_LAYOUT_64 (tools/check-objcode holds them
 * to their strategy's claims as it does the base's).
 */
#define DEFINE_MEMMAP_INIT_V6_12(COPY)                                      \
	DEFINE_MEMMAP_INIT_FN(                                              \
		memmap_init_v6_12_MEMMAP_##COPY##_PAGE_LAYOUT_64,           \
		memmap_init_v6_12_MEMMAP_SLOW_PAGE_LAYOUT_64,               \
		MODEL_KERNEL_6_12, MEMMAP_##COPY, PAGE_LAYOUT_64, false)    \
	DEFINE_MEMMAP_INIT_FN(                                              \
		memmap_init_v6_12_MEMMAP_##COPY##_PAGE_LAYOUT_64_checked,   \
		memmap_init_v6_12_MEMMAP_SLOW_PAGE_LAYOUT_64_checked,       \
		MODEL_KERNEL_6_12, MEMMAP_##COPY, PAGE_LAYOUT_64, true)
#define DEFINE_MEMMAP_INIT_V6_12_OF(name, COPY, w, v, nt, layouts, origin, \
				    ...)                                   \
	V6_12_HAS_##origin(DEFINE_MEMMAP_INIT_V6_12, COPY)
MEMMAP_STRATEGIES(DEFINE_MEMMAP_INIT_V6_12_OF)

#define MEMMAP_INIT_V6_12_ENTRY(COPY)                                     \
	[MEMMAP_##COPY] = {                                                \
		memmap_init_v6_12_MEMMAP_##COPY##_PAGE_LAYOUT_64,          \
		memmap_init_v6_12_MEMMAP_##COPY##_PAGE_LAYOUT_64_checked },
#define MEMMAP_INIT_V6_12_ENTRY_OF(name, COPY, w, v, nt, layouts, origin, \
				   ...)                                   \
	V6_12_HAS_##origin(MEMMAP_INIT_V6_12_ENTRY, COPY)

/* 6.12's loops by strategy, the 64-byte layout's: NULL for the own. */
static const memmap_init_fn memmap_init_v6_12_fns[NR_MEMMAP_COPIES][2] = {
	MEMMAP_STRATEGIES(MEMMAP_INIT_V6_12_ENTRY_OF)
};

#define MEMMAP_INIT_ENTRY(copy, lid, layouts)                                \
	[copy][lid] = { ((layouts) >> (lid)) & 1 ?                            \
				memmap_init_##copy##_##lid : NULL,            \
			((layouts) >> (lid)) & 1 ?                            \
				memmap_init_##copy##_##lid##_checked : NULL }
#define MEMMAP_INIT_ENTRY_OF(lid, copy, layouts) \
	MEMMAP_INIT_ENTRY(copy, lid, layouts),
#define MEMMAP_INIT_ENTRIES(name, COPY, v, k, is_nt, layouts, ...) \
	PAGE_LAYOUTS(MEMMAP_INIT_ENTRY_OF, MEMMAP_##COPY, layouts)

static const memmap_init_fn
memmap_init_fns[NR_MEMMAP_COPIES][NR_PAGE_LAYOUTS][2] = {
	MEMMAP_STRATEGIES(MEMMAP_INIT_ENTRIES)
};

memmap_init_fn memmap_init_lookup(enum memmap_copy copy,
				  enum page_layout_id layout,
				  enum model_kernel kernel, bool checked)
{
	if (copy >= NR_MEMMAP_COPIES || layout >= NR_PAGE_LAYOUTS)
		return NULL;
	if (kernel == MODEL_KERNEL_6_12)
		return layout == PAGE_LAYOUT_64
			       ? memmap_init_v6_12_fns[copy][checked]
			       : NULL;
	if (kernel != MODEL_KERNEL_BASE)
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
