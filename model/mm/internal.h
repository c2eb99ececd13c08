/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's mm/internal.h at v7.2-rc1, the part the ZONE_DEVICE memmap
 * initialisation uses: prep_compound_tail() and prep_compound_head().
 * docs/model.md gives their status.
 */
#ifndef NTBOOT_MODEL_MM_INTERNAL_H
#define NTBOOT_MODEL_MM_INTERNAL_H

#include "model/include/linux/mm.h"
#include "model/kernels.h"

/*
 * mm/internal.h prep_compound_tail(), with the folio order argument of
 * the 7.1-era interface: set_compound_head() needs it for the mask form
 * of compound_head (compound_info_has_mask()).
 */
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

/* mm/internal.h folio_set_order() */
static __always_inline void folio_set_order(struct folio_page1 *folio,
					    unsigned int order)
{
	folio->_flags_1 = (folio->_flags_1 & ~0xffUL) | order;
	folio->_nr_pages = 1U << order;
}

/*
 * mm/internal.h prep_compound_head(): the folio metadata in the first and
 * second tail, at the 6.15+ offsets of struct folio (the _mm_id fields,
 * _nr_pages at 56: model/include/linux/mm_types.h). It overlays fields
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

/*
 * A 4-byte counter of the first tail at kernel @k's offset for entry
 * @id, as atomic_set() writes it; nothing where @k has no such field
 * (offset -1). @k and @id constant: one store or none.
 */
static __always_inline void kernel_folio_set_int(const enum model_kernel k,
						 void *page1,
						 enum kernel_difference_id id,
						 int v)
{
	const long off = kernel_value(k, id);

	if (off >= 0)
		atomic_set_int((int *)((char *)page1 + off), v);
}

/*
 * The CONFIG_MM_ID fields of the first tail where kernel @k has them:
 * _mm_id_mapcount[0] and [1] = -1, _mm_ids = 0.
 */
static __always_inline void kernel_folio_set_mm_id(const enum model_kernel k,
						   void *page1)
{
	const long mapcount = kernel_value(k, KDIFF_FOLIO_MM_ID_MAPCOUNT);
	const long ids = kernel_value(k, KDIFF_FOLIO_MM_IDS);

	if (mapcount >= 0) {
		atomic_set_int((int *)((char *)page1 + mapcount), -1);
		atomic_set_int((int *)((char *)page1 + mapcount + 4), -1);
	}
	if (ids >= 0)
		*(unsigned long *)((char *)page1 + ids) = 0;
}

/* 6.12's include/linux/page-flags.h set_compound_head(): head + 1. */
static __always_inline void set_compound_head_v6_12(struct page *page,
						    const struct page *head)
{
	WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

/*
 * 6.12's mm/internal.h prep_compound_tail(head, tail_idx): the tail by
 * its index, and compound_head always head + 1 (6.12 has no mask form:
 * model/kernels.h, PREP_TAIL_BY_INDEX and COMPOUND_INFO_MASK).
 */
static __always_inline void
prep_compound_tail_by_index(const struct page_layout *l, struct page *head,
			    unsigned long tail_idx)
{
	struct page *p = nth_page(l, head, tail_idx);

	p->mapping = (void *)TAIL_MAPPING;
	set_compound_head_v6_12(p, head);
	p->private = 0;
}

/*
 * prep_compound_head() as kernel @k has it: the base's above, or the
 * 6.12 one, whose first-tail fields sit where the table puts them
 * (model/kernels.h: FOLIO_*): _folio_nr_pages at 32, _entire_mapcount
 * before _nr_pages_mapped, no _mm_id fields.
 */
static __always_inline void
kernel_prep_compound_head(const enum model_kernel k,
			  const struct page_layout *l, struct page *page,
			  unsigned int order)
{
	struct folio_page1 *f1 = (struct folio_page1 *)nth_page(l, page, 1);
	struct folio_page2 *f2 = (struct folio_page2 *)nth_page(l, page, 2);

	if (k == MODEL_KERNEL_BASE) {
		prep_compound_head(l, page, order);
		return;
	}
	/* folio_set_order() */
	f1->_flags_1 = (f1->_flags_1 & ~0xffUL) | order;
	*(unsigned int *)((char *)f1 + kernel_value(k, KDIFF_FOLIO_NR_PAGES)) =
		1U << order;
	atomic_set_int(&f1->_large_mapcount, -1);
	kernel_folio_set_int(k, f1, KDIFF_FOLIO_ENTIRE_MAPCOUNT, -1);
	kernel_folio_set_int(k, f1, KDIFF_FOLIO_NR_PAGES_MAPPED, 0);
	kernel_folio_set_mm_id(k, f1);
	atomic_set_int(&f1->_pincount, 0);
	if (order > 1)
		INIT_LIST_HEAD(&f2->_deferred_list);
}

#endif
