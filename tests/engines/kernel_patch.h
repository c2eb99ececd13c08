/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel contenders from patch files named at run time: kernel_patch=FILE[,
 * FILE...] (bench_memmap_init, the hosted runner). Each FILE, applied to
 * Debian's 6.12 as patch -p1 applies it, is one build of the kernel's
 * code named kp_<stem> (the file's name without .patch, .diff or .mbox,
 * lower case, every other character but letters and digits as '_'),
 * built before the first round (plat_kernel_patch_build()) and run as
 * the manifest's kernel contenders are (tests/engines/kernel_memmap.h).
 * docs/kernel-memmap.md, "Your own patch".
 */
#ifndef NTBOOT_TESTS_ENGINES_KERNEL_PATCH_H
#define NTBOOT_TESTS_ENGINES_KERNEL_PATCH_H

#include "include/platform.h"

/* Files one kernel_patch= takes: each is a contender. */
#define KERNEL_PATCH_MAX 8
#define KERNEL_PATCH_FILE_MAX 256
#define KERNEL_PATCH_NAME_MAX 64
/* kernel_patch='s value */
#define KERNEL_PATCH_TEXT_MAX 512

struct kernel_patch {
	char file[KERNEL_PATCH_FILE_MAX]; /* as given */
	char name[KERNEL_PATCH_NAME_MAX]; /* kp_<stem> */
	/* plat_kernel_patch_build()'s answer, once asked (@built) */
	bool built;
	int status; /* 0 built, 1 skipped, -1 failed: why in @build.why */
	struct kernel_patch_build build;
};

/* The option's files, in the order given. */
struct kernel_patch_list {
	unsigned int n;
	struct kernel_patch v[KERNEL_PATCH_MAX];
};

/*
 * The files kernel_patch= names (none where it is not given), with their
 * builds once kernel_patch_build_all() has asked for them.
 */
struct kernel_patch_list *kernel_patches(void);

/*
 * Each file's runner built or found (once a process; the hosted runner's
 * cache makes it nothing after the first build of a file): said on
 * stderr while it builds. Before the first round: the run's parent
 * calls it before its workers start.
 */
void kernel_patch_build_all(void);

#endif
