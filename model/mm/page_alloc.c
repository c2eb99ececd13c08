// SPDX-License-Identifier: GPL-2.0-only
/*
 * Storage for the modelled pageblock usemaps (the kernel keeps them in
 * mm/sparse.c's mem_section_usage); the bit operations of mm/page_alloc.c
 * (set_pageblock_migratetype(), the pfnblock bits) are inline in
 * model/include/linux/pageblock-flags.h. Simplified: docs/model.md.
 */
#include "model/include/linux/pageblock-flags.h"
#include "include/platform.h"
#include "lib/string.h"

BUILD_BUG_ON(__NR_PAGEBLOCK_BITS > NR_PAGEBLOCK_BITS);
BUILD_BUG_ON(USEMAP_LONGS_PER_SECTION != 8);
/* The table's base is this header's layout. */
BUILD_BUG_ON(NR_PAGEBLOCK_BITS != KDIFF_BASE_PAGEBLOCK_BITS);
BUILD_BUG_ON((PAGEBLOCK_MIGRATETYPE_MASK | PAGEBLOCK_ISO_MASK) !=
	     KDIFF_BASE_PAGEBLOCK_MASK);

static size_t pageblock_flags_bytes(const struct pageblock_flags *pb)
{
	return pb->nr_sections * usemap_longs_per_section(pb->bits) *
	       sizeof(unsigned long);
}

int pageblock_flags_alloc(struct pageblock_flags *pb, unsigned long start_pfn,
			  unsigned long end_pfn, enum model_kernel k)
{
	pb->bits = kernel_value(k, KDIFF_PAGEBLOCK_BITS);
	pb->first_section = start_pfn >> PFN_SECTION_SHIFT;
	pb->nr_sections = end_pfn > start_pfn ?
				  ((end_pfn - 1) >> PFN_SECTION_SHIFT) -
					  pb->first_section + 1 :
				  1;
	pb->usemap = plat_alloc_aligned(pageblock_flags_bytes(pb), 64);
	if (!pb->usemap)
		return -1;
	pageblock_flags_clear(pb);
	return 0;
}

void pageblock_flags_free(struct pageblock_flags *pb)
{
	if (pb->usemap)
		plat_free(pb->usemap, pageblock_flags_bytes(pb));
	pb->usemap = NULL;
}

void pageblock_flags_clear(struct pageblock_flags *pb)
{
	memset(pb->usemap, 0, pageblock_flags_bytes(pb));
}
