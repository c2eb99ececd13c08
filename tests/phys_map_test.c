// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory-map normalisation: a recorded OVMF map that needs next to no
 * mending, and broken maps that need all of it. A brute-force model (paint
 * every unit with the strictest type) checks random maps.
 */
#include "lib/kunit.h"
#include "lib/prandom.h"
#include "lib/string.h"
#include "mm/phys_map.h"

#define F PHYS_FREE
#define BS PHYS_BOOT_SERVICES
#define AR PHYS_ACPI_RECLAIM
#define LD PHYS_LOADER
#define RT PHYS_RUNTIME
#define NVS PHYS_ACPI_NVS
#define IO PHYS_MMIO
#define RES PHYS_RESERVED
#define BAD PHYS_UNUSABLE

/*
 * QEMU 7.2 q35, -m 512M, OVMF 2022.11 at the moment of ExitBootServices,
 * EFI types folded the way boot/ folds them: BS code/data -> BOOT_SERVICES,
 * loader code/data -> LOADER, RT code/data -> RUNTIME, flash -> MMIO. The
 * 64-bit PCI window stands in for MMIO high up.
 */
static const struct phys_region ovmf_q35_512m[] = {
	{0x0000000000, 0x00001000, BS},	    {0x0000001000, 0x0009f000, F},
	{0x0000100000, 0x00700000, F},	    {0x0000800000, 0x00008000, NVS},
	{0x0000808000, 0x00003000, F},	    {0x000080b000, 0x00001000, NVS},
	{0x000080c000, 0x00005000, F},	    {0x0000811000, 0x000ef000, NVS},
	{0x0000900000, 0x01700000, BS},	    {0x0002000000, 0x1c000000, F},
	{0x001e000000, 0x00020000, LD},	    {0x001e020000, 0x01a00000, F},
	{0x001fa20000, 0x00200000, BS}, /* BS code ... */
	{0x001fc20000, 0x00100000, BS}, /* ... then BS data: merged */
	{0x001fd20000, 0x00080000, RT}, /* RT code ... */
	{0x001fda0000, 0x00080000, RT}, /* ... then RT data: merged */
	{0x001fe20000, 0x00010000, AR},	    {0x001fe30000, 0x00050000, NVS},
	{0x001fe80000, 0x00100000, BS},	    {0x001ff80000, 0x00080000, RES},
	{0x00b0000000, 0x10000000, RES},    /* PCIe ECAM */
	{0x00ffc00000, 0x00400000, IO},	    /* flash */
	{0x8000000000, 0x800000000ull, IO}, /* 64-bit PCI window */
};

static struct phys_map *map_from(struct kunit *test,
				 const struct phys_region *src, u32 nr,
				 u32 capacity)
{
	struct phys_map *map = kunit_kzalloc(test, sizeof(*map));

	KUNIT_ASSERT_NOT_NULL(test, map);
	map->regions = kunit_kzalloc(test, (capacity ? capacity : 1) *
						   sizeof(map->regions[0]));
	KUNIT_ASSERT_NOT_NULL(test, map->regions);
	map->capacity = capacity;
	map->nr = nr;
	if (nr)
		memcpy(map->regions, src, nr * sizeof(src[0]));
	return map;
}

static bool type_is_page_ram(enum phys_type t)
{
	return t == F || t == BS || t == AR || t == LD;
}

/* What every normalised map must look like, whatever the input was. */
static void expect_normal(struct kunit *test, const struct phys_map *map)
{
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];

		KUNIT_EXPECT_NE(test, r->size, 0);
		KUNIT_EXPECT_LT(test, (u32)r->type, (u32)PHYS_NR_TYPES);
		/* Unsigned: the KUNIT compare macros are signed. */
		KUNIT_EXPECT_TRUE(test, r->size <= ~0ull - r->base);
		if (type_is_page_ram(r->type)) {
			KUNIT_EXPECT_EQ(test, r->base & 0xfff, 0);
			KUNIT_EXPECT_EQ(test, r->size & 0xfff, 0);
		}
		if (i == 0)
			continue;
		/* Sorted, disjoint, and touching only when types differ. */
		KUNIT_EXPECT_LE(test,
				map->regions[i - 1].base +
					map->regions[i - 1].size,
				r->base);
		if (map->regions[i - 1].base + map->regions[i - 1].size ==
		    r->base)
			KUNIT_EXPECT_NE(test, map->regions[i - 1].type,
					r->type);
	}
}

static void expect_region(struct kunit *test, const struct phys_map *map,
			  u32 idx, u64 base, u64 size, enum phys_type type)
{
	KUNIT_ASSERT_LT(test, idx, map->nr);
	KUNIT_EXPECT_EQ(test, map->regions[idx].base, base);
	KUNIT_EXPECT_EQ(test, map->regions[idx].size, size);
	KUNIT_EXPECT_EQ(test, map->regions[idx].type, type);
}

/* Field by field: the padding after .type is not ours to compare. */
static bool regions_equal(const struct phys_region *a,
			  const struct phys_region *b, u32 nr)
{
	for (u32 i = 0; i < nr; i++)
		if (a[i].base != b[i].base || a[i].size != b[i].size ||
		    a[i].type != b[i].type)
			return false;
	return true;
}

static void expect_no_counts(struct kunit *test, const struct phys_map *map)
{
	KUNIT_EXPECT_EQ(test, map->nr_zero_length, 0);
	KUNIT_EXPECT_EQ(test, map->nr_overlaps, 0);
	KUNIT_EXPECT_EQ(test, map->nr_unaligned, 0);
	KUNIT_EXPECT_EQ(test, map->nr_merged, 0);
	KUNIT_EXPECT_EQ(test, map->nr_wrapped, 0);
}

static void phys_map_type_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, phys_type_name(PHYS_FREE), "free");
	KUNIT_EXPECT_STREQ(test, phys_type_name(PHYS_BOOT_SERVICES),
			   "boot_services");
	KUNIT_EXPECT_STREQ(test, phys_type_name(PHYS_MMIO), "mmio");
	KUNIT_EXPECT_STREQ(test, phys_type_name(PHYS_UNUSABLE), "unusable");
	KUNIT_EXPECT_STREQ(test, phys_type_name(PHYS_NR_TYPES), "unknown");
	KUNIT_EXPECT_STREQ(test, phys_type_name((enum phys_type) - 1),
			   "unknown");
	for (int t = 0; t < PHYS_NR_TYPES; t++)
		KUNIT_EXPECT_NE(test, strcmp(phys_type_name(t), "unknown"), 0);
}

static void expect_ovmf_result(struct kunit *test, const struct phys_map *map)
{
	expect_normal(test, map);
	KUNIT_EXPECT_EQ(test, map->nr, ARRAY_SIZE(ovmf_q35_512m) - 2);
	KUNIT_EXPECT_EQ(test, map->nr_merged, 2);
	KUNIT_EXPECT_EQ(test, map->nr_overlaps, 0);
	KUNIT_EXPECT_EQ(test, map->nr_zero_length, 0);
	KUNIT_EXPECT_EQ(test, map->nr_unaligned, 0);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, F), 0x1e1a7000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, BS), 0x1b01000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, AR), 0x10000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, LD), 0x20000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, RT), 0x100000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, NVS), 0x148000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, IO), 0x800400000ull);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, RES), 0x10080000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, BAD), 0);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), 0x8800000000ull);
	/* Without the 64-bit PCI window: the PCIe ECAM, reserved, is last. */
	KUNIT_EXPECT_EQ(test, phys_map_memory_end(map), 0xc0000000ull);
	/* 512 MiB less what the firmware keeps reserved in DRAM. */
	KUNIT_EXPECT_EQ(test, phys_map_ram_bytes(map), 0x1ff20000);
	/* The merged pairs. */
	expect_region(test, map, 12, 0x1fa20000, 0x300000, BS);
	expect_region(test, map, 13, 0x1fd20000, 0x100000, RT);
	expect_region(test, map, 0, 0, 0x1000, BS);
	expect_region(test, map, map->nr - 1, 0x8000000000ull, 0x800000000ull,
		      IO);
}

static void phys_map_ovmf_recorded(struct kunit *test)
{
	struct phys_map *map =
		map_from(test, ovmf_q35_512m, ARRAY_SIZE(ovmf_q35_512m),
			 2 * ARRAY_SIZE(ovmf_q35_512m));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_ovmf_result(test, map);
	/* Normalising a normal map changes nothing and mends nothing. */
	{
		struct phys_region copy[ARRAY_SIZE(ovmf_q35_512m)];
		u32 nr = map->nr;

		memcpy(copy, map->regions, nr * sizeof(copy[0]));
		KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
		KUNIT_EXPECT_EQ(test, map->nr, nr);
		KUNIT_EXPECT_TRUE(test, regions_equal(map->regions, copy, nr));
		expect_no_counts(test, map);
	}
}

static void phys_map_unsorted(struct kunit *test)
{
	const u32 n = ARRAY_SIZE(ovmf_q35_512m);
	struct phys_map *map = map_from(test, ovmf_q35_512m, n, 2 * n);
	struct phys_map *rev = map_from(test, NULL, 0, 2 * n);

	/* Reversed, and a stride permutation (7 is prime to 23). */
	for (u32 i = 0; i < n; i++)
		rev->regions[i] = ovmf_q35_512m[n - 1 - i];
	rev->nr = n;
	for (u32 i = 0; i < n; i++)
		map->regions[i] = ovmf_q35_512m[(i * 7) % n];

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_ovmf_result(test, map);
	KUNIT_ASSERT_EQ(test, phys_map_normalize(rev), 0);
	expect_ovmf_result(test, rev);
}

static void phys_map_overlaps(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0x0100000, 0x0f00000, F},   /* [1M, 16M) */
		{0x0400000, 0x0100000, RES}, /* inside: punches a hole */
		{0x0f00000, 0x0200000, BS},  /* over the end: BS wins */
		{0x0480000, 0x0180000, LD},  /* half under RES */
		{0x0100000, 0x0f00000, F},   /* a duplicate */
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_ASSERT_EQ(test, map->nr, 5);
	expect_region(test, map, 0, 0x100000, 0x300000, F);
	expect_region(test, map, 1, 0x400000, 0x100000, RES);
	expect_region(test, map, 2, 0x500000, 0x100000, LD);
	expect_region(test, map, 3, 0x600000, 0x900000, F);
	expect_region(test, map, 4, 0xf00000, 0x200000, BS);
	/*
	 * Each resolved pair counts: dup vs original, F vs RES, F tail vs LD,
	 * LD vs RES, F tail vs BS.
	 */
	KUNIT_EXPECT_EQ(test, map->nr_overlaps, 5);
	KUNIT_EXPECT_EQ(test, map->nr_zero_length, 0);
	KUNIT_EXPECT_EQ(test, map->nr_unaligned, 0);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, F), 0xc00000);
}

/* The strict region first, a weaker one spanning it later in the input. */
static void phys_map_overlap_order(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0x200000, 0x100000, RT},
		{0x100000, 0x400000, F},
		{0x200000, 0x100000, AR},  /* same base, weaker than RT */
		{0x250000, 0x010000, BAD}, /* inside RT: strictest */
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_ASSERT_EQ(test, map->nr, 5);
	expect_region(test, map, 0, 0x100000, 0x100000, F);
	expect_region(test, map, 1, 0x200000, 0x50000, RT);
	expect_region(test, map, 2, 0x250000, 0x10000, BAD);
	expect_region(test, map, 3, 0x260000, 0xa0000, RT);
	expect_region(test, map, 4, 0x300000, 0x200000, F);
	KUNIT_EXPECT_GE(test, map->nr_overlaps, 3);
	KUNIT_EXPECT_EQ(test, phys_map_ram_bytes(map), 0x400000 - 0x10000);
}

static void phys_map_zero_length(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0x1000, 0, F},	    {0x100000, 0x100000, F},
		{0x180000, 0, RES}, /* inside F: no hole */
		{0, 0, BAD},	    {0x200000, 0x1000, F}, /* touches: merged */
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_ASSERT_EQ(test, map->nr, 1);
	expect_region(test, map, 0, 0x100000, 0x101000, F);
	KUNIT_EXPECT_EQ(test, map->nr_zero_length, 3);
	KUNIT_EXPECT_EQ(test, map->nr_merged, 1);
	KUNIT_EXPECT_EQ(test, map->nr_overlaps, 0);

	/* Nothing but empties: an empty map, still a success. */
	map = map_from(test, in, 1, 1);
	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	KUNIT_EXPECT_EQ(test, map->nr, 0);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), 0);
	KUNIT_EXPECT_EQ(test, phys_map_ram_bytes(map), 0);
	map = map_from(test, NULL, 0, 0);
	KUNIT_EXPECT_EQ(test, phys_map_normalize(map), 0);
}

static void phys_map_unaligned_ram(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0x001800, 0x004000, F},   /* -> [0x2000, 0x5000) */
		{0x010010, 0x000800, F},   /* under a page: gone */
		{0x020000, 0x000100, RES}, /* not RAM: kept as is */
		{0x020100, 0x00ff00, F},   /* -> [0x21000, 0x30000) */
		/*
		 * Loader data at an odd address over free memory: its pages
		 * must not fall back to FREE; the shared pages become holes.
		 */
		{0x040000, 0x010000, F},
		{0x044800, 0x001000, LD},
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_ASSERT_EQ(test, map->nr, 5);
	expect_region(test, map, 0, 0x002000, 0x3000, F);
	expect_region(test, map, 1, 0x020000, 0x100, RES);
	expect_region(test, map, 2, 0x021000, 0xf000, F);
	expect_region(test, map, 3, 0x040000, 0x4000, F);
	expect_region(test, map, 4, 0x046000, 0xa000, F);
	/* 0x1800 F, 0x10010 F, 0x20100 F, the two F halves, the LD. */
	KUNIT_EXPECT_EQ(test, map->nr_unaligned, 6);
	KUNIT_EXPECT_EQ(test, map->nr_overlaps, 1);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, LD), 0);
}

static void phys_map_wrap(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0xffffffffffff0000ull, 0x20000, RES},
		{0xffffffff00000000ull, 0x200000000ull, F},
		{0x1000, ~0ull, IO},
		{~0ull, 1, RES}, /* only the unrepresentable byte */
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_EXPECT_EQ(test, map->nr_wrapped, 4);
	/* The MMIO region from 0x1000 wins over the free one. */
	KUNIT_ASSERT_EQ(test, map->nr, 2);
	expect_region(test, map, 0, 0x1000, 0xffffffffffff0000ull - 0x1000, IO);
	expect_region(test, map, 1, 0xffffffffffff0000ull, 0xffff, RES);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), ~0ull);

	/* Free memory alone up there: clipped, then trimmed to pages. */
	map = map_from(test, &in[1], 1, 2);
	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	KUNIT_ASSERT_EQ(test, map->nr, 1);
	expect_region(test, map, 0, 0xffffffff00000000ull, 0xfffff000ull, F);
	KUNIT_EXPECT_EQ(test, map->nr_wrapped, 1);
	KUNIT_EXPECT_EQ(test, map->nr_unaligned, 1);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), 0xfffffffffffff000ull);

	/*
	 * Free memory starting inside the last page: nothing whole is
	 * left. Rounding its base up first would wrap it to 0 and make
	 * the whole address space free.
	 */
	{
		static const struct phys_region last[] = {
			{0xffffffffffffff00ull, 0x1000, F},
		};

		map = map_from(test, last, 1, 2);
		KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
		KUNIT_EXPECT_EQ(test, map->nr, 0);
		KUNIT_EXPECT_EQ(test, phys_map_ram_bytes(map), 0);
	}

	/* The helpers saturate on a map not yet normalised. */
	map = map_from(test, in, 1, 1);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), ~0ull);
}

static void phys_map_unknown_type(struct kunit *test)
{
	struct phys_region in[] = {
		{0x100000, 0x100000, F},
		{0x140000, 0x1000, (enum phys_type)42},
	};
	struct phys_map *map = map_from(test, in, 2, 4);

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_ASSERT_EQ(test, map->nr, 3);
	expect_region(test, map, 1, 0x140000, 0x1000, RES);
}

static void phys_map_capacity(struct kunit *test)
{
	static const struct phys_region hole[] = {
		{0x100000, 0x100000, F},
		{0x140000, 0x10000, RES},
	};
	struct phys_map *map;

	/* More entries than room: refused before anything moves. */
	map = map_from(test, hole, 2, 2);
	map->nr = 3;
	KUNIT_EXPECT_EQ(test, phys_map_normalize(map), -1);

	/* The hole splits the free region into two: 3 regions, room for 2. */
	map = map_from(test, hole, 2, 2);
	KUNIT_EXPECT_EQ(test, phys_map_normalize(map), -1);
	KUNIT_EXPECT_LE(test, map->nr, 2);

	map = map_from(test, hole, 2, 3);
	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	KUNIT_EXPECT_EQ(test, map->nr, 3);
	expect_normal(test, map);
}

/*
 * The worst case for room: one wide free region, stricter regions nested
 * inside one another and side by side; 2*nr must always suffice.
 */
static void phys_map_capacity_worst(struct kunit *test)
{
	enum { N = 40 };
	struct phys_region in[N];
	struct phys_map *map;

	in[0] = (struct phys_region){0, 0x1000000, F};
	for (u32 i = 1; i < N / 2; i++)
		in[i] = (struct phys_region){i * 0x40000, 0x10000, RES};
	/* Nested staircase at the top: each level inside the one before. */
	for (u32 i = N / 2; i < N; i++) {
		u32 d = i - N / 2;

		in[i] = (struct phys_region){0x800000 + d * 0x1000,
					     0x400000 - 2 * d * 0x1000,
					     (enum phys_type)(1 + d % 8)};
	}
	map = map_from(test, in, N, 2 * N);
	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	expect_normal(test, map);
	KUNIT_EXPECT_LE(test, map->nr, 2 * N - 1);
}

/*
 * The model works in units of half a page, so unaligned regions happen. It
 * paints every unit with the strictest type covering it, then turns runs
 * of one type into regions and trims RAM runs to whole pages.
 */
#define MODEL_UNIT 0x800ull
#define MODEL_UNITS 160
#define MODEL_BASE 0x7ff00000ull

static u32 model_expected(const struct phys_region *in, u32 n,
			  struct phys_region *out)
{
	int paint[MODEL_UNITS];
	u32 nr = 0;

	for (u32 u = 0; u < MODEL_UNITS; u++)
		paint[u] = -1;
	for (u32 i = 0; i < n; i++) {
		u64 first = (in[i].base - MODEL_BASE) / MODEL_UNIT;
		u64 count = in[i].size / MODEL_UNIT;

		for (u64 u = first; u < first + count; u++)
			paint[u] = max(paint[u], (int)in[i].type);
	}
	for (u32 u = 0; u < MODEL_UNITS;) {
		u32 start = u;
		u64 base, end;

		if (paint[u] < 0) {
			u++;
			continue;
		}
		while (u < MODEL_UNITS && paint[u] == paint[start])
			u++;
		base = MODEL_BASE + start * MODEL_UNIT;
		end = MODEL_BASE + u * MODEL_UNIT;
		if (type_is_page_ram(paint[start])) {
			base = ALIGN_UP(base, 0x1000ull);
			end = ALIGN_DOWN(end, 0x1000ull);
			if (end <= base)
				continue;
		}
		out[nr++] = (struct phys_region){base, end - base,
						 (enum phys_type)paint[start]};
	}
	return nr;
}

static void phys_map_random_vs_model(struct kunit *test)
{
	enum { MAX_IN = 24 };
	struct phys_region in[MAX_IN], want[MODEL_UNITS];
	struct phys_map *map = map_from(test, NULL, 0, 2 * MAX_IN);
	u64 seed = 0x9e3779b97f4a7c15ull;
	u32 bad = 0, overlaps = 0, unaligned = 0, merged = 0;

	for (int iter = 0; iter < 2000 && bad < 3; iter++) {
		u32 n = 1 + prandom_u64(&seed) % MAX_IN, nr_want, zero = 0;

		for (u32 i = 0; i < n; i++) {
			u64 first = prandom_u64(&seed) % (MODEL_UNITS - 1);
			u64 len = prandom_u64(&seed) % 48;

			if (prandom_u64(&seed) % 4 == 0)
				first &= ~1ull; /* page aligned, often */
			len = min(len, MODEL_UNITS - first);
			zero += len == 0;
			in[i] = (struct phys_region){
				MODEL_BASE + first * MODEL_UNIT,
				len * MODEL_UNIT,
				(enum phys_type)(prandom_u64(&seed) %
						 PHYS_NR_TYPES)};
		}
		nr_want = model_expected(in, n, want);
		memcpy(map->regions, in, n * sizeof(in[0]));
		map->nr = n;
		map->capacity = 2 * n;
		if (phys_map_normalize(map)) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "iteration %d: normalize failed", iter);
			bad++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, map->nr_zero_length, zero);
		overlaps += map->nr_overlaps;
		unaligned += map->nr_unaligned;
		merged += map->nr_merged;
		if (map->nr != nr_want ||
		    !regions_equal(map->regions, want, nr_want)) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "iteration %d: %u regions, model %u",
				      iter, map->nr, nr_want);
			bad++;
		}
		expect_normal(test, map);
		/* Idempotent, and nothing left to mend. */
		KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
		KUNIT_EXPECT_EQ(test, map->nr, nr_want);
		expect_no_counts(test, map);
	}
	/* The maps were broken enough to exercise every mending path. */
	KUNIT_EXPECT_GT(test, overlaps, 1000);
	KUNIT_EXPECT_GT(test, unaligned, 1000);
	KUNIT_EXPECT_GT(test, merged, 100);
}

static void phys_map_totals(struct kunit *test)
{
	static const struct phys_region in[] = {
		{0x0000000, 0x100000, F},   {0x0100000, 0x100000, BS},
		{0x0200000, 0x100000, AR},  {0x0300000, 0x100000, LD},
		{0x0400000, 0x100000, RT},  {0x0500000, 0x100000, NVS},
		{0x0600000, 0x100000, IO},  {0x0700000, 0x100000, RES},
		{0x0800000, 0x100000, BAD}, {0x1000000, 0x100000, F},
	};
	struct phys_map *map =
		map_from(test, in, ARRAY_SIZE(in), 2 * ARRAY_SIZE(in));

	KUNIT_ASSERT_EQ(test, phys_map_normalize(map), 0);
	KUNIT_EXPECT_EQ(test, map->nr, ARRAY_SIZE(in));
	KUNIT_EXPECT_EQ(test, phys_map_total(map, F), 0x200000);
	KUNIT_EXPECT_EQ(test, phys_map_total(map, BAD), 0x100000);
	KUNIT_EXPECT_EQ(test, phys_map_ram_bytes(map), 7 * 0x100000);
	KUNIT_EXPECT_EQ(test, phys_map_max_addr(map), 0x1100000);
}

static const struct kunit_case phys_map_cases[] = {
	KUNIT_CASE(phys_map_type_names),
	KUNIT_CASE(phys_map_ovmf_recorded),
	KUNIT_CASE(phys_map_unsorted),
	KUNIT_CASE(phys_map_overlaps),
	KUNIT_CASE(phys_map_overlap_order),
	KUNIT_CASE(phys_map_zero_length),
	KUNIT_CASE(phys_map_unaligned_ram),
	KUNIT_CASE(phys_map_wrap),
	KUNIT_CASE(phys_map_unknown_type),
	KUNIT_CASE(phys_map_capacity),
	KUNIT_CASE(phys_map_capacity_worst),
	KUNIT_CASE(phys_map_random_vs_model),
	KUNIT_CASE(phys_map_totals),
};

KUNIT_SUITE_DEFINE(phys_map_suite, "phys_map", phys_map_cases);
