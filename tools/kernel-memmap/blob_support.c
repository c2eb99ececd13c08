// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image's kernel blob's own part (tools/kernel-memmap/blob): compiled
 * freestanding in the kernel code model and linked with the kernel's
 * objects at the kernel's text address. It holds what the hosted
 * runner's program holds for them: the site table that
 * tools/kernel-memmap/sites fills, where a function stub goes (the
 * image's hook, which stops the case by name) and the glue's snprintf()
 * (the image's formatter). The image fills the hooks before any call.
 */
#include "lib/kernel_blob.h"
#include "tools/kernel-memmap/patch.h"

struct kmemmap_sites kmemmap_sites
	__attribute__((section("ntb_kmemmap_sites"), used)) = {
		.magic = KMEMMAP_SITES_EMPTY,
};

struct kernel_blob_hooks kmemmap_image_hooks;

void kmemmap_unexpected_call(const char *name, unsigned long from);

/* Called by a function stub (tools/kernel-memmap/stubs). */
void kmemmap_unexpected_call(const char *name, unsigned long from)
{
	kmemmap_image_hooks.stop(name, from);
	/* a hook that returned: the case cannot go on */
	for (;;)
		asm volatile("ud2");
}

/*
 * __cond_resched() of an image that runs one case at a time: nothing to
 * yield to. The static calls of cond_resched() and might_resched() are
 * patched to call it (patch.c), as the hosted runner's call its own.
 */
int kmemmap_cond_resched(void);

int kmemmap_cond_resched(void)
{
	return 0;
}

int snprintf(char *buf, unsigned long size, const char *fmt, ...);

int snprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kmemmap_image_hooks.vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
