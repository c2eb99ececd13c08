// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building and walking four-level x86_64 page tables. The code never loads
 * CR3 or flushes anything: it only writes table memory, so the host tests
 * build the very same trees and check them with pgtable_walk().
 */
#include "mm/pgtable.h"
#include "include/compiler.h"

#define PTRS_PER_TABLE 512
#define PML4_SHIFT 39
#define PDPT_SHIFT 30
#define PD_SHIFT 21
#define PT_SHIFT 12

/*
 * Upper levels allow everything; the leaf alone says what the page may do,
 * so splitting a huge page never has to touch the levels above it.
 */
#define TABLE_FLAGS (_PAGE_PRESENT | _PAGE_RW)
#define LEAF_FLAGS (_PAGE_PRESENT | _PAGE_RW)

static inline unsigned int pt_index(u64 addr, unsigned int shift)
{
	return (addr >> shift) & (PTRS_PER_TABLE - 1);
}

static inline pteval_t *entry_table(pteval_t e)
{
	return (pteval_t *)(uptr)(e & PTE_ADDR_MASK);
}

static inline bool is_present(pteval_t e)
{
	return e & _PAGE_PRESENT;
}

static inline bool is_leaf(pteval_t e)
{
	return e & _PAGE_PSE;
}

static pteval_t *new_table(const struct pgtable_alloc *alloc,
			   struct pgtable_stats *stats)
{
	pteval_t *t = alloc->alloc_table(alloc->ctx);

	if (!t)
		return NULL;
	/*
	 * An entry holds address bits 12..51 only; a table elsewhere would be
	 * silently truncated into a wild pointer. The allocator's owner still
	 * has the table, so refusing it leaks nothing for good.
	 */
	if ((uptr)t & ~(uptr)PTE_ADDR_MASK)
		return NULL;
	stats->tables++;
	return t;
}

/* The table below @entry, made when absent. NULL: no memory, or a leaf. */
static pteval_t *table_below(pteval_t *entry, const struct pgtable_alloc *alloc,
			     struct pgtable_stats *stats)
{
	pteval_t *t;

	if (is_present(*entry))
		return is_leaf(*entry) ? NULL : entry_table(*entry);
	t = new_table(alloc, stats);
	if (t)
		*entry = (u64)(uptr)t | TABLE_FLAGS;
	return t;
}

pteval_t *pgtable_build_identity(u64 limit, bool use_1g,
				 const struct pgtable_alloc *alloc,
				 struct pgtable_stats *stats)
{
	struct pgtable_stats dummy;
	pteval_t *pml4;
	u64 addr = 0;

	if (!stats)
		stats = &dummy;
	*stats = (struct pgtable_stats){0};
	if (limit > PGTABLE_IDENTITY_MAX)
		return NULL;
	limit = ALIGN_UP(limit, SZ_2M);

	pml4 = new_table(alloc, stats);
	if (!pml4)
		return NULL;
	while (addr < limit) {
		pteval_t *pdpt, *pd, *pdpte;

		pdpt = table_below(&pml4[pt_index(addr, PML4_SHIFT)], alloc,
				   stats);
		if (!pdpt)
			return NULL;
		pdpte = &pdpt[pt_index(addr, PDPT_SHIFT)];
		if (use_1g && IS_ALIGNED(addr, SZ_1G) &&
		    limit - addr >= SZ_1G) {
			*pdpte = addr | LEAF_FLAGS | _PAGE_PSE;
			stats->pages_1g++;
			addr += SZ_1G;
			continue;
		}
		pd = table_below(pdpte, alloc, stats);
		if (!pd)
			return NULL;
		pd[pt_index(addr, PD_SHIFT)] = addr | LEAF_FLAGS | _PAGE_PSE;
		stats->pages_2m++;
		addr += SZ_2M;
	}
	return pml4;
}

/*
 * Replace the 1 GiB leaf at @pdpte with a table of 2 MiB leaves that
 * translate the same way with the same attributes. The two leaf formats
 * agree bit for bit (PAT at bit 12, PSE at bit 7), so only the address
 * changes. The new table is complete before it is hooked in: on failure
 * the old leaf is untouched.
 */
static pteval_t *split_1g(pteval_t *pdpte, const struct pgtable_alloc *alloc,
			  struct pgtable_stats *stats)
{
	pteval_t old = *pdpte;
	u64 base = old & PTE_ADDR_MASK & ~(SZ_1G - 1);
	pteval_t attr = old & (~PTE_ADDR_MASK | _PAGE_PAT_LARGE);
	pteval_t *pd = new_table(alloc, stats);

	if (!pd)
		return NULL;
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
		pd[i] = (base + i * SZ_2M) | attr;
	*pdpte = (u64)(uptr)pd | TABLE_FLAGS | (old & _PAGE_USER);
	stats->pages_1g--;
	stats->pages_2m += PTRS_PER_TABLE;
	return pd;
}

/*
 * The same for a 2 MiB leaf. A 4 KiB entry has PAT where the huge entry
 * has PSE, so PSE goes and a set PAT bit moves from bit 12 to bit 7.
 */
static pteval_t *split_2m(pteval_t *pde, const struct pgtable_alloc *alloc,
			  struct pgtable_stats *stats)
{
	pteval_t old = *pde;
	u64 base = old & PTE_ADDR_MASK & ~(SZ_2M - 1);
	pteval_t attr = old & ~PTE_ADDR_MASK & ~_PAGE_PSE;
	pteval_t *pt;

	if (old & _PAGE_PAT_LARGE)
		attr |= _PAGE_PAT;
	pt = new_table(alloc, stats);
	if (!pt)
		return NULL;
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
		pt[i] = (base + i * SZ_4K) | attr;
	*pde = (u64)(uptr)pt | TABLE_FLAGS | (old & _PAGE_USER);
	stats->pages_2m--;
	stats->pages_4k += PTRS_PER_TABLE;
	return pt;
}

int pgtable_map_range(pteval_t *pml4, u64 phys, u64 size, pteval_t flags,
		      const struct pgtable_alloc *alloc,
		      struct pgtable_stats *stats)
{
	struct pgtable_stats dummy = {0};
	pteval_t leaf;
	u64 addr, end;

	if (!stats)
		stats = &dummy;
	if (size == 0)
		return 0;
	if (phys > PGTABLE_IDENTITY_MAX || size > PGTABLE_IDENTITY_MAX - phys)
		return -1;
	addr = ALIGN_DOWN(phys, SZ_4K);
	end = ALIGN_UP(phys + size, SZ_4K);
	leaf = LEAF_FLAGS | (flags & ~(PTE_ADDR_MASK | _PAGE_PSE));

	while (addr < end) {
		pteval_t *pdpt, *pd, *pt, *pdpte, *pde, *pte;

		pdpt = table_below(&pml4[pt_index(addr, PML4_SHIFT)], alloc,
				   stats);
		if (!pdpt)
			return -1;

		pdpte = &pdpt[pt_index(addr, PDPT_SHIFT)];
		if (is_present(*pdpte) && is_leaf(*pdpte)) {
			if (IS_ALIGNED(addr, SZ_1G) && end - addr >= SZ_1G) {
				*pdpte = addr | leaf | _PAGE_PSE;
				addr += SZ_1G;
				continue;
			}
			pd = split_1g(pdpte, alloc, stats);
		} else {
			pd = table_below(pdpte, alloc, stats);
		}
		if (!pd)
			return -1;

		pde = &pd[pt_index(addr, PD_SHIFT)];
		/*
		 * A 2 MiB leaf covered whole is rewritten; so is a hole, as
		 * 2 MiB pages exist on every x86_64 CPU. A 4 KiB table already
		 * there is kept and filled below: dropping it would lose the
		 * frame it sits in.
		 */
		if ((!is_present(*pde) || is_leaf(*pde)) &&
		    IS_ALIGNED(addr, SZ_2M) && end - addr >= SZ_2M) {
			if (!is_present(*pde))
				stats->pages_2m++;
			*pde = addr | leaf | _PAGE_PSE;
			addr += SZ_2M;
			continue;
		}
		if (is_present(*pde) && is_leaf(*pde))
			pt = split_2m(pde, alloc, stats);
		else
			pt = table_below(pde, alloc, stats);
		if (!pt)
			return -1;

		pte = &pt[pt_index(addr, PT_SHIFT)];
		if (!is_present(*pte))
			stats->pages_4k++;
		*pte = addr | leaf;
		addr += SZ_4K;
	}
	return 0;
}

int pgtable_walk(const pteval_t *pml4, u64 virt,
		 struct pgtable_walk_result *res)
{
	/* Bits 63..47 must all equal bit 47. */
	u64 top = virt >> 47;
	const pteval_t *table = pml4;
	pteval_t e = 0;
	u64 page_size = 0;
	int level;

	if (top != 0 && top != (~0ull >> 47))
		return -1;
	for (level = 4; level >= 1; level--) {
		unsigned int shift = PT_SHIFT + 9 * (level - 1);

		e = table[pt_index(virt, shift)];
		if (!is_present(e))
			return -1;
		if (level == 1) {
			page_size = SZ_4K;
			break;
		}
		if (is_leaf(e)) {
			/* PS is reserved in a PML4 entry: a broken tree. */
			if (level == 4)
				return -1;
			page_size = 1ull << shift;
			break;
		}
		table = entry_table(e);
	}
	if (res) {
		u64 addr_bits = PTE_ADDR_MASK & ~(page_size - 1);

		res->phys = (e & addr_bits) | (virt & (page_size - 1));
		res->page_size = page_size;
		res->flags = e & ~addr_bits;
		res->level = level;
	}
	return 0;
}

int pgtable_map_pages(pteval_t *pml4, u64 virt, u64 phys, u64 size,
		      const struct pgtable_alloc *alloc,
		      struct pgtable_stats *stats)
{
	struct pgtable_stats dummy = {0};
	u64 top = virt >> 47, i;

	if (!stats)
		stats = &dummy;
	if (!IS_ALIGNED(virt | phys | size, SZ_4K) ||
	    (top != 0 && top != (~0ull >> 47)) || phys + size < phys ||
	    (phys + size - 1) >> 52 || virt + size - 1 < virt ||
	    (virt + size - 1) >> 47 != top)
		return -1;
	for (i = 0; i < size; i += SZ_4K) {
		const u64 va = virt + i;
		pteval_t *pdpt, *pd, *pt, *pte;

		pdpt = table_below(&pml4[pt_index(va, PML4_SHIFT)], alloc,
				   stats);
		pd = pdpt ? table_below(&pdpt[pt_index(va, PDPT_SHIFT)], alloc,
					stats)
			  : NULL;
		pt = pd ? table_below(&pd[pt_index(va, PD_SHIFT)], alloc, stats)
			: NULL;
		if (!pt)
			return -1; /* no tables left, or a huge page there */
		pte = &pt[pt_index(va, PT_SHIFT)];
		if (!is_present(*pte))
			stats->pages_4k++;
		*pte = (phys + i) | LEAF_FLAGS;
	}
	return 0;
}
