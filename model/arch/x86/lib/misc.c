// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcpy_nocache(): from the series "use nocache copy in
 * copy_from_iter_nocache()", which adds it to the kernel's
 * arch/x86/lib/misc.c as the nocache copy copy_from_iter_nocache() uses
 * for bvecs and kvecs: __copy_user_nocache() between kernel buffers,
 * returning @dst. The posting is not part of v7.2-rc1 (docs/model.md);
 * the copy it calls is the kernel's (copy_to_nontemporal()).
 */
#include "model/arch/x86/include/asm/string_64.h"
#include "model/arch/x86/include/asm/uaccess_64.h"

void *memcpy_nocache(void *dst, const void *src, size_t n)
{
	const char *s = src;
	char *d = dst;

	/* __copy_user_nocache() takes an unsigned int: big copies in parts */
	while (n > 0x80000000UL) {
		__copy_user_nocache(d, s, 0x80000000U);
		d += 0x80000000UL;
		s += 0x80000000UL;
		n -= 0x80000000UL;
	}
	__copy_user_nocache(d, s, (unsigned int)n);
	return dst;
}
