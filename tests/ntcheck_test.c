// SPDX-License-Identifier: GPL-2.0-only
/*
 * The non-temporal store ordering checker (lib/ntcheck.h) itself: what it
 * finds and what it lets pass, with real stores. Every case expects
 * findings inside ntcheck_expect_begin()/_end(), so a checker that stayed
 * silent fails here; and one that found too much fails every other suite.
 * Only in a checking build: elsewhere the suite is skipped.
 */
#include "arch/x86/cpu.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/special_insns.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

#define BUF_BYTES 4096

static u8 *get_buf(struct kunit *test)
{
	u8 *p = kunit_kzalloc(test, BUF_BYTES + 64);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return (u8 *)ALIGN_UP((uptr)p, 64);
}

#define EXPECT_CONTAINS(test, s, what)                                        \
	do {                                                                  \
		if (!strstr(s, what))                                       \
			kunit_fail_at(test, __FILE__, __LINE__,               \
				      "\"%s\" not in \"%s\"", what, s);       \
	} while (0)

/* MOVNTI then a publish point: a missing drain naming line and store. */
static void publish_without_drain(struct kunit *test)
{
	u8 *buf = get_buf(test);
	char first[800], line[40];
	u64 v = 0x1122334455667788ull;

	ntcheck_expect_begin();
	movnti_store_u64(buf + 72, v);
	ntcheck_publish("the test's publish");
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(first, sizeof(first)), 1u);
	EXPECT_CONTAINS(test, first, "missing drain at the test's publish");
	EXPECT_CONTAINS(test, first, "movnti");
	ntb_snprintf(line, sizeof(line), "0x%lx", (unsigned long)buf + 64);
	EXPECT_CONTAINS(test, first, line);
	/* The finding published the line: nothing is reported twice. */
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);

	/* With the drain: silent. */
	ntcheck_expect_begin();
	memcpy_nt(buf, &v, 8);
	memcpy_nt_drain();
	ntcheck_publish("the test's publish");
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(NULL, 0), 0u);
}

/* Every NT primitive records; SFENCE and MFENCE both retire. */
static void primitives_record_fences_retire(struct kunit *test)
{
	u8 *buf = get_buf(test);
	u8 src[256];

	memset(src, 0x5a, sizeof(src));
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
	movnti_store_u32(buf, 1);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 1ul);
	/* 96 bytes at 32: lines 0 (again), 1 */
	memcpy_nt(buf + 32, src, 96);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 2ul);
	/* the generic copy, lines 4..7, a run of its own */
	__memcpy_flushcache(buf + 256, src, 256);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 6ul);
	sfence();
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
	__memcpy_flushcache(buf + 1, src, 200);
	KUNIT_EXPECT_GT(test, ntcheck_pending_lines(), 0ul);
	mfence();
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
	if (boot_cpu_has(X86_FEATURE_MOVDIR64B)) {
		movdir64b(buf + 1024, src);
		KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 1ul);
		sfence();
	}
	/* CLFLUSH is ordered: nothing pending. CLWB is not. */
	clflush(buf);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
	if (boot_cpu_has(X86_FEATURE_CLWB)) {
		clwb(buf);
		KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 1ul);
		sfence();
	}
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
}

/* A cached store to a line with pending NT data; other lines are fine. */
static void cached_store_hazard(struct kunit *test)
{
	u8 *buf = get_buf(test);
	char first[800];

	ntcheck_expect_begin();
	movnti_store_u64(buf + 8, 7);
	ntcheck_cached_store(buf + 64, 8, "a store to the next line");
	ntcheck_cached_store(buf, 8, "a store to the same line");
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(first, sizeof(first)), 1u);
	EXPECT_CONTAINS(test, first, "hazard at a store to the same line");
	KUNIT_EXPECT_FALSE(test,
			   ntcheck_expect_named("a store to the next line"));

	/* A pending write-back is no hazard for a store, but is undrained. */
	ntcheck_expect_begin();
	sfence();
	if (boot_cpu_has(X86_FEATURE_CLWB))
		clwb(buf);
	else if (boot_cpu_has(X86_FEATURE_CLFLUSHOPT))
		clflushopt(buf);
	ntcheck_cached_store(buf, 8, "a store to a written-back line");
	ntcheck_publish("the test's publish");
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(first, sizeof(first)),
			boot_cpu_has(X86_FEATURE_CLWB) ||
					boot_cpu_has(X86_FEATURE_CLFLUSHOPT) ?
				1u :
				0u);
	KUNIT_EXPECT_FALSE(test, ntcheck_expect_named(
					 "a store to a written-back line"));
	memcpy_nt_drain();
}

/* More scattered lines than the table holds: reported, not dropped. */
static void overflow_is_reported(struct kunit *test)
{
	const size_t bytes = 2048 * 128;
	u8 *buf = kunit_kzalloc(test, bytes + 64);
	char first[800];
	unsigned int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	ntcheck_expect_begin();
	/* every other line: no two stores merge */
	for (size_t off = 0; off < bytes; off += 128)
		movnti_store_u64(buf + off, off);
	n = ntcheck_expect_end(first, sizeof(first));
	memcpy_nt_drain();
	KUNIT_EXPECT_EQ(test, n, 1u);
	EXPECT_CONTAINS(test, first, "pending set full");
	EXPECT_CONTAINS(test, first, "is not tracked");
}

struct other_cpu_work {
	u8 *buf;
	bool drain;
	unsigned long pending;
};

static void other_cpu_store(void *arg)
{
	struct other_cpu_work *w = arg;

	movnti_store_u64(w->buf, 1);
	w->pending = ntcheck_pending_lines();
	if (w->drain)
		memcpy_nt_drain();
	ntcheck_publish("the hand-off to the first CPU");
}

/*
 * Pending sets are per CPU: a store on CPU 1 is not pending on CPU 0, and
 * an SFENCE on CPU 0 does not drain CPU 1.
 */
static void sets_are_per_cpu(struct kunit *test)
{
	struct other_cpu_work w = { .buf = get_buf(test) };
	char first[800];

	if (plat_cpu_count() < 2)
		kunit_skip(test, "one CPU");
	ntcheck_expect_begin();
	sfence();
	KUNIT_ASSERT_EQ(test, plat_run_on_cpu(1, other_cpu_store, &w,
					      10000000),
			0);
	KUNIT_EXPECT_EQ(test, w.pending, 1ul);
	KUNIT_EXPECT_EQ(test, ntcheck_pending_lines(), 0ul);
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(first, sizeof(first)), 1u);
	EXPECT_CONTAINS(test, first, "on CPU 1");

	w.drain = true;
	ntcheck_expect_begin();
	KUNIT_ASSERT_EQ(test, plat_run_on_cpu(1, other_cpu_store, &w,
					      10000000),
			0);
	KUNIT_EXPECT_EQ(test, ntcheck_expect_end(NULL, 0), 0u);
}

/*
 * The memmap model with drain=off: every drain it misses is named; the
 * same runs with the drains are silent.
 */
static void memmap_missing_drains_named(struct kunit *test)
{
	static const unsigned int orders[] = { 0, MEMMAP_ORDER_DEVDAX_2M };
	static const char *const strategies[] = { "tmpl_nt_fixed",
						  "tmpl_nt_generic",
						  "fill_movnti" };
	char why[96];

	for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
		for (size_t k = 0; k < ARRAY_SIZE(strategies); k++) {
			struct memmap_case c = { PAGE_LAYOUT_80_CPUPID,
						 orders[o],
						 MEMORY_DEVICE_GENERIC, 0 };
			struct memmap_config cfg;
			struct memmap m;
			unsigned int n;
			char first[800];

			memmap_case_config(&c, &cfg);
			if (!memmap_case_create(test, &m, &cfg))
				return;
			if (memmap_set_strategy(&m, strategies[k], why,
						sizeof(why))) {
				memmap_destroy(&m);
				continue;
			}
			m.cfg.drain = false;
			ntcheck_expect_begin();
			memmap_run(&m);
			n = ntcheck_expect_end(first, sizeof(first));
			KUNIT_EXPECT_GT(test, n, 0u);
			KUNIT_EXPECT_TRUE(test, ntcheck_expect_named(
				"the return of memmap_init_zone_device()"));
			if (orders[o]) {
				KUNIT_EXPECT_TRUE(test, ntcheck_expect_named(
					"prep_compound_head()"));
				KUNIT_EXPECT_TRUE(test, ntcheck_expect_named(
					"memmap_init_compound()"));
			}
			kunit_info(test, "%s order %u drain=off: %u "
				   "findings, first: %s", strategies[k],
				   orders[o], n, first);

			m.cfg.drain = true;
			ntcheck_expect_begin();
			memmap_run(&m);
			KUNIT_EXPECT_EQ(test, ntcheck_expect_end(NULL, 0), 0u);
			memmap_expect_model(test, &m, "drains on");
			memmap_destroy(&m);
		}
	}
}

static const struct kunit_case ntcheck_cases[] = {
	KUNIT_CASE(publish_without_drain),
	KUNIT_CASE(primitives_record_fences_retire),
	KUNIT_CASE(cached_store_hazard),
	KUNIT_CASE(overflow_is_reported),
	KUNIT_CASE(sets_are_per_cpu),
	KUNIT_CASE(memmap_missing_drains_named),
};

KUNIT_SUITE_DEFINE(ntcheck_suite, "ntcheck", ntcheck_cases,
		   .flags = KUNIT_SUITE_CHECKING_ONLY);
