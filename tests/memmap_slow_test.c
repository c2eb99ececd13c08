// SPDX-License-Identifier: GPL-2.0-only
/*
 * The slow path of memmap_init_zone_device() (the kernel at v7.2-rc1
 * without the series): the values docs/model.md gives field by field, the
 * whole matrix against the model, the altmap skip, the pageblock flags, and
 * memmap_verify() itself: a corrupted byte must be reported at its pfn,
 * field and offset.
 */
#include "lib/kunit.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

/* flags of a device page of node 3: zone 4 << 51, node 3 << 54, PG_reserved */
#define FLAGS_NODE3_DEVICE 0x00e0000000002000UL
/* last_cpupid all ones (21 bits) at bit 30, when it lives in the flags */
#define FLAGS_LAST_CPUPID 0x0007ffffc0000000UL

static const struct {
	enum memory_type type;
	int refcount;
} refcounts[] = {
	{ MEMORY_DEVICE_FS_DAX, 0 },	{ MEMORY_DEVICE_GENERIC, 1 },
	{ MEMORY_DEVICE_PRIVATE, 0 },	{ MEMORY_DEVICE_COHERENT, 0 },
	{ MEMORY_DEVICE_PCI_P2PDMA, 0 },
};

/* Every field of an order-0 device page, for every layout and type. */
static void device_page_fields(struct kunit *test)
{
	for (int lid = 0; lid < NR_PAGE_LAYOUTS; lid++) {
		const struct page_layout *l =
			page_layout((enum page_layout_id)lid);
		int cpupid_off = l->offset[PAGE_FIELD_LAST_CPUPID];

		for (size_t t = 0; t < ARRAY_SIZE(refcounts); t++) {
			struct memmap_case c = { (enum page_layout_id)lid, 0,
						 refcounts[t].type, false };
			struct memmap_config cfg;
			struct memmap m;
			unsigned long pfn;
			u64 flags = FLAGS_NODE3_DEVICE;

			memmap_case_config(&c, &cfg);
			if (!memmap_case_create(test, &m, &cfg))
				return;
			memmap_poison(&m, 0x5a);
			memmap_run(&m);
			pfn = cfg.start_pfn + 700;
			if (cpupid_off < 0)
				flags |= FLAGS_LAST_CPUPID;

			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 0),
					flags);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 8),
					(u64)(uptr)&m.pgmap);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 16), 0);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 24), 0);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 32), 0);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 40), 0);
			KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, pfn, 48),
					0xffffffffu);
			KUNIT_EXPECT_EQ(test, memmap_case_u32(&m, pfn, 52),
					(u32)refcounts[t].refcount);
			KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, pfn, 56), 0);
			if (cpupid_off >= 0)
				KUNIT_EXPECT_EQ(test,
						memmap_case_u32(&m, pfn, 64),
						0x1fffffu);
			/* kmsan pointers and padding: zeroed */
			for (unsigned int off = 64; off < l->size; off += 4) {
				if (off == (unsigned int)cpupid_off)
					continue;
				KUNIT_EXPECT_EQ(test,
						memmap_case_u32(&m, pfn, off),
						0);
			}
			memmap_destroy(&m);
		}
	}
}

/* Every layout x type x order x altmap: the slow path is the model. */
static void slow_matches_model(struct kunit *test)
{
	for (int lid = 0; lid < NR_PAGE_LAYOUTS; lid++) {
		struct memmap_case cases[32];
		unsigned int n;

		n = memmap_cases_for_layout((enum page_layout_id)lid, cases);

		for (unsigned int i = 0; i < n; i++) {
			struct memmap_config cfg;
			struct memmap m;
			char name[64];

			memmap_case_config(&cases[i], &cfg);
			memmap_case_name(&cases[i], name, sizeof(name));
			if (!memmap_case_create(test, &m, &cfg))
				return;
			memmap_poison(&m, 0xa5);
			memmap_run(&m);
			memmap_expect_model(test, &m, name);
			memmap_destroy(&m);
		}
	}
}

/*
 * With an altmap the reserve and free pfns are not device pages: left
 * alone, and not counted in what the kernel reports as initialised.
 */
static void altmap_skip(struct kunit *test)
{
	static const unsigned int orders[] = { 0, 9, 18 };

	for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
		struct memmap_case c = { PAGE_LAYOUT_64, orders[o],
					 MEMORY_DEVICE_FS_DAX, true };
		struct memmap_config cfg;
		struct memmap m;
		unsigned long first;
		const u8 *p;

		memmap_case_config(&c, &cfg);
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_poison(&m, 0x3c);
		memmap_run(&m);
		first = cfg.start_pfn + MEMMAP_CASE_RESERVE + MEMMAP_CASE_FREE;
		KUNIT_EXPECT_EQ(test, memmap_case_first(&m), first);
		KUNIT_EXPECT_EQ(test, m.nr_initialised,
				cfg.nr_pages - MEMMAP_CASE_RESERVE -
					MEMMAP_CASE_FREE);

		p = memmap_case_page(&m, cfg.start_pfn);
		for (size_t b = 0; b < (first - cfg.start_pfn) * 64; b++) {
			if (p[b] != 0x3c) {
				KUNIT_EXPECT_EQ(test, p[b], 0x3c);
				break;
			}
		}
		/* the first device page is a head with its pgmap */
		KUNIT_EXPECT_EQ(test, memmap_case_u64(&m, first, 8),
				(u64)(uptr)&m.pgmap);
		memmap_expect_model(test, &m, "altmap");
		memmap_destroy(&m);
	}

	/* without an altmap every pfn counts */
	{
		struct memmap_case c = { PAGE_LAYOUT_64, 0,
					 MEMORY_DEVICE_FS_DAX, false };
		struct memmap_config cfg;
		struct memmap m;

		memmap_case_config(&c, &cfg);
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_run(&m);
		KUNIT_EXPECT_EQ(test, m.nr_initialised, cfg.nr_pages);
		memmap_destroy(&m);
	}
}

/*
 * The range starts 37 pfns into a section and ends at 1237: the
 * pageblocks at 512 and 1024 become MIGRATE_MOVABLE (1), the one that
 * holds the start does not, with 8 bits per pageblock in the section's
 * usemap.
 */
static void pageblock_flags(struct kunit *test)
{
	struct memmap_case c = { PAGE_LAYOUT_80_CPUPID, 0,
				 MEMORY_DEVICE_FS_DAX, false };
	struct memmap_config cfg;
	struct memmap m;
	unsigned long base;

	memmap_case_config(&c, &cfg);
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_run(&m);
	base = cfg.start_pfn - 37;
	KUNIT_EXPECT_EQ(test, base % PAGES_PER_SECTION, 0);
	KUNIT_EXPECT_EQ(test, m.pageblocks.nr_sections, 1);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&m.pageblocks, base), 0);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&m.pageblocks, base + 512),
			MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&m.pageblocks, base + 1024),
			MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&m.pageblocks, base + 1536), 0);
	KUNIT_EXPECT_EQ(test, m.pageblocks.usemap[0], 0x10100UL);
	for (unsigned int w = 1; w < USEMAP_LONGS_PER_SECTION; w++)
		KUNIT_EXPECT_EQ(test, m.pageblocks.usemap[w], 0);
	memmap_destroy(&m);
}

/* A struct page written wrong is reported where it is, and only there. */
static void verify_reports_corruption(struct kunit *test)
{
	struct memmap_case c = { PAGE_LAYOUT_96, 9, MEMORY_DEVICE_GENERIC,
				 true };
	struct memmap_config cfg;
	struct memmap_report r;
	struct memmap m;
	unsigned long first;
	u8 *p;

	memmap_case_config(&c, &cfg);
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_poison(&m, 0xee);
	memmap_run(&m);
	first = memmap_case_first(&m);
	KUNIT_ASSERT_TRUE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pages_checked, cfg.nr_pages);

	/* second byte of a tail's _refcount */
	p = (u8 *)memmap_case_page(&m, first + 5) + 53;
	*p ^= 1;
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, first + 5);
	KUNIT_EXPECT_EQ(test, r.offset, 52);
	KUNIT_EXPECT_STREQ(test, r.field, "_refcount");
	KUNIT_EXPECT_STREQ(test, r.role, "tail");
	KUNIT_EXPECT_EQ(test, r.expected, 0);
	KUNIT_EXPECT_EQ(test, r.found, 0x100);
	*p ^= 1;

	/* _nr_pages of the second folio */
	p = (u8 *)memmap_case_page(&m, first + 512 + 1) + 57;
	*p ^= 0x80;
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, first + 513);
	KUNIT_EXPECT_STREQ(test, r.field, "_nr_pages");
	KUNIT_EXPECT_STREQ(test, r.role, "tail 1");
	KUNIT_EXPECT_EQ(test, r.offset, 56);
	KUNIT_EXPECT_EQ(test, r.expected, 512);
	KUNIT_EXPECT_EQ(test, r.found, 512 ^ 0x8000);
	*p ^= 0x80;

	/* kmsan_origin of a head */
	p = (u8 *)memmap_case_page(&m, first + 1024) + 85;
	*p = 1;
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, first + 1024);
	KUNIT_EXPECT_STREQ(test, r.field, "kmsan_origin");
	KUNIT_EXPECT_STREQ(test, r.role, "head");
	KUNIT_EXPECT_EQ(test, r.offset, 80);
	KUNIT_EXPECT_EQ(test, r.found, 0x10000000000UL);
	*p = 0;

	/* an altmap pfn that must stay untouched, and the first one wins */
	p = (u8 *)memmap_case_page(&m, cfg.start_pfn + 7) + 3;
	*p = 0;
	((u8 *)memmap_case_page(&m, first + 9))[0] ^= 1;
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, cfg.start_pfn + 7);
	KUNIT_EXPECT_STREQ(test, r.field, "flags");
	KUNIT_EXPECT_EQ(test, r.expected, 0xeeeeeeeeeeeeeeeeULL);
	*p = 0xee;
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_EQ(test, r.pfn, first + 9);
	((u8 *)memmap_case_page(&m, first + 9))[0] ^= 1;

	/* a pageblock flag */
	set_pageblock_migratetype(&m.pageblocks, first + 512 + 447,
				  MIGRATE_RECLAIMABLE);
	KUNIT_EXPECT_FALSE(test, memmap_verify(&m, &r));
	KUNIT_EXPECT_TRUE(test, r.pageblock);
	KUNIT_EXPECT_EQ(test, r.pfn, ALIGN_DOWN(first + 512 + 447, 512));
	KUNIT_EXPECT_EQ(test, r.expected, MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, r.found, MIGRATE_RECLAIMABLE);
	set_pageblock_migratetype(&m.pageblocks, first + 512 + 447,
				  MIGRATE_MOVABLE);

	KUNIT_EXPECT_TRUE(test, memmap_verify(&m, &r));
	memmap_destroy(&m);
}

static void report_format(struct kunit *test)
{
	struct memmap_report r = {
		.pfn = 0x1000025, .offset = 56, .field = "_nr_pages",
		.role = "tail 1", .expected = 0x200, .found = 0,
	};
	char buf[160];

	memmap_report_format(&r, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "pfn 0x1000025 (tail 1) _nr_pages @56: expected "
			   "0x200, found 0x0");
}

/* Bad configurations are refused with a reason. */
static void config_check(struct kunit *test)
{
	struct memmap_config cfg;
	char why[96];

	memmap_config_init(&cfg, PAGE_LAYOUT_64, 9, MEMORY_DEVICE_GENERIC,
			   MEMMAP_DEFAULT_START_PFN, 1024 + 2);
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), -1);
	cfg.nr_pages = 1024 + 3;
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), 0);
	cfg.type = (enum memory_type)0;
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), -1);
	cfg.type = MEMORY_DEVICE_GENERIC;
	cfg.strategy = "no_such_strategy";
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), -1);
	cfg.strategy = "slow";
	cfg.altmap = true;
	cfg.altmap_free = cfg.nr_pages;
	KUNIT_EXPECT_EQ(test, memmap_config_check(&cfg, why, sizeof(why)), -1);

	/* a namespace size in bytes, map=mem: no altmap */
	KUNIT_EXPECT_EQ(test,
			memmap_config_namespace(&cfg, PAGE_LAYOUT_64, 0,
						100ULL << 30, PFN_MODE_RAM,
						why, sizeof(why)),
			0);
	KUNIT_EXPECT_EQ(test, cfg.nr_pages, 26214400);
	KUNIT_EXPECT_EQ(test, cfg.type, MEMORY_DEVICE_FS_DAX);
	KUNIT_EXPECT_FALSE(test, cfg.altmap);
	KUNIT_EXPECT_TRUE(test, cfg.vmemmap_optimize);
	KUNIT_EXPECT_EQ(test, memmap_bytes(&cfg), 26214400ULL * 64);
	memmap_config_namespace(&cfg, PAGE_LAYOUT_96, 9, 100ULL << 30,
				PFN_MODE_RAM, why, sizeof(why));
	KUNIT_EXPECT_EQ(test, cfg.type, MEMORY_DEVICE_GENERIC);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_EQ(test, memmap_bytes(&cfg), 26214400ULL * 96);

	/* the namespace modes of the options */
	KUNIT_EXPECT_EQ(test, memmap_mode_order(MODE_FSDAX), 0);
	KUNIT_EXPECT_EQ(test, memmap_mode_order(MODE_DEVDAX2M), 9);
	KUNIT_EXPECT_EQ(test, memmap_mode_order(MODE_DEVDAX1G), 18);
	KUNIT_EXPECT_EQ(test, memmap_mode_order(MODE_FSDAX | MODE_DEVDAX1G),
			-1);
	KUNIT_EXPECT_STREQ(test, memmap_mode_name(18), "devdax1g");
}

static const struct kunit_case memmap_slow_cases[] = {
	KUNIT_CASE(device_page_fields),
	KUNIT_CASE(slow_matches_model),
	KUNIT_CASE(altmap_skip),
	KUNIT_CASE(pageblock_flags),
	KUNIT_CASE(verify_reports_corruption),
	KUNIT_CASE(report_format),
	KUNIT_CASE(config_check),
};

KUNIT_SUITE_DEFINE(memmap_slow_suite, "memmap_slow", memmap_slow_cases);
