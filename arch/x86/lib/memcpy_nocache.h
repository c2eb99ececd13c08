/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bulk copy into persistent memory of copy_from_iter_nocache()
 * (seed 004), and the way it replaced:
 *
 *   memcpy_nocache(dst, src, n)     64 bytes a round (8 x MOVNTI-8); the
 *                                   unaligned head and the under-4-byte
 *                                   tail as in __memcpy_flushcache():
 *                                   cached copy + clean_cache_range()
 *   memcpy_then_clean(dst, src, n)  the old way: a cached memcpy(), then
 *                                   clean_cache_range() over all of @dst
 *
 * Neither fences: SFENCE (memcpy_nt_drain()) before relying on the data.
 */
#ifndef NTBOOT_ARCH_X86_LIB_MEMCPY_NOCACHE_H
#define NTBOOT_ARCH_X86_LIB_MEMCPY_NOCACHE_H

#include "include/types.h"

void *memcpy_nocache(void *dst, const void *src, size_t n);
void memcpy_then_clean(void *dst, const void *src, size_t n);

#endif
