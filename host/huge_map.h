/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Anonymous memory on transparent huge pages, 2 MiB aligned: the hosted
 * runner's large buffers (plat_alloc_aligned(), the model's memmap among
 * them) and the kernel memmap runner's own memmap
 * (tools/kernel-memmap/runner.c) are mapped by this one function, so that
 * the two memmaps timed against each other lie on the same kind of pages
 * (docs/kernel-memmap.md, "The memory under the memmap").
 */
#ifndef NTBOOT_HOST_HUGE_MAP_H
#define NTBOOT_HOST_HUGE_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#define HUGE_MAP_ALIGN ((size_t)2 << 20)

/* @size in whole 2 MiB pages: the length huge_map() maps. */
static inline size_t huge_map_len(size_t size)
{
	return (size + HUGE_MAP_ALIGN - 1) & ~(HUGE_MAP_ALIGN - 1);
}

/*
 * huge_map_len(@size) bytes, 2 MiB aligned, advised MADV_HUGEPAGE, not
 * touched; NULL (errno set) where mmap() fails. munmap() with
 * huge_map_len(@size) gives it back.
 */
static inline void *huge_map(size_t size)
{
	size_t len = huge_map_len(size);
	uintptr_t start, aligned;
	void *p;

	/*
	 * mmap() aligns only to pages (before Linux 6.7): map 2 MiB more and
	 * trim, so the mapping can sit on huge pages.
	 */
	p = mmap(NULL, len + HUGE_MAP_ALIGN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (uintptr_t)p;
	aligned =
		(start + HUGE_MAP_ALIGN - 1) & ~(uintptr_t)(HUGE_MAP_ALIGN - 1);
	if (aligned > start)
		munmap(p, aligned - start);
	munmap((void *)(aligned + len), start + HUGE_MAP_ALIGN - aligned);
	madvise((void *)aligned, len, MADV_HUGEPAGE);
	return (void *)aligned;
}

#endif
