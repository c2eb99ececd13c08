/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The size x destination offset x source offset matrix the copy suites
 * run a copy (or a template fill) over, checking each case byte for byte
 * against the source, with guard bytes before and after the destination.
 *
 * The destination is pre-filled with bytes that have the top bit set, the
 * source with bytes 1..127, so every byte a copy misses or writes twice in
 * the wrong place differs from what is expected. After every case the
 * guards are checked and the touched region restored; after every size the
 * whole destination buffer and the source are checked as well.
 *
 * On the host every case runs (sizes 0..max_size, destination offsets
 * 0..63, source offsets 0..7). In the image, which QEMU TCG emulates,
 * copy_matrix_init() picks a strided subset: every size up to 80 and near
 * max_size, the sizes around each 64-byte multiple and every 17th between
 * (all sizes of a variant that has at most 32); every destination offset
 * for sizes up to 16 and 25 chosen ones above; two source offsets per
 * pair. copy_matrix_init_full() keeps every case in the image too: the
 * generic and the bulk routine take about 0.7 s each under TCG that way.
 */
#ifndef NTBOOT_TESTS_ENGINES_COPY_MATRIX_H
#define NTBOOT_TESTS_ENGINES_COPY_MATRIX_H

#include "arch/x86/lib/copy_variant.h"
#include "lib/kunit.h"

#define COPY_MATRIX_GUARD 64
#define COPY_MATRIX_DST_OFFSETS 64
#define COPY_MATRIX_SRC_OFFSETS 8

struct copy_matrix {
	size_t max_size;	/* largest n: 1024 */
	bool full;		/* every case, or the strided subset */
	/* Filled in by copy_matrix_run(). */
	unsigned long cases;
	unsigned long failures;
};

/* Full on the host, the subset in the image. */
void copy_matrix_init(struct copy_matrix *m, size_t max_size);

/* Every case everywhere (the generic and bulk routines: ~1 s under TCG). */
void copy_matrix_init_full(struct copy_matrix *m, size_t max_size);

/* "full" or "strided subset": for a kunit_info() line. */
const char *copy_matrix_kind(const struct copy_matrix *m);

/*
 * Run @v over @m, on the sizes and alignments @v claims (copy_variant.h).
 * When @v->needs_drain, memcpy_nt_drain() follows every copy and the check
 * reads the destination with ordinary loads. The first few failures are
 * reported with kunit_fail_at(); returns true when every case matched.
 * The caller checks copy_variant_usable() first.
 */
bool copy_matrix_run(struct kunit *test, const struct copy_variant *v,
		     struct copy_matrix *m);

/* Offset of the first byte where @a and @b differ, or @n. */
size_t copy_first_diff(const void *a, const void *b, size_t n);

/* The patterns: source bytes 1..127, destination fill bytes 0x80..0xff. */
u8 copy_src_byte(size_t i);
u8 copy_fill_byte(size_t i);
void copy_fill_src(void *buf, size_t n);
/*
 * Copies far beyond the matrix (up to 1 MiB + 7, at odd offsets) with
 * @copy, each drained and compared with memcpy() over the whole buffer.
 */
void copy_check_large(struct kunit *test,
		      void (*copy)(void *dst, const void *src, size_t n));
void copy_fill_dst(void *buf, size_t n);

#endif
