/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where an fsdax or devdax namespace puts its memmap, as the kernel's
 * drivers/nvdimm/pfn_devs.c lays it out: nd_pfn_init() writes the info
 * block's data offset when ndctl creates the namespace, and
 * __nvdimm_setup_pfn() turns it into the altmap memremap_pages() gets.
 * Pinned to 6.12 (docs/model.md); ndctl's default, and the postings',
 * is map=dev.
 */
#ifndef NTBOOT_MODEL_NVDIMM_PFN_DEVS_H
#define NTBOOT_MODEL_NVDIMM_PFN_DEVS_H

#include "include/compiler.h"
#include "include/types.h"

/* ndctl --map: where the struct pages of the namespace live */
enum nd_pfn_mode {
	PFN_MODE_PMEM, /* map=dev: in the namespace, behind an altmap */
	PFN_MODE_RAM,  /* map=mem: in system memory */
};

/* The struct page size nd_pfn_init() reserves room for, per pfn. */
#define ND_PFN_STRUCT_PAGE_SIZE 64 /* the kernel's MAX_STRUCT_PAGE_SIZE */

/*
 * memremap_compat_align() on x86 (SUBSECTION_SIZE): the least alignment
 * of a namespace's data and end, and the alignment its start must have.
 */
#define ND_PFN_COMPAT_ALIGN SZ_2M

struct nd_pfn_layout {
	u64 end_trunc;	     /* bytes cut off the end to the alignment */
	u64 dataoff;	     /* bytes from the namespace start to data */
	unsigned long npfns; /* data pfns, up to the cut end */
	/* the altmap of map=dev (both 0 for map=mem) */
	unsigned long reserve; /* info block pfns */
	unsigned long free;    /* memmap pfns */
};

/*
 * The layout of a namespace of @size bytes at physical address @start
 * with the data alignment @align (2 MiB, or 1 GiB for devdax1g) and
 * @page_size-byte struct pages. The end is cut down to the alignment
 * (@out->end_trunc); the device's range is @size less that. A struct
 * page larger than ND_PFN_STRUCT_PAGE_SIZE fits map=dev only where the
 * kernel was built with CONFIG_NVDIMM_KMSAN (@page_struct_override).
 * Where the kernel refuses the namespace (that, a start not aligned to
 * ND_PFN_COMPAT_ALIGN, or no data left after the info block and memmap
 * at the cut end) so does this, with the reason, the size and the
 * alignment in @why. Returns 0 or -1.
 */
int nd_pfn_layout(enum nd_pfn_mode mode, u64 start, u64 size, u64 align,
		  unsigned int page_size, bool page_struct_override,
		  struct nd_pfn_layout *out, char *why, size_t whylen);

const char *nd_pfn_mode_name(enum nd_pfn_mode mode);

#endif
