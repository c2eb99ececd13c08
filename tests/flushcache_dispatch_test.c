// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which path memcpy_flushcache() takes, seen in the operations it really
 * executes (the ordering checker's trace): a size known at compile time
 * among 4..96 is the inline MOVNTI sequence, which stores straight to an
 * unaligned destination; any size known only at run time is the call to
 * __memcpy_flushcache(), which copies an unaligned head with cached
 * stores and writes its line back. The bytes are the same either way.
 * Only in a checking build.
 */
#include "model/arch/x86/include/asm/string_64.h"
#include "arch/x86/special_insns.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/printf.h"
#include "lib/string.h"

#define DISPATCH_TRACE 64

struct dispatch_ops {
	unsigned int movnti, writeback; /* trace entries of each kind */
	bool head_line_written_back;
};

static void dispatch_count(const struct ntcheck_trace *t, uptr head_line,
			   struct dispatch_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	for (unsigned int i = 0; i < t->nr && i < t->cap; i++) {
		if (t->e[i].op == NTCHECK_MOVNTI) {
			ops->movnti++;
			continue;
		}
		ops->writeback++;
		if (t->e[i].line == head_line)
			ops->head_line_written_back = true;
	}
}

static void dispatch_by_size(struct kunit *test)
{
	u8 *raw = kunit_kzalloc(test, 512);
	struct ntcheck_trace t = {.cap = DISPATCH_TRACE};
	volatile size_t runtime_64 = 64;
	struct dispatch_ops ops;
	u8 src[64], *dst;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	t.e = kunit_kzalloc(test, t.cap * sizeof(*t.e));
	KUNIT_ASSERT_NOT_NULL(test, t.e);
	dst = (u8 *)ALIGN_UP((uptr)raw, 64) + 3;
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (u8)(i + 1);

	/* The constant size: MOVNTI only, eight of them, no write-back. */
	ntcheck_trace_start(&t);
	memcpy_flushcache(dst, src, 64);
	ntcheck_trace_stop();
	sfence();
	dispatch_count(&t, ALIGN_DOWN((uptr)dst, 64), &ops);
	KUNIT_EXPECT_FALSE(test, t.overflow);
	KUNIT_EXPECT_GT(test, ops.movnti, 0u);
	KUNIT_EXPECT_EQ(test, ops.writeback, 0u);
	KUNIT_EXPECT_MEMEQ(test, dst, src, 64);

	/* The same size at run time: the head's line is written back. */
	memset(dst, 0, 64);
	ntcheck_trace_start(&t);
	memcpy_flushcache(dst, src, runtime_64);
	ntcheck_trace_stop();
	sfence();
	dispatch_count(&t, ALIGN_DOWN((uptr)dst, 64), &ops);
	KUNIT_EXPECT_FALSE(test, t.overflow);
	KUNIT_EXPECT_GT(test, ops.movnti, 0u);
	KUNIT_EXPECT_TRUE(test, ops.head_line_written_back);
	KUNIT_EXPECT_MEMEQ(test, dst, src, 64);
}

static const struct kunit_case flushcache_dispatch_cases[] = {
	KUNIT_CASE(dispatch_by_size),
};

KUNIT_SUITE_DEFINE(flushcache_dispatch_suite, "flushcache_dispatch",
		   flushcache_dispatch_cases, .flags = KUNIT_SUITE_CHECKING_ONLY);
