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

#include "include/types.h"

/* ndctl --map: where the struct pages of the namespace live */
enum nd_pfn_mode {
	PFN_MODE_PMEM, /* map=dev: in the namespace, behind an altmap */
	PFN_MODE_RAM,  /* map=mem: in system memory */
};

/* The struct page size nd_pfn_init() reserves room for, per pfn. */
#define ND_PFN_STRUCT_PAGE_SIZE 64 /* the kernel's MAX_STRUCT_PAGE_SIZE */

struct nd_pfn_layout {
	u64 dataoff;	     /* bytes from the namespace start to data */
	unsigned long npfns; /* data pfns: the device pages */
	/* the altmap of map=dev (both 0 for map=mem) */
	unsigned long reserve; /* info block pfns */
	unsigned long free;    /* memmap pfns */
};

/*
 * The layout of a namespace of @size bytes (starting aligned) with the
 * data alignment @align (2 MiB, or 1 GiB for devdax1g) and @page_size
 * -byte struct pages. A struct page larger than ND_PFN_STRUCT_PAGE_SIZE
 * fits map=dev only where the kernel was built with CONFIG_NVDIMM_KMSAN
 * (@page_struct_override); otherwise the kernel refuses, and so does
 * this, with the kernel's reason in @why. Returns 0 or -1.
 */
int nd_pfn_layout(enum nd_pfn_mode mode, u64 size, u64 align,
		  unsigned int page_size, bool page_struct_override,
		  struct nd_pfn_layout *out, char *why, size_t whylen);

const char *nd_pfn_mode_name(enum nd_pfn_mode mode);

#endif
