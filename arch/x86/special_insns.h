/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Single x86 instructions the copy family and the ordering tests are built
 * from: the three fences, the cache-line write-back/flush instructions and
 * MOVDIR64B. Each is an asm volatile with a "memory" clobber, so the
 * compiler neither drops it nor moves other memory accesses across it.
 *
 * In a checking build each also tells lib/ntcheck.h what it did: the
 * fences empty the CPU's pending set, CLWB/CLFLUSHOPT/MOVDIR64B add to it.
 *
 * None of these touches an SSE/AVX register: they are safe in general code
 * built with -mgeneral-regs-only. The caller checks CPUID for the optional
 * ones (CLFLUSHOPT, CLWB, MOVDIR64B); executing them without it is #UD.
 */
#ifndef NTBOOT_ARCH_X86_SPECIAL_INSNS_H
#define NTBOOT_ARCH_X86_SPECIAL_INSNS_H

#include "include/compiler.h"
#include "include/types.h"
#include "lib/ntcheck.h"

/*
 * SFENCE: every earlier store, non-temporal ones and CLFLUSHOPT/CLWB
 * included, is globally visible before any later store. The drain of a
 * non-temporal copy.
 */
static __always_inline void sfence(void)
{
	asm volatile("sfence" ::: "memory");
	ntcheck_fence(NTCHECK_SFENCE);
}

/* LFENCE: earlier instructions complete before later ones start. */
static __always_inline void lfence(void)
{
	asm volatile("lfence" ::: "memory");
}

/* MFENCE: full load/store fence, non-temporal stores included. */
static __always_inline void mfence(void)
{
	asm volatile("mfence" ::: "memory");
	ntcheck_fence(NTCHECK_MFENCE);
}

/*
 * Write the line holding @p back to memory and invalidate it. CLFLUSH is
 * ordered with other stores and CLFLUSHes; CLFLUSHOPT and CLWB are weakly
 * ordered (like non-temporal stores) and need an SFENCE to be ordered.
 * CLWB may leave the line valid in the cache.
 */
static __always_inline void clflush(volatile void *p)
{
	asm volatile("clflush %0" : "+m"(*(volatile char *)p) : : "memory");
	ntcheck_op((const void *)p, 1, NTCHECK_CLFLUSH);
}

static __always_inline void clflushopt(volatile void *p)
{
	asm volatile("clflushopt %0" : "+m"(*(volatile char *)p) : : "memory");
	ntcheck_op((const void *)p, 1, NTCHECK_CLFLUSHOPT);
}

static __always_inline void clwb(volatile void *p)
{
	asm volatile("clwb %0" : "+m"(*(volatile char *)p) : : "memory");
	ntcheck_op((const void *)p, 1, NTCHECK_CLWB);
}

/*
 * MOVDIR64B: read 64 bytes at @src (any alignment) and write them to @dst
 * as one 64-byte direct store. @dst must be 64-byte aligned (#GP
 * otherwise). The store is weakly ordered like a non-temporal one.
 */
static __always_inline void movdir64b(void *dst, const void *src)
{
	struct {
		char b[64];
	} *__d = dst;
	const struct {
		char b[64];
	} *__s = src;

	asm volatile("movdir64b %2, %1"
		     : "=m"(*__d)
		     : "r"(__d), "m"(*__s)
		     : "memory");
	ntcheck_op(dst, 64, NTCHECK_MOVDIR64B);
}

#endif
