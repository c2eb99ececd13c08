/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel contenders of bench_memmap_init: the kernel's own compiled
 * memmap_init_zone_device() (Debian's 6.12, patched as its boot patches
 * it; plat_kernel_memmap_start()), one build of it each, as
 * manifest/strategies.yaml's kernels: lists them (strategy=kernel, the
 * kernel as Debian ships it; strategy=kernel_series, the series applied
 * to it; ...), on a configuration's namespace, timed in the same rounds
 * as the model's strategies, every run compared byte for byte with the
 * model's slow path at kernel=6.12 on the same namespace
 * (memmap_compare_kernel(), or _pfns() on a run's sample), whatever the
 * model's kernel= of the run. docs/kernel-memmap.md.
 */
#ifndef NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H
#define NTBOOT_TESTS_ENGINES_KERNEL_MEMMAP_H

#include "include/platform.h"
#include "lib/kunit.h"
#include "model/memmap.h"
#include "kernel_memmap_list.h"
#include "tests/engines/kernel_patch.h"

/* One build of the kernel's code (build/gen/kernel_memmap_list.h). */
struct kernel_memmap_build {
	const char *name;	    /* the strategy= name */
	const char *runner;	    /* its runner's file beside ntbench */
	/*
	 * The model's strategy it is measured against (model:): the
	 * model at kernel=6.12 over this build is "# model_over_kernel"
	 * (slow for the kernel as Debian ships it, tmpl_nt_fixed for the
	 * series).
	 */
	const char *model;
	unsigned int layouts;	    /* mask over enum page_layout_id */
	const char *patches;	    /* its series file, or NULL */
	const char *patches_sha256; /* its patch files' bytes', in order */
	/*
	 * The plain_returns: twin of the build before it: that build's
	 * object with every return site as RET, run only where the CPU's
	 * kernel returns through a thunk; the thunk's cost is that build
	 * over this one ("# mitigation").
	 */
	bool plain_returns;
	/*
	 * A build from a patch file named at run time (kernel_patch=,
	 * kp_<stem>: kernel_patch.h), in no manifest: its runner where the
	 * build put it, no model and no twin. NULL for the manifest's.
	 */
	struct kernel_patch *patch;
};

/*
 * The builds in the manifest's order: the kernel as Debian ships it
 * first (strategy=kernel: what kernel=6.12 with no strategy= runs).
 */
#define KERNEL_MEMMAP_ONE(...) +1
enum {
	KERNEL_MEMMAP_NR_BUILDS = 0 KERNEL_MEMMAP_STRATEGIES(KERNEL_MEMMAP_ONE),
	/* and after them, one for each file of kernel_patch= */
	KERNEL_MEMMAP_MAX_BUILDS = KERNEL_MEMMAP_NR_BUILDS + KERNEL_PATCH_MAX,
};
extern struct kernel_memmap_build kernel_memmap_builds[KERNEL_MEMMAP_MAX_BUILDS];

/*
 * The builds of this run: the manifest's, then kernel_patch='s files
 * (their runners filled in once kernel_patch_build_all() built them).
 */
unsigned int kernel_memmap_nr_builds(void);

/*
 * Build @b is the kernel as Debian ships it: the one whose runner
 * NTB_KERNEL_MEMMAP may name and the one kernel=6.12 with no strategy=
 * runs.
 */
static inline bool kernel_memmap_is_stock(const struct kernel_memmap_build *b)
{
	return b == &kernel_memmap_builds[0];
}

/* The build whose object @b runs: its own, or (a twin) the one before. */
static inline const struct kernel_memmap_build *
kernel_memmap_object_of(const struct kernel_memmap_build *b)
{
	return b->plain_returns ? b - 1 : b;
}

/* @b's plain_returns: twin (the entry after it), or NULL. */
static inline const struct kernel_memmap_build *
kernel_memmap_plain_twin(const struct kernel_memmap_build *b)
{
	const struct kernel_memmap_build *next = b + 1;

	/* (the manifest's: a build from a patch file has none) */
	return next < kernel_memmap_builds + KERNEL_MEMMAP_NR_BUILDS &&
			       next->plain_returns
		       ? next
		       : NULL;
}

/*
 * The bytes every kernel contender of a configuration must write: the
 * model at 6.12, slow path, on its namespace. Made once per
 * configuration and shared by all of them (its memmap is as large as
 * each runner's window).
 */
struct kernel_memmap_ref {
	struct memmap m;
	bool made;
};

/*
 * The reference's memmap on @cfg's namespace at 6.12: 0, or -1 with why
 * in @why. Not yet written: kernel_memmap_ref_write().
 */
int kernel_memmap_ref_make(struct kernel_memmap_ref *ref,
			   const struct memmap_config *cfg, char *why,
			   size_t len);

/*
 * Its bytes: the model run once, just before the rounds (its lines
 * written back after the run, so that they do not sit dirty in the
 * cache in front of a cold run). Every kernel contender's run is checked
 * against them, the cold one first.
 */
void kernel_memmap_ref_write(struct kernel_memmap_ref *ref);

/* Freed; harmless when not made. */
void kernel_memmap_ref_free(struct kernel_memmap_ref *ref);

struct kernel_memmap {
	struct kernel_memmap_ref *ref; /* shared */
	struct kernel_memmap_call call;
	bool started;
};

/*
 * Can build @b's object run on layout @l? The reason in @why when not:
 * Debian's 6.12 has a 64-byte struct page.
 */
bool kernel_memmap_refuses(const struct kernel_memmap_build *b,
			   const struct page_layout *l, char *why, size_t len);

/*
 * Start build @b's code on @ref's namespace (@ref made); @config names
 * the configuration in the lines. Returns 1 when started, 0 when the
 * kernel's code cannot run here (the reason, with what to install or
 * build, in @skip), -1 on a failure (@test failed naming it; a patch
 * file's build that failed, named once a process).
 */
int kernel_memmap_start(struct kunit *test, struct kernel_memmap *k,
			const struct kernel_memmap_build *b,
			struct kernel_memmap_ref *ref, const char *config,
			char *skip, size_t len);

/*
 * Before a run: @nr pfns of its window, or all of it with @fill when
 * @pfns is NULL (as the model's memmap is poisoned: memmap_poison_with()),
 * and its pageblock bytes poisoned, so that the run must write what is
 * checked; where the kernel's code writes a memmap of its own (the hosted
 * runner: plat_kernel_memmap_poison()), the same struct pages there too.
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

/* The runner stopped; harmless when not started. */
void kernel_memmap_stop(struct kernel_memmap *k);

#endif
