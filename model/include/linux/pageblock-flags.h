/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's include/linux/pageblock-flags.h and the pageblock bit
 * operations of mm/page_alloc.c at v7.2-rc1 (simplified: docs/model.md).
 * The pageblock flags of SPARSEMEM: per memory section (128 MiB on
 * x86_64), a usemap with NR_PAGEBLOCK_BITS bits for each pageblock of
 * 2^pageblock_order pages. memmap_init_zone_device() marks every
 * pageblock of the device range MIGRATE_MOVABLE.
 *
 * The model keeps the usemaps of the sections a range touches in one
 * array, section after section, with the kernel's bit positions.
 */
#ifndef NTBOOT_MODEL_LINUX_PAGEBLOCK_FLAGS_H
#define NTBOOT_MODEL_LINUX_PAGEBLOCK_FLAGS_H

#include "include/compiler.h"
#include "include/types.h"
#include "model/include/linux/mm_types.h"

#define SECTION_SIZE_BITS 27
#define PFN_SECTION_SHIFT (SECTION_SIZE_BITS - PAGE_SHIFT)
#define PAGES_PER_SECTION (1UL << PFN_SECTION_SHIFT)

/* HUGETLB_PAGE_ORDER on x86_64 */
#define pageblock_order 9
#define pageblock_nr_pages (1UL << pageblock_order)
#define pageblock_aligned(pfn)                                               \
	IS_ALIGNED((unsigned long)(pfn), pageblock_nr_pages)
/* The first pageblock boundary at or above @pfn. */
#define pageblock_align(pfn) ALIGN_UP((unsigned long)(pfn), pageblock_nr_pages)

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
};

/* With CONFIG_MEMORY_ISOLATION, rounded up to a power of two. */
enum pageblock_bits {
	PB_migrate_0,
	PB_migrate_1,
	PB_migrate_2,
	PB_compact_skip,
	PB_migrate_isolate,
	__NR_PAGEBLOCK_BITS
};

#define NR_PAGEBLOCK_BITS 8
#define PAGEBLOCK_MIGRATETYPE_MASK                                           \
	((1UL << PB_migrate_0) | (1UL << PB_migrate_1) | (1UL << PB_migrate_2))
#define PAGEBLOCK_ISO_MASK (1UL << PB_migrate_isolate)

#define USEMAP_LONGS_PER_SECTION                                             \
	((PAGES_PER_SECTION >> pageblock_order) * NR_PAGEBLOCK_BITS /         \
	 BITS_PER_LONG)

struct pageblock_flags {
	unsigned long *usemap;
	unsigned long first_section;
	unsigned long nr_sections;
};

/* Usemaps, zeroed, for every section [start_pfn, end_pfn) touches. */
int pageblock_flags_alloc(struct pageblock_flags *pb, unsigned long start_pfn,
			  unsigned long end_pfn);
void pageblock_flags_free(struct pageblock_flags *pb);
void pageblock_flags_clear(struct pageblock_flags *pb);

static __always_inline unsigned long *
pfnblock_word(const struct pageblock_flags *pb, unsigned long pfn,
	      unsigned int *shift)
{
	unsigned long section = pfn >> PFN_SECTION_SHIFT;
	unsigned long bitidx = ((pfn & (PAGES_PER_SECTION - 1)) >>
				pageblock_order) * NR_PAGEBLOCK_BITS;

	*shift = bitidx % BITS_PER_LONG;
	return &pb->usemap[(section - pb->first_section) *
				   USEMAP_LONGS_PER_SECTION +
			   bitidx / BITS_PER_LONG];
}

/*
 * The migratetype bits of the pageblock of @pfn, the isolate bit cleared,
 * as set_pageblock_migratetype() does, with the kernel's store: its
 * __set_pfnblock_flags_mask() replaces the bits in a compare-and-exchange
 * loop on the usemap word (a LOCK CMPXCHG per pageblock).
 */
static __always_inline void
set_pageblock_migratetype(struct pageblock_flags *pb, unsigned long pfn,
			  enum migratetype mt)
{
	unsigned int shift;
	unsigned long *word = pfnblock_word(pb, pfn, &shift);
	unsigned long mask = PAGEBLOCK_MIGRATETYPE_MASK | PAGEBLOCK_ISO_MASK;
	unsigned long old = READ_ONCE(*word);

	mask <<= shift;
	while (!__atomic_compare_exchange_n(
		word, &old, (old & ~mask) | ((unsigned long)mt << shift), false,
		__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

/* All NR_PAGEBLOCK_BITS bits of the pageblock of @pfn. */
static __always_inline unsigned long
get_pfnblock_bits(const struct pageblock_flags *pb, unsigned long pfn)
{
	unsigned int shift;
	const unsigned long *word = pfnblock_word(pb, pfn, &shift);

	return (*word >> shift) & ((1UL << NR_PAGEBLOCK_BITS) - 1);
}

#endif
