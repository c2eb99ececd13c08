/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's arch/x86/include/asm/string_64.h at v7.2-rc1 with the
 * series: memcpy_flushcache(), copy so that the destination does not stay
 * dirty in the CPU caches, the x86_64 primitive behind memcpy_nt().
 *
 *   movnti_4() .. movnti_64()   MOVNTI building blocks (any alignment)
 *   movnti_line_64()            a line: eight loads, then eight MOVNTI
 *   memcpy_flushcache()         inline; constant sizes 4, 8, 16, 32, 48, 64,
 *                               80 and 96 become straight MOVNTI sequences
 *                               (the cases above 16 are the series' "x86/
 *                               string: extend memcpy_flushcache()
 *                               fixed-size fastpaths"), anything else
 *                               calls __memcpy_flushcache()
 *   __memcpy_flushcache()       the out-of-line copy
 *                               (model/arch/x86/lib/usercopy_64.c)
 *   memcpy_nocache()            the series' nocache copy
 *   memcpy_nt(), memcpy_nt_drain()  the series' generic API
 *
 * Non-temporal stores are weakly ordered: nothing here fences. Whoever
 * needs the data ordered before a later store (or seen by another CPU or
 * a device) issues sfence(), memcpy_nt_drain() below.
 *
 * Address arithmetic is done on integers so that the inline sequences carry
 * no sanitizer checks of their own; the loads of the source go through
 * __builtin_memcpy, which any alignment allows.
 */
#ifndef NTBOOT_MODEL_ASM_STRING_64_H
#define NTBOOT_MODEL_ASM_STRING_64_H

#include "include/compiler.h"
#include "include/types.h"
#include "arch/x86/lib/clean_cache.h"
#include "arch/x86/special_insns.h"
#include "lib/ntcheck.h"

typedef u32 __attribute__((aligned(1), may_alias)) u32_unaligned;
typedef u64 __attribute__((aligned(1), may_alias)) u64_unaligned;

#define __nt_ptr(p, off) ((void *)((uptr)(p) + (off)))
#define __nt_cptr(p, off) ((const void *)((uptr)(p) + (off)))

static __always_inline u64 __nt_load_u64(const void *src)
{
	u64 v;

	__builtin_memcpy(&v, src, sizeof(v));
	return v;
}

static __always_inline u32 __nt_load_u32(const void *src)
{
	u32 v;

	__builtin_memcpy(&v, src, sizeof(v));
	return v;
}

/* One MOVNTI of a value already in a register. */
static __always_inline void movnti_store_u32(void *dst, u32 v)
{
	asm volatile("movntil %1, %0"
		     : "=m"(*(u32_unaligned *)dst)
		     : "r"(v)
		     : "memory");
	ntcheck_op(dst, 4, NTCHECK_MOVNTI);
}

static __always_inline void movnti_store_u64(void *dst, u64 v)
{
	asm volatile("movntiq %1, %0"
		     : "=m"(*(u64_unaligned *)dst)
		     : "r"(v)
		     : "memory");
	ntcheck_op(dst, 8, NTCHECK_MOVNTI);
}

/* Copy 4/8/16/32/64 bytes @src -> @dst with MOVNTI stores. */
static __always_inline void movnti_4(void *dst, const void *src)
{
	movnti_store_u32(dst, __nt_load_u32(src));
}

static __always_inline void movnti_8(void *dst, const void *src)
{
	movnti_store_u64(dst, __nt_load_u64(src));
}

static __always_inline void movnti_16(void *dst, const void *src)
{
	movnti_8(dst, src);
	movnti_8(__nt_ptr(dst, 8), __nt_cptr(src, 8));
}

static __always_inline void movnti_32(void *dst, const void *src)
{
	movnti_16(dst, src);
	movnti_16(__nt_ptr(dst, 16), __nt_cptr(src, 16));
}

static __always_inline void movnti_64(void *dst, const void *src)
{
	movnti_32(dst, src);
	movnti_32(__nt_ptr(dst, 32), __nt_cptr(src, 32));
}

/*
 * One 64-byte line the way the kernel's nocache copy moves it (and the
 * project's copy-then-clean after it): eight loads into registers, then
 * eight MOVNTI, so the stores of a line issue back to back and fill one
 * write-combining buffer.
 */
static __always_inline void movnti_line_64(uptr d, uptr s)
{
	u64 r0 = __nt_load_u64((const void *)s);
	u64 r1 = __nt_load_u64((const void *)(s + 8));
	u64 r2 = __nt_load_u64((const void *)(s + 16));
	u64 r3 = __nt_load_u64((const void *)(s + 24));
	u64 r4 = __nt_load_u64((const void *)(s + 32));
	u64 r5 = __nt_load_u64((const void *)(s + 40));
	u64 r6 = __nt_load_u64((const void *)(s + 48));
	u64 r7 = __nt_load_u64((const void *)(s + 56));

	movnti_store_u64((void *)d, r0);
	movnti_store_u64((void *)(d + 8), r1);
	movnti_store_u64((void *)(d + 16), r2);
	movnti_store_u64((void *)(d + 24), r3);
	movnti_store_u64((void *)(d + 32), r4);
	movnti_store_u64((void *)(d + 40), r5);
	movnti_store_u64((void *)(d + 48), r6);
	movnti_store_u64((void *)(d + 56), r7);
}

/*
 * The end of an out-of-line copy, @d 8-byte aligned and the wide loop
 * done (__memcpy_flushcache(), memcpy_nocache()): MOVNTI 8 bytes at a
 * time, then 4 if 4 are left, and the last 1 to 3 bytes cached and
 * written back with clean_cache_range().
 */
static __always_inline void movnti_tail(uptr d, uptr s, size_t n)
{
	while (n >= 8) {
		movnti_8((void *)d, (const void *)s);
		d += 8;
		s += 8;
		n -= 8;
	}
	if (n >= 4) {
		movnti_4((void *)d, (const void *)s);
		d += 4;
		s += 4;
		n -= 4;
	}
	if (n) {
		__builtin_memcpy((void *)d, (const void *)s, n);
		clean_cache_range((void *)d, n);
	}
}

/*
 * The kernel's algorithm (docs/model.md): a cached copy up to the first 8-byte
 * boundary of @dst whose lines are then cleaned with clean_cache_range(),
 * a loop of 32 bytes (4 x MOVNTI-8), a loop of 8 bytes, one 4-byte MOVNTI,
 * and a cached + cleaned tail under 4 bytes. No fence.
 */
void __memcpy_flushcache(void *dst, const void *src, size_t cnt);

/*
 * Sizes known at compile time that match a struct page (64, 80, 96 bytes)
 * or a smaller power of two stay inline as MOVNTI sequences: no call, no
 * head/tail handling, any alignment. The struct page template copy of the
 * memmap model depends on this ("x86/string: extend memcpy_flushcache() fixed-size fastpaths").
 */
static __always_inline void memcpy_flushcache(void *dst, const void *src,
					      size_t cnt)
{
	if (!__builtin_constant_p(cnt)) {
		__memcpy_flushcache(dst, src, cnt);
		return;
	}

	switch (cnt) {
	case 4:
		movnti_4(dst, src);
		break;
	case 8:
		movnti_8(dst, src);
		break;
	case 16:
		movnti_16(dst, src);
		break;
	case 32:
		movnti_32(dst, src);
		break;
	case 48:
		movnti_32(dst, src);
		movnti_16(__nt_ptr(dst, 32), __nt_cptr(src, 32));
		break;
	case 64:
		movnti_64(dst, src);
		break;
	case 80:
		movnti_64(dst, src);
		movnti_16(__nt_ptr(dst, 64), __nt_cptr(src, 64));
		break;
	case 96:
		movnti_64(dst, src);
		movnti_32(__nt_ptr(dst, 64), __nt_cptr(src, 64));
		break;
	default:
		__memcpy_flushcache(dst, src, cnt);
		break;
	}
}

/*
 * memcpy_nocache(): the series "use nocache copy in
 * copy_from_iter_nocache()" declares it here and defines it in
 * arch/x86/lib/misc.c (model/arch/x86/lib/misc.c): the kernel's nocache
 * copy, copy_to_nontemporal(). It ends with an SFENCE and cleans nothing.
 */
void *memcpy_nocache(void *dst, const void *src, size_t n);

/*
 * memcpy_nt() and memcpy_nt_drain(): the series' generic non-temporal copy
 * API, which "mm: use memcpy_nt() in zone-device template copies" calls.
 * On x86 memcpy_nt() is memcpy_flushcache(), so a constant 64/80/96-byte
 * struct page copy stays inline; memcpy_nt_drain() is SFENCE. Callers
 * drain before they (or another CPU) build on the copied data.
 */
static __always_inline void memcpy_nt(void *dst, const void *src, size_t n)
{
	memcpy_flushcache(dst, src, n);
}

static __always_inline void memcpy_nt_drain(void)
{
	sfence();
}

#endif
