// SPDX-License-Identifier: GPL-2.0-only
/*
 * Namespaces as ndctl makes them (model/drivers/nvdimm/pfn_devs.c): the
 * data offset and altmap of map=dev for the postings' 100 GiB namespaces,
 * the kernel's refusal of a struct page over 64 bytes without
 * CONFIG_NVDIMM_KMSAN, the end cut to the alignment (end_trunc) for
 * every mode and map, and a map=dev namespace run through the model:
 * device pages from vmem_altmap_offset() on, every tail of every folio
 * written; map=mem keeps devdax's deduplicated vmemmap.
 */
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/drivers/nvdimm/pfn_devs.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)
/* where the model puts a namespace: 64 GiB, aligned to 1 GiB */
#define START ((u64)MEMMAP_DEFAULT_START_PFN << 12)

/* 100 GiB, 64-byte struct pages, data aligned to 2 MiB: fsdax, devdax2m */
static void map_dev_100g(struct kunit *test)
{
	struct nd_pfn_layout nd;
	char why[160];

	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START, 100 * GIB, SZ_2M,
				      64, false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.reserve, 2ul);
	KUNIT_EXPECT_EQ(test, nd.free, 410110ul);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 801 * SZ_2M);
	/* the struct pages both modes write: 100 GiB less the memmap */
	KUNIT_EXPECT_EQ(test, nd.npfns, 25804288ul);

	/* devdax1g: the data starts at the next 1 GiB */
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START, 100 * GIB, SZ_1G,
				      64, false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 2 * GIB);
	KUNIT_EXPECT_EQ(test, nd.free, 524286ul);
	KUNIT_EXPECT_EQ(test, nd.npfns, 25690112ul);

	/* map=mem: the info block alone before the data, no altmap */
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_RAM, START, 100 * GIB, SZ_2M, 64,
				      false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.dataoff, SZ_2M);
	KUNIT_EXPECT_EQ(test, nd.reserve + nd.free, 0ul);
}

/* Over 64 bytes: refused, unless CONFIG_NVDIMM_KMSAN sizes it as it is. */
static void map_dev_large_struct_page(struct kunit *test)
{
	struct nd_pfn_layout nd;
	char why[160];

	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START, 100 * GIB, SZ_2M,
				      96, false, &nd, why, sizeof(why)),
			-1);
	KUNIT_EXPECT_TRUE(test, strstr(why, "CONFIG_NVDIMM_KMSAN") != NULL);
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START, 100 * GIB, SZ_2M,
				      96, true, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 1201 * SZ_2M);
	KUNIT_EXPECT_EQ(test, nd.free, 614910ul);
	/* map=mem takes any size */
	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_RAM, START, 100 * GIB, SZ_2M, 96,
				      false, &nd, why, sizeof(why)),
			0);
	/* a namespace its own memmap does not leave room in */
	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START, SZ_2M, SZ_2M, 64,
				      false, &nd, why, sizeof(why)),
			-1);
}

/* The configuration the benchmark takes: an altmap, no deduplication. */
static void config_namespace_map_dev(struct kunit *test)
{
	struct memmap_config cfg;
	char why[200];

	KUNIT_ASSERT_EQ(test,
			memmap_config_namespace(&cfg, PAGE_LAYOUT_64, 9,
						100 * GIB, PFN_MODE_PMEM, why,
						sizeof(why)),
			0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_TRUE(test, cfg.altmap);
	KUNIT_EXPECT_EQ(test, cfg.altmap_reserve, 2ul);
	KUNIT_EXPECT_EQ(test, cfg.altmap_free, 410110ul);
	KUNIT_EXPECT_FALSE(test, cfg.vmemmap_optimize);
	KUNIT_EXPECT_EQ(test, cfg.map, PFN_MODE_PMEM);

	/*
	 * 80 bytes without KMSAN (LAST_CPUPID_NOT_IN_PAGE_FLAGS): laid out
	 * as CONFIG_NVDIMM_KMSAN would, with the reason the kernel refuses.
	 */
	KUNIT_ASSERT_EQ(test,
			memmap_config_namespace(&cfg, PAGE_LAYOUT_80_CPUPID, 0,
						100 * GIB, PFN_MODE_PMEM, why,
						sizeof(why)),
			0);
	KUNIT_EXPECT_TRUE(test, strstr(why, "CONFIG_NVDIMM_KMSAN") != NULL);
	KUNIT_EXPECT_TRUE(test, cfg.altmap);
	/* the KMSAN layouts: a KMSAN build may have CONFIG_NVDIMM_KMSAN */
	KUNIT_ASSERT_EQ(test,
			memmap_config_namespace(&cfg, PAGE_LAYOUT_96, 0,
						100 * GIB, PFN_MODE_PMEM, why,
						sizeof(why)),
			0);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, cfg.altmap_free, 614910ul);
}

/*
 * A devdax2m namespace of @bytes with --map=@map through the model:
 * @altmap_pfns pfns skipped (the info block and memmap of map=dev),
 * @pages initialised, @written struct pages written, every byte as the
 * model says.
 */
static void run_namespace(struct kunit *test, u64 bytes, enum nd_pfn_mode map,
			  unsigned long altmap_pfns, unsigned long pages,
			  unsigned long written)
{
	struct memmap_config cfg;
	struct memmap m;
	char why[200];

	KUNIT_ASSERT_EQ(test,
			memmap_config_namespace(&cfg, PAGE_LAYOUT_64, 9, bytes,
						map, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, cfg.altmap_reserve + cfg.altmap_free,
			altmap_pfns);
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_run(&m);
	KUNIT_EXPECT_EQ(test, m.nr_initialised, pages);
	KUNIT_EXPECT_EQ(test, memmap_pages_written(&m), written);
	ntb_snprintf(why, sizeof(why), "map=%s namespace=%llu",
		     nd_pfn_mode_name(map), (unsigned long long)bytes);
	memmap_expect_model(test, &m, why);
	memmap_destroy(&m);
}

/*
 * 1 GiB devdax2m through the model: map=dev initialises every struct
 * page after the altmap (503 folios, every tail), map=mem all 512 folios
 * with 128 struct pages each (the deduplicated vmemmap).
 */
static void run_map_dev_and_mem(struct kunit *test)
{
	run_namespace(test, GIB, PFN_MODE_PMEM, 4608, 262144ul - 4608,
		      262144ul - 4608);
	run_namespace(test, GIB, PFN_MODE_RAM, 0, 262144, 512ul * 128);
}

/*
 * One namespace of each mode and map, its size a multiple of the
 * alignment or not: the end nd_pfn_init() cuts off and the pages
 * memmap_init_zone_device() initialises, each worked out by hand from
 * the kernel's rule (docs/model.md, "The namespace"). @pages 0: the
 * kernel refuses the namespace.
 */
struct end_trunc_case {
	unsigned int order;
	enum nd_pfn_mode map;
	u64 bytes;
	u64 end_trunc;
	unsigned long pages;
};

static const struct end_trunc_case end_trunc_cases[] = {
	/*
	 * 2 MiB alignment. 2048 MiB, map=dev: memmap room 64 x 524286 pfns
	 * + 8 KiB, data at 34 MiB; (2048 - 34) x 256 pfns.
	 */
	{0, PFN_MODE_PMEM, 2048 * MIB, 0, 515584},
	{9, PFN_MODE_PMEM, 2048 * MIB, 0, 515584},
	/* 2049 MiB: 1 MiB cut, room for 524542 pfns, data still at 34 MiB */
	{0, PFN_MODE_PMEM, 2049 * MIB, MIB, 515584},
	{9, PFN_MODE_PMEM, 2049 * MIB, MIB, 515584},
	/* map=mem: no altmap, every pfn of the cut range */
	{0, PFN_MODE_RAM, 2048 * MIB, 0, 524288},
	{0, PFN_MODE_RAM, 2049 * MIB, MIB, 524288},
	{9, PFN_MODE_RAM, 2049 * MIB, MIB, 524288},
	{9, PFN_MODE_RAM, 2047 * MIB, MIB, 523776},
	/*
	 * 127.75 MiB: the room is sized before the cut (32702 pfns: 8 KiB +
	 * 2092928 bytes, past 2 MiB), so the data is at 4 MiB, not the 2
	 * MiB the cut 126 MiB would need; (126 - 4) x 256 pfns.
	 */
	{0, PFN_MODE_PMEM, 127 * MIB + 768 * 1024, 1792 * 1024, 31232},
	/* 5 MiB: cut to 4, data at 2 MiB */
	{0, PFN_MODE_PMEM, 5 * MIB, MIB, 512},
	{0, PFN_MODE_RAM, 5 * MIB, MIB, 1024},
	/* 3 MiB: cut to 2, no data after the info block: refused */
	{0, PFN_MODE_PMEM, 3 * MIB, MIB, 0},
	{9, PFN_MODE_RAM, 3 * MIB, MIB, 0},
	/* 1 GiB alignment: data at 1 GiB in map=dev, 2 GiB of it left */
	{18, PFN_MODE_PMEM, 3072 * MIB, 0, 524288},
	{18, PFN_MODE_PMEM, 3073 * MIB, MIB, 524288},
	{18, PFN_MODE_PMEM, 3584 * MIB, 512 * MIB, 524288},
	{18, PFN_MODE_RAM, 3073 * MIB, MIB, 786432},
	{18, PFN_MODE_RAM, 3584 * MIB, 512 * MIB, 786432},
	/* 2047 MiB: cut to 1 GiB, the data would start at its end */
	{18, PFN_MODE_PMEM, 2047 * MIB, 1023 * MIB, 0},
	{18, PFN_MODE_RAM, 2047 * MIB, 1023 * MIB, 0},
};

static void end_trunc_each_mode_and_map(struct kunit *test)
{
	char why[200], size[24], align[24];

	for (unsigned int i = 0; i < ARRAY_SIZE(end_trunc_cases); i++) {
		const struct end_trunc_case *c = &end_trunc_cases[i];
		struct memmap_config cfg;
		unsigned long pages;
		int rc = memmap_config_namespace(&cfg, PAGE_LAYOUT_64, c->order,
						 c->bytes, c->map, why,
						 sizeof(why));

		ntb_snprintf(size, sizeof(size), "%llu",
			     (unsigned long long)c->bytes);
		ntb_snprintf(align, sizeof(align), "%llu",
			     c->order == 18 ? SZ_1G : SZ_2M);
		if (!c->pages) {
			/* refused, naming the size and the alignment */
			if (rc != -1 || !strstr(why, size) ||
			    !strstr(why, align))
				kunit_fail_at(
					test, __FILE__, __LINE__,
					"%s map=%s namespace=%s bytes: "
					"rc=%d \"%s\", the kernel refuses "
					"it (alignment %s)",
					memmap_mode_name(c->order),
					nd_pfn_mode_name(c->map), size, rc, why,
					align);
			continue;
		}
		pages = cfg.nr_pages - cfg.altmap_reserve - cfg.altmap_free;
		if (rc || why[0] || cfg.end_trunc != c->end_trunc ||
		    pages != c->pages ||
		    cfg.nr_pages != (c->bytes - c->end_trunc) >> 12)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s map=%s namespace=%s bytes: rc=%d "
				      "\"%s\" end_trunc=%llu pages=%lu "
				      "nr_pages=%lu; the kernel's rule: "
				      "end_trunc=%llu pages=%lu",
				      memmap_mode_name(c->order),
				      nd_pfn_mode_name(c->map), size, rc, why,
				      (unsigned long long)cfg.end_trunc, pages,
				      cfg.nr_pages,
				      (unsigned long long)c->end_trunc,
				      c->pages);
	}
}

/*
 * The cut is taken at the namespace's end address, not its size: a
 * start 2 MiB past a 1 GiB boundary cuts 2 MiB off a 3 GiB devdax1g
 * namespace and puts its data 1022 MiB in. A start not aligned to
 * memremap_compat_align() (2 MiB) is refused.
 */
static void end_trunc_from_the_end_address(struct kunit *test)
{
	struct nd_pfn_layout nd;
	char why[200];

	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, START + SZ_2M, 3 * GIB,
				      SZ_1G, 64, false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.end_trunc, SZ_2M);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 1022 * MIB);
	KUNIT_EXPECT_EQ(test, nd.npfns, 524288ul);
	KUNIT_EXPECT_EQ(test, nd.free, (1022 * MIB >> 12) - 2);

	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_RAM, START + MIB, 3 * GIB, SZ_2M,
				      64, false, &nd, why, sizeof(why)),
			-1);
	KUNIT_EXPECT_TRUE(test, strstr(why, "not aligned") != NULL);
}

/*
 * Cut namespaces through the model: 7 MiB devdax2m is cut to 6 MiB,
 * three 2 MiB folios; map=dev initialises the two after the altmap,
 * every tail, map=mem all three with 128 struct pages each written.
 */
static void run_cut_namespace(struct kunit *test)
{
	run_namespace(test, 7 * MIB, PFN_MODE_PMEM, 512, 1024, 1024);
	run_namespace(test, 7 * MIB, PFN_MODE_RAM, 0, 1536, 3ul * 128);
}

static const struct kunit_case nd_pfn_cases[] = {
	KUNIT_CASE(map_dev_100g),
	KUNIT_CASE(map_dev_large_struct_page),
	KUNIT_CASE(config_namespace_map_dev),
	KUNIT_CASE(run_map_dev_and_mem),
	KUNIT_CASE(end_trunc_each_mode_and_map),
	KUNIT_CASE(end_trunc_from_the_end_address),
	KUNIT_CASE(run_cut_namespace),
};

KUNIT_SUITE_DEFINE(nd_pfn_suite, "nd_pfn", nd_pfn_cases);
