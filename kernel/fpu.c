// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "kernel/fpu.h"

#define X86_CR0_MP (1ull << 1)
#define X86_CR0_EM (1ull << 2)
#define X86_CR0_TS (1ull << 3)
#define X86_CR4_OSFXSR (1ull << 9)
#define X86_CR4_OSXMMEXCPT (1ull << 10)
#define X86_CR4_OSXSAVE (1ull << 18)

/* x87 | SSE | AVX | opmask | ZMM_Hi256 | Hi16_ZMM */
#define XFEATURE_MASK_WANTED 0xe7ull

u64 fpu_init(void)
{
	u64 cr0, cr4, xcr0;
	u32 a, b, c, d;

	asm volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 &= ~(X86_CR0_EM | X86_CR0_TS);
	cr0 |= X86_CR0_MP;
	asm volatile("mov %0, %%cr0" ::"r"(cr0));
	asm volatile("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;

	cpuid_count(1, 0, &a, &b, &c, &d);
	if (!(c & (1u << 26))) { /* no XSAVE: SSE only */
		asm volatile("mov %0, %%cr4" ::"r"(cr4));
		return 0;
	}
	cr4 |= X86_CR4_OSXSAVE;
	asm volatile("mov %0, %%cr4" ::"r"(cr4));

	/* Enable only what the CPU supports (CPUID 0xD.0 EDX:EAX). */
	cpuid_count(0xd, 0, &a, &b, &c, &d);
	xcr0 = (((u64)d << 32) | a) & XFEATURE_MASK_WANTED;
	/* AVX-512 state is all three components or nothing. */
	if ((xcr0 & 0xe0) != 0xe0)
		xcr0 &= ~0xe0ull;
	if (!(xcr0 & 0x4))
		xcr0 &= ~0xe0ull;
	asm volatile("xsetbv" ::"a"((u32)xcr0), "d"((u32)(xcr0 >> 32)), "c"(0));
	return xcr0;
}
