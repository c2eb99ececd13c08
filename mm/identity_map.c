// SPDX-License-Identifier: GPL-2.0-only
#include "mm/identity_map.h"
#include "include/compiler.h"
#include "lib/printf.h"
#include "lib/string.h"

#define MMIO_FLAGS (_PAGE_PRESENT | _PAGE_RW | _PAGE_PCD | _PAGE_PWT)

u64 identity_map_limit(const struct phys_map *map)
{
	/*
	 * MMIO is mapped region by region in identity_map_build(): a PCI
	 * window far up must not stretch the write-back map (a 128 TiB map
	 * of 2 MiB pages needs half a GiB of tables).
	 */
	u64 limit = max(phys_map_memory_end(map), 4ull * SZ_1G);

	limit = min(limit, (u64)PGTABLE_IDENTITY_MAX);
	return ALIGN_UP(limit, SZ_2M);
}

int identity_map_build(struct identity_map *im, const struct phys_map *map,
		       const u64 *mmio, u32 nr_mmio, bool use_1g,
		       const struct pgtable_alloc *pa, char *why, size_t whylen)
{
	memset(im, 0, sizeof(*im));
	im->limit = identity_map_limit(map);
	im->pml4 = pgtable_build_identity(im->limit, use_1g, pa, &im->stats);
	if (!im->pml4) {
		ntb_snprintf(why, whylen,
			     "out of memory for page tables (limit 0x%llx)",
			     (unsigned long long)im->limit);
		return -1;
	}
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];
		u64 size = r->size;

		if (r->type != PHYS_MMIO)
			continue;
		/*
		 * Nothing here touches the map's MMIO unless @mmio names it:
		 * what lies past the reach of the tables stays unmapped, as
		 * memory there does, and is counted.
		 */
		if (r->base >= PGTABLE_IDENTITY_MAX) {
			im->nr_mmio_unreachable++;
			continue;
		}
		if (size > PGTABLE_IDENTITY_MAX - r->base) {
			im->nr_mmio_unreachable++;
			size = PGTABLE_IDENTITY_MAX - r->base;
		}
		if (pgtable_map_range(im->pml4, r->base, size, MMIO_FLAGS, pa,
				      &im->stats)) {
			ntb_snprintf(why, whylen, "cannot map MMIO at 0x%llx",
				     (unsigned long long)r->base);
			return -1;
		}
	}
	for (u32 i = 0; i < nr_mmio; i++) {
		if (!mmio[i])
			continue;
		if (pgtable_map_range(im->pml4, ALIGN_DOWN(mmio[i], SZ_4K),
				      SZ_4K, MMIO_FLAGS, pa, &im->stats)) {
			ntb_snprintf(why, whylen, "cannot map MMIO at 0x%llx",
				     (unsigned long long)mmio[i]);
			return -1;
		}
	}
	return 0;
}
