// SPDX-License-Identifier: GPL-2.0-only
/*
 * The namespaces the memmap suites run and their shared checks; see
 * memmap_case.h.
 */
#include "tests/engines/memmap_case.h"
#include "lib/printf.h"
#include "lib/options.h"

DEFINE_OPTION_BOOL(drain, true,
		   "SFENCE drains in the template path (on; off is research only)");

static const enum memory_type case_types[] = {
	MEMORY_DEVICE_FS_DAX, MEMORY_DEVICE_GENERIC, MEMORY_DEVICE_PRIVATE,
	MEMORY_DEVICE_COHERENT, MEMORY_DEVICE_PCI_P2PDMA,
};

static const unsigned int case_orders[] = {
	MEMMAP_ORDER_FSDAX, MEMMAP_ORDER_DEVDAX_2M, MEMMAP_ORDER_DEVDAX_1G,
};

void memmap_case_config(const struct memmap_case *c,
			struct memmap_config *cfg)
{
	unsigned long skip = c->altmap ? MEMMAP_CASE_RESERVE + MEMMAP_CASE_FREE
				       : 0;
	unsigned long nr;

	/*
	 * Past the altmap: order 0, 1200 pages over three pageblocks;
	 * order 9, two folios and 200 pages of a third; order 18, 900 pages
	 * of one folio. None ends on a pageblock or folio boundary.
	 */
	switch (c->order) {
	case 0:
		nr = 1200;
		break;
	case MEMMAP_ORDER_DEVDAX_2M:
		nr = 2 * 512 + 200;
		break;
	default:
		nr = 900;
		break;
	}
	memmap_config_init(cfg, c->layout, c->order, c->type,
			   MEMMAP_CASE_START, skip + nr);
	cfg->nid = 3;
	/*
	 * drain=off (research) reaches the correctness suites too: with the
	 * ordering checker they fail, naming each drain that is missing.
	 */
	cfg->drain = opt_drain;
	/* every strategy's own copy on every layout (the gate: memmap_template) */
	cfg->ungated = true;
	if (c->altmap) {
		cfg->altmap = true;
		cfg->altmap_reserve = MEMMAP_CASE_RESERVE;
		cfg->altmap_free = MEMMAP_CASE_FREE;
	}
}

void memmap_case_name(const struct memmap_case *c, char *buf, size_t len)
{
	ntb_snprintf(buf, len, "%s/%s/order%u%s", page_layout(c->layout)->name,
		     memory_type_name(c->type), c->order,
		     c->altmap ? "/altmap" : "");
}

unsigned int memmap_cases_for_layout(enum page_layout_id layout,
				     struct memmap_case *out)
{
	unsigned int n = 0;

	for (size_t t = 0; t < ARRAY_SIZE(case_types); t++)
		for (size_t o = 0; o < ARRAY_SIZE(case_orders); o++)
			for (int a = 0; a < 2; a++)
				out[n++] = (struct memmap_case){
					.layout = layout,
					.order = case_orders[o],
					.type = case_types[t],
					.altmap = a,
				};
	return n;
}

bool memmap_case_create(struct kunit *test, struct memmap *m,
			const struct memmap_config *cfg)
{
	char why[128];

	if (memmap_create(m, cfg, NULL, 0, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "memmap_create: %s",
			      why);
		return false;
	}
	return true;
}

bool memmap_expect_model(struct kunit *test, const struct memmap *m,
			 const char *what)
{
	struct memmap_report r;
	char msg[200];

	if (memmap_verify(m, &r))
		return true;
	memmap_report_format(&r, msg, sizeof(msg));
	kunit_fail_at(test, __FILE__, __LINE__, "%s [%s]: %s", what,
		      m->strategy->name, msg);
	return false;
}
