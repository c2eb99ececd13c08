// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy variant registry: well formed, found by name, and every variant
 * this CPU can run compared with memcpy() on the whole matrix it claims
 * (sizes, alignments; template fills against the template repeated). A
 * variant the CPU lacks is reported as skipped, with the reason.
 */
#include "arch/x86/lib/copy_variant.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/engines/copy_matrix.h"

/* Names other parts of the project select variants by. */
static const char *const well_known[] = {
	"memcpy",	 "rep_movsb",	   "flushcache",     "flushcache_64",
	"flushcache_80", "flushcache_96",  "nocache",	     "copy_clean",
	"sse2_nt",	 "avx_nt",	   "avx512_nt",	     "movdir64b",
	"tmpl_mov_64",	 "tmpl_movnti_64", "tmpl_movnti_80", "tmpl_movnti_96",
	"tmpl_sse2_64",	 "tmpl_avx_64",	   "tmpl_avx512_64", "nocache_clean",
	"tmpl_movsb_64", "tmpl_movsb_80",  "tmpl_movsb_96",
};

static bool valid_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

static bool pow2(size_t x)
{
	return x && !(x & (x - 1));
}

static void registry_well_formed(struct kunit *test)
{
	const struct copy_variant *v, *w;
	unsigned int n = 0;

	for_each_copy_variant(v) {
		size_t step = copy_variant_size_step(v);
		size_t first = ALIGN_UP(v->min_size, step);
		unsigned int same = 0;

		n++;
		KUNIT_ASSERT_NOT_NULL(test, v);
		if (!valid_name(v->name)) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "variant %u: bad name", n);
			continue;
		}
		for_each_copy_variant(w)
			same += !strcmp(w->name, v->name);
		if (same != 1)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: registered %u times", v->name,
				      same);
		if (!v->copy || !v->desc || !*v->desc)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: no copy function or description",
				      v->name);
		if (v->min_size > copy_variant_max_size(v) ||
		    !pow2(copy_variant_dst_align(v)) ||
		    !pow2(copy_variant_src_align(v)) ||
		    (v->template_size && v->size_step &&
		     v->size_step != v->template_size))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: inconsistent sizes or alignment",
				      v->name);
		/* Something of it must be testable in the 0..1024 matrix. */
		if (first > min(copy_variant_max_size(v), (size_t)1024) ||
		    copy_variant_dst_align(v) > COPY_MATRIX_DST_OFFSETS)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: claims nothing the matrix covers",
				      v->name);
		if (v->simd && !(v->features &
				 (CPU_FEATURE_BIT(X86_FEATURE_SSE2) |
				  CPU_FEATURE_BIT(X86_FEATURE_AVX) |
				  CPU_FEATURE_BIT(X86_FEATURE_AVX512F))))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: SIMD without a SIMD feature",
				      v->name);
	}
	KUNIT_EXPECT_EQ(test, n, copy_variant_count());
	KUNIT_EXPECT_GE(test, n, (unsigned int)ARRAY_SIZE(well_known));
	kunit_info(test, "%u variants registered", n);
}

static void find_by_name(struct kunit *test)
{
	const struct copy_variant *v;

	for_each_copy_variant(v)
		KUNIT_EXPECT_TRUE(test, copy_variant_find(v->name) == v);
	for (size_t i = 0; i < ARRAY_SIZE(well_known); i++) {
		v = copy_variant_find(well_known[i]);
		if (!v)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "no variant named %s", well_known[i]);
		else
			KUNIT_EXPECT_STREQ(test, v->name, well_known[i]);
	}
	KUNIT_EXPECT_TRUE(test, copy_variant_find("no_such_copy") == NULL);
	KUNIT_EXPECT_TRUE(test, copy_variant_find("") == NULL);
	KUNIT_EXPECT_TRUE(test, copy_variant_find(NULL) == NULL);
}

/* copy_variant_serves() and copy_variant_usable() agree with the fields. */
static void claims_and_features(struct kunit *test)
{
	const struct copy_variant *v = copy_variant_find("movdir64b");
	const struct copy_variant *fc = copy_variant_find("flushcache_80");
	const struct copy_variant *t = copy_variant_find("tmpl_movnti_96");
	char why[64];

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, fc);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_TRUE(test, copy_variant_serves(v, (void *)0x1000,
						    (void *)0x2003, 128));
	KUNIT_EXPECT_FALSE(test, copy_variant_serves(v, (void *)0x1020,
						     (void *)0x2000, 128));
	KUNIT_EXPECT_FALSE(test, copy_variant_serves(v, (void *)0x1000,
						     (void *)0x2000, 100));
	KUNIT_EXPECT_TRUE(test, copy_variant_serves(fc, (void *)0x1001,
						    (void *)0x2003, 80));
	KUNIT_EXPECT_FALSE(test, copy_variant_serves(fc, (void *)0x1000,
						     (void *)0x2000, 64));
	KUNIT_EXPECT_TRUE(test, copy_variant_serves(t, (void *)0x1001,
						    (void *)0x2003, 960));
	KUNIT_EXPECT_FALSE(test, copy_variant_serves(t, (void *)0x1000,
						     (void *)0x2000, 100));

	KUNIT_EXPECT_EQ(test, copy_variant_usable(v, why, sizeof(why)),
			boot_cpu_has(X86_FEATURE_MOVDIR64B));
	if (!boot_cpu_has(X86_FEATURE_MOVDIR64B))
		KUNIT_EXPECT_STREQ(test, why,
				   "the CPU reports no movdir64b");
	/* MOVNTI is SSE2: a CPU model without it gets a reason, not #UD. */
	KUNIT_EXPECT_EQ(test, copy_variant_usable(fc, why, sizeof(why)),
			boot_cpu_has(X86_FEATURE_SSE2));
	KUNIT_EXPECT_STREQ(test, why, boot_cpu_has(X86_FEATURE_SSE2) ? "" :
				      "the CPU reports no sse2");
}

/*
 * Every variant against memcpy() on its claimed matrix. The runner counts
 * cases, so each variant is reported on a diagnostic line (ok / skip with
 * the reason / FAIL) and any failure fails this case.
 */
static void variants_match_memcpy(struct kunit *test)
{
	const struct copy_variant *v;
	unsigned int ran = 0, skipped = 0, failed = 0;
	struct copy_matrix m;

	copy_matrix_init(&m, 1024);
	kunit_info(test, "%s matrix: sizes 0..1024, dst offsets 0..63, src "
		   "offsets 0..7, as each variant claims",
		   copy_matrix_kind(&m));
	for_each_copy_variant(v) {
		char why[96];
		bool ok;

		if (!copy_variant_usable(v, why, sizeof(why))) {
			kunit_info(test, "skip %s: %s", v->name, why);
			skipped++;
			continue;
		}
		ok = copy_matrix_run(test, v, &m);
		if (!m.cases) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: no case ran", v->name);
			ok = false;
		}
		if (ok)
			kunit_info(test, "ok   %s: %lu cases%s%s", v->name,
				   m.cases, v->needs_drain ? ", drained" : "",
				   v->template_size ? ", template fill" : "");
		else
			kunit_info(test, "FAIL %s: %lu of %lu cases", v->name,
				   m.failures, m.cases);
		failed += !ok;
		ran++;
	}
	kunit_info(test, "%u variants ran (%u failed), %u skipped", ran,
		   failed, skipped);
	KUNIT_EXPECT_EQ(test, failed, 0u);
	KUNIT_EXPECT_GE(test, ran, 1u);
}

/*
 * The rep movsb fills beyond the matrix: the matrix stops at 1024 bytes,
 * inside the first block these fills write with MOV. Here every phase is
 * reached: within the first block, the doubling copies, exactly the cap,
 * cap-sized chunks with a last one of a page or of a part of the cap, and
 * an n that is no multiple of the page (rounded down). Each page of the
 * result must be the template, and the 4 KiB before and after the rounded
 * length must not change. The first block and the cap are as in
 * copy_template.c: the whole pages of 4 KiB, and 64 times that.
 */
#define MOVSB_GUARD 4096
#define MOVSB_MAX (3 * 256 * 1024)
/* The destination with its guards; a copy of the pattern follows it. */
#define MOVSB_HALF (MOVSB_MAX + 2 * MOVSB_GUARD + 64)

/* Where @dst[0..@n) differs from @tmpl repeated, or @n. */
static size_t movsb_first_bad(const u8 *dst, const u8 *tmpl, size_t sz,
			      size_t n)
{
	for (size_t at = 0; at < n; at += sz) {
		size_t d = copy_first_diff(dst + at, tmpl, sz);

		if (d != sz)
			return at + d;
	}
	return n;
}

static void movsb_fill_case(struct kunit *test, const struct copy_variant *v,
			    u8 *buf, const u8 *tmpl, size_t n_asked, size_t off)
{
	const size_t sz = v->template_size, n = n_asked - n_asked % sz;
	const size_t win = n + 2 * MOVSB_GUARD;
	u8 *dst = buf + MOVSB_GUARD + off;
	/* the untouched pattern, from where dst's guard starts */
	const u8 *ref = buf + MOVSB_HALF + off;
	size_t at;

	v->copy(dst, tmpl, n_asked);
	at = movsb_first_bad(dst, tmpl, sz, n);
	if (at != n)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s: n=%zu off=%zu: byte %zu (page %zu) is "
			      "0x%02x, want 0x%02x",
			      v->name, n_asked, off, at, at / sz, dst[at],
			      tmpl[at % sz]);
	at = copy_first_diff(dst - MOVSB_GUARD, ref, MOVSB_GUARD);
	if (at != MOVSB_GUARD)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s: n=%zu off=%zu: guard byte %ld before dst "
			      "written",
			      v->name, n_asked, off, (long)at - MOVSB_GUARD);
	at = copy_first_diff(dst + n, ref + MOVSB_GUARD + n, MOVSB_GUARD);
	if (at != MOVSB_GUARD)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s: n=%zu off=%zu: guard byte %zu after the "
			      "%zu filled written: 0x%02x",
			      v->name, n_asked, off, at, n, dst[n + at]);
	memcpy(dst - MOVSB_GUARD, ref, win);
}

static void movsb_fill_phases(struct kunit *test)
{
	static const unsigned int sizes[] = {64, 80, 96};
	u8 *buf = kunit_kzalloc(test, 2 * MOVSB_HALF);
	u8 tmpl[96];
	unsigned int cases = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	copy_fill_dst(buf, MOVSB_HALF);
	memcpy(buf + MOVSB_HALF, buf, MOVSB_HALF);
	copy_fill_src(tmpl, sizeof(tmpl));
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const size_t sz = sizes[i], first = 4096 / sz * sz;
		const size_t cap = 64 * first;
		/* inside the first block, doubling, cap, chunks, odd n */
		const size_t ns[] = {0,
				     sz,
				     first - sz,
				     first,
				     first + sz,
				     3 * first + sz,
				     cap - sz,
				     cap,
				     cap + sz,
				     2 * cap + sz,
				     2 * cap + cap / 2 + 7,
				     MOVSB_MAX - 1};
		char name[32];
		const struct copy_variant *v;

		ntb_snprintf(name, sizeof(name), "tmpl_movsb_%zu", sz);
		v = copy_variant_find(name);
		KUNIT_ASSERT_NOT_NULL(test, v);
		KUNIT_ASSERT_EQ(test, v->template_size, sz);
		for (size_t j = 0; j < ARRAY_SIZE(ns); j++) {
			/* page-aligned like a memmap, and at an odd offset */
			movsb_fill_case(test, v, buf, tmpl, ns[j], 0);
			movsb_fill_case(test, v, buf, tmpl, ns[j], 5);
			cases += 2;
		}
	}
	kunit_info(test, "%u fills checked, up to %d bytes", cases,
		   MOVSB_MAX - 1);
}

static const struct kunit_case copy_variants_cases[] = {
	KUNIT_CASE(registry_well_formed),
	KUNIT_CASE(find_by_name),
	KUNIT_CASE(claims_and_features),
	KUNIT_CASE(variants_match_memcpy),
	KUNIT_CASE(movsb_fill_phases),
};

KUNIT_SUITE_DEFINE(copy_variants_suite, "copy_variants", copy_variants_cases);
