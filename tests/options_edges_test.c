// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option parser at its limits: the largest number and the first one
 * past it, in decimal and hex (0x and 0X), size suffixes at the edge of
 * overflow, a value of exactly the longest length a field holds and one
 * more, and a comment ended by a lone CR (old Mac files).
 */
#include "lib/kunit.h"
#include "lib/bench.h"
#include "lib/options.h"
#include "lib/run_context.h"
#include "lib/string.h"

struct u64_edge {
	const char *s;
	int rc;
	u64 v;
};

static const struct u64_edge u64_edges[] = {
	{"18446744073709551615", 0, ~0ull},
	{"18446744073709551616", -1, 0},
	{"18446744073709551620", -1, 0},
	{"99999999999999999999", -1, 0},
	{"0xffffffffffffffff", 0, ~0ull},
	{"0XFFFFFFFFFFFFFFFF", 0, ~0ull},
	{"0x10000000000000000", -1, 0},
	{"0X1f", 0, 0x1f},
	{"0x", -1, 0},
	{"0", 0, 0},
	{"", -1, 0},
};

static void u64_limits(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(u64_edges); i++) {
		const struct u64_edge *e = &u64_edges[i];
		u64 v = 12345;
		int rc = parse_u64(e->s, strlen(e->s), &v);

		if (rc != e->rc || (!rc && v != e->v))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "parse_u64(\"%s\"): %d, %llu; expected "
				      "%d, %llu",
				      e->s, rc, v, e->rc, e->v);
	}
}

static const struct u64_edge size_edges[] = {
	{"16777215T", 0, 16777215ull << 40},
	{"16777216T", -1, 0},
	{"17179869183G", 0, 17179869183ull << 30},
	{"17179869184G", -1, 0},
	{"17592186044415M", 0, 17592186044415ull << 20},
	{"17592186044416M", -1, 0},
	{"3g", 0, 3ull << 30},
	{"3GB", 0, 3ull << 30},
	{"5k", 0, 5ull << 10},
	{"7m", 0, 7ull << 20},
	{"1t", 0, 1ull << 40},
	{"0x10M", 0, 16ull << 20},
	{"4096", 0, 4096},
	{"G", -1, 0},
};

static void size_limits(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(size_edges); i++) {
		const struct u64_edge *e = &size_edges[i];
		u64 v = 12345;
		int rc = parse_size(e->s, strlen(e->s), &v);

		if (rc != e->rc || (!rc && v != e->v))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "parse_size(\"%s\"): %d, %llu; expected "
				      "%d, %llu",
				      e->s, rc, v, e->rc, e->v);
	}
}

/* runs_id= holds 63 characters: 63 pass, 64 are refused by name. */
static void longest_values(struct kunit *test)
{
	char word[16 + 64 + 1] = "runs_id=";
	struct opt_error err = {""};
	size_t base = strlen(word);

	options_set_defaults();
	memset(word + base, 'a', 63);
	word[base + 63] = '\0';
	KUNIT_EXPECT_EQ(test,
			options_parse(word, strlen(word), "test", &err), 0);
	KUNIT_EXPECT_EQ(test, strlen(opt_runs_id), 63ul);
	word[base + 63] = 'b';
	word[base + 64] = '\0';
	KUNIT_EXPECT_EQ(
		test, options_parse(word, strlen(word), "test", &err), -1);
	KUNIT_EXPECT_TRUE(test, strstr(err.msg, "longer than 63") != NULL);
}

/* A comment ends at a CR alone: the word after it is read. */
static void comment_ends_at_lone_cr(struct kunit *test)
{
	static const char text[] = "runs=3 # three\rruns=5\r# five\rlist=on";
	struct opt_error err = {""};

	options_set_defaults();
	KUNIT_EXPECT_EQ(test,
			options_parse(text, sizeof(text) - 1, "test", &err),
			0);
	KUNIT_EXPECT_EQ(test, opt_runs, 5u);
	KUNIT_EXPECT_TRUE(test, opt_list);
}

static const struct kunit_case options_edges_cases[] = {
	KUNIT_CASE(u64_limits),
	KUNIT_CASE(size_limits),
	KUNIT_CASE(longest_values),
	KUNIT_CASE(comment_ends_at_lone_cr),
};

KUNIT_SUITE_DEFINE(options_edges_suite, "options_edges", options_edges_cases,
		   .flags = KUNIT_SUITE_PARSES_OPTIONS);
