/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copy-then-clean: the project's own copies into persistent memory,
 * beyond the kernel and the series, beside the kernel's nocache copy
 * (memcpy_nocache(), model/arch/x86/lib/misc.c) they are measured against:
 *
 *   memcpy_nocache_clean(dst, src, n)  64 bytes a round (8 x MOVNTI-8);
 *                                   the unaligned head and the under-4-byte
 *                                   tail as in __memcpy_flushcache(): a
 *                                   cached copy, then clean_cache_range()
 *                                   of its lines. No fence.
 *   memcpy_then_clean(dst, src, n)  a cached memcpy(), then
 *                                   clean_cache_range() over all of @dst:
 *                                   the copy-then-flush that the series
 *                                   "use nocache copy in
 *                                   copy_from_iter_nocache()" replaces for
 *                                   bvecs and kvecs. No fence.
 *
 * SFENCE (memcpy_nt_drain()) before relying on the data.
 */
#ifndef NTBOOT_ARCH_X86_LIB_COPY_CLEAN_H
#define NTBOOT_ARCH_X86_LIB_COPY_CLEAN_H

#include "include/types.h"

void *memcpy_nocache_clean(void *dst, const void *src, size_t n);
void memcpy_then_clean(void *dst, const void *src, size_t n);

#endif
