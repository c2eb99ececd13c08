// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folios of order 1 to 3, which no namespace mode makes (fsdax is order 0,
 * devdax 9 or 18) but the folio code must get right at its edges: an
 * order-1 folio has no second tail (page[2] is the next head, and
 * _deferred_list is not touched), order 2 is the smallest with one. Every
 * strategy and layout against the model.
 */
#include "lib/kunit.h"
#include "lib/printf.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

/* One namespace: initialised by @s, then checked against the model. */
static bool small_order_run(struct kunit *test, const struct page_layout *l,
			    const struct memmap_strategy *s, unsigned int order,
			    bool altmap)
{
	struct memmap_case c = {l->id, order, MEMORY_DEVICE_FS_DAX, altmap};
	struct memmap_config cfg;
	struct memmap m;
	char name[64];
	bool ok;

	memmap_case_config(&c, &cfg);
	cfg.strategy = s->name;
	memmap_case_name(&c, name, sizeof(name));
	if (!memmap_case_create(test, &m, &cfg))
		return false;
	memmap_poison(&m, 0x5b);
	memmap_run(&m);
	ok = memmap_expect_model(test, &m, name);
	memmap_destroy(&m);
	return ok;
}

static void small_orders_match_model(struct kunit *test)
{
	unsigned int runs = 0;

	for (int li = 0; li < NR_PAGE_LAYOUTS; li++) {
		const struct page_layout *l =
			page_layout((enum page_layout_id)li);

		for (unsigned int i = 0; i < memmap_nr_strategies; i++) {
			const struct memmap_strategy *s = memmap_strategy_find(
				memmap_strategy_name_at(i));
			char why[128];

			if (!memmap_strategy_usable(s, l, why, sizeof(why)))
				continue;
			/* order 2 also with an altmap: its head moves */
			if (!small_order_run(test, l, s, 1, false) ||
			    !small_order_run(test, l, s, 2, false) ||
			    !small_order_run(test, l, s, 2, true) ||
			    !small_order_run(test, l, s, 3, false))
				return;
			runs += 4;
		}
	}
	KUNIT_EXPECT_GT(test, runs, 0u);
}

static const struct kunit_case memmap_small_orders_cases[] = {
	KUNIT_CASE(small_orders_match_model),
};

KUNIT_SUITE_DEFINE(memmap_small_orders_suite, "memmap_small_orders",
		   memmap_small_orders_cases);
