/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generic non-temporal copy API of seed 000:
 *
 *   memcpy_nt(dst, src, n)   copy, asking for non-temporal stores; on x86
 *                            this is memcpy_flushcache(), so a constant
 *                            64/80/96-byte struct page copy stays inline
 *   memcpy_nt_drain()        order every earlier memcpy_nt() store before
 *                            any later store: SFENCE on x86
 *
 * Callers drain before they (or another CPU) build on the copied data: in
 * the memmap model, before memmap_init_compound(), before
 * prep_compound_head() and before returning.
 */
#ifndef NTBOOT_ARCH_X86_LIB_MEMCPY_NT_H
#define NTBOOT_ARCH_X86_LIB_MEMCPY_NT_H

#include "arch/x86/lib/memcpy_flushcache.h"
#include "arch/x86/special_insns.h"

static __always_inline void memcpy_nt(void *dst, const void *src, size_t n)
{
	memcpy_flushcache(dst, src, n);
}

static __always_inline void memcpy_nt_drain(void)
{
	sfence();
}

#endif
