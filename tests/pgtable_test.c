// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page tables built into ordinary memory and checked with the software
 * walk: identity everywhere below the limit, nothing above it, the page
 * sizes asked for, and huge pages split around MMIO holes without the rest
 * of their mapping changing. Nothing here loads CR3, so the same cases run
 * on the host and in the image.
 */
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/string.h"
#include "mm/identity_map.h"
#include "mm/pgtable.h"

#define LEAF_2M (_PAGE_PRESENT | _PAGE_RW | _PAGE_PSE)
#define LEAF_1G LEAF_2M
#define LEAF_4K (_PAGE_PRESENT | _PAGE_RW)
#define MMIO (_PAGE_PCD | _PAGE_PWT)

/*
 * Tables come from one zeroed block owned by the case, so every exit
 * (assertions included) releases them and nothing leaks under ASan.
 */
struct table_arena {
	u8 *mem;
	u32 cap;
	u32 used;
	u32 fail_after; /* hand out this many tables, then NULL */
	bool misalign;	/* hand out a pointer not on a page */
	struct pgtable_alloc alloc;
};

static void *arena_alloc_table(void *ctx)
{
	struct table_arena *a = ctx;
	u8 *t;

	if (a->used >= a->cap || a->used >= a->fail_after)
		return NULL;
	t = a->mem + (u64)a->used++ * SZ_4K;
	return a->misalign ? t + 8 : t;
}

static struct table_arena *arena_new(struct kunit *test, u32 cap)
{
	struct table_arena *a = kunit_kzalloc(test, sizeof(*a));
	u8 *raw;

	KUNIT_ASSERT_NOT_NULL(test, a);
	raw = kunit_kzalloc(test, (size_t)(cap + 1) * SZ_4K);
	if (!raw)
		kunit_skip(test, "no memory for %u page tables", cap);
	a->mem = (u8 *)ALIGN_UP((uptr)raw, (uptr)SZ_4K);
	a->cap = cap;
	a->fail_after = ~0u;
	a->alloc.alloc_table = arena_alloc_table;
	a->alloc.ctx = a;
	return a;
}

static void arena_reset(struct table_arena *a)
{
	memset(a->mem, 0, (size_t)a->cap * SZ_4K);
	a->used = 0;
}

/*
 * One walk against what it should give. Failures are counted and only the
 * first few printed: a broken tree would otherwise print a million lines.
 */
struct walk_check {
	struct kunit *test;
	const pteval_t *pml4;
	u32 bad;
};

static void check_at(struct walk_check *c, u64 addr, u64 want_size,
		     pteval_t want_flags, int line)
{
	struct pgtable_walk_result res;
	int rc = pgtable_walk(c->pml4, addr, &res);

	if (rc == 0 && res.phys == addr && res.page_size == want_size &&
	    res.flags == want_flags)
		return;
	if (c->bad++ >= 4)
		return;
	if (rc)
		kunit_fail_at(c->test, __FILE__, line, "walk %#llx: not mapped",
			      (unsigned long long)addr);
	else
		kunit_fail_at(c->test, __FILE__, line,
			      "walk %#llx: phys %#llx size %#llx flags %#llx, "
			      "want size %#llx flags %#llx",
			      (unsigned long long)addr,
			      (unsigned long long)res.phys,
			      (unsigned long long)res.page_size,
			      (unsigned long long)res.flags,
			      (unsigned long long)want_size,
			      (unsigned long long)want_flags);
}

static void check_unmapped(struct walk_check *c, u64 addr, int line)
{
	struct pgtable_walk_result res;

	if (pgtable_walk(c->pml4, addr, &res) == 0 && c->bad++ < 4)
		kunit_fail_at(c->test, __FILE__, line,
			      "walk %#llx: mapped to %#llx, want nothing",
			      (unsigned long long)addr,
			      (unsigned long long)res.phys);
}

static u64 identity_size(u64 addr, u64 limit, bool use_1g)
{
	if (use_1g && ALIGN_DOWN(addr, SZ_1G) + SZ_1G <= limit)
		return SZ_1G;
	return SZ_2M;
}

/*
 * Every 2 MiB boundary (so every 1 GiB one too), the last byte of every
 * page, random addresses, and the first address past the limit.
 */
static void check_identity(struct kunit *test, const pteval_t *pml4, u64 limit,
			   bool use_1g, u64 step)
{
	struct walk_check c = {test, pml4, 0};
	u64 seed = 0xd1b54a32d192ed03ull;

	limit = ALIGN_UP(limit, SZ_2M);
	for (u64 a = 0; a < limit; a += step) {
		u64 size = identity_size(a, limit, use_1g);

		check_at(&c, a, size, LEAF_2M, __LINE__);
		check_at(&c, a + step - 1, size, LEAF_2M, __LINE__);
	}
	for (int i = 0; i < 20000 && limit; i++) {
		u64 a = prandom_u64(&seed) % limit;

		check_at(&c, a, identity_size(a, limit, use_1g), LEAF_2M,
			 __LINE__);
	}
	check_unmapped(&c, limit, __LINE__);
	check_unmapped(&c, limit + SZ_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

static void pgtable_identity_8g_1g(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 4);
	struct pgtable_stats st;
	pteval_t *pml4 =
		pgtable_build_identity(8 * SZ_1G, true, &a->alloc, &st);

	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, (uptr)pml4 & 0xfff, 0);
	KUNIT_EXPECT_EQ(test, st.tables, 2);
	KUNIT_EXPECT_EQ(test, a->used, 2);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 8);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 0);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 0);
	check_identity(test, pml4, 8 * SZ_1G, true, SZ_2M);
}

static void pgtable_identity_8g_2m(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	struct pgtable_stats st;
	pteval_t *pml4 =
		pgtable_build_identity(8 * SZ_1G, false, &a->alloc, &st);

	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 1 + 1 + 8);
	KUNIT_EXPECT_EQ(test, a->used, 10);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 0);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 8 * 512);
	check_identity(test, pml4, 8 * SZ_1G, false, SZ_2M);
}

static void pgtable_identity_odd_limit(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	const u64 limit = 8 * SZ_1G + 3 * SZ_1M + 5;
	struct pgtable_stats st;
	pteval_t *pml4;

	/* Rounded up to 8 GiB + 4 MiB: the tail in 2 MiB pages. */
	pml4 = pgtable_build_identity(limit, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 3);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 8);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 2);
	check_identity(test, pml4, limit, true, SZ_2M);

	arena_reset(a);
	pml4 = pgtable_build_identity(limit, false, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 11);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 8 * 512 + 2);
	check_identity(test, pml4, limit, false, SZ_2M);

	/* Below a GiB with 1 GiB pages on: 2 MiB pages only. */
	arena_reset(a);
	pml4 = pgtable_build_identity(SZ_1G - SZ_2M, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 0);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 511);
	check_identity(test, pml4, SZ_1G - SZ_2M, true, SZ_2M);

	/* Nothing at all: an empty PML4. */
	arena_reset(a);
	pml4 = pgtable_build_identity(0, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 1);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0, NULL), -1);
}

static void pgtable_identity_1t(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 4);
	struct pgtable_stats st;
	pteval_t *pml4;

	/* 1 TiB needs two PDPTs: a PML4 entry covers 512 GiB. */
	pml4 = pgtable_build_identity(1024 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 3);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 1024);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 0);
	check_identity(test, pml4, 1024 * SZ_1G, true, SZ_2M);
}

static void pgtable_identity_1t_2m(struct kunit *test)
{
	/* 1024 page directories: 4 MiB of tables. */
	struct table_arena *a = arena_new(test, 1 + 2 + 1024);
	struct pgtable_stats st;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(1024 * SZ_1G, false, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 1027);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 1024 * 512);
	check_identity(test, pml4, 1024 * SZ_1G, false, SZ_2M);
}

static void pgtable_identity_max(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 1 + 256 + 1);
	struct pgtable_stats st;
	pteval_t *pml4;

	/* 64 TiB: 128 PDPTs. */
	pml4 = pgtable_build_identity(1ull << 46, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 1 + 128);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 1ull << 16);
	check_identity(test, pml4, 1ull << 46, true, SZ_1G);

	/* All of the lower half: 128 TiB, every low PML4 entry used. */
	arena_reset(a);
	pml4 = pgtable_build_identity(PGTABLE_IDENTITY_MAX, true, &a->alloc,
				      &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, st.tables, 1 + 256);
	check_identity(test, pml4, PGTABLE_IDENTITY_MAX, true, SZ_1G);
	/* 2^47 itself is not canonical; the upper half is not mapped. */
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 1ull << 47, NULL), -1);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0xffff800000000000ull, NULL),
			-1);

	/* Past the lower half an identity map cannot exist. */
	arena_reset(a);
	KUNIT_EXPECT_TRUE(test,
			  !pgtable_build_identity(PGTABLE_IDENTITY_MAX + SZ_2M,
						  true, &a->alloc, &st));
	KUNIT_EXPECT_EQ(test, a->used, 0);
}

/*
 * The I/O APIC to HPET window of a PC, [0xFEC00000, 0xFF000000), inside
 * the fourth GiB: the 1 GiB page there becomes 2 MiB pages, uncached only
 * in the window, and everything else keeps its old translation.
 */
static void pgtable_mmio_hole_1g(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 8);
	const u64 lo = 0xfec00000, hi = 0xff000000;
	struct walk_check c = {test, NULL, 0};
	struct pgtable_stats st;
	u64 seed = 42;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(8 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_ASSERT_EQ(
		test,
		pgtable_map_range(pml4, lo, hi - lo, MMIO, &a->alloc, &st), 0);
	KUNIT_EXPECT_EQ(test, st.tables, 3);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 7);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 512);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 0);

	for (u64 addr = 3 * SZ_1G; addr < 4 * SZ_1G; addr += SZ_2M) {
		pteval_t want = LEAF_2M;

		if (addr >= lo && addr < hi)
			want |= MMIO;
		check_at(&c, addr, SZ_2M, want, __LINE__);
		check_at(&c, addr + SZ_2M - 1, SZ_2M, want, __LINE__);
	}
	for (u64 addr = 0; addr < 8 * SZ_1G; addr += SZ_1G)
		if (addr != 3 * SZ_1G)
			check_at(&c, addr, SZ_1G, LEAF_1G, __LINE__);
	for (int i = 0; i < 20000; i++) {
		u64 addr = 3 * SZ_1G + prandom_u64(&seed) % SZ_1G;

		check_at(&c, addr, SZ_2M,
			 addr >= lo && addr < hi ? LEAF_2M | MMIO : LEAF_2M,
			 __LINE__);
	}
	check_unmapped(&c, 8 * SZ_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);

	/* Doing it again changes nothing and takes no table. */
	KUNIT_ASSERT_EQ(
		test,
		pgtable_map_range(pml4, lo, hi - lo, MMIO, &a->alloc, &st), 0);
	KUNIT_EXPECT_EQ(test, st.tables, 3);
	KUNIT_EXPECT_EQ(test, a->used, 3);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 512);

	/* A whole GiB asked for: the 1 GiB page is rewritten in place. */
	KUNIT_ASSERT_EQ(
		test,
		pgtable_map_range(pml4, 5 * SZ_1G, SZ_1G, MMIO, &a->alloc, &st),
		0);
	check_at(&c, 5 * SZ_1G + 12345, SZ_1G, LEAF_1G | MMIO, __LINE__);
	check_at(&c, 6 * SZ_1G, SZ_1G, LEAF_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 7);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

/* The local APIC page alone: a 2 MiB page becomes 512 4 KiB pages. */
static void pgtable_mmio_4k(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	struct walk_check c = {test, NULL, 0};
	struct pgtable_stats st;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(4 * SZ_1G, false, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_ASSERT_EQ(test, st.tables, 6);
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, 0xfee00000, SZ_4K, MMIO,
					  &a->alloc, &st),
			0);
	KUNIT_EXPECT_EQ(test, st.tables, 7);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 4 * 512 - 1);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 512);
	check_at(&c, 0xfee00000, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, 0xfee00fff, SZ_4K, LEAF_4K | MMIO, __LINE__);
	for (u64 addr = 0xfee01000; addr < 0xff000000; addr += SZ_4K)
		check_at(&c, addr, SZ_4K, LEAF_4K, __LINE__);
	check_at(&c, 0xfec00000, SZ_2M, LEAF_2M, __LINE__);
	check_at(&c, 0xff000000, SZ_2M, LEAF_2M, __LINE__);

	/* The HPET block: 1 KiB at an odd address means its whole page. */
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, 0xfed00010, 0x400, MMIO,
					  &a->alloc, &st),
			0);
	check_at(&c, 0xfed00000, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, 0xfed00fff, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, 0xfecff000, SZ_4K, LEAF_4K, __LINE__);
	check_at(&c, 0xfed01000, SZ_4K, LEAF_4K, __LINE__);
	KUNIT_EXPECT_EQ(test, st.tables, 8);
	KUNIT_EXPECT_EQ(test, c.bad, 0);

	/* From 1 GiB pages the same page takes two splits. */
	arena_reset(a);
	pml4 = pgtable_build_identity(4 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, 0xfee00000, SZ_4K, MMIO,
					  &a->alloc, &st),
			0);
	KUNIT_EXPECT_EQ(test, st.tables, 4);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 3);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 511);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 512);
	check_at(&c, 0xfee00000, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, 0xfee01000, SZ_4K, LEAF_4K, __LINE__);
	check_at(&c, 0xfec00000, SZ_2M, LEAF_2M, __LINE__);
	check_at(&c, 0xc0000000, SZ_2M, LEAF_2M, __LINE__);
	check_at(&c, 0x80000000, SZ_1G, LEAF_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

/*
 * A split copies whatever the huge page carried: NX, global, and the PAT
 * bit, which sits at bit 12 in a huge leaf and at bit 7 in a 4 KiB one.
 */
static void pgtable_split_keeps_attributes(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	const pteval_t extra = _PAGE_NX | _PAGE_GLOBAL | _PAGE_PAT_LARGE;
	struct walk_check c = {test, NULL, 0};
	pteval_t *pml4, *pdpt, *pd;

	pml4 = pgtable_build_identity(4 * SZ_1G, true, &a->alloc, NULL);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	pdpt = (pteval_t *)(uptr)(pml4[0] & PTE_ADDR_MASK);
	pdpt[1] |= extra;

	/* 1 GiB -> 2 MiB: the same format, PAT stays at bit 12. */
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, SZ_1G + SZ_2M, SZ_2M, MMIO,
					  &a->alloc, NULL),
			0);
	check_at(&c, SZ_1G, SZ_2M, LEAF_2M | extra, __LINE__);
	check_at(&c, SZ_1G + SZ_2M, SZ_2M, LEAF_2M | MMIO, __LINE__);
	check_at(&c, 2 * SZ_1G - 1, SZ_2M, LEAF_2M | extra, __LINE__);

	/* 2 MiB -> 4 KiB: PSE goes, PAT moves down to bit 7. */
	pd = (pteval_t *)(uptr)(pdpt[1] & PTE_ADDR_MASK);
	KUNIT_EXPECT_EQ(test, pd[0] & ~PTE_ADDR_MASK,
			LEAF_2M | _PAGE_NX | _PAGE_GLOBAL);
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, SZ_1G + 5 * SZ_4K, SZ_4K, MMIO,
					  &a->alloc, NULL),
			0);
	check_at(&c, SZ_1G, SZ_4K,
		 LEAF_4K | _PAGE_NX | _PAGE_GLOBAL | _PAGE_PAT, __LINE__);
	check_at(&c, SZ_1G + 5 * SZ_4K, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, SZ_1G + SZ_2M - 1, SZ_4K,
		 LEAF_4K | _PAGE_NX | _PAGE_GLOBAL | _PAGE_PAT, __LINE__);
	/* Address bits and PSE in the caller's flags are not taken. */
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, SZ_1G + 7 * SZ_4K, SZ_4K,
					  MMIO | 0xabc000 | _PAGE_PSE,
					  &a->alloc, NULL),
			0);
	check_at(&c, SZ_1G + 7 * SZ_4K, SZ_4K, LEAF_4K | MMIO, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

/* MMIO far above RAM: new tables, 2 MiB pages where whole, 4 KiB else. */
static void pgtable_map_unmapped_range(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	const u64 hole = 0xfd00000000ull; /* 1012 GiB */
	const u64 start = hole - 3 * SZ_4K, end = hole + 4 * SZ_1M + 2 * SZ_4K;
	struct walk_check c = {test, NULL, 0};
	struct pgtable_stats st;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(4 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_ASSERT_EQ(test,
			pgtable_map_range(pml4, start, end - start, MMIO,
					  &a->alloc, &st),
			0);
	/* PDPT of the second 512 GiB, two PDs, two PTs. */
	KUNIT_EXPECT_EQ(test, st.tables, 2 + 5);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 4);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 2);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 5);
	check_unmapped(&c, start - 1, __LINE__);
	for (u64 addr = start; addr < hole; addr += SZ_4K)
		check_at(&c, addr, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, hole, SZ_2M, LEAF_2M | MMIO, __LINE__);
	check_at(&c, hole + SZ_2M, SZ_2M, LEAF_2M | MMIO, __LINE__);
	check_at(&c, hole + 4 * SZ_1M, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, end - 1, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_unmapped(&c, end, __LINE__);
	check_at(&c, 0, SZ_1G, LEAF_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

/*
 * The kernel blob's mapping: 4 KiB pages at the kernel's text address,
 * each to its frame, the page below, the blob's variable stubs (from
 * 0xffffffff80001000) and the page past the end left unmapped, the
 * identity map kept.
 */
static void pgtable_map_pages_high(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	const u64 virt = 0xffffffff81000000ull, phys = 0x7654000ull;
	const u64 size = 83 * SZ_4K;
	struct walk_check c = {test, NULL, 0};
	struct pgtable_walk_result r;
	struct pgtable_stats st;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(4 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_ASSERT_EQ(
		test, pgtable_map_pages(pml4, virt, phys, size, &a->alloc, &st),
		0);
	/* a PDPT for the last 512 GiB, a PD, a PT */
	KUNIT_EXPECT_EQ(test, st.tables, 2 + 3);
	KUNIT_EXPECT_EQ(test, st.pages_4k, 83);
	for (u64 off = 0; off < size; off += SZ_4K) {
		KUNIT_ASSERT_EQ(test, pgtable_walk(pml4, virt + off + 8, &r),
				0);
		KUNIT_EXPECT_EQ(test, r.phys, phys + off + 8);
		KUNIT_EXPECT_EQ(test, r.page_size, SZ_4K);
		KUNIT_EXPECT_EQ(test, r.flags, LEAF_4K);
	}
	check_unmapped(&c, virt + size, __LINE__);
	check_unmapped(&c, virt - SZ_4K, __LINE__);
	check_unmapped(&c, 0xffffffff80001000ull, __LINE__);
	check_at(&c, phys, SZ_1G, LEAF_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
	/* unaligned, non-canonical, crossing the halves: refused */
	KUNIT_EXPECT_EQ(
		test,
		pgtable_map_pages(pml4, virt + 8, phys, SZ_4K, &a->alloc, &st),
		-1);
	KUNIT_EXPECT_EQ(test,
			pgtable_map_pages(pml4, 1ull << 47, phys, SZ_4K,
					  &a->alloc, &st),
			-1);
	KUNIT_EXPECT_EQ(test,
			pgtable_map_pages(pml4, (1ull << 47) - SZ_4K, phys,
					  2 * SZ_4K, &a->alloc, &st),
			-1);
	/* an unaligned frame or size, a frame past 52 bits, nothing */
	KUNIT_EXPECT_EQ(
		test,
		pgtable_map_pages(pml4, virt, phys + 8, SZ_4K, &a->alloc, &st),
		-1);
	KUNIT_EXPECT_EQ(
		test, pgtable_map_pages(pml4, virt, phys, 100, &a->alloc, &st),
		-1);
	KUNIT_EXPECT_EQ(test,
			pgtable_map_pages(pml4, virt, 1ull << 52, SZ_4K,
					  &a->alloc, &st),
			-1);
	KUNIT_EXPECT_EQ(test,
			pgtable_map_pages(pml4, virt, phys, 0, &a->alloc, &st),
			-1);
	/* a huge page of the identity map in the way */
	KUNIT_EXPECT_EQ(
		test,
		pgtable_map_pages(pml4, SZ_1G, phys, SZ_4K, &a->alloc, &st),
		-1);
	/* no counts asked for: a new table and a page, mapped all the same */
	KUNIT_ASSERT_EQ(test,
			pgtable_map_pages(pml4, virt + SZ_1G, phys, SZ_4K,
					  &a->alloc, NULL),
			0);
	KUNIT_ASSERT_EQ(test, pgtable_walk(pml4, virt + SZ_1G, &r), 0);
	KUNIT_EXPECT_EQ(test, r.phys, phys);
}

static void pgtable_alloc_failure(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 16);
	struct walk_check c = {test, NULL, 0};
	struct pgtable_stats st;
	pteval_t *pml4;

	/* 8 GiB in 2 MiB pages takes 10 tables: every shortfall fails. */
	for (u32 n = 0; n < 10; n++) {
		arena_reset(a);
		a->fail_after = n;
		KUNIT_EXPECT_TRUE(test,
				  !pgtable_build_identity(8 * SZ_1G, false,
							  &a->alloc, &st));
		KUNIT_EXPECT_EQ(test, a->used, n);
	}
	arena_reset(a);
	a->fail_after = 10;
	KUNIT_EXPECT_TRUE(test, pgtable_build_identity(8 * SZ_1G, false,
						       &a->alloc, &st) != NULL);

	/* A table not on a page boundary would not fit in an entry. */
	arena_reset(a);
	a->fail_after = ~0u;
	a->misalign = true;
	KUNIT_EXPECT_TRUE(test,
			  !pgtable_build_identity(SZ_1G, true, &a->alloc, &st));
	a->misalign = false;

	/*
	 * Splitting for the APIC page needs two tables. With none, or one,
	 * map_range fails and the page keeps its old translation.
	 */
	arena_reset(a);
	a->fail_after = 2;
	pml4 = pgtable_build_identity(8 * SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	c.pml4 = pml4;
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, 0xfee00000, SZ_4K, MMIO,
					  &a->alloc, &st),
			-1);
	check_at(&c, 0xfee00000, SZ_1G, LEAF_1G, __LINE__);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 8);
	KUNIT_EXPECT_EQ(test, st.tables, 2);

	a->fail_after = 3;
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, 0xfee00000, SZ_4K, MMIO,
					  &a->alloc, &st),
			-1);
	check_at(&c, 0xfee00000, SZ_2M, LEAF_2M, __LINE__);
	check_at(&c, 0xc0000000, SZ_2M, LEAF_2M, __LINE__);
	KUNIT_EXPECT_EQ(test, st.pages_1g, 7);
	KUNIT_EXPECT_EQ(test, st.pages_2m, 512);

	a->fail_after = ~0u;
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, 0xfee00000, SZ_4K, MMIO,
					  &a->alloc, &st),
			0);
	check_at(&c, 0xfee00000, SZ_4K, LEAF_4K | MMIO, __LINE__);
	check_at(&c, 0xfee01000, SZ_4K, LEAF_4K, __LINE__);
	KUNIT_EXPECT_EQ(test, st.tables, 4);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

static void pgtable_walk_edges(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 4);
	struct pgtable_walk_result res;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(SZ_1G, true, &a->alloc, NULL);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x12345678, &res), 0);
	KUNIT_EXPECT_EQ(test, res.phys, 0x12345678);
	KUNIT_EXPECT_EQ(test, res.level, 3);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x12345678, NULL), 0);
	/* Non-canonical, and canonical but in the empty upper half. */
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x0000800000000000ull, &res),
			-1);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x8000000012345678ull, &res),
			-1);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0xffffffff80000000ull, &res),
			-1);
	/* PS in a PML4 entry is reserved: the walk refuses the tree. */
	pml4[0] |= _PAGE_PSE;
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0, &res), -1);
	pml4[0] &= ~_PAGE_PSE;

	/* Levels and sizes after splits. */
	KUNIT_ASSERT_EQ(
		test,
		pgtable_map_range(pml4, 0x200000, SZ_4K, 0, &a->alloc, NULL),
		0);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x200123, &res), 0);
	KUNIT_EXPECT_EQ(test, res.level, 1);
	KUNIT_EXPECT_EQ(test, res.page_size, SZ_4K);
	KUNIT_EXPECT_EQ(test, res.phys, 0x200123);
	KUNIT_EXPECT_EQ(test, pgtable_walk(pml4, 0x400000, &res), 0);
	KUNIT_EXPECT_EQ(test, res.level, 2);
	KUNIT_EXPECT_EQ(test, res.page_size, SZ_2M);
}

static void pgtable_map_range_args(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 8);
	struct pgtable_stats st;
	pteval_t *pml4;

	pml4 = pgtable_build_identity(SZ_1G, true, &a->alloc, &st);
	KUNIT_ASSERT_NOT_NULL(test, pml4);
	/* Nothing asked: nothing done. */
	KUNIT_EXPECT_EQ(
		test, pgtable_map_range(pml4, 0x1000, 0, MMIO, &a->alloc, &st),
		0);
	KUNIT_EXPECT_EQ(test, a->used, 2);
	/* Beyond what an identity map can reach, or wrapping. */
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, PGTABLE_IDENTITY_MAX - SZ_4K,
					  2 * SZ_4K, MMIO, &a->alloc, &st),
			-1);
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, 0xfffffffffffff000ull,
					  2 * SZ_4K, MMIO, &a->alloc, &st),
			-1);
	KUNIT_EXPECT_EQ(
		test,
		pgtable_map_range(pml4, SZ_4K, ~0ull, MMIO, &a->alloc, &st),
		-1);
	KUNIT_EXPECT_EQ(test, a->used, 2);
	/* The very last page of the lower half is fine. */
	KUNIT_EXPECT_EQ(test,
			pgtable_map_range(pml4, PGTABLE_IDENTITY_MAX - SZ_4K,
					  SZ_4K, MMIO, &a->alloc, &st),
			0);
	KUNIT_EXPECT_EQ(test,
			pgtable_walk(pml4, PGTABLE_IDENTITY_MAX - 1, NULL), 0);
}

/*
 * The plan from a map: the write-back limit covers 4 GiB and the map's
 * memory but not its MMIO, which is mapped on its own, uncached, as are
 * the named devices; an MMIO region past the reach of 4-level paging is
 * mapped up to it and counted, not a failure. Without 1 GiB pages the
 * same map needs only a few tables: the PCI window far up does not
 * stretch the write-back map.
 */
static void pgtable_identity_map_plan(struct kunit *test)
{
	struct table_arena *a = arena_new(test, 64);
	struct phys_region regions[] = {
		{0x100000, 0x7ff00000, PHYS_FREE},
		{0xfec00000, 0x1000, PHYS_MMIO},
		{0x100000000ull, 0x40000000, PHYS_PERSISTENT},
		{0x8000000000ull, 0x40000000, PHYS_MMIO},
		{PGTABLE_IDENTITY_MAX - SZ_2M, 2 * SZ_2M, PHYS_MMIO},
	};
	struct phys_map map = {.regions = regions, .nr = 2, .capacity = 5};
	const u64 hpet = 0xfed00000;
	struct pgtable_walk_result res;
	struct identity_map im;
	char why[80] = "";

	KUNIT_EXPECT_EQ(test, identity_map_limit(&map), 4 * SZ_1G);
	map.nr = 5;
	KUNIT_EXPECT_EQ(test, identity_map_limit(&map), 5 * SZ_1G);
	for (int use_1g = 1; use_1g >= 0; use_1g--) {
		arena_reset(a);
		KUNIT_ASSERT_EQ(test,
				identity_map_build(&im, &map, &hpet, 1, use_1g,
						   &a->alloc, why, sizeof(why)),
				0);
		KUNIT_EXPECT_EQ(test, im.limit, 5 * SZ_1G);
		KUNIT_EXPECT_EQ(test, im.nr_mmio_unreachable, 1);
		KUNIT_EXPECT_EQ(test, im.stats.tables, a->used);
		KUNIT_EXPECT_LE(test, a->used, 16);
		KUNIT_ASSERT_EQ(test, pgtable_walk(im.pml4, 0xfec00000, &res),
				0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, MMIO);
		KUNIT_ASSERT_EQ(test, pgtable_walk(im.pml4, hpet + 8, &res), 0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, MMIO);
		KUNIT_ASSERT_EQ(test,
				pgtable_walk(im.pml4, 0x8020000000ull, &res), 0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, MMIO);
		KUNIT_EXPECT_EQ(test, res.phys, 0x8020000000ull);
		KUNIT_ASSERT_EQ(test,
				pgtable_walk(im.pml4, PGTABLE_IDENTITY_MAX - 1,
					     &res),
				0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, MMIO);
		KUNIT_ASSERT_EQ(test, pgtable_walk(im.pml4, 0x7ff00000, &res),
				0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, 0);
		KUNIT_EXPECT_EQ(test, res.phys, 0x7ff00000ull);
		/* Memory ends the write-back map; nothing past it. */
		KUNIT_ASSERT_EQ(test,
				pgtable_walk(im.pml4, 5 * SZ_1G - 1, &res), 0);
		KUNIT_EXPECT_EQ(test, res.flags & MMIO, 0);
		KUNIT_EXPECT_EQ(test, pgtable_walk(im.pml4, 5 * SZ_1G, NULL),
				-1);
	}

	/* Tables run out: said, with the limit. */
	arena_reset(a);
	a->fail_after = 1;
	KUNIT_EXPECT_EQ(test,
			identity_map_build(&im, &map, &hpet, 1, true, &a->alloc,
					   why, sizeof(why)),
			-1);
	KUNIT_EXPECT_TRUE(test, strstr(why, "out of memory for page tables"));
	/* A device the image uses past the reach: a failure, named. */
	arena_reset(a);
	a->fail_after = ~0u;
	map.nr = 1;
	{
		const u64 far = PGTABLE_IDENTITY_MAX + SZ_4K;

		KUNIT_EXPECT_EQ(test,
				identity_map_build(&im, &map, &far, 1, true,
						   &a->alloc, why, sizeof(why)),
				-1);
		KUNIT_EXPECT_TRUE(test, strstr(why, "cannot map MMIO at"));
	}
}

static const struct kunit_case pgtable_cases[] = {
	KUNIT_CASE(pgtable_identity_8g_1g),
	KUNIT_CASE(pgtable_identity_8g_2m),
	KUNIT_CASE(pgtable_identity_odd_limit),
	KUNIT_CASE(pgtable_identity_1t),
	KUNIT_CASE(pgtable_identity_1t_2m),
	KUNIT_CASE(pgtable_identity_max),
	KUNIT_CASE(pgtable_mmio_hole_1g),
	KUNIT_CASE(pgtable_mmio_4k),
	KUNIT_CASE(pgtable_split_keeps_attributes),
	KUNIT_CASE(pgtable_map_unmapped_range),
	KUNIT_CASE(pgtable_map_pages_high),
	KUNIT_CASE(pgtable_alloc_failure),
	KUNIT_CASE(pgtable_walk_edges),
	KUNIT_CASE(pgtable_map_range_args),
	KUNIT_CASE(pgtable_identity_map_plan),
};

KUNIT_SUITE_DEFINE(pgtable_suite, "pgtable", pgtable_cases);
