// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel blob in the image's .kblob section (kernel/kernel_blob_data.asm),
 * checked by lib/kernel_blob.c before anything trusts it.
 */
#include "kernel/kernel_blob.h"
#include "lib/printf.h"

extern const u8 kernel_blob_start[], kernel_blob_end[];

static struct kernel_blob blob;
static bool blob_read;
static char blob_why[256];

int image_kernel_blob_init(void)
{
	const u64 len = kernel_blob_end - kernel_blob_start;
	char why[sizeof(blob_why) - 32];
	int rc = kernel_blob_read(&blob, kernel_blob_start, len, why,
				  sizeof(why));

	blob_read = rc == 0;
	if (rc > 0)
		ntb_snprintf(blob_why, sizeof(blob_why), "%s", why);
	else if (rc < 0)
		ntb_snprintf(blob_why, sizeof(blob_why),
			     "the image's .kblob section is refused: %s", why);
	return blob_read ? 0 : -1;
}

const struct kernel_blob *image_kernel_blob(void)
{
	return blob_read ? &blob : NULL;
}

const char *image_kernel_blob_why(void)
{
	return blob_why;
}

void image_kernel_blob_line(void)
{
	const struct kernel_blob_header *h = blob.h;

	if (!blob_read) {
		kprintf("# kernel-blob none (%s)\n", blob_why);
		return;
	}
	kprintf("# kernel-blob %s %s bytes=%llu at=%#llx text=%llu data=%llu "
		"bss=%llu symbols=%llu patches=%llu\n",
		h->object, h->release, kernel_blob_span(&blob), h->link_addr,
		h->text_size, h->data_size, h->bss_size, h->nr_symbols,
		h->patches);
}
