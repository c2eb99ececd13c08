/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strategy=kernel of bench_memmap_init: the kernel's own compiled
 * memmap_init_zone_device() (Debian's 6.12, plat_kernel_memmap()) on the
 * namespace of a model memmap, compared byte for byte with the model's
 * slow path at kernel=6.12 (memmap_compare_kernel()). Untimed: one run
 * per configuration; docs/kernel-memmap.md.
 */
#ifndef NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H
#define NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H

#include "lib/kunit.h"
#include "model/memmap.h"

/*
 * The strategy's name in strategy= and in the lines it prints,
 * KERNEL_MEMMAP_STRATEGY, is manifest/strategies.yaml's (through
 * model/memmap_strategies.h).
 */

/*
 * Does the model at @m's kernel have the kernel's object to compare
 * with? The reason in @why when not: 6.12 only (which has the 64-byte
 * layout only, memmap_kernel_refuses()).
 */
bool kernel_memmap_refuses(const struct memmap *m, char *why, size_t len);

/*
 * Run the kernel's code and the model's slow path on @m's namespace
 * (@config names it in the lines) and compare them: a difference fails
 * @test naming pfn, field and both values. Returns 1 when compared, 0
 * when the kernel's code cannot run here (the reason, with what to
 * install, in @skip), -1 on a failure.
 */
int kernel_memmap_compare(struct kunit *test, struct memmap *m,
			  const char *config, char *skip, size_t len);

#endif
