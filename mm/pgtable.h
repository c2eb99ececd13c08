/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Four-level x86_64 page tables for the kernel's identity map: every
 * physical address up to a limit mapped virtual == physical with 1 GiB pages
 * where the CPU has them, 2 MiB pages otherwise. Tables live in frames from
 * a caller's allocator; a table entry holds the frame address, which in the
 * image is the physical address and on the host is a pointer, so the same
 * code is tested on the host by walking the tables it built.
 */
#ifndef NTBOOT_MM_PGTABLE_H
#define NTBOOT_MM_PGTABLE_H

#include "include/types.h"

#define _PAGE_PRESENT (1ull << 0)
#define _PAGE_RW (1ull << 1)
#define _PAGE_USER (1ull << 2)
#define _PAGE_PWT (1ull << 3)
#define _PAGE_PCD (1ull << 4)
#define _PAGE_ACCESSED (1ull << 5)
#define _PAGE_DIRTY (1ull << 6)
#define _PAGE_PSE (1ull << 7)
#define _PAGE_GLOBAL (1ull << 8)
#define _PAGE_PAT (1ull << 7)	     /* in a 4 KiB PTE: where PSE sits above */
#define _PAGE_PAT_LARGE (1ull << 12) /* in a 2 MiB or 1 GiB leaf */
#define _PAGE_NX (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

typedef u64 pteval_t;

struct pgtable_alloc {
	/* Returns a zeroed, 4 KiB aligned table, or NULL. */
	void *(*alloc_table)(void *ctx);
	void *ctx;
};

struct pgtable_stats {
	u64 tables;
	u64 pages_1g;
	u64 pages_2m;
	u64 pages_4k;
};

/* The identity map can only cover the lower canonical half: 128 TiB. */
#define PGTABLE_IDENTITY_MAX (1ull << 47)

/*
 * Map [0, limit) identity, writable, write-back, with @use_1g huge pages
 * where alignment allows (2 MiB pages for a tail short of a whole GiB, so
 * nothing past the rounded limit is mapped). @limit is rounded up to 2 MiB.
 * Returns the PML4 (the CR3 value) or NULL when tables run out or @limit
 * exceeds PGTABLE_IDENTITY_MAX. Tables taken before a failure are not given
 * back: the allocator's owner reclaims them. @stats (may be NULL) is reset
 * and then counts the tables and leaf pages made.
 */
pteval_t *pgtable_build_identity(u64 limit, bool use_1g,
				 const struct pgtable_alloc *alloc,
				 struct pgtable_stats *stats);

/*
 * Map one range identity with explicit attributes (for MMIO:
 * _PAGE_PCD|_PAGE_PWT). The leaf entries get _PAGE_PRESENT|_PAGE_RW|@flags
 * (address bits and _PAGE_PSE in @flags are ignored). The range is widened
 * to whole 4 KiB pages. A huge page the range covers only in part is split
 * (1 GiB into 2 MiB, 2 MiB into 4 KiB pages), the rest keeping exactly its
 * old translation and attributes; a huge page covered whole is rewritten in
 * place. Where nothing was mapped, 2 MiB pages are used when the range
 * covers them whole, 4 KiB pages otherwise; never new 1 GiB pages, as the
 * CPU may lack them. @stats (may be NULL) is updated, not reset, so after
 * pgtable_build_identity() it keeps describing the whole tree. The caller
 * flushes the TLB. 0, or -1 when tables run out or the range ends past
 * PGTABLE_IDENTITY_MAX; then a prefix of the range may already be mapped
 * anew, while every entry not yet reached keeps its old mapping.
 */
int pgtable_map_range(pteval_t *pml4, u64 phys, u64 size, pteval_t flags,
		      const struct pgtable_alloc *alloc,
		      struct pgtable_stats *stats);

/*
 * Map @size bytes at the canonical virtual address @virt to @phys, in
 * 4 KiB write-back pages, present and writable: for what lives away
 * from the identity map (the kernel blob at the kernel's text address, in
 * the top half). @virt, @phys and @size must be page-aligned, the range
 * canonical in one half, @phys + @size within 52 bits, @size not 0
 * (each refused with -1, nothing mapped). A page already
 * mapped is remapped; a huge page in the way fails. @stats as
 * pgtable_map_range()'s. 0, or -1 (a prefix may be mapped).
 */
int pgtable_map_pages(pteval_t *pml4, u64 virt, u64 phys, u64 size,
		      const struct pgtable_alloc *alloc,
		      struct pgtable_stats *stats);

struct pgtable_walk_result {
	u64 phys;	/* translated address */
	u64 page_size;	/* 4K, 2M or 1G */
	pteval_t flags; /* the leaf entry's flag bits */
	int level;	/* 1 = PTE .. 3 = PDPTE */
};

/*
 * Software walk of @virt. 0 when mapped, -1 when not present (or @virt is
 * not canonical). @res may be NULL. For huge pages, flags include the PAT
 * bit (bit 12) as the entry holds it.
 */
int pgtable_walk(const pteval_t *pml4, u64 virt,
		 struct pgtable_walk_result *res);

#endif
