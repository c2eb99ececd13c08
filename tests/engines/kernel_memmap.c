// SPDX-License-Identifier: GPL-2.0-only
/*
 * strategy=kernel: the kernel's own memmap_init_zone_device() beside the
 * model's slow path at kernel=6.12, byte for byte (kernel_memmap.h).
 */
#include "tests/engines/kernel_memmap.h"
#include "include/platform.h"
#include "lib/printf.h"
#include "model/kernels.h"

bool kernel_memmap_refuses(const struct memmap *m, char *why, size_t len)
{
	if (m->cfg.kernel != MODEL_KERNEL_6_12) {
		ntb_snprintf(why, len,
			     "the kernel's object is Debian's 6.12; "
			     "kernel=6.12 makes the model write its bytes");
		return true;
	}
	return false;
}

static bool object_said;

int kernel_memmap_compare(struct kunit *test, struct memmap *m,
			  const char *config, char *skip, size_t len)
{
	struct kernel_memmap_call c = {
		.start_pfn = m->cfg.start_pfn,
		.nr_pages = m->cfg.nr_pages,
		.order = m->cfg.order,
		.type = m->cfg.type,
		.nid = m->cfg.nid,
		.altmap = m->cfg.altmap,
		.altmap_reserve = m->cfg.altmap_reserve,
		.altmap_free = m->cfg.altmap_free,
		.base_pfn = m->base_pfn,
		.nr_pfns = m->nr_pfns,
		.page_size = m->layout->size,
		.line_offset = memmap_line_offset(&m->cfg),
		.poison = MEMMAP_POISON_DEFAULT,
		.pageblock_pages = pageblock_nr_pages,
		.pageblocks_pfn = memmap_pageblocks_pfn(m),
		.nr_pageblocks = memmap_nr_pageblocks(m),
	};
	struct memmap_report r;
	char why[300], line[300];
	int ran;

	/* the model's side: the slow path at 6.12, poisoned alike */
	if (memmap_set_strategy(m, "slow", why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__, "%s: %s", config, why);
		return -1;
	}
	memmap_poison(m, MEMMAP_POISON_DEFAULT);
	memmap_run(m);

	ran = plat_kernel_memmap(&c, why, sizeof(why));
	if (ran == 1) {
		ntb_snprintf(skip, len, "%s", why);
		return 0;
	}
	if (ran) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: the kernel's code did not "
			      "run: %s",
			      KERNEL_MEMMAP_STRATEGY, config, why);
		return -1;
	}
	/* what ran, once: the same object and patching for every call */
	if (!object_said) {
		kunit_diag("# kernel-object %s\n", c.object);
		object_said = true;
	}
	memmap_compare_kernel(m,
			      &(struct memmap_kernel_run){
				      .pages = c.pages,
				      .pages_addr = c.pages_addr,
				      .pgmap_addr = c.pgmap_addr,
				      .pageblock_bits = c.pageblock_bits,
			      },
			      &r);
	plat_kernel_memmap_release(&c);
	memmap_report_format(&r, line, sizeof(line));
	if (!r.ok) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: the model (slow, kernel=6.12) "
			      "differs from the kernel's "
			      "memmap_init_zone_device(): %s",
			      KERNEL_MEMMAP_STRATEGY, config, line);
		return -1;
	}
	kunit_diag("# kernel-memmap: suite=bench_memmap_init strategy=%s %s "
		   "pfns=%lu pageblocks=%lu identical=1 model=slow "
		   "timed=no object=\"Debian 6.12 mm/mm_init.o\"\n",
		   KERNEL_MEMMAP_STRATEGY, config, m->nr_pfns, c.nr_pageblocks);
	return 1;
}
