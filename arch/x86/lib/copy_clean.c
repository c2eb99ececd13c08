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
		movnti_line_64(d, s);
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
