// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcpy_nocache_clean() and memcpy_then_clean(); see copy_clean.h. The
 * project's own copies, beyond the kernel and the series.
 */
#include "arch/x86/lib/copy_clean.h"
#include "arch/x86/lib/clean_cache.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "lib/string.h"

void *memcpy_nocache_clean(void *dst, const void *src, size_t n)
{
	uptr d = (uptr)dst;
	uptr s = (uptr)src;

	if (!IS_ALIGNED(d, 8)) {
		size_t len = min(n, (size_t)(ALIGN_UP(d, 8) - d));

		memcpy((void *)d, (const void *)s, len);
		clean_cache_range((void *)d, len);
		d += len;
		s += len;
		n -= len;
		if (!n)
			return dst;
	}

	while (n >= 64) {
		/* Eight loads, then eight MOVNTI: a whole line a round. */
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
		d += 64;
		s += 64;
		n -= 64;
	}

	movnti_tail(d, s, n);
	return dst;
}

void memcpy_then_clean(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	clean_cache_range(dst, n);
}
