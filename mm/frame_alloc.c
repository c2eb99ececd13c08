// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's frame allocator: a sorted array of free ranges. It only does
 * bookkeeping and never touches the memory it hands out, so the host tests
 * drive it with made-up addresses.
 *
 * Invariants, checked by frame_alloc_check(): ranges are sorted, page
 * aligned, non-empty, disjoint and never touch (touching ranges are merged
 * at once), and none starts below the floor (min_addr, and never page 0,
 * so 0 can mean failure).
 */
#include "mm/frame_alloc.h"
#include "include/compiler.h"
#include "lib/string.h"

static u64 fa_floor(const struct frame_allocator *fa)
{
	u64 floor = max(fa->min_addr, FRAME_SIZE);

	/* A floor in the last page leaves nothing; keep it representable. */
	if (floor > ~0ull - (FRAME_SIZE - 1))
		return ALIGN_DOWN(~0ull, FRAME_SIZE);
	return ALIGN_UP(floor, FRAME_SIZE);
}

static inline u64 range_end(const struct frame_range *r)
{
	return r->base + r->size;
}

void frame_alloc_init(struct frame_allocator *fa, u64 min_addr)
{
	memset(fa, 0, sizeof(*fa));
	fa->min_addr = min_addr;
}

/* Index of the first range whose base is above @addr (nr if none). */
static u32 first_above(const struct frame_allocator *fa, u64 addr)
{
	u32 lo = 0, hi = fa->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fa->ranges[mid].base > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void remove_range(struct frame_allocator *fa, u32 idx)
{
	memmove(&fa->ranges[idx], &fa->ranges[idx + 1],
		(fa->nr - idx - 1) * sizeof(fa->ranges[0]));
	fa->nr--;
}

/*
 * Put the page-aligned, non-empty [base, end) into the table, merging with
 * the neighbours it touches. -1 if it overlaps free memory or needs a new
 * slot that is not there; the table is then unchanged.
 */
static int insert_free(struct frame_allocator *fa, u64 base, u64 end)
{
	u32 idx = first_above(fa, base);
	struct frame_range *prev = idx > 0 ? &fa->ranges[idx - 1] : NULL;
	struct frame_range *next = idx < fa->nr ? &fa->ranges[idx] : NULL;
	bool join_prev, join_next;

	if (prev && range_end(prev) > base)
		return -1;
	if (next && next->base < end)
		return -1;
	join_prev = prev && range_end(prev) == base;
	join_next = next && next->base == end;

	if (join_prev && join_next) {
		prev->size += (end - base) + next->size;
		remove_range(fa, idx);
	} else if (join_prev) {
		prev->size += end - base;
	} else if (join_next) {
		next->size += next->base - base;
		next->base = base;
	} else {
		if (fa->nr >= FRAME_ALLOC_MAX_RANGES)
			return -1;
		memmove(&fa->ranges[idx + 1], &fa->ranges[idx],
			(fa->nr - idx) * sizeof(fa->ranges[0]));
		fa->ranges[idx].base = base;
		fa->ranges[idx].size = end - base;
		fa->nr++;
	}
	return 0;
}

/* 0, adding the bytes taken (none when clipping left nothing) to @added; -1. */
static int add_range(struct frame_allocator *fa, u64 base, u64 size, u64 *added)
{
	u64 end;

	/* A range running past 2^64 is cut at the top of the space. */
	end = size > ~0ull - base ? ~0ull : base + size;
	base = max(base, fa_floor(fa));
	if (base > ~0ull - (FRAME_SIZE - 1))
		return 0;
	base = ALIGN_UP(base, FRAME_SIZE);
	end = ALIGN_DOWN(end, FRAME_SIZE);
	if (end <= base)
		return 0;
	if (insert_free(fa, base, end))
		return -1;
	fa->total_bytes += end - base;
	fa->free_bytes += end - base;
	*added += end - base;
	return 0;
}

int frame_alloc_add_range(struct frame_allocator *fa, u64 base, u64 size)
{
	u64 added = 0;

	return add_range(fa, base, size, &added);
}

int frame_alloc_add_type(struct frame_allocator *fa, const struct phys_map *map,
			 enum phys_type type, u64 *added)
{
	u64 bytes = 0;
	int rc = 0;

	for (u32 i = 0; i < map->nr && !rc; i++) {
		const struct phys_region *r = &map->regions[i];

		if (r->type == type)
			rc = add_range(fa, r->base, r->size, &bytes);
	}
	if (added)
		*added = bytes;
	return rc;
}

/*
 * Carve [start, start + size) out of range @idx. -1 when that would split
 * the range in two and the table has no slot for the second half.
 */
static int carve(struct frame_allocator *fa, u32 idx, u64 start, u64 size)
{
	struct frame_range *r = &fa->ranges[idx];
	u64 end = start + size, r_end = range_end(r);
	bool left = start > r->base, right = end < r_end;

	if (left && right) {
		if (fa->nr >= FRAME_ALLOC_MAX_RANGES)
			return -1;
		memmove(&fa->ranges[idx + 2], &fa->ranges[idx + 1],
			(fa->nr - idx - 1) * sizeof(fa->ranges[0]));
		fa->nr++;
		fa->ranges[idx + 1].base = end;
		fa->ranges[idx + 1].size = r_end - end;
		r->size = start - r->base;
	} else if (left) {
		r->size = start - r->base;
	} else if (right) {
		r->base = end;
		r->size = r_end - end;
	} else {
		remove_range(fa, idx);
	}
	fa->free_bytes -= size;
	return 0;
}

u64 frame_alloc(struct frame_allocator *fa, u64 size, u64 align)
{
	if (size == 0 || size > ~0ull - (FRAME_SIZE - 1))
		return 0;
	size = ALIGN_UP(size, FRAME_SIZE);
	if (align < FRAME_SIZE)
		align = FRAME_SIZE;
	if (align & (align - 1))
		return 0;

	for (u32 i = 0; i < fa->nr; i++) {
		const struct frame_range *r = &fa->ranges[i];
		u64 r_end = range_end(r), start;

		if (r->size < size || r->base > ~0ull - (align - 1))
			continue;
		start = ALIGN_UP(r->base, align);
		if (start >= r_end || r_end - start < size)
			continue;
		if (!carve(fa, i, start, size))
			return start;
		/*
		 * The table is full and the first fit would split this range.
		 * Placing the block flush with the range's end needs no new
		 * slot, when that spot is aligned too.
		 */
		start = r_end - size;
		if (IS_ALIGNED(start, align) && !carve(fa, i, start, size))
			return start;
	}
	return 0;
}

int frame_free(struct frame_allocator *fa, u64 addr, u64 size)
{
	if (size == 0 || size > ~0ull - (FRAME_SIZE - 1))
		return -1;
	size = ALIGN_UP(size, FRAME_SIZE);
	if (!IS_ALIGNED(addr, FRAME_SIZE) || addr < fa_floor(fa) ||
	    size > ~0ull - addr)
		return -1;
	if (insert_free(fa, addr, addr + size))
		return -1;
	fa->free_bytes += size;
	return 0;
}

u64 frame_alloc_largest(const struct frame_allocator *fa)
{
	u64 largest = 0;

	for (u32 i = 0; i < fa->nr; i++)
		largest = max(largest, fa->ranges[i].size);
	return largest;
}

bool frame_alloc_check(const struct frame_allocator *fa)
{
	u64 floor = fa_floor(fa), sum = 0, prev_end = 0;

	if (fa->nr > FRAME_ALLOC_MAX_RANGES)
		return false;
	for (u32 i = 0; i < fa->nr; i++) {
		const struct frame_range *r = &fa->ranges[i];

		if (r->size == 0 || !IS_ALIGNED(r->base, FRAME_SIZE) ||
		    !IS_ALIGNED(r->size, FRAME_SIZE) || r->base < floor ||
		    r->size > ~0ull - r->base)
			return false;
		/* Strictly above the previous end: touching means unmerged. */
		if (i > 0 && r->base <= prev_end)
			return false;
		prev_end = range_end(r);
		sum += r->size;
	}
	return sum == fa->free_bytes && fa->free_bytes <= fa->total_bytes;
}
