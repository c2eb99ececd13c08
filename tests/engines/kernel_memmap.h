/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strategy=kernel of bench_memmap_init: the kernel's own compiled
 * memmap_init_zone_device() (Debian's 6.12, patched as its boot patches
 * it; plat_kernel_memmap_start()) on a configuration's namespace, timed
 * in the same rounds as the model's strategies, every run compared byte
 * for byte with the model's slow path at kernel=6.12 on the same
 * namespace (memmap_compare_kernel(), or _pfns() on a run's sample),
 * whatever the model's kernel= of the run. docs/kernel-memmap.md.
 */
#ifndef NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H
#define NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H

#include "include/platform.h"
#include "lib/kunit.h"
#include "model/memmap.h"

/*
 * The strategy's name in strategy= and in the lines it prints,
 * KERNEL_MEMMAP_STRATEGY, is manifest/strategies.yaml's (through
 * model/memmap_strategies.h).
 */

struct kernel_memmap {
	/* the model at 6.12, slow path: the bytes the kernel must write */
	struct memmap ref;
	struct kernel_memmap_call call;
	bool started;
};

/*
 * Can the kernel's object run on layout @l? The reason in @why when not:
 * Debian's 6.12 has a 64-byte struct page.
 */
bool kernel_memmap_refuses(const struct page_layout *l, char *why, size_t len);

/*
 * Write the reference on @cfg's namespace (the model at 6.12) and start
 * the kernel's code beside it; @config names the configuration in the
 * lines. Returns 1 when started, 0 when the kernel's code cannot run here
 * (the reason, with what to install, in @skip), -1 on a failure (@test
 * failed naming it).
 */
int kernel_memmap_start(struct kunit *test, struct kernel_memmap *k,
			const struct memmap_config *cfg, const char *config,
			char *skip, size_t len);

/*
 * Before a run: @nr pfns of its window, or all of it with @fill when
 * @pfns is NULL (as the model's memmap is poisoned: memmap_poison_with()),
 * and its pageblock bytes poisoned, so that the run must write what is
 * checked.
 */
void kernel_memmap_poison(struct kernel_memmap *k, const unsigned long *pfns,
			  unsigned int nr,
			  void (*fill)(void *dst, u8 byte, size_t n));

/*
 * One call: the TSC cycles of the call alone; where it failed, why in
 * @why (never "" then).
 */
u64 kernel_memmap_run(struct kernel_memmap *k, char *why, size_t len);

/*
 * After a run: the kernel's memmap against the reference over @nr pfns
 * (all when @pfns is NULL) and every pageblock; @r says the difference.
 */
bool kernel_memmap_check(const struct kernel_memmap *k,
			 const unsigned long *pfns, unsigned int nr,
			 struct memmap_report *r);

/* The runner stopped and the reference freed; harmless when not started. */
void kernel_memmap_stop(struct kernel_memmap *k);

#endif
