/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The project's own, beyond the kernel and the series (docs/model.md):
 * the SSE2/AVX/AVX-512 members of the copy family. General code in this
 * project is built with -mgeneral-regs-only; these functions enable their
 * instruction set with a target() attribute and live in the section
 * ".text.ntb_simd", which tools/check-no-simd accepts as the one place
 * where vector registers may appear. Call them only when CPUID (and, for
 * AVX, XCR0) says so: copy_variant_usable() checks both.
 *
 * Non-temporal copies, any size and alignment; the part of @dst before its
 * first vector-aligned address and the tail after the last full vector go
 * through __memcpy_flushcache(), so the whole destination ends up written
 * back like a memcpy_flushcache(). No fence.
 *   memcpy_sse2_nt()     MOVNTDQ, 16 bytes a store, 64 a round
 *   memcpy_avx_nt()      VMOVNTDQ ymm, 32 bytes a store, 128 a round
 *   memcpy_avx512_nt()   VMOVNTDQ zmm, 64 bytes a store, 256 a round
 *
 * Template fills (copy_template.h semantics) from vector registers with
 * non-temporal stores; @dst aligned to the vector size (#GP otherwise):
 *   tmpl_fill_sse2_{64,80,96}()   4, 5, 6 xmm; @dst 16-byte aligned
 *   tmpl_fill_avx_{64,96}()       2, 3 ymm;    @dst 32-byte aligned
 *   tmpl_fill_avx512_64()         1 zmm;       @dst 64-byte aligned
 */
#ifndef NTBOOT_ARCH_X86_LIB_COPY_SIMD_H
#define NTBOOT_ARCH_X86_LIB_COPY_SIMD_H

#include "include/types.h"

/* The section tools/check-no-simd allows vector registers in. */
#define __simd_text __attribute__((section(".text.ntb_simd")))

void memcpy_sse2_nt(void *dst, const void *src, size_t n);
void memcpy_avx_nt(void *dst, const void *src, size_t n);
void memcpy_avx512_nt(void *dst, const void *src, size_t n);

void tmpl_fill_sse2_64(void *dst, const void *tmpl, size_t n);
void tmpl_fill_sse2_80(void *dst, const void *tmpl, size_t n);
void tmpl_fill_sse2_96(void *dst, const void *tmpl, size_t n);
void tmpl_fill_avx_64(void *dst, const void *tmpl, size_t n);
void tmpl_fill_avx_96(void *dst, const void *tmpl, size_t n);
void tmpl_fill_avx512_64(void *dst, const void *tmpl, size_t n);

#endif
