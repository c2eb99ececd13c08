// SPDX-License-Identifier: GPL-2.0-only
/*
 * SSE2/AVX/AVX-512 non-temporal copies and template fills; see
 * copy_simd.h. Every function here carries __simd_text and its own
 * target(): nothing outside this file is built with vector registers.
 *
 * The vector registers are named in the asm and listed as clobbers, so the
 * compiler never allocates one itself. The AVX functions end with
 * VZEROUPPER so that later SSE code (a C library's memcpy on the host)
 * pays no transition penalty.
 */
#include "arch/x86/lib/copy_simd.h"
#include "arch/x86/lib/copy_variant.h"
#include "model/arch/x86/include/asm/string_64.h"

/*
 * Write the bytes of @dst before the first @align-aligned address like
 * memcpy_flushcache() would. Returns how many bytes that took.
 */
static __always_inline size_t nt_head(uptr d, uptr s, size_t n, size_t align)
{
	size_t head = (size_t)(-d & (align - 1));

	if (head > n)
		head = n;
	if (head)
		__memcpy_flushcache((void *)d, (const void *)s, head);
	return head;
}

__simd_text __attribute__((target("sse2")))
void memcpy_sse2_nt(void *dst, const void *src, size_t n)
{
	uptr d = (uptr)dst, s = (uptr)src, bulk;
	size_t head = nt_head(d, s, n, 16);

	d += head;
	s += head;
	n -= head;
	bulk = d;
	for (; n >= 64; n -= 64, d += 64, s += 64)
		asm volatile("movdqu    (%1), %%xmm0\n\t"
			     "movdqu  16(%1), %%xmm1\n\t"
			     "movdqu  32(%1), %%xmm2\n\t"
			     "movdqu  48(%1), %%xmm3\n\t"
			     "movntdq %%xmm0,   (%0)\n\t"
			     "movntdq %%xmm1, 16(%0)\n\t"
			     "movntdq %%xmm2, 32(%0)\n\t"
			     "movntdq %%xmm3, 48(%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0", "xmm1", "xmm2", "xmm3");
	for (; n >= 16; n -= 16, d += 16, s += 16)
		asm volatile("movdqu (%1), %%xmm0\n\t"
			     "movntdq %%xmm0, (%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0");
	ntcheck_op((void *)bulk, d - bulk, NTCHECK_MOVNTDQ);
	if (n)
		__memcpy_flushcache((void *)d, (const void *)s, n);
}

__simd_text __attribute__((target("avx")))
void memcpy_avx_nt(void *dst, const void *src, size_t n)
{
	uptr d = (uptr)dst, s = (uptr)src, bulk;
	size_t head = nt_head(d, s, n, 32);

	d += head;
	s += head;
	n -= head;
	bulk = d;
	for (; n >= 128; n -= 128, d += 128, s += 128)
		asm volatile("vmovdqu    (%1), %%ymm0\n\t"
			     "vmovdqu  32(%1), %%ymm1\n\t"
			     "vmovdqu  64(%1), %%ymm2\n\t"
			     "vmovdqu  96(%1), %%ymm3\n\t"
			     "vmovntdq %%ymm0,   (%0)\n\t"
			     "vmovntdq %%ymm1, 32(%0)\n\t"
			     "vmovntdq %%ymm2, 64(%0)\n\t"
			     "vmovntdq %%ymm3, 96(%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0", "xmm1", "xmm2", "xmm3");
	for (; n >= 32; n -= 32, d += 32, s += 32)
		asm volatile("vmovdqu (%1), %%ymm0\n\t"
			     "vmovntdq %%ymm0, (%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0");
	asm volatile("vzeroupper" ::: "memory");
	ntcheck_op((void *)bulk, d - bulk, NTCHECK_VMOVNTDQ_YMM);
	if (n)
		__memcpy_flushcache((void *)d, (const void *)s, n);
}

__simd_text __attribute__((target("avx512f")))
void memcpy_avx512_nt(void *dst, const void *src, size_t n)
{
	uptr d = (uptr)dst, s = (uptr)src, bulk;
	size_t head = nt_head(d, s, n, 64);

	d += head;
	s += head;
	n -= head;
	bulk = d;
	for (; n >= 256; n -= 256, d += 256, s += 256)
		asm volatile("vmovdqu64     (%1), %%zmm0\n\t"
			     "vmovdqu64   64(%1), %%zmm1\n\t"
			     "vmovdqu64  128(%1), %%zmm2\n\t"
			     "vmovdqu64  192(%1), %%zmm3\n\t"
			     "vmovntdq %%zmm0,    (%0)\n\t"
			     "vmovntdq %%zmm1,  64(%0)\n\t"
			     "vmovntdq %%zmm2, 128(%0)\n\t"
			     "vmovntdq %%zmm3, 192(%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0", "xmm1", "xmm2", "xmm3");
	for (; n >= 64; n -= 64, d += 64, s += 64)
		asm volatile("vmovdqu64 (%1), %%zmm0\n\t"
			     "vmovntdq %%zmm0, (%0)"
			     :
			     : "r"(d), "r"(s)
			     : "memory", "xmm0");
	asm volatile("vzeroupper" ::: "memory");
	ntcheck_op((void *)bulk, d - bulk, NTCHECK_VMOVNTDQ_ZMM);
	if (n)
		__memcpy_flushcache((void *)d, (const void *)s, n);
}

/*
 * Template fills: the loads, then a loop of stores in the same asm
 * statement, so the template stays in the vector registers throughout.
 */
#define V_LD(ld, reg, off) ld " " #off "(%[t]), %%" reg "\n\t"
#define V_ST(st, reg, off) st " %%" reg ", " #off "(%[p])\n\t"
#define V_LOOP(size)                                                         \
	"add $" #size ", %[p]\n\t"                                            \
	"cmp %[end], %[p]\n\t"                                                \
	"jb 1b\n\t"

#define SSE2_64(op) op("xmm0", 0) op("xmm1", 16) op("xmm2", 32) op("xmm3", 48)
#define SSE2_80(op) SSE2_64(op) op("xmm4", 64)
#define SSE2_96(op) SSE2_80(op) op("xmm5", 80)
#define AVX_64(op) op("ymm0", 0) op("ymm1", 32)
#define AVX_96(op) AVX_64(op) op("ymm2", 64)
#define AVX512_64(op) op("zmm0", 0)

#define SSE2_LD(reg, off) V_LD("movdqu", reg, off)
#define SSE2_ST(reg, off) V_ST("movntdq", reg, off)
#define AVX_LD(reg, off) V_LD("vmovdqu", reg, off)
#define AVX_ST(reg, off) V_ST("vmovntdq", reg, off)
#define AVX512_LD(reg, off) V_LD("vmovdqu64", reg, off)
#define AVX512_ST(reg, off) V_ST("vmovntdq", reg, off)

#define TMPL_FILL_BODY(size, loads, stores, exit, op)                        \
	uptr p = (uptr)dst, end;                                              \
                                                                              \
	n -= n % size;                                                        \
	if (!n)                                                               \
		return;                                                       \
	end = p + n;                                                          \
	asm volatile(loads "1:\n\t" stores V_LOOP(size) exit                  \
		     : [p] "+r"(p)                                            \
		     : [t] "r"(tmpl), [end] "r"(end)                          \
		     : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3",        \
		       "xmm4", "xmm5");                                       \
	ntcheck_op(dst, n, op)

__simd_text __attribute__((target("sse2")))
void tmpl_fill_sse2_64(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(64, SSE2_64(SSE2_LD), SSE2_64(SSE2_ST), "",
		       NTCHECK_MOVNTDQ);
}

__simd_text __attribute__((target("sse2")))
void tmpl_fill_sse2_80(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(80, SSE2_80(SSE2_LD), SSE2_80(SSE2_ST), "",
		       NTCHECK_MOVNTDQ);
}

__simd_text __attribute__((target("sse2")))
void tmpl_fill_sse2_96(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(96, SSE2_96(SSE2_LD), SSE2_96(SSE2_ST), "",
		       NTCHECK_MOVNTDQ);
}

__simd_text __attribute__((target("avx")))
void tmpl_fill_avx_64(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(64, AVX_64(AVX_LD), AVX_64(AVX_ST), "vzeroupper",
		       NTCHECK_VMOVNTDQ_YMM);
}

__simd_text __attribute__((target("avx")))
void tmpl_fill_avx_96(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(96, AVX_96(AVX_LD), AVX_96(AVX_ST), "vzeroupper",
		       NTCHECK_VMOVNTDQ_YMM);
}

__simd_text __attribute__((target("avx512f")))
void tmpl_fill_avx512_64(void *dst, const void *tmpl, size_t n)
{
	TMPL_FILL_BODY(64, AVX512_64(AVX512_LD), AVX512_64(AVX512_ST),
		       "vzeroupper", NTCHECK_VMOVNTDQ_ZMM);
}

#define SSE2_FEATURES .features = CPU_FEATURE_BIT(X86_FEATURE_SSE2)
#define AVX_FEATURES                                                         \
	.features = CPU_FEATURE_BIT(X86_FEATURE_AVX),                         \
	.usable = copy_variant_avx_usable
#define AVX512_FEATURES                                                      \
	.features = CPU_FEATURE_BIT(X86_FEATURE_AVX512F),                     \
	.usable = copy_variant_avx512_usable

DEFINE_COPY_VARIANT(sse2_nt,
	.desc = "SSE2 MOVNTDQ, 64 bytes a round, flushcache head/tail",
	.copy = memcpy_sse2_nt, SSE2_FEATURES,
	.needs_drain = true, .simd = true);

DEFINE_COPY_VARIANT(avx_nt,
	.desc = "AVX VMOVNTDQ ymm, 128 bytes a round, flushcache head/tail",
	.copy = memcpy_avx_nt, AVX_FEATURES,
	.needs_drain = true, .simd = true);

DEFINE_COPY_VARIANT(avx512_nt,
	.desc = "AVX-512 VMOVNTDQ zmm, 256 bytes a round, flushcache head/tail",
	.copy = memcpy_avx512_nt, AVX512_FEATURES,
	.needs_drain = true, .simd = true);

#define DEFINE_TMPL_SIMD(kind, size, align, what, feat)                      \
	DEFINE_COPY_VARIANT(tmpl_##kind##_##size,                             \
		.desc = "fill from a " #size "-byte template held in " what,  \
		.copy = tmpl_fill_##kind##_##size, feat,                      \
		.template_size = size, .dst_align = align,                    \
		.needs_drain = true, .simd = true)

DEFINE_TMPL_SIMD(sse2, 64, 16, "xmm, MOVNTDQ", SSE2_FEATURES);
DEFINE_TMPL_SIMD(sse2, 80, 16, "xmm, MOVNTDQ", SSE2_FEATURES);
DEFINE_TMPL_SIMD(sse2, 96, 16, "xmm, MOVNTDQ", SSE2_FEATURES);
DEFINE_TMPL_SIMD(avx, 64, 32, "ymm, VMOVNTDQ", AVX_FEATURES);
DEFINE_TMPL_SIMD(avx, 96, 32, "ymm, VMOVNTDQ", AVX_FEATURES);
DEFINE_TMPL_SIMD(avx512, 64, 64, "zmm, VMOVNTDQ", AVX512_FEATURES);
