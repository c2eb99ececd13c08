// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "include/platform.h"
#include "kernel/memory.h"
#include "kernel/pat.h"
#include "lib/printf.h"
#include "lib/string.h"

struct kernel_memory kmem;

static void *alloc_table(void *ctx)
{
	struct frame_allocator *fa = ctx;
	u64 pa = frame_alloc(fa, FRAME_SIZE, FRAME_SIZE);

	if (!pa)
		return NULL;
	/* Firmware's identity map is still live while we build ours. */
	memset((void *)(uptr)pa, 0, FRAME_SIZE);
	return (void *)(uptr)pa;
}

static void write_cr3(u64 v)
{
	asm volatile("mov %0, %%cr3" ::"r"(v) : "memory");
}

/*
 * Make the 4 KiB page at @addr not present (a guard page): map it as a
 * 4 KiB page first, which splits any huge page around it, then clear the
 * PTE's present bit.
 */
static int unmap_page(u64 addr, const struct pgtable_alloc *pa)
{
	pteval_t *t = kmem.pml4;

	if (pgtable_map_range(kmem.pml4, addr, SZ_4K,
			      _PAGE_PRESENT | _PAGE_RW, pa, &kmem.pt_stats))
		return -1;
	/* PML4, PDPT and PD entries lead to the page table of @addr. */
	for (int level = 3; level >= 1; level--)
		t = (pteval_t *)(uptr)(t[(addr >> (12 + 9 * level)) & 511] &
				       PTE_ADDR_MASK);
	t[(addr >> 12) & 511] &= ~_PAGE_PRESENT;
	return 0;
}

int memory_init(const struct boot_info *bi, const u64 *mmio, u32 nr_mmio,
		char *why, size_t whylen)
{
	struct pgtable_alloc pa = { .alloc_table = alloc_table,
				    .ctx = &kmem.fa };
	struct identity_map im;

	if (bi->map_bad) {
		ntb_snprintf(why, whylen,
			     "UEFI memory map unusable (%u descriptors)",
			     bi->efi_map_entries);
		return -1;
	}
	frame_alloc_init(&kmem.fa, LOW_MEMORY_RESERVE);
	if (frame_alloc_add_type(&kmem.fa, &bi->map, PHYS_FREE, NULL)) {
		ntb_snprintf(why, whylen, "free memory too fragmented (%u ranges)",
			     kmem.fa.nr);
		return -1;
	}
	kmem.ram_bytes = phys_map_ram_bytes(&bi->map);
	if (identity_map_build(&im, &bi->map, mmio, nr_mmio,
			       boot_cpu_has(X86_FEATURE_PDPE1GB), &pa, why,
			       whylen))
		return -1;
	kmem.pml4 = im.pml4;
	kmem.map_limit = im.limit;
	kmem.pt_stats = im.stats;
	kmem.nr_mmio_unreachable = im.nr_mmio_unreachable;
	/*
	 * The lowest page of the kernel stack becomes a guard: an overflow
	 * faults there instead of writing over whatever lies below.
	 */
	if (unmap_page(bi->stack_base, &pa)) {
		ntb_snprintf(why, whylen, "cannot place the stack guard page");
		return -1;
	}
	kmem.stack_guard = bi->stack_base;
	write_cr3((u64)(uptr)kmem.pml4);

	/* Firmware's tables, GDT, IDT and stack are no longer in use. */
	kmem.boot_services_refused =
		frame_alloc_add_type(&kmem.fa, &bi->map, PHYS_BOOT_SERVICES,
				     NULL) != 0;
	kmem.free_at_start = kmem.fa.free_bytes;
	return 0;
}

void memory_format_notes(char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (kmem.nr_mmio_unreachable)
		n = ntb_snprintf(buf, len, " unmapped_mmio_ranges=%u",
				 kmem.nr_mmio_unreachable);
	if (kmem.boot_services_refused && n >= 0 && (size_t)n < len)
		ntb_snprintf(buf + n, len - n, " boot_services=refused");
}

/* Map [base, base + size) with @attr in whole pages, and flush. */
static int memory_map_attr(u64 base, u64 size, pteval_t attr)
{
	struct pgtable_alloc pa = { .alloc_table = alloc_table,
				    .ctx = &kmem.fa };
	u64 start = ALIGN_DOWN(base, SZ_4K);
	u64 end = ALIGN_UP(base + size, SZ_4K);
	int rc;

	if (end < start || end > PGTABLE_IDENTITY_MAX)
		return -1;
	rc = pgtable_map_range(kmem.pml4, start, end - start,
			       _PAGE_PRESENT | _PAGE_RW | attr, &pa,
			       &kmem.pt_stats);
	/* Reload CR3: the old translations may be cached in the TLB. */
	write_cr3((u64)(uptr)kmem.pml4);
	return rc;
}

int memory_map_pages(u64 virt, u64 phys, u64 size)
{
	struct pgtable_alloc pa = { .alloc_table = alloc_table,
				    .ctx = &kmem.fa };
	int rc = pgtable_map_pages(kmem.pml4, virt, phys, size, &pa,
				   &kmem.pt_stats);

	/* Reload CR3, as above. */
	write_cr3((u64)(uptr)kmem.pml4);
	return rc;
}

int memory_map_wb(u64 base, u64 size)
{
	return memory_map_attr(base, size, 0);
}

int memory_map_wc(u64 base, u64 size)
{
	return memory_map_attr(base, size, _PAGE_CACHE_WC);
}

void *plat_alloc_aligned(size_t size, size_t align)
{
	u64 pa = frame_alloc(&kmem.fa, size ? size : 1,
			     align > FRAME_SIZE ? align : FRAME_SIZE);

	return pa ? (void *)(uptr)pa : NULL;
}

void plat_free(void *p, size_t size)
{
	if (p)
		frame_free(&kmem.fa, (u64)(uptr)p,
			   ALIGN_UP((u64)(size ? size : 1), FRAME_SIZE));
}

u64 plat_mem_available(void)
{
	return frame_alloc_largest(&kmem.fa);
}
