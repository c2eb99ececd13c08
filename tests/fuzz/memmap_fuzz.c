// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the firmware's memory map on its way to the page
 * tables, as the image takes it: UEFI descriptors through
 * efi_memmap_convert() (and so phys_map_normalize()), the free regions
 * into the frame allocator, and the identity map planned from the result
 * (identity_map_build(), what memory_init() loads into CR3).
 *
 * The input: two bytes of descriptor size (the firmware's DescriptorSize,
 * any value), one byte of choices (bit 0: the CPU has 1 GiB pages), then
 * the descriptors, in a buffer of exactly their size. The map gets room
 * as exit_boot_services() gives it; the page tables come from an arena of
 * TABLES_MAX tables, so a plan that needs more fails as the image's would
 * when memory runs out, and is checked for saying so; no other failure
 * is accepted.
 *
 * What each stage promises is checked, and a broken promise aborts:
 * the map sorted, disjoint, non-empty regions, RAM in whole pages, within
 * its capacity; the allocator's own self-check, every free range inside
 * a free region above the low reserve; the limit covering 4 GiB and all
 * memory the map lists, no more; every region's first, middle and last
 * byte mapped identity (memory below the limit, cached; MMIO within the
 * tables' reach, uncached), the limit itself not mapped, the stats
 * counting the tables taken.
 *
 * Host only (clang -fsanitize=fuzzer,address,undefined): `make fuzz`
 * builds build/host/memmap_fuzz, `make fuzz-short` runs it from a corpus
 * of recorded and synthetic maps (tests/fuzz/memmap_seeds.py).
 */
#include <efi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/efi_memmap.h"
#include "include/compiler.h"
#include "mm/frame_alloc.h"
#include "mm/identity_map.h"

/*
 * Enough for 1 GiB pages up to 128 TiB (a PML4 and 256 PDPTs) and the
 * MMIO splits, 2 MiB pages up to about 300 GiB; only the tables taken
 * are cleared for the next input.
 */
#define TABLES_MAX 320
/* The image keeps the first MiB for the AP trampoline (kernel/memory.h). */
#define LOW_RESERVE SZ_1M
#define CACHE_BITS (_PAGE_PCD | _PAGE_PWT)

static u8 arena[TABLES_MAX][4096] __aligned(4096);
static u32 tables_used;

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

static void *alloc_table(void *ctx)
{
	(void)ctx;
	if (tables_used == TABLES_MAX)
		return NULL;
	return arena[tables_used++];
}

static bool is_ram(enum phys_type t)
{
	return t == PHYS_FREE || t == PHYS_BOOT_SERVICES ||
	       t == PHYS_ACPI_RECLAIM || t == PHYS_LOADER;
}

static void check_map(const struct phys_map *map)
{
	if (map->nr > map->capacity)
		abort();
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];

		if (!r->size || r->base + r->size < r->base ||
		    r->type >= PHYS_NR_TYPES)
			abort();
		if (is_ram(r->type) && ((r->base | r->size) & (FRAME_SIZE - 1)))
			abort();
		if (i && r->base < map->regions[i - 1].base +
					   map->regions[i - 1].size)
			abort();
	}
}

static bool inside_type(const struct phys_map *map, u64 base, u64 size,
			enum phys_type type)
{
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];

		if (r->type == type && base >= r->base &&
		    base + size <= r->base + r->size)
			return true;
	}
	return false;
}

static void check_allocator(const struct phys_map *map)
{
	static struct frame_allocator fa;

	frame_alloc_init(&fa, LOW_RESERVE);
	if (frame_alloc_add_type(&fa, map, PHYS_FREE, NULL))
		return; /* too fragmented: the image stops, naming it */
	if (!frame_alloc_check(&fa))
		abort();
	for (u32 i = 0; i < fa.nr; i++)
		if (fa.ranges[i].base < LOW_RESERVE ||
		    !inside_type(map, fa.ranges[i].base, fa.ranges[i].size,
				 PHYS_FREE))
			abort();
}

/* True when the 4 KiB page of @addr shares bytes with an MMIO region. */
static bool page_has_mmio(const struct phys_map *map, const u64 *mmio,
			  u32 nr_mmio, u64 addr)
{
	u64 page = ALIGN_DOWN(addr, SZ_4K);

	for (u32 i = 0; i < nr_mmio; i++)
		if (ALIGN_DOWN(mmio[i], SZ_4K) == page)
			return true;
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];

		if (r->type == PHYS_MMIO && r->base < page + SZ_4K &&
		    page < r->base + r->size)
			return true;
	}
	return false;
}

/*
 * @addr of a region: memory below the limit and MMIO within the reach of
 * the tables are mapped identity, MMIO uncached, memory cached unless
 * its page shares bytes with MMIO.
 */
static void check_probe(const struct identity_map *im,
			const struct phys_map *map, const u64 *mmio,
			u32 nr_mmio, u64 addr, bool mmio_region)
{
	struct pgtable_walk_result res;

	if (addr >= (mmio_region ? PGTABLE_IDENTITY_MAX : im->limit))
		return;
	if (pgtable_walk(im->pml4, addr, &res) || res.phys != addr)
		abort();
	if (mmio_region && (res.flags & CACHE_BITS) != CACHE_BITS)
		abort();
	if (!mmio_region && !page_has_mmio(map, mmio, nr_mmio, addr) &&
	    (res.flags & CACHE_BITS))
		abort();
}

/*
 * The limit covers 4 GiB and every region of memory (up to the reach of
 * the tables), and no more than that, rounded up to 2 MiB: what the
 * ACPI scan's bound and the write-back map rely on.
 */
static void check_limit(const struct identity_map *im,
			const struct phys_map *map)
{
	u64 need = 4ull * SZ_1G;

	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];

		if (r->type != PHYS_MMIO)
			need = max(need, min(r->base + r->size,
					     (u64)PGTABLE_IDENTITY_MAX));
	}
	if (im->limit < need || im->limit - need >= SZ_2M ||
	    im->limit & (SZ_2M - 1))
		abort();
}

static void check_identity_map(const struct phys_map *map, bool use_1g)
{
	static const u64 mmio[] = {0xfee00000, 0xfed00000};
	struct pgtable_alloc pa = {.alloc_table = alloc_table};
	struct identity_map im;
	char why[96];

	memset(arena, 0, (size_t)tables_used * sizeof(arena[0]));
	tables_used = 0;
	if (identity_map_build(&im, map, mmio, ARRAY_SIZE(mmio), use_1g, &pa,
			       why, sizeof(why))) {
		/* The devices are below 4 GiB: only the tables can run out. */
		if (tables_used != TABLES_MAX || !memchr(why, '\0', sizeof(why)) ||
		    !why[0])
			abort();
		return;
	}
	check_limit(&im, map);
	if (im.stats.tables != tables_used)
		abort();
	if (im.limit < PGTABLE_IDENTITY_MAX &&
	    !page_has_mmio(map, mmio, ARRAY_SIZE(mmio), im.limit) &&
	    !pgtable_walk(im.pml4, im.limit, NULL))
		abort();
	for (u32 i = 0; i < ARRAY_SIZE(mmio); i++)
		check_probe(&im, map, mmio, ARRAY_SIZE(mmio), mmio[i], true);
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];
		bool is_mmio = r->type == PHYS_MMIO;

		check_probe(&im, map, mmio, ARRAY_SIZE(mmio), r->base, is_mmio);
		check_probe(&im, map, mmio, ARRAY_SIZE(mmio),
			    r->base + r->size / 2, is_mmio);
		check_probe(&im, map, mmio, ARRAY_SIZE(mmio),
			    r->base + r->size - 1, is_mmio);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct phys_map map;
	struct phys_region *regions;
	UINTN desc_size, map_size, nr;
	void *descs;
	bool use_1g;

	if (size < 3 || size > 64 * 1024)
		return 0;
	desc_size = data[0] | (UINTN)data[1] << 8;
	use_1g = data[2] & 1;
	map_size = size - 3;
	descs = malloc(map_size ? map_size : 1);
	if (!descs)
		return 0;
	memcpy(descs, data + 3, map_size);
	/* Room as exit_boot_services() gives it. */
	nr = efi_memmap_capacity(map_size, desc_size);
	regions = calloc(nr, sizeof(*regions));
	if (!regions) {
		free(descs);
		return 0;
	}
	memset(&map, 0, sizeof(map));
	map.regions = regions;
	map.capacity = nr;
	if (!efi_memmap_convert(descs, map_size, desc_size, &map)) {
		check_map(&map);
		check_allocator(&map);
		check_identity_map(&map, use_1g);
	}
	free(regions);
	free(descs);
	return 0;
}
