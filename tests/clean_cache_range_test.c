// SPDX-License-Identifier: GPL-2.0-only
/*
 * clean_cache_range(): the instruction chosen from CPUID (CLWB, else
 * CLFLUSHOPT, else CLFLUSH), the line size from CPUID, exactly the lines
 * of the range walked (the kernel's rule), and every instruction this CPU
 * has leaving the data intact.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/lib/clean_cache.h"
#include "arch/x86/special_insns.h"
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/string.h"
#include "tests/engines/copy_lines.h"
#include "tests/engines/copy_matrix.h"

static void method_from_cpuid(struct kunit *test)
{
	enum clean_cache_method want = CLEAN_CACHE_CLFLUSH;

	if (boot_cpu_has(X86_FEATURE_CLWB))
		want = CLEAN_CACHE_CLWB;
	else if (boot_cpu_has(X86_FEATURE_CLFLUSHOPT))
		want = CLEAN_CACHE_CLFLUSHOPT;
	KUNIT_EXPECT_EQ(test, clean_cache_best_method(), want);
	KUNIT_EXPECT_EQ(test, clean_cache_current_method(), want);
	KUNIT_EXPECT_STREQ(test, clean_cache_method_name(want),
			   want == CLEAN_CACHE_CLWB	    ? "clwb"
			   : want == CLEAN_CACHE_CLFLUSHOPT ? "clflushopt"
							    : "clflush");
	kunit_info(test, "method=%s (clwb=%d clflushopt=%d clflush=%d)",
		   clean_cache_method_name(clean_cache_current_method()),
		   boot_cpu_has(X86_FEATURE_CLWB),
		   boot_cpu_has(X86_FEATURE_CLFLUSHOPT),
		   boot_cpu_has(X86_FEATURE_CLFLUSH));
}

static void line_size_from_cpuid(struct kunit *test)
{
	unsigned int l = clean_cache_line_size();

	kunit_info(test, "line=%u bytes (CPUID.1:EBX[15:8]*8 = %u)", l,
		   boot_cpu_data.clflush_size);
	KUNIT_EXPECT_EQ(test, l, boot_cpu_data.clflush_size);
	KUNIT_EXPECT_EQ(test, l & (l - 1), 0u);
	KUNIT_EXPECT_GE(test, l, 32u);
}

/* Every (address, size) walks the lines from ALIGN_DOWN(addr) to the end. */
static void walks_every_line(struct kunit *test)
{
	u8 *buf = plat_alloc_aligned(8192, 4096);
	const unsigned int line = clean_cache_line_size();
	struct copy_lines got, want;
	enum clean_cache_method old;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	old = copy_lines_start(&got);
	for (unsigned int off = 0; off < 2 * line + 3; off++) {
		for (size_t size = 0; size <= 4 * line + 1; size++) {
			uptr addr = (uptr)buf + line + off;
			bool ok;

			copy_lines_reset(&got);
			copy_lines_reset(&want);
			clean_cache_range((void *)addr, size);
			copy_lines_expect(&want, addr, size);
			ok = copy_lines_equal(&got, &want);
			/* The rule, spelt out: first and last line. */
			if (ok && size) {
				ok = got.line[0] == ALIGN_DOWN(addr, line) &&
				     got.line[got.nr - 1] ==
					     ALIGN_DOWN(addr + size - 1, line);
			}
			if (!ok) {
				copy_lines_stop(old);
				kunit_fail_at(test, __FILE__, __LINE__,
					      "offset %u size %zu: %u lines, "
					      "expected %u",
					      off, size, got.nr, want.nr);
				plat_free(buf, 8192);
				return;
			}
		}
	}
	/* As the kernel's loop: size 0 at an unaligned address, one line. */
	copy_lines_reset(&got);
	clean_cache_range(buf + line + 1, 0);
	KUNIT_EXPECT_EQ(test, got.nr, 1u);
	copy_lines_reset(&got);
	clean_cache_range(buf + line, 0);
	KUNIT_EXPECT_EQ(test, got.nr, 0u);
	copy_lines_stop(old);
	plat_free(buf, 8192);
}

/*
 * Each instruction this CPU has, forced in turn: data written just before
 * is unchanged after the write-back, read from the cache or from memory.
 * The cost per line is reported (meaningless under emulation).
 */
static void each_method_keeps_data(struct kunit *test)
{
	static const enum clean_cache_method methods[] = {
		CLEAN_CACHE_CLWB,
		CLEAN_CACHE_CLFLUSHOPT,
		CLEAN_CACHE_CLFLUSH,
	};
	const size_t len = 256 << 10;
	u8 *buf = plat_alloc_aligned(len, 4096);
	u8 *ref = plat_alloc_aligned(len, 4096);
	enum clean_cache_method old = clean_cache_current_method();
	unsigned int tried = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	copy_fill_src(ref, len);
	for (size_t k = 0; k < ARRAY_SIZE(methods); k++) {
		enum clean_cache_method m = methods[k];
		u64 t0, t1, lines;

		if (!clean_cache_method_supported(m)) {
			KUNIT_EXPECT_FALSE(test,
					   clean_cache_use_method(m, NULL));
			kunit_info(test, "%s: not on this CPU",
				   clean_cache_method_name(m));
			continue;
		}
		KUNIT_ASSERT_TRUE(test, clean_cache_use_method(m, NULL));
		KUNIT_EXPECT_EQ(test, clean_cache_current_method(), m);
		memcpy(buf, ref, len);
		t0 = rdtsc_ordered();
		clean_cache_range(buf, len);
		sfence();
		t1 = rdtsc_ordered();
		KUNIT_EXPECT_EQ(test, copy_first_diff(buf, ref, len), len);
		/* Odd sub-ranges, then everything from memory again. */
		for (size_t off = 1; off < len; off += 4093)
			clean_cache_range(buf + off, 1000);
		sfence();
		for (size_t off = 0; off < len; off += 64)
			clflush(buf + off);
		mfence();
		KUNIT_EXPECT_EQ(test, copy_first_diff(buf, ref, len), len);
		lines = len / clean_cache_line_size();
		kunit_info(test, "%s: %llu cycles per dirty line",
			   clean_cache_method_name(m),
			   (unsigned long long)((t1 - t0) / lines));
		tried++;
	}
	KUNIT_EXPECT_TRUE(test, clean_cache_use_method(old, NULL));
	KUNIT_EXPECT_EQ(test, clean_cache_current_method(), old);
	KUNIT_EXPECT_GE(test, tried, 1u);
	/* The hook is for tests only and not selectable this way. */
	KUNIT_EXPECT_FALSE(test,
			   clean_cache_use_method(CLEAN_CACHE_HOOK, NULL));
	plat_free(buf, len);
	plat_free(ref, len);
}

static enum ntcheck_op method_op(enum clean_cache_method m)
{
	return m == CLEAN_CACHE_CLWB	     ? NTCHECK_CLWB
	       : m == CLEAN_CACHE_CLFLUSHOPT ? NTCHECK_CLFLUSHOPT
					     : NTCHECK_CLFLUSH;
}

/*
 * One (address, size) with method @m: the instructions really executed,
 * as the checker traced them, are one @m per line from ALIGN_DOWN(addr)
 * while below addr + size, in order; CLWB and CLFLUSHOPT leave exactly
 * those lines pending until an SFENCE, CLFLUSH leaves none.
 */
static bool method_walk_ok(struct kunit *test, enum clean_cache_method m,
			   struct ntcheck_trace *t, uptr addr, size_t size)
{
	const uptr line = clean_cache_line_size();
	const uptr first = ALIGN_DOWN(addr, line);
	const unsigned int want =
		(unsigned int)(size ? (ALIGN_UP(addr + size, line) - first) /
					       line
				    : (addr != first));
	const bool weak = m != CLEAN_CACHE_CLFLUSH;
	unsigned long pending;
	unsigned int i;

	sfence();
	ntcheck_trace_start(t);
	clean_cache_range((void *)addr, size);
	ntcheck_trace_stop();
	pending = ntcheck_pending_lines();
	sfence();
	for (i = 0; i < t->nr && i < want; i++)
		if (t->e[i].line != first + i * line ||
		    t->e[i].op != method_op(m))
			break;
	if (!t->overflow && t->nr == want && i == want &&
	    pending == (weak ? want : 0) && !ntcheck_pending_lines())
		return true;
	kunit_fail_at(test, __FILE__, __LINE__,
		      "%s at 0x%lx size %zu: %u lines written back (%s), "
		      "expected %u from 0x%lx; first wrong entry %u (%s of "
		      "0x%lx); %lu pending before SFENCE, expected %u",
		      clean_cache_method_name(m), (unsigned long)addr, size,
		      t->nr, t->overflow ? "overflow" : "complete", want,
		      (unsigned long)first, i,
		      i < t->nr ? ntcheck_op_name(t->e[i].op) : "none",
		      i < t->nr ? (unsigned long)t->e[i].line : 0UL, pending,
		      weak ? want : 0);
	return false;
}

/*
 * Each instruction this CPU has, checked for the lines it really writes
 * back (not a hook called in its place): every offset over three lines,
 * every size up to four lines and a large range.
 */
static void each_method_writes_back_its_lines(struct kunit *test)
{
	static const enum clean_cache_method methods[] = {
		CLEAN_CACHE_CLWB,
		CLEAN_CACHE_CLFLUSHOPT,
		CLEAN_CACHE_CLFLUSH,
	};
	const size_t len = 64 << 10;
	const unsigned int line = clean_cache_line_size();
	u8 *buf = plat_alloc_aligned(len, 4096);
	enum clean_cache_method old = clean_cache_current_method();
	struct ntcheck_trace t = {.cap = len / 64 + 2};
	unsigned int tried = 0;

	if (!ntcheck_built() || !ntcheck_active())
		kunit_skip(test,
			   "reads the store trace of the ordering checker: "
			   "the checking image runs it (make ntcheck-image)");
	if (line != 64)
		kunit_skip(test, "line size %u: the checker counts 64", line);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	t.e = kunit_kzalloc(test, t.cap * sizeof(*t.e));
	KUNIT_ASSERT_NOT_NULL(test, t.e);
	for (size_t k = 0; k < ARRAY_SIZE(methods); k++) {
		enum clean_cache_method m = methods[k];
		bool ok = true;

		if (!clean_cache_use_method(m, NULL)) {
			kunit_info(test, "%s: not on this CPU",
				   clean_cache_method_name(m));
			continue;
		}
		for (unsigned int off = 0; ok && off < 3 * line; off++)
			for (size_t size = 0; ok && size <= 4 * line + 1;
			     size++)
				ok = method_walk_ok(test, m, &t,
						    (uptr)buf + line + off,
						    size);
		if (ok)
			ok = method_walk_ok(test, m, &t, (uptr)buf + 3,
					    len - 3 - line);
		tried++;
	}
	clean_cache_use_method(old, NULL);
	KUNIT_EXPECT_GE(test, tried, 1u);
	plat_free(buf, len);
}

static const struct kunit_case clean_cache_cases[] = {
	KUNIT_CASE(method_from_cpuid),
	KUNIT_CASE(line_size_from_cpuid),
	KUNIT_CASE(walks_every_line),
	KUNIT_CASE(each_method_keeps_data),
	KUNIT_CASE(each_method_writes_back_its_lines),
};

KUNIT_SUITE_DEFINE(clean_cache_range_suite, "clean_cache_range",
		   clean_cache_cases, .cpu_needs = KUNIT_NEEDS_SSE2);
