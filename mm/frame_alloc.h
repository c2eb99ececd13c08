/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame allocator of the kernel: page-granular, contiguous ranges, first
 * fit with alignment, from the free regions of the physical map. Kept as a
 * sorted array of free ranges (merged on free), so allocating a 1.6 GiB
 * memmap is one call and fragmentation stays visible.
 */
#ifndef NTBOOT_MM_FRAME_ALLOC_H
#define NTBOOT_MM_FRAME_ALLOC_H

#include "include/types.h"
#include "mm/phys_map.h"

#define FRAME_SIZE 4096ull
#define FRAME_ALLOC_MAX_RANGES 512

struct frame_range {
	u64 base;
	u64 size;
};

struct frame_allocator {
	struct frame_range ranges[FRAME_ALLOC_MAX_RANGES];
	u32 nr;
	u64 total_bytes; /* ever added */
	u64 free_bytes;
	/* Never hand out memory below this (real-mode trampoline, BIOS). */
	u64 min_addr;
};

void frame_alloc_init(struct frame_allocator *fa, u64 min_addr);

/*
 * Add every region of @type in @map. Regions below min_addr are clipped.
 * Returns 0, or -1 when the range table is full (or a region overlaps
 * free memory already added); what was added before stays. @added (may
 * be NULL) gets the bytes added, either way: a u64, as a map may claim
 * more than an s64 holds.
 */
int frame_alloc_add_type(struct frame_allocator *fa, const struct phys_map *map,
			 enum phys_type type, u64 *added);
/*
 * Add one range (page aligned inwards, clipped below min_addr and page 0;
 * nothing left is no error). 0, or -1 when the table is full or the range
 * overlaps free memory already added.
 */
int frame_alloc_add_range(struct frame_allocator *fa, u64 base, u64 size);

/*
 * Allocate @size bytes (rounded up to pages) aligned to @align (a power of
 * two, at least 4 KiB). Returns the physical address, or 0 on failure
 * (address 0 is never handed out).
 */
u64 frame_alloc(struct frame_allocator *fa, u64 size, u64 align);
/*
 * Return a range (@size rounded up to pages, as frame_alloc() did); merges
 * with neighbours. -1 on double free / overlap with free memory, on an
 * address that was never handed out (unaligned, 0, below min_addr), or when
 * the table is full and the range touches no free neighbour (then the
 * range stays allocated).
 */
int frame_free(struct frame_allocator *fa, u64 addr, u64 size);

/* Largest free range in bytes. */
u64 frame_alloc_largest(const struct frame_allocator *fa);

/*
 * Self-check of the bookkeeping: ranges sorted, page aligned, disjoint,
 * never touching (they would have been merged), above min_addr, and
 * summing to free_bytes. True when all holds.
 */
bool frame_alloc_check(const struct frame_allocator *fa);

#endif
