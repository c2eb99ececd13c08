/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel blob the image carries (lib/kernel_blob.h): read once at
 * boot, said on the "# kernel-blob" header line, and the reason
 * strategy=kernel is skipped where the image cannot run it.
 */
#ifndef NTBOOT_KERNEL_KERNEL_BLOB_H
#define NTBOOT_KERNEL_KERNEL_BLOB_H

#include "lib/kernel_blob.h"

/*
 * Read the .kblob section: the blob in @blob and 0, or -1 with why the
 * image has none in image_kernel_blob_why.
 */
int image_kernel_blob_init(void);

/* The blob read at boot, or NULL. */
const struct kernel_blob *image_kernel_blob(void);

/* Why there is none (the build's reason, or what the reader refused). */
const char *image_kernel_blob_why(void);

/* The "# kernel-blob" header line. */
void image_kernel_blob_line(void);

/*
 * plat_kernel_memmap_start(), _run() and _stop() (include/platform.h) are
 * kernel/kernel_blob_run.c's: the blob loaded, patched and called.
 */

#endif
