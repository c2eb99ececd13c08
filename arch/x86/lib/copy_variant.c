// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy variant registry (copy_variant.h): lookup and checks, and the
 * entries of the general-register copies: the cached baselines, the
 * kernel's flushcache/nocache routines, MOVDIR64B. The template fills are
 * in copy_template.c, the SSE/AVX variants in copy_simd.c.
 */
#include "arch/x86/lib/copy_variant.h"
#include "arch/x86/lib/clean_cache.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/lib/copy_clean.h"
#include "arch/x86/special_insns.h"
#include "lib/printf.h"
#include "lib/string.h"

const struct copy_variant *copy_variant_find(const char *name)
{
	const struct copy_variant *v;

	if (!name)
		return NULL;
	for_each_copy_variant(v)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

unsigned int copy_variant_count(void)
{
	const struct copy_variant *v;
	unsigned int n = 0;

	for_each_copy_variant(v)
		n += v != NULL;
	return n;
}

bool copy_variant_usable(const struct copy_variant *v, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	for (int f = 0; f < X86_NR_FEATURES; f++) {
		if ((v->features & CPU_FEATURE_BIT(f)) &&
		    !boot_cpu_has((enum x86_feature)f)) {
			ntb_snprintf(why, len, "the CPU reports no %s",
				     x86_feature_name((enum x86_feature)f));
			return false;
		}
	}
	if (v->usable && !v->usable(why, len)) {
		if (len && !why[0])
			ntb_snprintf(why, len, "not usable here");
		return false;
	}
	return true;
}

bool copy_variant_serves(const struct copy_variant *v, const void *dst,
			 const void *src, size_t n)
{
	return n >= v->min_size && n <= copy_variant_max_size(v) &&
	       n % copy_variant_size_step(v) == 0 &&
	       IS_ALIGNED((uptr)dst, copy_variant_dst_align(v)) &&
	       IS_ALIGNED((uptr)src, copy_variant_src_align(v));
}

bool copy_variant_avx_usable(char *why, size_t len)
{
	if (cpu_avx_usable())
		return true;
	ntb_snprintf(why, len, "%s",
		     boot_cpu_has(X86_FEATURE_AVX) ?
			     "AVX state not enabled in XCR0" :
			     "no avx");
	return false;
}

bool copy_variant_avx512_usable(char *why, size_t len)
{
	if (cpu_avx512_usable())
		return true;
	ntb_snprintf(why, len, "%s",
		     boot_cpu_has(X86_FEATURE_AVX512F) ?
			     "AVX-512 state not enabled in XCR0" :
			     "no avx512f");
	return false;
}

void memcpy_rep_movsb(void *dst, const void *src, size_t n)
{
	asm volatile("rep movsb"
		     : "+D"(dst), "+S"(src), "+c"(n)
		     :
		     : "memory");
}

void memset_rep_stosb(void *dst, u8 byte, size_t n)
{
	asm volatile("rep stosb"
		     : "+D"(dst), "+c"(n)
		     : "a"(byte)
		     : "memory");
}

void memcpy_movdir64b(void *dst, const void *src, size_t n)
{
	uptr d = (uptr)dst, s = (uptr)src;

	for (; n >= 64; n -= 64, d += 64, s += 64)
		movdir64b((void *)d, (const void *)s);
}

/* Adapters to the registry's signature. */
static void cached_memcpy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static void nocache_copy(void *dst, const void *src, size_t n)
{
	memcpy_nocache(dst, src, n);
}

static void nocache_clean_copy(void *dst, const void *src, size_t n)
{
	memcpy_nocache_clean(dst, src, n);
}

/*
 * MOVNTI is an SSE2 instruction. Every x86-64 CPU has SSE2, but an
 * emulator's CPU model can say otherwise (QEMU -cpu qemu64,-sse2), and
 * then MOVNTI raises #UD: such variants are skipped with the reason.
 */
#define MOVNTI_FEATURES .features = CPU_FEATURE_BIT(X86_FEATURE_SSE2)

DEFINE_COPY_VARIANT(memcpy,
	.desc = "cached memcpy(), the baseline",
	.copy = cached_memcpy);

DEFINE_COPY_VARIANT(rep_movsb,
	.desc = "cached rep movsb (fast strings)",
	.copy = memcpy_rep_movsb,
	.features = CPU_FEATURE_BIT(X86_FEATURE_ERMS));

DEFINE_COPY_VARIANT(flushcache,
	.desc = "__memcpy_flushcache(): 32-byte MOVNTI loop, cleaned head/tail",
	.copy = __memcpy_flushcache,
	MOVNTI_FEATURES,
	.needs_drain = true);

/* memcpy_flushcache() with each constant size it keeps inline. */
#define DEFINE_FLUSHCACHE_CONST(sz)                                          \
	static void flushcache_const_##sz(void *dst, const void *src,        \
					  size_t n)                          \
	{                                                                     \
		memcpy_flushcache(dst, src, sz);                              \
	}                                                                     \
	DEFINE_COPY_VARIANT(flushcache_##sz,                                  \
		.desc = "inline memcpy_flushcache() of a constant " #sz       \
			" bytes: MOVNTI only",                                \
		.copy = flushcache_const_##sz,                                \
		.min_size = sz, .max_size = sz, MOVNTI_FEATURES,         \
		.needs_drain = true)

DEFINE_FLUSHCACHE_CONST(4);
DEFINE_FLUSHCACHE_CONST(8);
DEFINE_FLUSHCACHE_CONST(16);
DEFINE_FLUSHCACHE_CONST(32);
DEFINE_FLUSHCACHE_CONST(48);
DEFINE_FLUSHCACHE_CONST(64);
DEFINE_FLUSHCACHE_CONST(80);
DEFINE_FLUSHCACHE_CONST(96);

DEFINE_COPY_VARIANT(nocache,
	.desc = "memcpy_nocache(): the kernel's nocache copy, SFENCE at the end",
	.copy = nocache_copy,
	MOVNTI_FEATURES);

DEFINE_COPY_VARIANT(nocache_clean,
	.desc = "project's own: nocache body, cached head/tail cleaned",
	.copy = nocache_clean_copy,
	MOVNTI_FEATURES,
	.needs_drain = true);

DEFINE_COPY_VARIANT(copy_clean,
	.desc = "project's own: memcpy() then clean_cache_range()",
	.copy = memcpy_then_clean,
	.needs_drain = true);

DEFINE_COPY_VARIANT(movdir64b,
	.desc = "MOVDIR64B 64-byte direct stores",
	.copy = memcpy_movdir64b,
	.features = CPU_FEATURE_BIT(X86_FEATURE_MOVDIR64B),
	.size_step = 64, .dst_align = 64,
	.needs_drain = true);
