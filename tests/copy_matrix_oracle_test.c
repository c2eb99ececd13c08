// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy matrix checks itself: copies that are wrong in the ways a copy
 * goes wrong (a byte short, a byte past the end or before the start, one
 * template of a fill missing, the source written) must each fail it with
 * the check that names the fault, and a right copy must pass. The faulty
 * copies are local structures, not registered variants: no suite runs or
 * benchmarks them and the object-code checks never see them.
 */
#include "lib/kunit.h"
#include "lib/string.h"
#include "tests/engines/copy_matrix.h"

#define ORACLE_MAX_SIZE 100

static void copy_right(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

static void copy_short(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n ? n - 1 : 0);
}

/* A byte written right after the destination: 0 is no fill byte. */
static void copy_past_end(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	((u8 *)dst)[n] = 0;
}

static void copy_before_start(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	((u8 *)dst)[-1] = 0;
}

/*
 * The byte after the source zeroed (no source byte is 0): the copy itself
 * is right.
 */
static void copy_writes_source(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	((u8 *)src)[n] = 0;
}

/* A 16-byte template fill that leaves its last template out. */
static void fill_short(void *dst, const void *tmpl, size_t n)
{
	for (size_t k = 0; k + 16 < n; k += 16)
		memcpy((u8 *)dst + k, tmpl, 16);
}

static void fill_right(void *dst, const void *tmpl, size_t n)
{
	for (size_t k = 0; k + 16 <= n; k += 16)
		memcpy((u8 *)dst + k, tmpl, 16);
}

struct oracle_case {
	struct copy_variant v;
	const char *want; /* in the first failure; NULL: must pass */
};

static const struct oracle_case oracle_cases[] = {
	{{.name = "right", .copy = copy_right}, NULL},
	{{.name = "short", .copy = copy_short}, "copy differs"},
	{{.name = "past_end", .copy = copy_past_end},
	 "guard after dst written"},
	{{.name = "before_start", .copy = copy_before_start},
	 "guard before dst written"},
	{{.name = "writes_source", .copy = copy_writes_source},
	 "source written"},
	{{.name = "fill_right", .copy = fill_right, .template_size = 16}, NULL},
	{{.name = "fill_short", .copy = fill_short, .template_size = 16},
	 "template copy differs"},
};

static void matrix_judges_copies(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(oracle_cases); i++) {
		const struct oracle_case *c = &oracle_cases[i];
		struct kunit scratch = {.name = "oracle", .quiet = true};
		struct copy_matrix m;
		bool ok;

		copy_matrix_init(&m, ORACLE_MAX_SIZE);
		ok = copy_matrix_run(&scratch, &c->v, &m);
		if (!c->want) {
			if (!ok || scratch.status == KUNIT_FAILURE)
				kunit_fail_at(test, __FILE__, __LINE__,
					      "%s: a right copy failed the "
					      "matrix: %s",
					      c->v.name,
					      scratch.status_comment);
			KUNIT_EXPECT_GT(test, m.cases, 0ul);
			continue;
		}
		if (ok || scratch.status != KUNIT_FAILURE ||
		    !strstr(scratch.status_comment, c->want))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: expected the matrix to fail with "
				      "\"%s\", it said \"%s\"",
				      c->v.name, c->want,
				      scratch.status_comment);
	}
}

/* copy_first_diff(): every position of a single difference, and none. */
static void first_diff_every_position(struct kunit *test)
{
	u8 a[80], b[80];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (u8)(i * 7 + 1);
	for (size_t n = 0; n <= sizeof(a); n++) {
		KUNIT_EXPECT_EQ(test, copy_first_diff(a, b, n), n);
		for (size_t p = 0; p < n; p++) {
			b[p] ^= 0x80;
			KUNIT_EXPECT_EQ(test, copy_first_diff(a, b, n), p);
			b[p] ^= 0x80;
		}
	}
}

static const struct kunit_case copy_matrix_oracle_cases[] = {
	KUNIT_CASE(matrix_judges_copies),
	KUNIT_CASE(first_diff_every_position),
};

KUNIT_SUITE_DEFINE(copy_matrix_oracle_suite, "copy_matrix_oracle",
		   copy_matrix_oracle_cases);
