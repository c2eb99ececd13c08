/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the glue (glue.c, compiled by the kernel's own build) offers the
 * runner (runner.c, a user-space program): plain integers and pointers
 * only, so that both sides read the same declarations although one is
 * built with the kernel's headers and the other with libc's.
 */
#ifndef NTBOOT_KERNEL_MEMMAP_GLUE_H
#define NTBOOT_KERNEL_MEMMAP_GLUE_H

/*
 * Lay out a node with its ZONE_DEVICE zone, a dev_pagemap of @type (the
 * kernel's enum memory_type) and @order (vmemmap_shift), with an altmap
 * of @reserve and @free pfns from @start_pfn when @altmap, and the
 * mem_section entries of the namespace's sections, all as nd_pfn_init()
 * and memremap_pages() leave them, for the kernel's
 * memmap_init_zone_device(zone, @start_pfn, @nr_pages, pgmap) that
 * ntb_kmemmap_call() makes. The struct pages are at vmemmap_base + pfn *
 * sizeof(struct page), which the runner sets. @arena (@arena_bytes,
 * zeroed) holds the mem_section roots and usemaps. Returns 0, or -1 with
 * the reason in @why.
 */
int ntb_kmemmap_setup(unsigned long start_pfn, unsigned long nr_pages,
		      unsigned long order, int type, int nid, int altmap,
		      unsigned long reserve, unsigned long free, void *arena,
		      unsigned long arena_bytes, char *why, unsigned long len);

/* The call itself, on what ntb_kmemmap_setup() laid out: the timed part. */
void ntb_kmemmap_call(void);

/*
 * The pageblock bits of the namespace's sections zeroed, as
 * sparse_add_section() leaves a new section's usemap: before each call,
 * so that every call's pageblock stores are its own.
 */
void ntb_kmemmap_pageblocks_reset(void);

/* Bytes of arena ntb_kmemmap_setup() needs for pfns start..start+nr. */
unsigned long ntb_kmemmap_arena_bytes(unsigned long start_pfn,
				      unsigned long nr_pages);

/* The dev_pagemap the struct pages point to. */
void *ntb_kmemmap_pgmap(void);

/* sizeof(struct page) of this kernel build. */
unsigned long ntb_kmemmap_page_size(void);

/* pageblock_nr_pages of this kernel build. */
unsigned long ntb_kmemmap_pageblock_pages(void);

/*
 * Where this kernel build's code reads its stack canary: the offset from
 * the GS base (fixed_percpu_data.stack_canary, %gs:40 on x86_64), or -1
 * where the configuration has no stack protector.
 */
long ntb_kmemmap_stack_canary_offset(void);

/*
 * All the bits of the pageblock of @pfn (NR_PAGEBLOCK_BITS), read by the
 * kernel's own get_pfnblock_flags_mask() (mm/page_alloc.o); ULONG_MAX
 * where the pfn has no section (ntb_kmemmap_setup() did not lay it out).
 */
unsigned long ntb_kmemmap_pageblock_bits(unsigned long pfn);

#endif
