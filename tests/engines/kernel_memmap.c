// SPDX-License-Identifier: GPL-2.0-only
/*
 * strategy=kernel: the kernel's own memmap_init_zone_device() timed
 * beside the model, each run checked against the model's slow path at
 * kernel=6.12 (kernel_memmap.h).
 */
#include "tests/engines/kernel_memmap.h"
#include "arch/x86/lib/clean_cache.h"
#include "tests/engines/bench_util.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/kernels.h"

bool kernel_memmap_refuses(const struct page_layout *l, char *why, size_t len)
{
	/* manifest/strategies.yaml's layouts of strategy=kernel */
	if (KERNEL_MEMMAP_LAYOUTS & (1u << l->id))
		return false;
	ntb_snprintf(why, len,
		     "the kernel's object is Debian's 6.12, whose struct "
		     "page is 64 bytes: it needs layout=64");
	return true;
}

/* What the runner wrote, as memmap_compare_kernel() reads it. */
static struct memmap_kernel_run kernel_run(const struct kernel_memmap *k)
{
	return (struct memmap_kernel_run){
		.pages = k->call.pages,
		.pages_addr = k->call.pages_addr,
		.pgmap_addr = k->call.pgmap_addr,
		.pageblock_bits = k->call.pageblock_bits,
	};
}

/*
 * The reference: the model at 6.12 on @cfg's namespace, run once. @k is
 * not started until kernel_memmap_start() says so. It is written just
 * before the timed runs: poisoned streaming and its lines written back
 * after the run, so that it does not sit dirty in the cache in front of
 * the cold run.
 */
static int write_reference(struct kernel_memmap *k,
			   const struct memmap_config *cfg, char *why,
			   size_t len)
{
	struct memmap_config ref = *cfg;

	ref.kernel = MODEL_KERNEL_6_12;
	if (memmap_create(&k->ref, &ref, NULL, 0, why, len))
		return -1;
	if (memmap_set_strategy(&k->ref, "slow", why, len)) {
		memmap_destroy(&k->ref);
		return -1;
	}
	memmap_poison_with(&k->ref, MEMMAP_POISON_DEFAULT,
			   bench_poison_streaming);
	memmap_run(&k->ref);
	clean_cache_range(k->ref.pages, k->ref.bytes);
	return 0;
}

static bool object_said;

int kernel_memmap_start(struct kunit *test, struct kernel_memmap *k,
			const struct memmap_config *cfg, const char *config,
			char *skip, size_t len)
{
	char why[300];
	int r;

	if (write_reference(k, cfg, why, sizeof(why))) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: the model at 6.12: %s",
			      KERNEL_MEMMAP_STRATEGY, config, why);
		return -1;
	}
	k->call = (struct kernel_memmap_call){
		.start_pfn = k->ref.cfg.start_pfn,
		.nr_pages = k->ref.cfg.nr_pages,
		.order = k->ref.cfg.order,
		.type = k->ref.cfg.type,
		.nid = k->ref.cfg.nid,
		.altmap = k->ref.cfg.altmap,
		.altmap_reserve = k->ref.cfg.altmap_reserve,
		.altmap_free = k->ref.cfg.altmap_free,
		.base_pfn = k->ref.base_pfn,
		.nr_pfns = k->ref.nr_pfns,
		.page_size = k->ref.layout->size,
		.line_offset = memmap_line_offset(&k->ref.cfg),
		.pageblock_pages = pageblock_nr_pages,
		.pageblocks_pfn = memmap_pageblocks_pfn(&k->ref),
		.nr_pageblocks = memmap_nr_pageblocks(&k->ref),
	};
	r = plat_kernel_memmap_start(&k->call, why, sizeof(why));
	if (r) {
		memmap_destroy(&k->ref);
		if (r == 1) {
			ntb_snprintf(skip, len, "%s", why);
			return 0;
		}
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: the kernel's code did not "
			      "start: %s",
			      KERNEL_MEMMAP_STRATEGY, config, why);
		return -1;
	}
	/* what runs, once: the same object and patching for every start */
	if (!object_said) {
		kunit_diag("# kernel-object %s\n", k->call.object);
		object_said = true;
	}
	k->started = true;
	return 1;
}

void kernel_memmap_poison(struct kernel_memmap *k, const unsigned long *pfns,
			  unsigned int nr,
			  void (*fill)(void *dst, u8 byte, size_t n))
{
	unsigned int size = k->call.page_size;
	/* the reference's byte: the two are compared after the run */
	u8 byte = (u8)k->ref.poison;

	if (!pfns)
		fill(k->call.pages, byte, (size_t)k->call.nr_pfns * size);
	for (unsigned int i = 0; pfns && i < nr; i++)
		memset(k->call.pages + (pfns[i] - k->call.base_pfn) * size,
		       byte, size);
	/* no pageblock has all its bits set: 0xff is no value it reads */
	memset(k->call.pageblock_bits, 0xff, k->call.nr_pageblocks);
}

u64 kernel_memmap_run(struct kernel_memmap *k, char *why, size_t len)
{
	u64 cycles;

	plat_kernel_memmap_run(&k->call, &cycles, why, len);
	return cycles;
}

bool kernel_memmap_check(const struct kernel_memmap *k,
			 const unsigned long *pfns, unsigned int nr,
			 struct memmap_report *r)
{
	struct memmap_kernel_run run = kernel_run(k);

	return memmap_compare_kernel_pfns(&k->ref, &run, pfns, nr, r);
}

void kernel_memmap_stop(struct kernel_memmap *k)
{
	if (!k->started)
		return;
	plat_kernel_memmap_stop(&k->call);
	memmap_destroy(&k->ref);
	k->started = false;
}
