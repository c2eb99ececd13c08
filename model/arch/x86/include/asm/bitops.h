/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The non-atomic bit operation of the kernel's arch/x86/include/asm/
 * bitops.h that the page-flag helpers use (__SetPageReserved(),
 * __SetPageHead() through __set_bit()): one BTS on the word in memory,
 * with a "memory" clobber. The clobber matters to the compiled shape: the
 * compiler may not merge the flag store with the stores around it, as it
 * could a plain C "|=", so the loop keeps the kernel's order of stores.
 */
#ifndef NTBOOT_MODEL_ASM_BITOPS_H
#define NTBOOT_MODEL_ASM_BITOPS_H

#include "include/compiler.h"
#include "include/types.h"

static __always_inline void arch___set_bit(unsigned long nr,
					   volatile unsigned long *addr)
{
	asm volatile("btsq %1,%0" : "+m"(*addr) : "Ir"(nr) : "memory");
}

/* include/asm-generic/bitops/instrumented-non-atomic.h: no KASAN here */
static __always_inline void __set_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	arch___set_bit(nr, addr);
}

#endif
