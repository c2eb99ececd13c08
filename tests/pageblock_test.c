// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pageblock usemap operations of
 * model/include/linux/pageblock-flags.h on their own: setting a
 * migratetype writes the three migratetype bits of that pageblock only,
 * clears its isolate bit (as the kernel's set_pageblock_migratetype()
 * does: a block being isolated is not left so by the memmap), keeps its
 * compact-skip bit, and leaves every other pageblock alone, in every word
 * and across sections. And the names of the memory types.
 */
#include "lib/kunit.h"
#include "lib/string.h"
#include "model/include/linux/memremap.h"
#include "model/include/linux/pageblock-flags.h"

#define PB_TEST_SECTIONS 3

static void set_clears_isolate_only_there(struct kunit *test)
{
	const unsigned long start = 5 * PAGES_PER_SECTION;
	const unsigned long end = start + PB_TEST_SECTIONS * PAGES_PER_SECTION;
	const unsigned long all = (1UL << NR_PAGEBLOCK_BITS) - 1;
	const unsigned long skip = 1UL << PB_compact_skip;
	struct pageblock_flags pb;
	unsigned long pfn, target;

	KUNIT_ASSERT_EQ(
		test, pageblock_flags_alloc(&pb, start, end, MODEL_KERNEL_BASE),
		0);
	KUNIT_EXPECT_EQ(test, pb.nr_sections, (unsigned int)PB_TEST_SECTIONS);
	/* Every bit of every pageblock set, as after an isolation. */
	memset(pb.usemap, 0xff,
	       PB_TEST_SECTIONS * USEMAP_LONGS_PER_SECTION *
		       sizeof(unsigned long));
	/* A pageblock in the middle of a word of the second section. */
	target = start + PAGES_PER_SECTION + 13 * pageblock_nr_pages + 7;
	set_pageblock_migratetype(&pb, target, MIGRATE_MOVABLE);
	for (pfn = start; pfn < end; pfn += pageblock_nr_pages) {
		unsigned long want = all;
		unsigned long got = get_pfnblock_bits(&pb, pfn);

		if (pfn / pageblock_nr_pages == target / pageblock_nr_pages)
			want = (all & ~(PAGEBLOCK_MIGRATETYPE_MASK |
					PAGEBLOCK_ISO_MASK)) |
			       MIGRATE_MOVABLE;
		if (got != want) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "pageblock of pfn %#lx: bits %#lx, "
				      "expected %#lx (set pfn %#lx)",
				      pfn, got, want, target);
			break;
		}
	}
	/* The compact-skip bit of the target was kept. */
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&pb, target) & skip, skip);

	/* On a cleared usemap: exactly MIGRATE_MOVABLE, first and last. */
	pageblock_flags_clear(&pb);
	set_pageblock_migratetype(&pb, start, MIGRATE_MOVABLE);
	set_pageblock_migratetype(&pb, end - 1, MIGRATE_RECLAIMABLE);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&pb, start),
			(unsigned long)MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, get_pfnblock_bits(&pb, end - 1),
			(unsigned long)MIGRATE_RECLAIMABLE);
	KUNIT_EXPECT_EQ(
		test, get_pfnblock_bits(&pb, start + pageblock_nr_pages), 0ul);
	pageblock_flags_free(&pb);
}

static void memory_type_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, memory_type_name(MEMORY_DEVICE_PRIVATE),
			   "private");
	KUNIT_EXPECT_STREQ(test, memory_type_name(MEMORY_DEVICE_COHERENT),
			   "coherent");
	KUNIT_EXPECT_STREQ(test, memory_type_name(MEMORY_DEVICE_FS_DAX),
			   "fsdax");
	KUNIT_EXPECT_STREQ(test, memory_type_name(MEMORY_DEVICE_GENERIC),
			   "generic");
	KUNIT_EXPECT_STREQ(test, memory_type_name(MEMORY_DEVICE_PCI_P2PDMA),
			   "p2pdma");
	KUNIT_EXPECT_STREQ(test, memory_type_name((enum memory_type)0), "?");
}

static const struct kunit_case pageblock_cases[] = {
	KUNIT_CASE(set_clears_isolate_only_there),
	KUNIT_CASE(memory_type_names),
};

KUNIT_SUITE_DEFINE(pageblock_suite, "pageblock", pageblock_cases);
