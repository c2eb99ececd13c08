/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Recording the lines clean_cache_range() is asked to write back, for the
 * suites that check which lines a copy cleans. While recording, nothing
 * is written back (clean_cache_set_hook()).
 */
#ifndef NTBOOT_TESTS_ENGINES_COPY_LINES_H
#define NTBOOT_TESTS_ENGINES_COPY_LINES_H

#include "arch/x86/lib/clean_cache.h"
#include "include/types.h"

#define COPY_LINES_MAX 64

struct copy_lines {
	uptr line[COPY_LINES_MAX];
	unsigned int nr;
	bool overflow;
};

/* Start recording into @l (emptied); returns the method to restore. */
enum clean_cache_method copy_lines_start(struct copy_lines *l);
void copy_lines_stop(enum clean_cache_method old);
/* Empty @l again without stopping. */
void copy_lines_reset(struct copy_lines *l);

/*
 * Append to @l the lines clean_cache_range(@addr, @size) walks, by the
 * kernel's rule: from the line holding @addr while below @addr + @size.
 */
void copy_lines_expect(struct copy_lines *l, uptr addr, size_t size);

/*
 * The lines __memcpy_flushcache() and memcpy_nocache_clean() clean for a copy of
 * @n bytes to @dst: those of the cached head up to the first 8-byte
 * boundary, then those of the cached tail under 4 bytes.
 */
void copy_lines_expect_head_tail(struct copy_lines *l, uptr dst, size_t n);

/* Same lines in the same order? */
bool copy_lines_equal(const struct copy_lines *a, const struct copy_lines *b);

/* A copy and the lines it should clean (@expect NULL: none at all). */
struct copy_lines_case {
	const char *name;
	void (*copy)(void *dst, const void *src, size_t n);
	void (*expect)(struct copy_lines *l, uptr dst, size_t n);
};

/*
 * Every size 0..300 to every destination offset 0..129 from the start of
 * a line (source offsets 0..7): each of the @nr copies must clean exactly
 * the lines its case expects, in that order. Fails @test naming the copy,
 * the size and the offset of the first copy that does not; returns the
 * number of copies checked.
 */
struct kunit;
unsigned long copy_lines_sweep(struct kunit *test,
			       const struct copy_lines_case *cases,
			       unsigned int nr);

#endif
