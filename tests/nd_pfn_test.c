// SPDX-License-Identifier: GPL-2.0-only
/*
 * Namespaces as ndctl makes them (model/drivers/nvdimm/pfn_devs.c): the
 * data offset and altmap of map=dev for the postings' 100 GiB namespaces,
 * the kernel's refusal of a struct page over 64 bytes without
 * CONFIG_NVDIMM_KMSAN, and a map=dev namespace run through the model:
 * device pages from vmem_altmap_offset() on, every tail of every folio
 * written; map=mem keeps devdax's deduplicated vmemmap.
 */
#include "lib/kunit.h"
#include "lib/string.h"
#include "model/drivers/nvdimm/pfn_devs.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

#define GIB (1ULL << 30)

/* 100 GiB, 64-byte struct pages, data aligned to 2 MiB: fsdax, devdax2m */
static void map_dev_100g(struct kunit *test)
{
	struct nd_pfn_layout nd;
	char why[160];

	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, 100 * GIB, SZ_2M, 64,
				      false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.reserve, 2ul);
	KUNIT_EXPECT_EQ(test, nd.free, 410110ul);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 801 * SZ_2M);
	/* the struct pages both modes write: 100 GiB less the memmap */
	KUNIT_EXPECT_EQ(test, nd.npfns, 25804288ul);

	/* devdax1g: the data starts at the next 1 GiB */
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, 100 * GIB, SZ_1G, 64,
				      false, &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 2 * GIB);
	KUNIT_EXPECT_EQ(test, nd.free, 524286ul);
	KUNIT_EXPECT_EQ(test, nd.npfns, 25690112ul);

	/* map=mem: the info block alone before the data, no altmap */
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_RAM, 100 * GIB, SZ_2M, 64, false,
				      &nd, why, sizeof(why)),
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
			nd_pfn_layout(PFN_MODE_PMEM, 100 * GIB, SZ_2M, 96,
				      false, &nd, why, sizeof(why)),
			-1);
	KUNIT_EXPECT_TRUE(test, strstr(why, "CONFIG_NVDIMM_KMSAN") != NULL);
	KUNIT_ASSERT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, 100 * GIB, SZ_2M, 96, true,
				      &nd, why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, nd.dataoff, 1201 * SZ_2M);
	KUNIT_EXPECT_EQ(test, nd.free, 614910ul);
	/* map=mem takes any size */
	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_RAM, 100 * GIB, SZ_2M, 96, false,
				      &nd, why, sizeof(why)),
			0);
	/* a namespace its own memmap does not leave room in */
	KUNIT_EXPECT_EQ(test,
			nd_pfn_layout(PFN_MODE_PMEM, SZ_2M, SZ_2M, 64, false,
				      &nd, why, sizeof(why)),
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
 * 1 GiB devdax2m through the model: map=dev initialises every struct
 * page after the altmap (503 folios, every tail), map=mem all 512 folios
 * with 128 struct pages each (the deduplicated vmemmap).
 */
static void run_map_dev_and_mem(struct kunit *test)
{
	struct memmap_config cfg;
	struct memmap m;
	char why[200];

	memmap_config_namespace(&cfg, PAGE_LAYOUT_64, 9, GIB, PFN_MODE_PMEM,
				why, sizeof(why));
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_run(&m);
	KUNIT_EXPECT_EQ(test, cfg.altmap_reserve + cfg.altmap_free, 4608ul);
	KUNIT_EXPECT_EQ(test, m.nr_initialised, 262144ul - 4608);
	KUNIT_EXPECT_EQ(test, memmap_pages_written(&m), 262144ul - 4608);
	memmap_expect_model(test, &m, "map=dev");
	memmap_destroy(&m);

	memmap_config_namespace(&cfg, PAGE_LAYOUT_64, 9, GIB, PFN_MODE_RAM, why,
				sizeof(why));
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_run(&m);
	KUNIT_EXPECT_EQ(test, m.nr_initialised, 262144ul);
	KUNIT_EXPECT_EQ(test, memmap_pages_written(&m), 512ul * 128);
	memmap_expect_model(test, &m, "map=mem");
	memmap_destroy(&m);
}

static const struct kunit_case nd_pfn_cases[] = {
	KUNIT_CASE(map_dev_100g),
	KUNIT_CASE(map_dev_large_struct_page),
	KUNIT_CASE(config_namespace_map_dev),
	KUNIT_CASE(run_map_dev_and_mem),
};

KUNIT_SUITE_DEFINE(nd_pfn_suite, "nd_pfn", nd_pfn_cases);
