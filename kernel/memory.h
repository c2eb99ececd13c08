/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's memory: the frame allocator over the firmware's free memory,
 * and our own identity-mapped page tables. Boot-services memory joins the
 * allocator only after CR3, the GDT/IDT and the stack are all ours.
 */
#ifndef NTBOOT_KERNEL_MEMORY_H
#define NTBOOT_KERNEL_MEMORY_H

#include "kernel/boot_info.h"
#include "mm/frame_alloc.h"
#include "mm/identity_map.h"
#include "mm/pgtable.h"

struct kernel_memory {
	struct frame_allocator fa;
	pteval_t *pml4;
	u64 map_limit;		/* identity map covers [0, map_limit) */
	u32 nr_mmio_unreachable;	/* MMIO regions past the tables' reach */
	struct pgtable_stats pt_stats;
	u64 ram_bytes;
	u64 free_at_start;	/* free bytes once boot services were added */
	bool boot_services_refused;	/* the allocator had no room for them */
	u64 stack_guard;	/* the unmapped page under the kernel stack */
};

extern struct kernel_memory kmem;

/*
 * Build the allocator and the page tables, switch CR3 and add the
 * boot-services memory. @mmio lists extra MMIO pages to map uncached.
 * Returns 0, or -1 with @why filled (the run cannot go on).
 */
int memory_init(const struct boot_info *bi, const u64 *mmio, u32 nr_mmio,
		char *why, size_t whylen);

/*
 * What the memory header adds when it is not the usual: " key=value"
 * words for MMIO past the reach of the tables and boot-services memory
 * the allocator refused; "" when neither.
 */
void memory_format_notes(char *buf, size_t len);

/* Map [base, base + size) write-combining (the framebuffer). 0 or -1. */
int memory_map_wc(u64 base, u64 size);

/* Map [base, base + size) write-back (persistent memory). 0 or -1. */
int memory_map_wb(u64 base, u64 size);
/*
 * Map @size bytes of frames at @phys at @virt, away from the identity
 * map (the kernel blob in the top half), in 4 KiB write-back pages, and
 * flush. 0, or -1 (see pgtable_map_pages()).
 */
int memory_map_pages(u64 virt, u64 phys, u64 size);

/* Frames below this stay untouched (the AP trampoline will live there). */
#define LOW_MEMORY_RESERVE SZ_1M

#endif
