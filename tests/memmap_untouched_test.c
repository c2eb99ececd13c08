// SPDX-License-Identifier: GPL-2.0-only
/*
 * The struct pages an initialisation must leave alone (the altmap's own
 * pfns, the tails a vmemmap-optimised folio shares) are checked against
 * the poison they were filled with, whatever that poison is: zero (memory
 * that was simply cleared) as well as a pattern. A store to one of them
 * fails both memmap_verify() and memmap_verify_pfns() on that pfn.
 */
#include "lib/kunit.h"
#include "lib/printf.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

static void untouched_checked_with_any_poison(struct kunit *test)
{
	static const u8 poisons[] = {0x00, 0x77, 0xff};
	struct memmap_case c = {PAGE_LAYOUT_64, 0, MEMORY_DEVICE_FS_DAX, true};

	for (size_t i = 0; i < ARRAY_SIZE(poisons); i++) {
		struct memmap_report r;
		struct memmap_config cfg;
		struct memmap m;
		unsigned long pfn;
		u8 *byte;

		memmap_case_config(&c, &cfg);
		cfg.strategy = "tmpl_memcpy";
		if (!memmap_case_create(test, &m, &cfg))
			return;
		memmap_poison(&m, poisons[i]);
		memmap_run(&m);
		KUNIT_EXPECT_TRUE(test, memmap_expect_model(test, &m, "clean"));

		/* A byte of an altmap pfn's struct page changed. */
		pfn = m.cfg.start_pfn + 1;
		KUNIT_ASSERT_LT(test, pfn, memmap_case_first(&m));
		byte = (u8 *)memmap_case_page(&m, pfn) + 9;
		*byte ^= 0x21;
		if (memmap_verify(&m, &r) || r.pfn != pfn)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "poison %#x: a store to altmap pfn %#lx "
				      "not found by memmap_verify()",
				      poisons[i], pfn);
		if (memmap_verify_pfns(&m, &pfn, 1, &r) || r.pfn != pfn)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "poison %#x: a store to altmap pfn %#lx "
				      "not found by memmap_verify_pfns()",
				      poisons[i], pfn);
		*byte ^= 0x21;
		KUNIT_EXPECT_TRUE(test, memmap_verify_pfns(&m, &pfn, 1, &r));
		memmap_destroy(&m);
	}
}

static const struct kunit_case memmap_untouched_cases[] = {
	KUNIT_CASE(untouched_checked_with_any_poison),
};

KUNIT_SUITE_DEFINE(memmap_untouched_suite, "memmap_untouched",
		   memmap_untouched_cases);
