// SPDX-License-Identifier: GPL-2.0-only
/*
 * drivers/nvdimm/pfn_devs.c: the info block nd_pfn_init() writes when
 * ndctl creates an fsdax or devdax namespace, and the range and altmap
 * __nvdimm_setup_pfn() derives from it (docs/model.md, "The namespace").
 *
 * nd_pfn_init(): the alignment is the namespace's, at least
 * memremap_compat_align() (SUBSECTION_SIZE on x86: 2 MiB); a start not
 * aligned to that is refused (so start_pad is always 0); the end is cut
 * down to the alignment (end_trunc). An 8 KiB info block first; with
 * the memmap on the device (map=dev), room for 64 bytes of struct page
 * for each pfn of the uncut namespace after the info block, the data
 * starting at the next alignment boundary; with map=mem only the info
 * block before it. A data offset at or past the cut end is refused.
 * __nvdimm_setup_pfn(): the range is the namespace less end_trunc;
 * map=dev's altmap has reserve = the info block's pfns
 * (info_block_reserve()), free = the pfns from there to the data
 * offset: they hold the struct pages, and memmap_init_zone_device()
 * starts after both (vmem_altmap_offset()).
 */
#include "include/compiler.h"
#include "lib/printf.h"
#include "model/drivers/nvdimm/pfn_devs.h"

#define PFN_INFO_BLOCK (8 * SZ_1K) /* info_block_reserve(), page-aligned */
#define PFN_PAGE_SHIFT 12

const char *nd_pfn_mode_name(enum nd_pfn_mode mode)
{
	return mode == PFN_MODE_PMEM ? "dev" : "mem";
}

int nd_pfn_layout(enum nd_pfn_mode mode, u64 start, u64 size, u64 align,
		  unsigned int page_size, bool page_struct_override,
		  struct nd_pfn_layout *out, char *why, size_t whylen)
{
	u64 npfns, page_map_size, offset, end_trunc;

	*out = (struct nd_pfn_layout){0};
	if (!align || (align & (align - 1)) || size <= PFN_INFO_BLOCK ||
	    start + size < start) {
		ntb_snprintf(why, whylen,
			     "a namespace of %llu bytes at %#llx with "
			     "alignment %llu",
			     (unsigned long long)size,
			     (unsigned long long)start,
			     (unsigned long long)align);
		return -1;
	}
	/* max(nd_pfn->align, memremap_compat_align()) */
	if (align < ND_PFN_COMPAT_ALIGN)
		align = ND_PFN_COMPAT_ALIGN;
	if (!IS_ALIGNED(start, ND_PFN_COMPAT_ALIGN)) {
		ntb_snprintf(why, whylen,
			     "a namespace starting at %#llx is not aligned "
			     "to %llu bytes (the kernel refuses it)",
			     (unsigned long long)start,
			     (unsigned long long)ND_PFN_COMPAT_ALIGN);
		return -1;
	}
	end_trunc = start + size - ALIGN_DOWN(start + size, align);
	/* the memmap room is sized before the cut, as the kernel sizes it */
	npfns = (size - PFN_INFO_BLOCK) >> PFN_PAGE_SHIFT;
	if (mode == PFN_MODE_PMEM) {
		page_map_size = (u64)ND_PFN_STRUCT_PAGE_SIZE * npfns;
		if (page_size > ND_PFN_STRUCT_PAGE_SIZE) {
			if (!page_struct_override) {
				ntb_snprintf(
					why, whylen,
					"%u-byte struct pages with map=dev "
					"need CONFIG_NVDIMM_KMSAN (the "
					"kernel refuses: memory debug "
					"options prevent using pmem for "
					"the page map)",
					page_size);
				return -1;
			}
			page_map_size = (u64)page_size * npfns;
		}
		offset = ALIGN_UP(start + PFN_INFO_BLOCK + page_map_size,
				  align) -
			 start;
	} else {
		offset = ALIGN_UP(start + PFN_INFO_BLOCK, align) - start;
	}
	if (offset >= size - end_trunc) {
		ntb_snprintf(why, whylen,
			     "a namespace of %llu bytes cut to %llu by "
			     "alignment %llu leaves no data after its %s "
			     "(data offset %llu; the kernel refuses it: "
			     "unable to satisfy requested alignment)",
			     (unsigned long long)size,
			     (unsigned long long)(size - end_trunc),
			     (unsigned long long)align,
			     mode == PFN_MODE_PMEM ? "memmap" : "info block",
			     (unsigned long long)offset);
		return -1;
	}
	out->end_trunc = end_trunc;
	out->dataoff = offset;
	out->npfns = (size - offset - end_trunc) >> PFN_PAGE_SHIFT;
	if (mode == PFN_MODE_PMEM) {
		out->reserve = PFN_INFO_BLOCK >> PFN_PAGE_SHIFT;
		out->free = (offset >> PFN_PAGE_SHIFT) - out->reserve;
	}
	return 0;
}
