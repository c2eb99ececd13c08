// SPDX-License-Identifier: GPL-2.0-only
/*
 * The frame allocator on made-up address ranges: it keeps books only, so
 * nothing here touches the memory it hands out. A page-state model checks
 * random allocate/free sequences against first fit.
 */
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/string.h"
#include "mm/frame_alloc.h"

#define PG FRAME_SIZE

static struct frame_allocator *new_fa(struct kunit *test, u64 min_addr)
{
	/* 8 KiB of ranges: too big for a kernel stack, so not on one. */
	struct frame_allocator *fa = kunit_kzalloc(test, sizeof(*fa));

	KUNIT_ASSERT_NOT_NULL(test, fa);
	frame_alloc_init(fa, min_addr);
	return fa;
}

static void frame_alloc_alignment(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	const u64 base = SZ_1M + 3 * PG, end = 64 * SZ_1G;
	u64 a, b, c, d;

	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, base, end - base), 0);
	KUNIT_EXPECT_EQ(test, fa->total_bytes, end - base);

	a = frame_alloc(fa, PG, PG);
	KUNIT_EXPECT_EQ(test, a, base);
	b = frame_alloc(fa, SZ_2M, SZ_2M);
	KUNIT_EXPECT_EQ(test, b, SZ_2M);
	c = frame_alloc(fa, SZ_1G, SZ_1G);
	KUNIT_EXPECT_EQ(test, c, SZ_1G);
	/* 5000 bytes is two pages; alignment below a page means a page. */
	d = frame_alloc(fa, 5000, 0);
	KUNIT_EXPECT_EQ(test, d, base + PG);
	KUNIT_EXPECT_EQ(test, fa->free_bytes,
			end - base - (PG + SZ_2M + SZ_1G + 2 * PG));
	/* The gaps in front of the 2M and 1G blocks stay free: 3 ranges. */
	KUNIT_EXPECT_EQ(test, fa->nr, 3);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* Not a power of two, or nothing asked for: refused. */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, 3 * PG), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 0, PG), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, ~0ull, PG), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, 1ull << 63), 0);

	KUNIT_EXPECT_EQ(test, frame_free(fa, c, SZ_1G), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, a, PG), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, b, SZ_2M), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, d, 5000), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].base, base);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, end - base);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

static void frame_alloc_exhaustion(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	u64 got[64];
	int n = 0;

	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_1M, 64 * PG), 0);
	/* Asking for more than there is changes nothing. */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 65 * PG, PG), 0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 64 * PG);

	for (;;) {
		u64 a = frame_alloc(fa, PG, PG);

		if (!a)
			break;
		KUNIT_ASSERT_LT(test, n, 64);
		got[n++] = a;
	}
	KUNIT_EXPECT_EQ(test, n, 64);
	for (int i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, got[i], SZ_1M + i * PG);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 0);
	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, PG), 0);

	/* One page back: a two-page request still fails, one page works. */
	KUNIT_ASSERT_EQ(test, frame_free(fa, got[10], PG), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 2 * PG, PG), 0);
	KUNIT_ASSERT_EQ(test, frame_free(fa, got[11], PG), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 2 * PG, PG), got[10]);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

/*
 * Fill the table with 512 ranges of five pages, [+0x1000, +0x6000) in
 * every 64 KiB. Then allocations that would split a range have no slot.
 */
static void frame_alloc_table_full(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, 0);
	u64 free_before;

	for (u64 k = 1; k <= FRAME_ALLOC_MAX_RANGES; k++)
		KUNIT_ASSERT_EQ(
			test,
			frame_alloc_add_range(fa, k * 0x10000 + PG, 5 * PG), 0);
	KUNIT_ASSERT_EQ(test, fa->nr, FRAME_ALLOC_MAX_RANGES);
	free_before = fa->free_bytes;
	KUNIT_EXPECT_EQ(test, free_before, FRAME_ALLOC_MAX_RANGES * 5 * PG);

	/* One more separate range: no slot, nothing changes. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0x40000000, PG), -1);
	KUNIT_EXPECT_EQ(test, fa->nr, FRAME_ALLOC_MAX_RANGES);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, free_before);
	KUNIT_EXPECT_EQ(test, fa->total_bytes, free_before);
	/* An overlapping one is refused too. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0x12000, PG), -1);

	/*
	 * 16 KiB aligned: +0x4000 in every range, which leaves a piece on
	 * either side, and the range's top (+0x5000) is not aligned either.
	 */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, 0x4000), 0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, free_before);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* 8 KiB at 8 KiB: first fit splits, the range's top does not. */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 2 * PG, 2 * PG), 0x14000);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].base, 0x11000);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 3 * PG);
	/* No split needed at all: fine while full. */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, PG), 0x11000);
	KUNIT_EXPECT_EQ(test, frame_free(fa, 0x11000, PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, FRAME_ALLOC_MAX_RANGES);

	/* A free that touches no free range needs a slot: refused. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, 0x40000000, PG), -1);
	/* One that touches a neighbour merges and needs none. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, 0x14000, 2 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, free_before);

	/* Use up a whole range: a slot opens, the 16 KiB case now works. */
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 5 * PG, PG), 0x11000);
	KUNIT_EXPECT_EQ(test, fa->nr, FRAME_ALLOC_MAX_RANGES - 1);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, 0x4000), 0x24000);
	KUNIT_EXPECT_EQ(test, fa->nr, FRAME_ALLOC_MAX_RANGES);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

static void frame_alloc_free_merge(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	u64 a, b, c;

	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_1M, 16 * PG), 0);
	a = frame_alloc(fa, 4 * PG, PG);
	b = frame_alloc(fa, 4 * PG, PG);
	c = frame_alloc(fa, 4 * PG, PG);
	KUNIT_EXPECT_EQ(test, a, SZ_1M);
	KUNIT_EXPECT_EQ(test, b, SZ_1M + 4 * PG);
	KUNIT_EXPECT_EQ(test, c, SZ_1M + 8 * PG);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);

	/* Middle alone, then the left joins it, then the right joins all. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, b, 4 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 2);
	KUNIT_EXPECT_EQ(test, frame_free(fa, a, 4 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 2);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 8 * PG);
	KUNIT_EXPECT_EQ(test, frame_free(fa, c, 4 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].base, SZ_1M);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 16 * PG);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* Merging with the next range only. */
	a = frame_alloc(fa, 16 * PG, PG);
	KUNIT_EXPECT_EQ(test, frame_free(fa, a + 8 * PG, 8 * PG), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, a + 4 * PG, 4 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].base, a + 4 * PG);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* Adding a range next to free memory merges as well. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, SZ_1M + 16 * PG, PG),
			0);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 13 * PG);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

static void frame_alloc_double_free(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	u64 x, free_now;

	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_2M, 8 * PG), 0);
	x = frame_alloc(fa, 8 * PG, PG);
	KUNIT_ASSERT_EQ(test, x, SZ_2M);

	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 2 * PG, 2 * PG), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 2 * PG, 2 * PG), -1);
	/* Half over the free block, from either side. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 3 * PG, 2 * PG), -1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 1 * PG, 2 * PG), -1);
	/* Spanning it whole. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, x, 8 * PG), -1);
	/* A size inside the last page still covers the whole page. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + PG, PG + 1), -1);
	free_now = fa->free_bytes;
	KUNIT_EXPECT_EQ(test, free_now, 2 * PG);

	/* What was never handed out. */
	KUNIT_EXPECT_EQ(test, frame_free(fa, 0, PG), -1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 0x800, PG), -1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x, 0), -1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, SZ_1M - PG, PG), -1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, 0xfffffffffffff000ull, 2 * PG),
			-1);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x, ~0ull), -1);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, free_now);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	KUNIT_EXPECT_EQ(test, frame_free(fa, x + PG, PG), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x, PG), 0);
	KUNIT_EXPECT_EQ(test, frame_free(fa, x + 4 * PG, 4 * PG), 0);
	KUNIT_EXPECT_EQ(test, fa->nr, 1);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 8 * PG);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

static void frame_alloc_min_addr(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);

	/* Clipped at min_addr; a range wholly below it adds nothing. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0, 4 * SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, fa->total_bytes, 3 * SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0x8000, 0x10000), 0);
	KUNIT_EXPECT_EQ(test, fa->total_bytes, 3 * SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, PG), SZ_1M);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* min_addr 0 still keeps page 0: 0 means failure. */
	fa = new_fa(test, 0);
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0, 0x10000), 0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 0xf000);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, PG), PG);

	/* An unaligned min_addr, and a range trimmed inwards to pages. */
	fa = new_fa(test, 0x1234);
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0, 0x10800), 0);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].base, 0x2000);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 0xe000);
	KUNIT_EXPECT_EQ(test, frame_free(fa, PG, PG), -1);

	/* A range running past 2^64 is cut at the last whole page. */
	fa = new_fa(test, SZ_1M);
	KUNIT_EXPECT_EQ(
		test, frame_alloc_add_range(fa, 0xffffffffffff0000ull, 0x20000),
		0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 15 * PG);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 15 * PG, 16 * PG),
			0xffffffffffff0000ull);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));

	/* A floor at the very top leaves nothing to add. */
	fa = new_fa(test, ~0ull);
	KUNIT_EXPECT_EQ(test, frame_alloc_add_range(fa, 0, ~0ull), 0);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, 0);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, PG, PG), 0);
}

static void frame_alloc_largest_range(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);

	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), 0);
	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_1M, 4 * PG), 0);
	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_1G, 64 * SZ_1M), 0);
	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, SZ_2M, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), 64 * SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 48 * SZ_1M, SZ_2M), SZ_1G);
	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), 16 * SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc(fa, 16 * SZ_1M, PG),
			SZ_1G + 48 * SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), SZ_1M);
	KUNIT_EXPECT_EQ(test, fa->nr, 2);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

/* A 4 GiB machine as boot/ would hand it over, already normalised. */
static const struct phys_region four_gib_map[] = {
	{0x0000000000, 0x00001000, PHYS_BOOT_SERVICES},
	{0x0000001000, 0x0009f000, PHYS_FREE},
	{0x0000100000, 0x7ef00000, PHYS_FREE},
	{0x007f000000, 0x00800000, PHYS_BOOT_SERVICES},
	{0x007f800000, 0x00100000, PHYS_LOADER},
	{0x007f900000, 0x00500000, PHYS_BOOT_SERVICES},
	{0x007fe00000, 0x00200000, PHYS_RESERVED},
	{0x00b0000000, 0x10000000, PHYS_RESERVED},
	{0x0100000000, 0x80000000, PHYS_FREE},
};

static void frame_alloc_from_phys_map(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	struct phys_map map = {
		.regions = (struct phys_region *)four_gib_map,
		.nr = ARRAY_SIZE(four_gib_map),
		.capacity = ARRAY_SIZE(four_gib_map),
	};
	u64 memmap, added;

	/* Low free memory sits under min_addr: not added. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_type(fa, &map, PHYS_FREE, &added),
			0);
	KUNIT_EXPECT_EQ(test, added, 0x7ef00000 + 0x80000000ull);
	/* Page 0 is boot services memory too, and below min_addr. */
	KUNIT_EXPECT_EQ(
		test,
		frame_alloc_add_type(fa, &map, PHYS_BOOT_SERVICES, &added), 0);
	KUNIT_EXPECT_EQ(test, added, 0x00d00000ull);
	/* The same type twice overlaps: refused. */
	KUNIT_EXPECT_EQ(test, frame_alloc_add_type(fa, &map, PHYS_FREE, NULL),
			-1);
	KUNIT_EXPECT_EQ(test, fa->total_bytes,
			0x7ef00000 + 0x80000000ull + 0x00d00000);
	/*
	 * Free and boot services memory touch, so they merge: [1M, loader),
	 * [loader end, reserved), [4G, 6G).
	 */
	KUNIT_EXPECT_EQ(test, fa->nr, 3);
	KUNIT_EXPECT_EQ(test, fa->ranges[0].size, 0x7f800000 - SZ_1M);
	KUNIT_EXPECT_EQ(test, frame_alloc_largest(fa), 0x80000000);

	/*
	 * The memmap that "mm: use memcpy_nt() in zone-device template
	 * copies" times: 1.6 GiB of struct pages for a 100 GiB namespace.
	 */
	memmap = frame_alloc(fa, 1600 * SZ_1M, SZ_2M);
	KUNIT_EXPECT_EQ(test, memmap, SZ_2M);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

enum { PAGE_NONE, PAGE_FREE, PAGE_USED };
#define MODEL_PAGES 256
#define MODEL_BASE 0x10000000ull

/* First fit by brute force: the lowest aligned start of a free run. */
static u64 model_first_fit(const u8 *state, u32 pages, u64 align)
{
	for (u32 p = 0; p + pages <= MODEL_PAGES; p++) {
		u64 addr = MODEL_BASE + p * PG;
		u32 k;

		if (addr & (align - 1))
			continue;
		for (k = 0; k < pages && state[p + k] == PAGE_FREE; k++)
			;
		if (k == pages)
			return addr;
	}
	return 0;
}

static void frame_alloc_random_vs_model(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	struct {
		u64 addr;
		u32 pages;
	} blocks[MODEL_PAGES];
	u8 state[MODEL_PAGES];
	u32 nr_blocks = 0, bad = 0, allocs = 0, frees = 0;
	u64 seed = 0x2545f4914f6cdd1dull;

	/* Two ranges with a hole of ten pages the allocator never had. */
	memset(state, PAGE_NONE, sizeof(state));
	KUNIT_ASSERT_EQ(test, frame_alloc_add_range(fa, MODEL_BASE, 100 * PG),
			0);
	KUNIT_ASSERT_EQ(
		test,
		frame_alloc_add_range(fa, MODEL_BASE + 110 * PG, 146 * PG), 0);
	for (u32 p = 0; p < MODEL_PAGES; p++)
		state[p] = (p < 100 || p >= 110) ? PAGE_FREE : PAGE_NONE;

	for (int op = 0; op < 20000 && bad < 3; op++) {
		u64 r = prandom_u64(&seed);
		u32 free_pages = 0;

		if (r % 3 != 0 || nr_blocks == 0) {
			u32 pages = 1 + (r >> 8) % 8;
			u64 align = PG << ((r >> 16) % 5);
			u64 want = model_first_fit(state, pages, align);
			u64 got = frame_alloc(fa, pages * PG, align);

			if (got != want) {
				kunit_fail_at(
					test, __FILE__, __LINE__,
					"op %d: %u pages at %llx: got %llx, "
					"first fit %llx",
					op, pages, (unsigned long long)align,
					(unsigned long long)got,
					(unsigned long long)want);
				bad++;
			}
			if (got && got == want) {
				u32 p0 = (got - MODEL_BASE) / PG;

				for (u32 k = 0; k < pages; k++)
					state[p0 + k] = PAGE_USED;
				blocks[nr_blocks].addr = got;
				blocks[nr_blocks].pages = pages;
				nr_blocks++;
				allocs++;
			}
		} else {
			u32 i = (r >> 8) % nr_blocks;
			u32 p0 = (blocks[i].addr - MODEL_BASE) / PG;

			KUNIT_EXPECT_EQ(test,
					frame_free(fa, blocks[i].addr,
						   blocks[i].pages * PG),
					0);
			for (u32 k = 0; k < blocks[i].pages; k++)
				state[p0 + k] = PAGE_FREE;
			/* Now it is a double free. */
			if ((r >> 20) % 8 == 0)
				KUNIT_EXPECT_EQ(
					test,
					frame_free(fa, blocks[i].addr, PG), -1);
			blocks[i] = blocks[--nr_blocks];
			frees++;
		}
		for (u32 p = 0; p < MODEL_PAGES; p++)
			free_pages += state[p] == PAGE_FREE;
		if (fa->free_bytes != free_pages * PG ||
		    !frame_alloc_check(fa)) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "op %d: books wrong", op);
			bad++;
		}
	}
	KUNIT_EXPECT_GT(test, allocs, 1000);
	KUNIT_EXPECT_GT(test, frees, 1000);

	while (nr_blocks) {
		nr_blocks--;
		KUNIT_EXPECT_EQ(test,
				frame_free(fa, blocks[nr_blocks].addr,
					   blocks[nr_blocks].pages * PG),
				0);
	}
	KUNIT_EXPECT_EQ(test, fa->nr, 2);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, fa->total_bytes);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

/*
 * A map that claims more free memory than an s64 holds: the bytes are
 * counted as they are, not taken for an error.
 */
static void frame_alloc_huge_region_counted(struct kunit *test)
{
	struct frame_allocator *fa = new_fa(test, SZ_1M);
	struct phys_region huge[] = {
		{SZ_1M, 0xfff0000000000000ull, PHYS_FREE},
		{0xfff0000000100000ull, 0x100000, PHYS_FREE},
	};
	struct phys_map map = {.regions = huge, .nr = 2, .capacity = 2};
	u64 added = 0;

	KUNIT_EXPECT_EQ(test, frame_alloc_add_type(fa, &map, PHYS_FREE, &added),
			0);
	KUNIT_EXPECT_EQ(test, added, 0xfff0000000000000ull + 0x100000);
	KUNIT_EXPECT_EQ(test, fa->free_bytes, added);
	KUNIT_EXPECT_TRUE(test, frame_alloc_check(fa));
}

static const struct kunit_case frame_alloc_cases[] = {
	KUNIT_CASE(frame_alloc_alignment),
	KUNIT_CASE(frame_alloc_exhaustion),
	KUNIT_CASE(frame_alloc_table_full),
	KUNIT_CASE(frame_alloc_free_merge),
	KUNIT_CASE(frame_alloc_double_free),
	KUNIT_CASE(frame_alloc_min_addr),
	KUNIT_CASE(frame_alloc_largest_range),
	KUNIT_CASE(frame_alloc_from_phys_map),
	KUNIT_CASE(frame_alloc_random_vs_model),
	KUNIT_CASE(frame_alloc_huge_region_counted),
};

KUNIT_SUITE_DEFINE(frame_alloc_suite, "frame_alloc", frame_alloc_cases);
