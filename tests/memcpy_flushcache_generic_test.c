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
	static const struct copy_lines_case c = {
		"__memcpy_flushcache", __memcpy_flushcache,
		copy_lines_expect_head_tail
	};
	unsigned long cases = copy_lines_sweep(test, &c, 1);

	kunit_info(test, "%lu copies, line size %u", cases,
		   clean_cache_line_size());
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
