/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small helpers of the kernel's include/linux/mm.h, page_ref.h,
 * page-flags.h and list.h that __init_single_page() and the compound
 * setup use, written for the model's layouts (model/include/linux/
 * mm_types.h): a struct page of any modelled size, and the
 * compound_info_mask choice of struct memmap_config. Pinned to Linux
 * v7.2-rc1 (docs/model.md gives each one's status).
 */
#ifndef NTBOOT_MODEL_LINUX_MM_H
#define NTBOOT_MODEL_LINUX_MM_H

#include "include/compiler.h"
#include "model/arch/x86/include/asm/bitops.h"
#include "model/include/linux/mm_types.h"
#include "model/memmap.h"

/*
 * include/linux/mm.h mm_zero_struct_page() on 64-bit: not a memset() but
 * one u64 store of zero per word, falling through from the size down, so
 * that the compiler emits plain MOVs (a memset() of a struct page becomes
 * a REP STOS or a call, which the kernel avoids on purpose). The size is
 * the layout's, a constant in every loop; the kernel's switch covers 56
 * to 96 bytes, and so does this one.
 */
static __always_inline void mm_zero_struct_page(const struct page_layout *l,
						struct page *page)
{
	unsigned long *_pp = (unsigned long *)page;

	switch (l->size) {
	case 96:
		_pp[11] = 0;
		fallthrough;
	case 88:
		_pp[10] = 0;
		fallthrough;
	case 80:
		_pp[9] = 0;
		fallthrough;
	case 72:
		_pp[8] = 0;
		fallthrough;
	case 64:
		_pp[7] = 0;
		fallthrough;
	case 56:
		_pp[6] = 0;
		_pp[5] = 0;
		_pp[4] = 0;
		_pp[3] = 0;
		_pp[2] = 0;
		_pp[1] = 0;
		_pp[0] = 0;
	}
}

/* include/linux/mm.h set_page_zone(), set_page_node(), set_page_links() */
static __always_inline void set_page_zone(struct page *page, unsigned long zone)
{
	page->flags &= ~(ZONES_MASK << ZONES_PGSHIFT);
	page->flags |= (zone & ZONES_MASK) << ZONES_PGSHIFT;
}

static __always_inline void set_page_node(struct page *page, unsigned long node)
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

/*
 * include/linux/page_ref.h init_page_count(), set_page_count(): an
 * atomic_set(), which is a WRITE_ONCE() of the counter. The volatile
 * store is part of the compiled shape: the compiler may not merge it
 * with its neighbours (the kernel writes _refcount = 1 and _mapcount = -1
 * as two 4-byte stores, not one 8-byte store). The page_ref_set
 * tracepoint's static branch is the series' gate's business
 * (cfg.page_ref_tracepoint), not code here.
 */
static __always_inline void atomic_set_int(int *counter, int v)
{
	WRITE_ONCE(*counter, v);
}

static __always_inline void init_page_count(struct page *page)
{
	atomic_set_int(&page->_refcount, 1);
}

static __always_inline void set_page_count(struct page *page, int v)
{
	atomic_set_int(&page->_refcount, v);
}

/*
 * include/linux/mm.h page_cpupid_reset_last(): in page->flags, or in
 * page->_last_cpupid where the layout has it (LAST_CPUPID_NOT_IN_PAGE_FLAGS)
 */
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

/* include/linux/list.h */
static __always_inline void INIT_LIST_HEAD(struct list_head *list)
{
	/* include/linux/list.h: both WRITE_ONCE() */
	WRITE_ONCE(list->next, list);
	WRITE_ONCE(list->prev, list);
}

/* include/linux/page-flags.h: the non-atomic flag setters */
/* include/linux/page-flags.h: the non-atomic __set_bit() of the flag */
static __always_inline void __SetPageReserved(struct page *page)
{
	__set_bit(PG_reserved, &page->flags);
}

static __always_inline void __SetPageHead(struct page *page)
{
	__set_bit(PG_head, &page->flags);
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

#endif
