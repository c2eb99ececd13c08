// SPDX-License-Identifier: GPL-2.0-only
/*
 * copy_to_nontemporal(): the kernel's arch/x86/lib/copy_user_uncached_64.S
 * (the function behind __copy_user_nocache()), written here in C from its
 * algorithm. Read at 6.12; the series "use nocache copy in
 * copy_from_iter_nocache()" builds memcpy_nocache() on this copy. Its
 * order of stores, step by step:
 *
 *   1. destination not 8-byte aligned: a cached byte store to reach 2-byte
 *      alignment, a cached 2-byte store to reach 4, and one 4-byte MOVNTI
 *      to reach 8 (each only while enough bytes are left);
 *   2. 64 bytes a round: eight 8-byte loads, then eight MOVNTI;
 *   3. 8 bytes a round: one load, one MOVNTI;
 *   4. 4 bytes left or more: one 4-byte MOVNTI;
 *   5. SFENCE; then a cached 2-byte and a cached 1-byte store for what is
 *      left.
 *
 * The SFENCE orders every MOVNTI before the cached tail and before
 * whatever the caller stores next; the paths that issue no MOVNTI (a
 * head of one or two bytes that is the whole copy) skip it, as the
 * kernel's do. Nothing is cleaned from the cache: the cached head and
 * tail stay dirty until the caller writes them back. Faults (the
 * exception-table fix-ups) are not modelled: the model copies between
 * kernel buffers, and the result is always 0.
 */
#include "model/arch/x86/include/asm/uaccess_64.h"
#include "arch/x86/special_insns.h"
#include "model/arch/x86/include/asm/string_64.h"

static __always_inline void cached_store_u16(uptr d, uptr s)
{
	u16 v;

	__builtin_memcpy(&v, (const void *)s, 2);
	__builtin_memcpy((void *)d, &v, 2);
}

static __always_inline void cached_store_u8(uptr d, uptr s)
{
	*(volatile u8 *)d = *(const u8 *)s;
}

unsigned long copy_to_nontemporal(void *dst, const void *src,
				  unsigned int len)
{
	uptr d = (uptr)dst;
	uptr s = (uptr)src;

	if (d & 7) {
		if (d & 1) {
			if (!len)
				return 0;
			cached_store_u8(d, s);
			d++;
			s++;
			len--;
		}
		if (d & 2) {
			if (len < 2)
				goto tail_byte;
			cached_store_u16(d, s);
			d += 2;
			s += 2;
			len -= 2;
		}
		if (d & 4) {
			if (len < 4)
				goto fence;
			movnti_store_u32((void *)d, __nt_load_u32((void *)s));
			d += 4;
			s += 4;
			len -= 4;
		}
	}

	while (len >= 64) {
		movnti_line_64(d, s);
		d += 64;
		s += 64;
		len -= 64;
	}

	while (len >= 8) {
		movnti_store_u64((void *)d, __nt_load_u64((const void *)s));
		d += 8;
		s += 8;
		len -= 8;
	}

	if (len & 4) {
		movnti_store_u32((void *)d, __nt_load_u32((const void *)s));
		d += 4;
		s += 4;
		len -= 4;
	}
fence:
	sfence();
	if (len & 2) {
		cached_store_u16(d, s);
		d += 2;
		s += 2;
		len -= 2;
	}
tail_byte:
	if (len & 1)
		cached_store_u8(d, s);
	return 0;
}
