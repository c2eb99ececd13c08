// SPDX-License-Identifier: GPL-2.0-only
/*
 * The page tables the image runs on: walk the live CR3 and check that what
 * the kernel relies on is mapped identity, and that what it must not touch
 * is not mapped at all. Bare metal only.
 */
#include "include/platform.h"
#include "lib/kunit.h"
#include "mm/pgtable.h"

static const pteval_t *live_pml4(void)
{
	u64 cr3;

	asm volatile("mov %%cr3, %0" : "=r"(cr3));
	return (const pteval_t *)(uptr)(cr3 & PTE_ADDR_MASK);
}

static void expect_identity(struct kunit *test, u64 addr, const char *what)
{
	struct pgtable_walk_result r;

	if (pgtable_walk(live_pml4(), addr, &r)) {
		kunit_fail_at(test, __FILE__, __LINE__, "%s at 0x%llx not mapped",
			      what, addr);
		return;
	}
	if (r.phys != addr)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s at 0x%llx maps to 0x%llx", what, addr, r.phys);
	if (!(r.flags & _PAGE_RW))
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s at 0x%llx not writable", what, addr);
}

static void paging_code_data_stack(struct kunit *test)
{
	int local;

	expect_identity(test, (u64)(uptr)&paging_code_data_stack, "code");
	expect_identity(test, (u64)(uptr)&local, "stack");
	expect_identity(test, (u64)(uptr)live_pml4(), "PML4");
}

static void paging_low_4g_mapped(struct kunit *test)
{
	/* Firmware MMIO below 4 GiB is often absent from the UEFI map. */
	expect_identity(test, 0x1000, "low memory");
	expect_identity(test, 0xfed00000, "HPET window");
	expect_identity(test, 0xfee00000, "local APIC window");
	expect_identity(test, 0xffffe000, "top of 4 GiB");
}

static void paging_allocations_mapped(struct kunit *test)
{
	/* The allocator hands out memory the tables cover, high RAM too. */
	size_t sz = 64ull << 20;
	u8 *p = plat_alloc_aligned(sz, 2ull << 20);

	if (!p)
		kunit_skip(test, "no 64 MiB free");
	expect_identity(test, (u64)(uptr)p, "allocation start");
	expect_identity(test, (u64)(uptr)p + sz - 1, "allocation end");
	p[0] = 0x5a;
	p[sz - 1] = 0xa5;
	KUNIT_EXPECT_EQ(test, p[0] + p[sz - 1], 0xff);
	plat_free(p, sz);
}

static void paging_far_address_unmapped(struct kunit *test)
{
	struct pgtable_walk_result r;

	KUNIT_EXPECT_EQ(test, pgtable_walk(live_pml4(), 0x0000400000000000ull, &r),
			-1);
}

static const struct kunit_case paging_cases[] = {
	KUNIT_CASE(paging_code_data_stack),
	KUNIT_CASE(paging_low_4g_mapped),
	KUNIT_CASE(paging_allocations_mapped),
	KUNIT_CASE(paging_far_address_unmapped),
};

KUNIT_SUITE_DEFINE(paging_live_suite, "paging_live", paging_cases,
		   .flags = KUNIT_SUITE_IMAGE_ONLY);
