/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's x86_64 non-temporal copy, the body of __copy_user_nocache()
 * (arch/x86/include/asm/uaccess_64.h wraps copy_to_nontemporal(),
 * arch/x86/lib/copy_user_uncached_64.S, in STAC/CLAC). The model has no
 * user addresses and takes no faults: only the copy is modelled
 * (model/arch/x86/lib/copy_user_uncached_64.c, docs/model.md).
 */
#ifndef NTBOOT_MODEL_ASM_UACCESS_64_H
#define NTBOOT_MODEL_ASM_UACCESS_64_H

#include "include/types.h"

/*
 * Copy @len bytes with MOVNTI where the destination allows, cached stores
 * for a head below 4-byte alignment and a tail under 4 bytes, and an
 * SFENCE after the last MOVNTI. Cleans no cache line: whoever needs the
 * cached bytes written back does that. Returns the bytes not copied: 0.
 */
unsigned long copy_to_nontemporal(void *dst, const void *src,
				  unsigned int len);

static inline unsigned long __copy_user_nocache(void *dst, const void *src,
						unsigned int size)
{
	return copy_to_nontemporal(dst, src, size);
}

#endif
