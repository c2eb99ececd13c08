// SPDX-License-Identifier: GPL-2.0-only
/*
 * __memcpy_flushcache(), the out-of-line copy: byte for byte over every
 * size 0..1024, destination offset 0..63 and source offset 0..7 (a strided
 * subset in the image), exactly the head and tail lines cleaned, large
 * copies, and the data in place after a drain.
 */
#include "model/arch/x86/include/asm/string_64.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/string.h"
#include "tests/engines/copy_lines.h"
#include "tests/engines/copy_matrix.h"

static const struct copy_variant generic = {
	.name = "__memcpy_flushcache",
	.copy = __memcpy_flushcache,
	.needs_drain = true,
};

static void generic_matrix(struct kunit *test)
{
	struct copy_matrix m;

	/* Every case, in the image too (about 1 s under QEMU TCG). */
	copy_matrix_init_full(&m, 1024);
	KUNIT_EXPECT_TRUE(test, copy_matrix_run(test, &generic, &m));
	kunit_info(test, "%lu cases (%s matrix: sizes 0..1024, dst offsets "
		   "0..63, src offsets 0..7)", m.cases, copy_matrix_kind(&m));
}

/*
 * Only the cached head (up to the first 8-byte boundary) and the cached
 * tail (under 4 bytes) are cleaned, each exactly over its own lines.
 */
static void cleans_head_and_tail(struct kunit *test)
{
	u8 *buf = plat_alloc_aligned(4096, 4096);
	u8 *src = plat_alloc_aligned(512, 64);
	struct copy_lines got, want;
	enum clean_cache_method old;
	unsigned long cases = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, src);
	copy_fill_src(src, 512);
	old = copy_lines_start(&got);
	for (size_t n = 0; n <= 300; n++) {
		for (unsigned int off = 0; off < 130; off++) {
			uptr dst = (uptr)buf + 64 + off;

			copy_lines_reset(&got);
			copy_lines_reset(&want);
			__memcpy_flushcache((void *)dst, src + (off & 7), n);
			copy_lines_expect_head_tail(&want, dst, n);
			cases++;
			if (!copy_lines_equal(&got, &want)) {
				copy_lines_stop(old);
				kunit_fail_at(test, __FILE__, __LINE__,
					      "n=%zu dst_off=%u: %u lines "
					      "cleaned, expected %u", n, off,
					      got.nr, want.nr);
				goto out;
			}
		}
	}
	copy_lines_stop(old);
	kunit_info(test, "%lu copies, line size %u", cases,
		   clean_cache_line_size());
out:
	/* The copies are done: drain them before the buffer goes back. */
	memcpy_nt_drain();
	plat_free(buf, 4096);
	plat_free(src, 512);
}

/* Copies far beyond the matrix, at odd offsets, against memcpy(). */
static void large_copies(struct kunit *test)
{
	copy_check_large(test, __memcpy_flushcache);
}

static const struct kunit_case generic_cases[] = {
	KUNIT_CASE(generic_matrix),
	KUNIT_CASE(cleans_head_and_tail),
	KUNIT_CASE(large_copies),
};

KUNIT_SUITE_DEFINE(memcpy_flushcache_generic_suite,
		   "memcpy_flushcache_generic", generic_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
