// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's nocache copy, memcpy_nocache() of the series "use nocache
 * copy in copy_from_iter_nocache()", and the project's own copy-then-clean
 * copies beside it: byte for byte over every size 0..1024, destination
 * offset 0..63 and source offset 0..7 (a strided subset in the image), the
 * lines each one cleans, its MOVNTI and its SFENCE (checking build), large
 * copies, and the data readable after a drain, from the cache and from
 * memory.
 */
#include "arch/x86/lib/copy_clean.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/special_insns.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/string.h"
#include "tests/engines/copy_lines.h"
#include "tests/engines/copy_matrix.h"

static void nocache(void *dst, const void *src, size_t n)
{
	void *ret = memcpy_nocache(dst, src, n);

	if (ret != dst)
		kunit_fail_at(kunit_current(), __FILE__, __LINE__,
			      "memcpy_nocache() returned %p, not dst %p", ret,
			      dst);
}

static void matrix(struct kunit *test, const char *name,
		   void (*fn)(void *, const void *, size_t), bool full)
{
	const struct copy_variant v = {
		.name = name,
		.copy = fn,
		.needs_drain = true,
	};
	struct copy_matrix m;

	if (full)
		copy_matrix_init_full(&m, 1024);
	else
		copy_matrix_init(&m, 1024);
	KUNIT_EXPECT_TRUE(test, copy_matrix_run(test, &v, &m));
	kunit_info(test,
		   "%lu cases (%s matrix: sizes 0..1024, dst offsets "
		   "0..63, src offsets 0..7)",
		   m.cases, copy_matrix_kind(&m));
}

static void nocache_matrix(struct kunit *test)
{
	/* Every case, in the image too (about 1 s under QEMU TCG). */
	matrix(test, "memcpy_nocache", nocache, true);
}

static void nocache_clean(void *dst, const void *src, size_t n)
{
	memcpy_nocache_clean(dst, src, n);
}

static void copy_then_clean_matrix(struct kunit *test)
{
	matrix(test, "memcpy_then_clean", memcpy_then_clean, false);
	matrix(test, "memcpy_nocache_clean", nocache_clean, false);
}

/*
 * memcpy_nocache(), the kernel's, cleans no line (its caller does);
 * memcpy_nocache_clean() cleans only its cached head and tail, like
 * __memcpy_flushcache(); memcpy_then_clean() cleans every line of @dst.
 */
static void cleaned_lines(struct kunit *test)
{
	static const struct copy_lines_case c[] = {
		{"memcpy_nocache", nocache, NULL},
		{"memcpy_nocache_clean", nocache_clean,
		 copy_lines_expect_head_tail},
		{"memcpy_then_clean", memcpy_then_clean, copy_lines_expect},
	};

	copy_lines_sweep(test, c, ARRAY_SIZE(c));
}

/*
 * The MOVNTI the kernel's copy issues (the checker's trace: one entry per
 * MOVNTI, none crosses a line): every byte from the first 4-byte boundary
 * of @dst to the last 4-byte boundary of its end, one 4-byte MOVNTI to
 * reach 8-byte alignment, 8-byte ones, one 4-byte one at the end; the
 * bytes outside are cached stores. Then nothing is left pending: the copy
 * ends with its SFENCE.
 */
static unsigned long expected_movnti(uptr dst, size_t n)
{
	uptr a = ALIGN_UP(dst, 4), b = ALIGN_DOWN(dst + n, 4);
	unsigned long nr = 0;

	if (b < a + 4)
		return 0;
	if (a & 4) {
		nr++;
		a += 4;
	}
	return nr + (b - a) / 8 + ((b - a) & 4 ? 1 : 0);
}

static void nocache_stores_and_fence(struct kunit *test)
{
	u8 *buf = plat_alloc_aligned(4096, 4096);
	u8 *src = plat_alloc_aligned(512, 64);
	struct ntcheck_trace t = {.cap = 128};

	if (!ntcheck_built() || !ntcheck_active())
		kunit_skip(test,
			   "reads the store trace of the ordering checker: "
			   "the checking image runs it (make ntcheck-image)");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, src);
	t.e = kunit_kzalloc(test, t.cap * sizeof(*t.e));
	KUNIT_ASSERT_NOT_NULL(test, t.e);
	copy_fill_src(src, 512);
	for (size_t n = 0; n <= 200; n++) {
		for (unsigned int off = 0; off < 72; off++) {
			uptr dst = (uptr)buf + 64 + off;
			unsigned long want = expected_movnti(dst, n),
				      movnti = 0;

			ntcheck_trace_start(&t);
			memcpy_nocache((void *)dst, src + (off & 7), n);
			ntcheck_trace_stop();
			for (unsigned int i = 0; i < t.nr; i++)
				movnti += t.e[i].op == NTCHECK_MOVNTI;
			if (movnti != want || t.nr != movnti || t.overflow ||
			    ntcheck_pending_lines()) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "n=%zu dst_off=%u: %lu MOVNTI "
					      "(want %lu), %u operations, %lu "
					      "line(s) left pending",
					      n, off, movnti, want, t.nr,
					      ntcheck_pending_lines());
				goto out;
			}
			if (copy_first_diff((u8 *)dst, src + (off & 7), n) !=
			    n) {
				kunit_fail_at(test, __FILE__, __LINE__,
					      "n=%zu dst_off=%u: wrong bytes",
					      n, off);
				goto out;
			}
		}
	}
out:
	plat_free(buf, 4096);
	plat_free(src, 512);
}

static void memcpy_nocache_copy(void *dst, const void *src, size_t n)
{
	memcpy_nocache(dst, src, n);
}

/* Copies far beyond the matrix, at odd offsets, against memcpy(). */
static void large_copies(struct kunit *test)
{
	copy_check_large(test, memcpy_nocache_copy);
}

/*
 * After memcpy_nt_drain() the copy is there for ordinary loads; after
 * CLFLUSH of every line (so the next load comes from memory) still there:
 * the non-temporal stores reached memory, none was lost in a
 * write-combining buffer.
 */
static void drain_then_load(struct kunit *test)
{
	const size_t n = (4 << 20) + 5, len = n + 64;
	u8 *dst = plat_alloc_aligned(len, 4096);
	u8 *src = plat_alloc_aligned(len, 4096);
	size_t d;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_NOT_NULL(test, src);
	copy_fill_src(src, len);
	copy_fill_dst(dst, len);
	memcpy_nocache(dst + 3, src + 1, n);
	memcpy_nt_drain();
	d = copy_first_diff(dst + 3, src + 1, n);
	KUNIT_EXPECT_EQ(test, d, n);

	for (size_t off = 0; off < len; off += 64)
		clflush(dst + off);
	mfence();
	d = copy_first_diff(dst + 3, src + 1, n);
	KUNIT_EXPECT_EQ(test, d, n);
	KUNIT_EXPECT_EQ(test, dst[2], copy_fill_byte(2));
	KUNIT_EXPECT_EQ(test, dst[3 + n], copy_fill_byte(3 + n));
	plat_free(dst, len);
	plat_free(src, len);
}

static const struct kunit_case nocache_cases[] = {
	KUNIT_CASE(nocache_matrix), KUNIT_CASE(copy_then_clean_matrix),
	KUNIT_CASE(cleaned_lines),  KUNIT_CASE(nocache_stores_and_fence),
	KUNIT_CASE(large_copies),   KUNIT_CASE(drain_then_load),
};

KUNIT_SUITE_DEFINE(nocache_copy_suite, "nocache_copy", nocache_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
