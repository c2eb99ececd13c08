// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's arch/x86/lib/usercopy_64.c at v7.2-rc1 (read at 6.12),
 * the part the model uses: __memcpy_flushcache() and clean_cache_range().
 *
 * __memcpy_flushcache(): the out-of-line part of memcpy_flushcache(),
 * faithful to the kernel's algorithm:
 *
 *   1. @dst not 8-byte aligned: cached copy of the bytes up to the next
 *      8-byte boundary (or of everything, if less), then write back the
 *      lines they touched with clean_cache_range();
 *   2. 32 bytes a round: four 8-byte loads, then four MOVNTI;
 *   3. 8 bytes a round: one load, one MOVNTI;
 *   4. 4 bytes left or more: one 4-byte MOVNTI;
 *   5. under 4 bytes left: cached copy, then clean_cache_range().
 *
 * There is no fence: the caller drains (SFENCE) when it needs the data
 * ordered. The source may have any alignment.
 */
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/lib/clean_cache.h"
#include "arch/x86/special_insns.h"
#include "lib/string.h"

void __memcpy_flushcache(void *dst, const void *src, size_t cnt)
{
	uptr d = (uptr)dst;
	uptr s = (uptr)src;

	if (!IS_ALIGNED(d, 8)) {
		size_t len = min(cnt, (size_t)(ALIGN_UP(d, 8) - d));

		memcpy((void *)d, (const void *)s, len);
		clean_cache_range((void *)d, len);
		d += len;
		s += len;
		cnt -= len;
		if (!cnt)
			return;
	}

	while (cnt >= 32) {
		/* All four loads come before the first store. */
		u64 r0 = __nt_load_u64((const void *)s);
		u64 r1 = __nt_load_u64((const void *)(s + 8));
		u64 r2 = __nt_load_u64((const void *)(s + 16));
		u64 r3 = __nt_load_u64((const void *)(s + 24));

		movnti_store_u64((void *)d, r0);
		movnti_store_u64((void *)(d + 8), r1);
		movnti_store_u64((void *)(d + 16), r2);
		movnti_store_u64((void *)(d + 24), r3);
		d += 32;
		s += 32;
		cnt -= 32;
	}

	movnti_tail(d, s, cnt);
}

/*
 * arch/x86/lib/usercopy_64.c clean_cache_range(): from the line holding
 * @addr while the line start is below @addr + @size, one write-back per
 * line. Simplified: the kernel patches in CLWB, CLFLUSHOPT or CLFLUSH with
 * alternatives; the model picks one at the first use
 * (arch/x86/lib/clean_cache.c, which also lets tests force one or hook
 * each line).
 */
void clean_cache_range(void *addr, size_t size)
{
	enum clean_cache_method m = clean_cache_current_method();
	const uptr line = clean_cache_line_size();
	const uptr end = (uptr)addr + size;
	uptr p = (uptr)addr & ~(line - 1);

	switch (m) {
	case CLEAN_CACHE_CLWB:
		for (; p < end; p += line)
			clwb((void *)p);
		break;
	case CLEAN_CACHE_CLFLUSHOPT:
		for (; p < end; p += line)
			clflushopt((void *)p);
		break;
	case CLEAN_CACHE_HOOK:
		for (; p < end; p += line)
			clean_cache_hook_line((void *)p);
		break;
	default:
		for (; p < end; p += line)
			clflush((void *)p);
		break;
	}
}
