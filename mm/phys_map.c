// SPDX-License-Identifier: GPL-2.0-only
/*
 * Normalising the physical memory map. Firmware maps are usually tidy, but
 * nothing promises it: entries come unsorted, overlap, have zero length or
 * start in the middle of a page. Everything downstream (the frame
 * allocator, the identity map, the memory size in the report) wants one
 * sorted list of disjoint regions, so the mending happens once, here.
 */
#include "mm/phys_map.h"
#include "include/compiler.h"
#include "lib/string.h"

#define PHYS_PAGE_SIZE SZ_4K

static const char *const phys_type_names[PHYS_NR_TYPES] = {
	[PHYS_FREE] = "free",
	[PHYS_BOOT_SERVICES] = "boot_services",
	[PHYS_ACPI_RECLAIM] = "acpi_reclaim",
	[PHYS_LOADER] = "loader",
	[PHYS_RUNTIME] = "runtime",
	[PHYS_PERSISTENT] = "persistent",
	[PHYS_ACPI_NVS] = "acpi_nvs",
	[PHYS_MMIO] = "mmio",
	[PHYS_RESERVED] = "reserved",
	[PHYS_UNUSABLE] = "unusable",
};

const char *phys_type_name(enum phys_type t)
{
	if ((unsigned int)t >= PHYS_NR_TYPES)
		return "unknown";
	return phys_type_names[t];
}

/*
 * Types whose bytes are DRAM that is, or will become, ours to allocate.
 * Only whole pages of these are any use, so they are trimmed to pages.
 */
static bool phys_type_is_page_ram(enum phys_type t)
{
	return t == PHYS_FREE || t == PHYS_BOOT_SERVICES ||
	       t == PHYS_ACPI_RECLAIM || t == PHYS_LOADER;
}

/*
 * After the first pass every region ends at or below 2^64 - 1, so the
 * exclusive end always fits in a u64.
 */
static inline u64 region_end(const struct phys_region *r)
{
	return r->base + r->size;
}

static bool region_before(const struct phys_region *a,
			  const struct phys_region *b)
{
	if (a->base != b->base)
		return a->base < b->base;
	/* Same base: the weaker type first, which only steadies the order. */
	return a->type < b->type;
}

/*
 * Insertion sort: stable, no recursion, no scratch memory, and quick on
 * the nearly sorted maps firmware hands over. Maps hold a few hundred
 * entries at most, so the quadratic worst case does not matter.
 */
static void sort_regions(struct phys_region *r, u32 nr)
{
	for (u32 i = 1; i < nr; i++) {
		struct phys_region cur = r[i];
		u32 j = i;

		while (j > 0 && region_before(&cur, &r[j - 1])) {
			r[j] = r[j - 1];
			j--;
		}
		r[j] = cur;
	}
}

static void remove_at(struct phys_map *map, u32 idx)
{
	memmove(&map->regions[idx], &map->regions[idx + 1],
		(map->nr - idx - 1) * sizeof(map->regions[0]));
	map->nr--;
}

/* Put @reg into its sorted place at or after @from. */
static int insert_sorted(struct phys_map *map, u32 from,
			 const struct phys_region *reg)
{
	u32 pos = from;

	if (map->nr >= map->capacity)
		return -1;
	while (pos < map->nr && !region_before(reg, &map->regions[pos]))
		pos++;
	memmove(&map->regions[pos + 1], &map->regions[pos],
		(map->nr - pos) * sizeof(map->regions[0]));
	map->regions[pos] = *reg;
	map->nr++;
	return 0;
}

/* Drop empty regions, clip wrap-around, fold unknown types. */
static void sanitise(struct phys_map *map)
{
	u32 out = 0;

	for (u32 i = 0; i < map->nr; i++) {
		struct phys_region r = map->regions[i];

		if (r.size == 0) {
			map->nr_zero_length++;
			continue;
		}
		if ((unsigned int)r.type >= PHYS_NR_TYPES)
			r.type = PHYS_RESERVED;
		/*
		 * A region may not reach 2^64 itself: its end would not fit
		 * in a u64. Losing the top byte of the address space costs
		 * nothing real, and every end compare below stays simple.
		 */
		if (r.size > ~0ull - r.base) {
			map->nr_wrapped++;
			r.size = ~0ull - r.base;
			if (r.size == 0)
				continue;
		}
		map->regions[out++] = r;
	}
	map->nr = out;
}

/*
 * The map is sorted by base. Walk it with a frontier @i: everything before
 * i is final (disjoint, and ends at or below every later base). If the
 * frontier region overlaps its successor, one of the two gives way for the
 * shared bytes:
 *  - the frontier is at least as strict: the successor loses its front and
 *    moves to its new sorted place (or vanishes);
 *  - the successor is stricter: the frontier keeps its part in front of
 *    the successor (which becomes final) and whatever sticks out behind
 *    the successor is queued again as a new region.
 * Sorted order means a region that overlaps anything later overlaps its
 * direct successor, so checking neighbours is enough.
 *
 * Why 2*nr slots suffice: each input region has at most one piece that is
 * not yet final, and the final pieces are disjoint and end at distinct
 * input boundaries at or below the frontier, so at most nr starts plus the
 * ends of regions already used up. Together that is never over 2*nr.
 */
static int resolve_overlaps(struct phys_map *map)
{
	struct phys_region *r = map->regions;
	u32 i = 0;

	while (i + 1 < map->nr) {
		struct phys_region a = r[i], b = r[i + 1];
		u64 a_end = region_end(&a), b_end = region_end(&b);

		if (a_end <= b.base) {
			i++;
			continue;
		}
		map->nr_overlaps++;
		if (a.type >= b.type) {
			remove_at(map, i + 1);
			if (b_end > a_end) {
				b.size = b_end - a_end;
				b.base = a_end;
				if (insert_sorted(map, i + 1, &b))
					return -1;
			}
			continue;
		}
		/* The successor is stricter: cut the frontier around it. */
		if (a_end > b_end) {
			struct phys_region tail = {
				.base = b_end,
				.size = a_end - b_end,
				.type = a.type,
			};

			if (insert_sorted(map, i + 2, &tail))
				return -1;
		}
		if (b.base > a.base) {
			r[i].size = b.base - a.base;
			i++;
		} else {
			remove_at(map, i);
		}
	}
	return 0;
}

static void merge_neighbours(struct phys_map *map)
{
	struct phys_region *r = map->regions;
	u32 out = 0;

	for (u32 i = 0; i < map->nr; i++) {
		if (out > 0 && r[out - 1].type == r[i].type &&
		    region_end(&r[out - 1]) == r[i].base) {
			r[out - 1].size += r[i].size;
			map->nr_merged++;
			continue;
		}
		r[out++] = r[i];
	}
	map->nr = out;
}

/*
 * Whole pages only for RAM. Trimming shrinks regions, so it never makes two
 * regions of one type touch, and the merge before it stays valid.
 */
static void trim_ram(struct phys_map *map)
{
	struct phys_region *r = map->regions;
	u32 out = 0;

	for (u32 i = 0; i < map->nr; i++) {
		u64 base = r[i].base, end = region_end(&r[i]);

		if (phys_type_is_page_ram(r[i].type) &&
		    (!IS_ALIGNED(base, PHYS_PAGE_SIZE) ||
		     !IS_ALIGNED(end, PHYS_PAGE_SIZE))) {
			map->nr_unaligned++;
			/*
			 * Down first: a base in the last page of the space
			 * would wrap to 0 when rounded up; once base < end
			 * <= 2^64 - 4 KiB, rounding it up cannot.
			 */
			end = ALIGN_DOWN(end, PHYS_PAGE_SIZE);
			if (base >= end)
				continue;
			base = ALIGN_UP(base, PHYS_PAGE_SIZE);
			if (end <= base)
				continue;
			r[i].base = base;
			r[i].size = end - base;
		}
		r[out++] = r[i];
	}
	map->nr = out;
}

int phys_map_normalize(struct phys_map *map)
{
	map->nr_zero_length = 0;
	map->nr_overlaps = 0;
	map->nr_unaligned = 0;
	map->nr_merged = 0;
	map->nr_wrapped = 0;
	if (map->nr > map->capacity)
		return -1;
	if (map->nr == 0)
		return 0;

	sanitise(map);
	sort_regions(map->regions, map->nr);
	if (resolve_overlaps(map))
		return -1;
	merge_neighbours(map);
	trim_ram(map);
	return 0;
}

u64 phys_map_total(const struct phys_map *map, enum phys_type t)
{
	u64 sum = 0;

	for (u32 i = 0; i < map->nr; i++)
		if (map->regions[i].type == t)
			sum += map->regions[i].size;
	return sum;
}

/* The highest end of a region whose type is not @skip. */
static u64 max_end_but(const struct phys_map *map, enum phys_type skip)
{
	u64 top = 0;

	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];
		/* Saturate: this may run on a map not yet normalised. */
		u64 end = r->size > ~0ull - r->base ? ~0ull : region_end(r);

		if (r->type != skip)
			top = max(top, end);
	}
	return top;
}

u64 phys_map_max_addr(const struct phys_map *map)
{
	return max_end_but(map, PHYS_NR_TYPES);
}

u64 phys_map_memory_end(const struct phys_map *map)
{
	return max_end_but(map, PHYS_MMIO);
}

u64 phys_map_ram_bytes(const struct phys_map *map)
{
	u64 sum = 0;

	for (u32 i = 0; i < map->nr; i++) {
		switch (map->regions[i].type) {
		case PHYS_FREE:
		case PHYS_BOOT_SERVICES:
		case PHYS_ACPI_RECLAIM:
		case PHYS_LOADER:
		case PHYS_RUNTIME:
		case PHYS_ACPI_NVS:
			sum += map->regions[i].size;
			break;
		default:
			break;
		}
	}
	return sum;
}
