/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's page tables as planned from the physical map: every
 * address below a limit mapped identity, write-back, and the MMIO the map
 * lists (plus the devices the tables name) uncached. Plain data, as
 * pgtable.c: the image loads the result into CR3, the host tests and the
 * memory-map fuzzer walk it.
 */
#ifndef NTBOOT_MM_IDENTITY_MAP_H
#define NTBOOT_MM_IDENTITY_MAP_H

#include "mm/pgtable.h"
#include "mm/phys_map.h"

/*
 * The end of the write-back identity map: all of the first 4 GiB (APIC,
 * HPET and flash live there and are often missing from the UEFI map)
 * and every region of @map but its MMIO (mapped on its own, uncached),
 * within what 4-level paging reaches (PGTABLE_IDENTITY_MAX), rounded up
 * to 2 MiB. Whatever the image reads by physical address in memory
 * (ACPI tables included) lies below it.
 */
u64 identity_map_limit(const struct phys_map *map);

struct identity_map {
	pteval_t *pml4;
	u64 limit;
	struct pgtable_stats stats;
	/* MMIO regions of the map at least partly past PGTABLE_IDENTITY_MAX */
	u32 nr_mmio_unreachable;
};

/*
 * Build the tables: [0, identity_map_limit(@map)) write-back with 1 GiB
 * pages where @use_1g, then each PHYS_MMIO region of @map (its part below
 * PGTABLE_IDENTITY_MAX) and the 4 KiB page of each non-zero address in
 * @mmio, the devices the image uses, uncached (PCD|PWT). 0, or -1 with
 * @why saying what could not be mapped (tables ran out, or a device of
 * @mmio lies past the reach of the tables).
 */
int identity_map_build(struct identity_map *im, const struct phys_map *map,
		       const u64 *mmio, u32 nr_mmio, bool use_1g,
		       const struct pgtable_alloc *pa, char *why,
		       size_t whylen);

#endif
