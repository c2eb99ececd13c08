/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The project's own (docs/model.md): the registry of copy variants, every
 * way this project knows to copy (or fill) memory (the kernel's copies
 * among them, from model/), declared once where it is written, found by
 * name or walked by the tests and the benchmarks.
 *
 * A variant is one DEFINE_COPY_VARIANT() entry: a pointer in the
 * "ntb_copy_variants" linker section (the image's linker.ld collects it;
 * GNU ld provides __start_/__stop_ for the host programs). Adding a variant
 * is that one entry; the copy_variants suite tests it on the matrix it
 * claims and benchmarks may select it by name.
 *
 *   const struct copy_variant *v = copy_variant_find("tmpl_movnti_64");
 *   char why[64];
 *
 *   if (!v || !copy_variant_usable(v, why, sizeof(why)))
 *           skip(why);
 *   v->copy(dst, src, n);
 *   if (v->needs_drain)
 *           memcpy_nt_drain();
 *
 * The walk order is the link order (files as linked, entries within a
 * file as the compiler emits them), not sorted: select by name.
 *
 * Two kinds:
 * - copies (template_size == 0): memcpy() semantics, @dst and @src do not
 *   overlap;
 * - template fills (template_size != 0): @src points at one template of
 *   template_size bytes, loaded once (into registers); @dst receives
 *   n / template_size back-to-back copies of it. n is a multiple of
 *   template_size. This is the struct page template path of the memmap
 *   model with the template kept in registers.
 *
 * Names (stable; benchmarks and the memmap model use them):
 *   memcpy, rep_movsb                      cached copies
 *   flushcache                             __memcpy_flushcache()
 *   flushcache_{4,8,16,32,48,64,80,96}     inline memcpy_flushcache(), one
 *                                          constant size each
 *   nocache, copy_clean                    memcpy_nocache(),
 *                                          memcpy_then_clean()
 *   sse2_nt, avx_nt, avx512_nt             MOVNTDQ 16/32/64-byte copies
 *   movdir64b                              MOVDIR64B, 64-byte aligned dst
 *   tmpl_mov_{64,80,96}                    template fills, cached MOV
 *   tmpl_movnti_{64,80,96}                 template fills, MOVNTI
 *   tmpl_movsb_{64,80,96}                  template fills, rep movsb
 *                                          copies of the first pages
 *   tmpl_sse2_{64,80,96}, tmpl_avx_{64,96}, tmpl_avx512_64
 *                                          template fills, vector NT
 *                                          stores (the widest one is the
 *                                          physical-limit fill)
 */
#ifndef NTBOOT_ARCH_X86_LIB_COPY_VARIANT_H
#define NTBOOT_ARCH_X86_LIB_COPY_VARIANT_H

#include "arch/x86/cpu.h"
#include "include/compiler.h"
#include "include/types.h"

/* A bit per enum x86_feature, for copy_variant.features. */
#define CPU_FEATURE_BIT(f) (1ull << (f))

struct copy_variant {
	const char *name;	/* unique, [a-z0-9_] */
	const char *desc;	/* one line for listings and reports */
	/* The copy (or the fill; see above). */
	void (*copy)(void *dst, const void *src, size_t n);
	/*
	 * Optional extra check beyond @features (the OS state of AVX, ...):
	 * false, with a reason written into @why (@len bytes), when the
	 * variant cannot run here.
	 */
	bool (*usable)(char *why, size_t len);
	u64 features;		/* CPU_FEATURE_BIT()s it needs from CPUID */
	/* What it serves. Zero means: no limit / any. */
	size_t min_size;	/* bytes */
	size_t max_size;	/* bytes; 0: unlimited */
	size_t size_step;	/* n is a multiple of this; 0/1: any n */
	size_t dst_align;	/* dst alignment it needs; 0/1: any */
	size_t src_align;	/* src alignment it needs; 0/1: any */
	size_t template_size;	/* 0: a copy; else a fill of this template */
	/*
	 * The stores (or write-backs) are weakly ordered: memcpy_nt_drain()
	 * (SFENCE) before the data is relied upon. True for every
	 * non-temporal variant and for copy_clean (CLWB/CLFLUSHOPT are
	 * weakly ordered too); false for the cached copies.
	 */
	bool needs_drain;
	/* Uses SSE/AVX registers: built with target(), lives in SIMD text. */
	bool simd;
};

/*
 * Declare variant @id (its name is "@id") with designated initialisers for
 * the remaining fields. The variant is the global __copy_variant_<id>, so
 * that a list naming it (the memmap strategies) fails to link when the
 * name is wrong:
 *
 *   DEFINE_COPY_VARIANT(nocache, .desc = "...", .copy = nocache_copy,
 *                       .needs_drain = true);
 */
#define DEFINE_COPY_VARIANT(id, ...)                                          \
	const struct copy_variant __copy_variant_##id = {                     \
		.name = #id,                                                  \
		__VA_ARGS__                                                   \
	};                                                                    \
	static const struct copy_variant *const __copy_variant_ptr_##id       \
		__used __section("ntb_copy_variants") __aligned(8) =          \
			&__copy_variant_##id

extern const struct copy_variant *const __start_ntb_copy_variants[];
extern const struct copy_variant *const __stop_ntb_copy_variants[];

/*
 * for_each_copy_variant(v) { ... }, with const struct copy_variant *v (a
 * plain identifier: it names the hidden cursor, so loops can nest).
 */
#define for_each_copy_variant(v)                                             \
	for (const struct copy_variant *const *__cv_##v =                     \
		     __start_ntb_copy_variants;                               \
	     __cv_##v < __stop_ntb_copy_variants && ((v) = *__cv_##v, 1);     \
	     __cv_##v++)

/* NULL when no variant has this name. */
const struct copy_variant *copy_variant_find(const char *name);
unsigned int copy_variant_count(void);

/*
 * Can @v run on this CPU now? Checks @features against CPUID, then
 * v->usable. On false, @why holds the reason ("no avx512f", ...).
 */
bool copy_variant_usable(const struct copy_variant *v, char *why,
			 size_t len);

/* Does @v serve a copy of @n bytes from @src to @dst (size, alignment)? */
bool copy_variant_serves(const struct copy_variant *v, const void *dst,
			 const void *src, size_t n);

/* The fields with their defaults applied. */
static inline size_t copy_variant_max_size(const struct copy_variant *v)
{
	return v->max_size ? v->max_size : (size_t)-1;
}

static inline size_t copy_variant_size_step(const struct copy_variant *v)
{
	if (v->template_size)
		return v->template_size;
	return v->size_step ? v->size_step : 1;
}

static inline size_t copy_variant_dst_align(const struct copy_variant *v)
{
	return v->dst_align ? v->dst_align : 1;
}

static inline size_t copy_variant_src_align(const struct copy_variant *v)
{
	return v->src_align ? v->src_align : 1;
}

/* Cached copy with one "rep movsb". */
void memcpy_rep_movsb(void *dst, const void *src, size_t n);
/* Fill with one "rep stosb" (fast strings: the kernel's memset()). */
void memset_rep_stosb(void *dst, u8 byte, size_t n);
/*
 * MOVDIR64B copy: @dst 64-byte aligned, @n a multiple of 64 (a smaller
 * remainder is not copied). Needs X86_FEATURE_MOVDIR64B.
 */
void memcpy_movdir64b(void *dst, const void *src, size_t n);

/* Shared by the SIMD variants' usable(): CPUID bit and XCR0 state. */
bool copy_variant_avx_usable(char *why, size_t len);
bool copy_variant_avx512_usable(char *why, size_t len);

#endif
