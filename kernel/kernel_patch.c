// SPDX-License-Identifier: GPL-2.0-only
/*
 * plat_kernel_patch_build() in the image: it reads no files and builds
 * no kernel code (kernel_patch= is refused at the options already,
 * tests/engines/kernel_patch.c); the hosted runner does both.
 */
#include "include/platform.h"
#include "lib/printf.h"

bool plat_file_readable(const char *path, char *why, size_t len)
{
	ntb_snprintf(why, len,
		     "%s: the image reads no files (the hosted runner does)",
		     path);
	return false;
}

int plat_kernel_patch_build(const char *file, struct kernel_patch_build *b)
{
	ntb_snprintf(b->why, sizeof(b->why),
		     "%s: the image builds no kernel code (the hosted runner "
		     "does)",
		     file);
	return 1;
}
