// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ordering checker at the edges of a pending run: a cached store on
 * the line just before or just after pending non-temporal data is no
 * hazard, one that covers any pending line is, whether it starts before
 * the run, inside it, or runs past its end. And the stores that end on
 * the next line (a 4-byte MOVNTI across a line boundary, the last template
 * of a fill) leave that line pending too. Only in a checking build.
 */
#include "arch/x86/lib/copy_template.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/special_insns.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/printf.h"
#include "lib/string.h"

static u8 *edge_buf(struct kunit *test)
{
	u8 *p = kunit_kzalloc(test, 1024 + 64);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return (u8 *)ALIGN_UP((uptr)p, 64);
}

struct edge_store {
	unsigned int off, len; /* the cached store, from the buffer */
	bool hazard;
};

/*
 * Lines 2 and 3 of the buffer pending (one run of 128 bytes); each store
 * below, alone, against that run.
 */
static const struct edge_store edge_stores[] = {
	{64, 64, false},  /* the whole line before */
	{120, 8, false},  /* the last bytes of the line before */
	{124, 8, true},	  /* across into the first pending line */
	{128, 1, true},	  /* the first pending byte */
	{190, 4, true},	  /* across the two pending lines */
	{255, 1, true},	  /* the last pending byte */
	{248, 16, true},  /* from the last pending line past the run */
	{160, 256, true}, /* inside the run, ending far past it */
	{0, 512, true},	  /* around the whole run */
	{256, 8, false},  /* the line after */
	{320, 64, false}, /* two lines after */
};

static void cached_store_edges(struct kunit *test)
{
	u8 *buf = edge_buf(test);
	u8 src[128];

	memset(src, 0x3c, sizeof(src));
	for (size_t i = 0; i < ARRAY_SIZE(edge_stores); i++) {
		const struct edge_store *s = &edge_stores[i];
		unsigned int found;
		char point[64];

		ntb_snprintf(point, sizeof(point), "store of %u at +%u", s->len,
			     s->off);
		ntcheck_expect_begin();
		__memcpy_flushcache(buf + 128, src, sizeof(src));
		ntcheck_cached_store(buf + s->off, s->len, point);
		memcpy_nt_drain();
		found = ntcheck_expect_end(NULL, 0);
		if (found != (s->hazard ? 1u : 0u) ||
		    ntcheck_expect_named(point) != s->hazard)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s (pending +128..+255): %u findings, "
				      "expected %s",
				      point, found,
				      s->hazard ? "a hazard" : "none");
	}
}

/* The same against a run of one line left by a single MOVNTI. */
static void single_line_edges(struct kunit *test)
{
	u8 *buf = edge_buf(test);

	for (unsigned int off = 0; off < 192; off += 8) {
		bool hazard = off >= 64 && off < 128;
		unsigned int found;

		ntcheck_expect_begin();
		movnti_store_u64(buf + 64 + 24, 1);
		ntcheck_cached_store(buf + off, 8, "an edge store");
		sfence();
		found = ntcheck_expect_end(NULL, 0);
		if (found != (hazard ? 1u : 0u))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "store at +%u, MOVNTI at +88: %u "
				      "findings, expected %u",
				      off, found, hazard ? 1u : 0u);
	}
}

/* Every line a store touches is pending, its last one included. */
static void stores_record_their_last_line(struct kunit *test)
{
	u8 *buf = edge_buf(test);
	u64 tmpl[12];

	for (size_t i = 0; i < ARRAY_SIZE(tmpl); i++)
		tmpl[i] = 0x0101010101010101ull * (i + 1);
	/* 4 bytes at +62: lines 0 and 1 */
	movnti_store_u32(buf + 62, 0x11223344);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 2ul);
	sfence();
	/* 8 bytes at +60: lines 0 and 1 */
	movnti_store_u64(buf + 60, 0x1122334455667788ull);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 2ul);
	sfence();
	/* four 64-byte templates: lines 0..3 */
	tmpl_fill_movnti_64(buf, tmpl, 256);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 4ul);
	sfence();
	/* five 96-byte templates: 480 bytes, lines 0..7 */
	tmpl_fill_movnti_96(buf, tmpl, 480);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 8ul);
	sfence();
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
}

static const struct kunit_case ntcheck_edges_cases[] = {
	KUNIT_CASE(cached_store_edges),
	KUNIT_CASE(single_line_edges),
	KUNIT_CASE(stores_record_their_last_line),
};

KUNIT_SUITE_DEFINE(ntcheck_edges_suite, "ntcheck_edges", ntcheck_edges_cases,
		   .flags = KUNIT_SUITE_CHECKING_ONLY);
