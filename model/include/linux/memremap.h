/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's include/linux/memremap.h at v7.2-rc1, simplified
 * (docs/model.md): struct dev_pagemap and struct vmem_altmap, what a
 * driver hands to
 * memremap_pages(), reduced to what memmap_init_zone_device() reads.
 *
 * An altmap puts the memmap of a namespace on the device itself: the
 * first @reserve pfns of the range are not memory at all (the namespace's
 * info block), the next @free pfns hold the struct pages. The struct
 * pages of those reserve + free pfns are not device pages: the kernel
 * initialises the @free ones earlier, in memmap_init_range(), and
 * memmap_init_zone_device() starts after them (vmem_altmap_offset()).
 */
#ifndef NTBOOT_MODEL_LINUX_MEMREMAP_H
#define NTBOOT_MODEL_LINUX_MEMREMAP_H

#include "include/types.h"
#include "model/include/linux/mm_types.h"

enum memory_type {
	/* 0 is reserved to catch an uninitialised type field */
	MEMORY_DEVICE_PRIVATE = 1,
	MEMORY_DEVICE_COHERENT,
	MEMORY_DEVICE_FS_DAX,
	MEMORY_DEVICE_GENERIC,
	MEMORY_DEVICE_PCI_P2PDMA,
};

#define MEMORY_TYPE_FIRST MEMORY_DEVICE_PRIVATE
#define MEMORY_TYPE_LAST MEMORY_DEVICE_PCI_P2PDMA
#define NR_MEMORY_TYPES (MEMORY_TYPE_LAST - MEMORY_TYPE_FIRST + 1)

struct vmem_altmap {
	unsigned long base_pfn;
	unsigned long end_pfn;
	unsigned long reserve;	/* pfns reserved for the device's own use */
	unsigned long free;	/* pfns that hold the memmap */
	unsigned long align;
	unsigned long alloc;
	bool inaccessible;
};

#define PGMAP_ALTMAP_VALID (1 << 0)

struct dev_pagemap {
	struct vmem_altmap altmap;
	unsigned int vmemmap_shift;	/* folio order of every device page */
	unsigned int flags;
	enum memory_type type;
};

static inline struct vmem_altmap *pgmap_altmap(struct dev_pagemap *pgmap)
{
	if (pgmap->flags & PGMAP_ALTMAP_VALID)
		return &pgmap->altmap;
	return NULL;
}

static inline unsigned long pgmap_vmemmap_nr(const struct dev_pagemap *pgmap)
{
	return 1UL << pgmap->vmemmap_shift;
}

/* Number of pfns from base where pfn_to_page() is valid. */
static inline unsigned long vmem_altmap_offset(const struct vmem_altmap *altmap)
{
	if (altmap)
		return altmap->reserve + altmap->free;
	return 0;
}

/*
 * The vmemmap of a compound devmap keeps VMEMMAP_RESERVE_NR pages of
 * struct pages per folio and maps every further vmemmap page of the folio
 * to the last of them (vmemmap_populate_compound_pages()). Only when the
 * struct page size is a power of two, without an altmap, and when a folio
 * needs more than those pages of memmap.
 */
#define VMEMMAP_RESERVE_NR 2

static inline bool vmemmap_can_optimize(const struct page_layout *l,
					const struct vmem_altmap *altmap,
					const struct dev_pagemap *pgmap)
{
	unsigned long nr_vmemmap_pages;

	if (l->size & (l->size - 1))
		return false;
	nr_vmemmap_pages = (pgmap_vmemmap_nr(pgmap) * l->size) >> PAGE_SHIFT;
	return !altmap && nr_vmemmap_pages > VMEMMAP_RESERVE_NR;
}

/* "fsdax", "generic", ...: names for reports and test cases. */
const char *memory_type_name(enum memory_type type);

#endif
