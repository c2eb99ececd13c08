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
#include "model/kernels.h"

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

/*
 * Longs of usemap per section for @bits bits per pageblock: 8 for the
 * base's 8 bits, 4 for 6.12's 4 (model/kernels.h, PAGEBLOCK_BITS).
 */
#define usemap_longs_per_section(bits) \
	((PAGES_PER_SECTION >> pageblock_order) * (bits) / BITS_PER_LONG)
#define USEMAP_LONGS_PER_SECTION usemap_longs_per_section(NR_PAGEBLOCK_BITS)

struct pageblock_flags {
	unsigned long *usemap;
	unsigned long first_section;
	/* an unsigned int each: the struct stays three words */
	unsigned int nr_sections;
	unsigned int bits; /* per pageblock: the kernel's */
};

/*
 * Usemaps, zeroed, for every section [start_pfn, end_pfn) touches, of
 * kernel @k's layout (@k's PAGEBLOCK_BITS).
 */
int pageblock_flags_alloc(struct pageblock_flags *pb, unsigned long start_pfn,
			  unsigned long end_pfn, enum model_kernel k);
void pageblock_flags_free(struct pageblock_flags *pb);
void pageblock_flags_clear(struct pageblock_flags *pb);

/* The usemap word of @pfn's pageblock at @bits bits per pageblock. */
static __always_inline unsigned long *
pfnblock_word_bits(const struct pageblock_flags *pb, unsigned long pfn,
		   unsigned int *shift, const unsigned int bits)
{
	unsigned long section = pfn >> PFN_SECTION_SHIFT;
	unsigned long bitidx =
		((pfn & (PAGES_PER_SECTION - 1)) >> pageblock_order) * bits;

	*shift = bitidx % BITS_PER_LONG;
	return &pb->usemap[(section - pb->first_section) *
				   usemap_longs_per_section(bits) +
			   bitidx / BITS_PER_LONG];
}

/*
 * The migratetype of the pageblock of @pfn as kernel @k stores it: the
 * base's init_pageblock_migratetype(page, mt, false) replaces the
 * migratetype and the isolate bit, 6.12's set_pageblock_migratetype()
 * the migratetype bits (model/kernels.h: PAGEBLOCK_*). Both go through
 * the kernel's compare-and-exchange loop on the usemap word
 * (__set_pfnblock_flags_mask(), set_pfnblock_flags_mask() in 6.12): a
 * LOCK CMPXCHG per pageblock. With @k constant, the kernel's bit count
 * and mask are constants of the code.
 */
static __always_inline void
kernel_set_pageblock_migratetype(const enum model_kernel k,
				 struct pageblock_flags *pb, unsigned long pfn,
				 enum migratetype mt)
{
	const unsigned int bits = kernel_value(k, KDIFF_PAGEBLOCK_BITS);
	unsigned long mask = kernel_value(k, KDIFF_PAGEBLOCK_MASK);
	unsigned int shift;
	unsigned long *word = pfnblock_word_bits(pb, pfn, &shift, bits);
	unsigned long old = READ_ONCE(*word);

	mask <<= shift;
	while (!__atomic_compare_exchange_n(
		word, &old, (old & ~mask) | ((unsigned long)mt << shift), false,
		__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

/* The base's: the migratetype bits of @pfn's pageblock, isolate cleared. */
static __always_inline void
set_pageblock_migratetype(struct pageblock_flags *pb, unsigned long pfn,
			  enum migratetype mt)
{
	kernel_set_pageblock_migratetype(MODEL_KERNEL_BASE, pb, pfn, mt);
}

/* All the bits of the pageblock of @pfn, as many as its kernel has. */
static __always_inline unsigned long
get_pfnblock_bits(const struct pageblock_flags *pb, unsigned long pfn)
{
	unsigned int shift;
	const unsigned long *word =
		pfnblock_word_bits(pb, pfn, &shift, pb->bits);

	return (*word >> shift) & ((1UL << pb->bits) - 1);
}

#endif
