// SPDX-License-Identifier: GPL-2.0-only
/*
 * drivers/nvdimm/pfn_devs.c: the data offset nd_pfn_init() computes and
 * the altmap __nvdimm_setup_pfn() derives from it, for a namespace whose
 * start is aligned (no start_pad, no end_trunc: ndctl creates them so).
 *
 * nd_pfn_init(): an 8 KiB info block first; npfns = (size - 8K) / 4K;
 * with the memmap on the device, room for 64 bytes of struct page per
 * pfn after the info block, the data starting at the next @align
 * boundary; with map=mem only the info block before it.
 * __nvdimm_setup_pfn(): reserve = the info block's pfns
 * (info_block_reserve()), free = the pfns from there to the data offset:
 * they hold the struct pages, and memmap_init_zone_device() starts after
 * both (vmem_altmap_offset()).
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

int nd_pfn_layout(enum nd_pfn_mode mode, u64 size, u64 align,
		  unsigned int page_size, bool page_struct_override,
		  struct nd_pfn_layout *out, char *why, size_t whylen)
{
	u64 npfns, page_map_size, offset;

	*out = (struct nd_pfn_layout){0};
	if (!align || (align & (align - 1)) || size <= PFN_INFO_BLOCK) {
		ntb_snprintf(why, whylen,
			     "a namespace of %llu bytes with "
			     "alignment %llu",
			     (unsigned long long)size,
			     (unsigned long long)align);
		return -1;
	}
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
		offset = ALIGN_UP(PFN_INFO_BLOCK + page_map_size, align);
	} else {
		offset = ALIGN_UP(PFN_INFO_BLOCK, align);
	}
	if (offset >= size) {
		ntb_snprintf(why, whylen,
			     "a namespace of %llu bytes cannot "
			     "satisfy alignment %llu after its memmap",
			     (unsigned long long)size,
			     (unsigned long long)align);
		return -1;
	}
	out->dataoff = offset;
	out->npfns = (size - offset) >> PFN_PAGE_SHIFT;
	if (mode == PFN_MODE_PMEM) {
		out->reserve = PFN_INFO_BLOCK >> PFN_PAGE_SHIFT;
		out->free = (offset >> PFN_PAGE_SHIFT) - out->reserve;
	}
	return 0;
}
