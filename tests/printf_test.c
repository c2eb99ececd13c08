// SPDX-License-Identifier: GPL-2.0-only
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"

static void expect_fmt(struct kunit *test, const char *want, const char *fmt,
		       ...) __printf(3, 4);

static void expect_fmt(struct kunit *test, const char *want, const char *fmt,
		       ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ntb_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	KUNIT_EXPECT_STREQ(test, buf, want);
	KUNIT_EXPECT_EQ(test, n, (int)strlen(want));
}

static void printf_integers(struct kunit *test)
{
	expect_fmt(test, "0", "%d", 0);
	expect_fmt(test, "-42", "%d", -42);
	expect_fmt(test, "4294967295", "%u", 0xffffffffu);
	expect_fmt(test, "-9223372036854775808", "%lld",
		   (long long)(-9223372036854775807LL - 1));
	expect_fmt(test, "18446744073709551615", "%llu", ~0ull);
	expect_fmt(test, "ff", "%x", 255);
	expect_fmt(test, "FF", "%X", 255);
	expect_fmt(test, "0xff", "%#x", 255);
	expect_fmt(test, "777", "%o", 511);
	expect_fmt(test, "-1", "%hhd", (char)-1);
	expect_fmt(test, "65535", "%hu", 0xffff);
	expect_fmt(test, "123456789012", "%zu", (size_t)123456789012ull);
}

static void printf_width_precision(struct kunit *test)
{
	expect_fmt(test, "   42", "%5d", 42);
	expect_fmt(test, "42   |", "%-5d|", 42);
	expect_fmt(test, "00042", "%05d", 42);
	expect_fmt(test, "-0042", "%05d", -42);
	expect_fmt(test, "+42", "%+d", 42);
	expect_fmt(test, "  007", "%5.3d", 7);
	expect_fmt(test, "", "%.0d", 0);
	expect_fmt(test, "    7", "%*d", 5, 7);
	expect_fmt(test, "7    |", "%*d|", -5, 7);
	expect_fmt(test, "0x0000beef", "0x%08x", 0xbeef);
}

/*
 * The cases below combine flags that C defines to be ignored together ('0'
 * with '-' or with a precision, '+' on an unsigned conversion): the
 * compiler says so, and that rule is what they test.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"

/* '#': the prefix counts in the width, zeros go after it, '-' pads right. */
static void printf_alternate_form(struct kunit *test)
{
	expect_fmt(test, "      0xff", "%#10x", 0xff);
	expect_fmt(test, "0x000000ff", "%#010x", 0xff);
	expect_fmt(test, "0xff      |", "%-#10x|", 0xff);
	expect_fmt(test, "0xff      |", "%-#010x|", 0xff);
	expect_fmt(test, "0XFF", "%#X", 0xff);
	expect_fmt(test, "0X0000BEEF", "%#010X", 0xbeef);
	expect_fmt(test, "0x00ff", "%#.4x", 0xff);
	expect_fmt(test, "    0x00ff", "%#10.4x", 0xff);
	expect_fmt(test, "    0x00ff", "%#010.4x", 0xff);
	expect_fmt(test, "0xff", "%#3x", 0xff);
	expect_fmt(test, "0xdeadbeefcafe", "%#llx", 0xdeadbeefcafeull);
	expect_fmt(test, "  0x1", "%#*x", 5, 1);
	/* as the kernel does: zero keeps its prefix, but not an empty field */
	expect_fmt(test, "0x0", "%#x", 0);
	expect_fmt(test, "0x00", "%#04x", 0);
	expect_fmt(test, "", "%#.0x", 0);
	expect_fmt(test, "   ", "%#3.0x", 0);
	/* octal: the leading zero is added only where no digit gives one */
	expect_fmt(test, "010", "%#o", 8);
	expect_fmt(test, "0", "%#o", 0);
	expect_fmt(test, "0", "%#.0o", 0);
	expect_fmt(test, "  010", "%#5o", 8);
	expect_fmt(test, "010  |", "%-#5o|", 8);
	expect_fmt(test, "00000010", "%#08o", 8);
	expect_fmt(test, "00010", "%#.5o", 8);
	expect_fmt(test, "0777", "%#o", 511);
}

/* Flags with each other, with the width and with the precision. */
static void printf_flag_combinations(struct kunit *test)
{
	expect_fmt(test, " 42", "% d", 42);
	expect_fmt(test, "-42", "% d", -42);
	expect_fmt(test, "   42", "% 5d", 42);
	expect_fmt(test, "+42", "%+ d", 42);
	expect_fmt(test, "+42", "% +d", 42);
	expect_fmt(test, "+0042", "%+05d", 42);
	expect_fmt(test, " 0042", "% 05d", 42);
	expect_fmt(test, "+42  |", "%-+5d|", 42);
	expect_fmt(test, "42   |", "%-05d|", 42);
	expect_fmt(test, "-42  |", "%0-5d|", -42);
	expect_fmt(test, "+0", "%+d", 0);
	/* a precision turns the zero flag off */
	expect_fmt(test, "  042", "%05.3d", 42);
	expect_fmt(test, "    -007", "%08.3d", -7);
	expect_fmt(test, "-007", "%.3d", -7);
	expect_fmt(test, "+007", "%+.3d", 7);
	expect_fmt(test, "     ", "%5.0d", 0);
	expect_fmt(test, "+", "%+.0d", 0);
	expect_fmt(test, "", "%.0x", 0);
	expect_fmt(test, "   005", "%*.*d", 6, 3, 5);
	expect_fmt(test, "00042", "%0*d", 5, 42);
	/* a negative precision is as if none were given */
	expect_fmt(test, "00005", "%0*.*d", 5, -1, 5);
	/* unsigned conversions print no sign */
	expect_fmt(test, "42", "%+u", 42u);
	expect_fmt(test, "42", "% u", 42u);
	expect_fmt(test, "ff", "%+x", 0xff);
	expect_fmt(test, "  ff", "% 4x", 0xff);
	expect_fmt(test, "17", "%+o", 15);
	expect_fmt(test, "0x10", "%+p", (void *)0x10);
}

#pragma GCC diagnostic pop

/* The length modifiers truncate and extend as their types do. */
static void printf_lengths(struct kunit *test)
{
	expect_fmt(test, "1", "%hhu", 257);
	expect_fmt(test, "-56", "%hhd", 200);
	expect_fmt(test, "-1", "%hd", 65535);
	expect_fmt(test, "ffff", "%hx", 0x1ffff);
	expect_fmt(test, "-9223372036854775808", "%ld",
		   (long)(-9223372036854775807L - 1));
	expect_fmt(test, "ffffffffffffffff", "%lx", ~0UL);
	expect_fmt(test, "-1", "%zd", (ptrdiff_t)-1);
	expect_fmt(test, "-2", "%td", (ptrdiff_t)-2);
	expect_fmt(test, "18446744073709551615", "%ju", ~0UL);
	expect_fmt(test, "1777777777777777777777", "%llo", ~0ull);
	expect_fmt(test, "00000000deadbeef", "%016llx", 0xdeadbeefull);
	expect_fmt(test, "4294967295", "%u", -1);
}

static void printf_strings_chars(struct kunit *test)
{
	expect_fmt(test, "hello", "%s", "hello");
	expect_fmt(test, "  abc", "%5s", "abc");
	expect_fmt(test, "abc  |", "%-5s|", "abc");
	expect_fmt(test, "ab", "%.2s", "abcdef");
	expect_fmt(test, "abc", "%.*s", 3, "abcdef");
	{
		const char *volatile null_str = NULL;

		expect_fmt(test, "(null)", "%s", null_str);
	}
	expect_fmt(test, "x", "%c", 'x');
	expect_fmt(test, "  x|", "%3c|", 'x');
	expect_fmt(test, "x  |", "%-3c|", 'x');
	expect_fmt(test, "100%", "100%%");
	expect_fmt(test, "    a|", "%5.1s|", "abc");
	expect_fmt(test, "a    |", "%-5.1s|", "abc");
	expect_fmt(test, "|", "%.0s|", "abc");
	expect_fmt(test, "abc   |", "%-*s|", 6, "abc");
	expect_fmt(test, "   abc|", "%*s|", 6, "abc");
	expect_fmt(test, "abcdef", "%2s", "abcdef");
}

static void printf_pointer(struct kunit *test)
{
	expect_fmt(test, "0x1000", "%p", (void *)0x1000);
	expect_fmt(test, "0x0", "%p", (void *)0);
	expect_fmt(test, "    0x1000", "%10p", (void *)0x1000);
	expect_fmt(test, "0x1000    |", "%-10p|", (void *)0x1000);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
	expect_fmt(test, "0x00001000", "%010p", (void *)0x1000);
#pragma GCC diagnostic pop
}

static void printf_truncation(struct kunit *test)
{
	char buf[8];
	int n;

	memset(buf, 'Z', sizeof(buf));
	n = ntb_snprintf(buf, 4, "%s", "abcdef");
	KUNIT_EXPECT_EQ(test, n, 6);
	KUNIT_EXPECT_STREQ(test, buf, "abc");
	/* Nothing past the given size is touched. */
	KUNIT_EXPECT_EQ(test, buf[4], 'Z');
	n = ntb_snprintf(buf, 0, "%d", 12345);
	KUNIT_EXPECT_EQ(test, n, 5);
	KUNIT_EXPECT_EQ(test, buf[0], 'a');
}

/*
 * "%.*s" of an array without a NUL (an option's value inside the words of
 * a line): the precision bounds the read. In the host tests (ASan) the
 * array is exactly its length, so a read past it is a failure; the
 * options fuzzer found that read ("console=mmio32").
 */
static void printf_precision_bounds_the_read(struct kunit *test)
{
	char *v = plat_alloc_aligned(6, 1);
	char buf[16];

	KUNIT_ASSERT_TRUE(test, v != NULL);
	memcpy(v, "mmio32", 6);
	ntb_snprintf(buf, sizeof(buf), "[%.*s]", 4, v);
	KUNIT_EXPECT_STREQ(test, buf, "[mmio]");
	ntb_snprintf(buf, sizeof(buf), "[%.*s]", 6, v);
	KUNIT_EXPECT_STREQ(test, buf, "[mmio32]");
	plat_free(v, 6);
}

static void printf_fixed_point(struct kunit *test)
{
	char buf[32];

	ntb_fmt_fixed(buf, sizeof(buf), 24428, 100, 2);
	KUNIT_EXPECT_STREQ(test, buf, "244.28");
	ntb_fmt_fixed(buf, sizeof(buf), 2, 3, 3);
	KUNIT_EXPECT_STREQ(test, buf, "0.667");
	ntb_fmt_fixed(buf, sizeof(buf), 5, 1, 0);
	KUNIT_EXPECT_STREQ(test, buf, "5");
	ntb_fmt_fixed(buf, sizeof(buf), 1, 0, 2);
	KUNIT_EXPECT_STREQ(test, buf, "nan");
	/* 100 GiB in bytes times 1000 would overflow 64 bits. */
	ntb_fmt_fixed(buf, sizeof(buf), 107374182400ull * 1000, 1000, 1);
	KUNIT_EXPECT_STREQ(test, buf, "107374182400.0");
}

static char flushed[2048];
static size_t flushed_len, flushes;

static void flush_into(const char *s, size_t len)
{
	if (flushed_len + len < sizeof(flushed))
		memcpy(flushed + flushed_len, s, len);
	flushed_len += len;
	flushes++;
}

static int printf_flushed(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = ntb_vprintf_flushed(flush_into, buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/*
 * The console's path: output longer than its buffer arrives whole, in
 * pieces, never cut (a verdict line is longer than kprintf()'s 512 bytes).
 */
static void printf_flushed_never_cut(struct kunit *test)
{
	static char want[2048];
	char small[8];
	int n, w;

	flushed_len = flushes = 0;
	n = printf_flushed(small, sizeof(small), "%s=%llu %-20s|%08x|%s",
			   "speedup", 1234567890123ull, "left", 0xbeefu,
			   "faster, short of the posted in one state's rounds");
	w = ntb_snprintf(want, sizeof(want), "%s=%llu %-20s|%08x|%s", "speedup",
			 1234567890123ull, "left", 0xbeefu,
			 "faster, short of the posted in one state's rounds");
	KUNIT_EXPECT_EQ(test, n, w);
	KUNIT_EXPECT_EQ(test, flushed_len, (size_t)w);
	KUNIT_EXPECT_TRUE(test, !memcmp(flushed, want, (size_t)w));
	/* 7 bytes a piece, and the rest */
	KUNIT_EXPECT_EQ(test, flushes, (size_t)(w + 6) / 7);

	/* 600 bytes through kprintf()'s 512: all of them */
	memset(want, 'x', 600);
	want[600] = 0;
	flushed_len = flushes = 0;
	n = printf_flushed((char[512]){0}, 512, "%s!", want);
	KUNIT_EXPECT_EQ(test, n, 601);
	KUNIT_EXPECT_EQ(test, flushed_len, (size_t)601);
	KUNIT_EXPECT_EQ(test, flushed[600], '!');
	KUNIT_EXPECT_EQ(test, flushes, (size_t)2);
}

static const struct kunit_case printf_cases[] = {
	KUNIT_CASE(printf_integers),
	KUNIT_CASE(printf_width_precision),
	KUNIT_CASE(printf_alternate_form),
	KUNIT_CASE(printf_flag_combinations),
	KUNIT_CASE(printf_lengths),
	KUNIT_CASE(printf_strings_chars),
	KUNIT_CASE(printf_pointer),
	KUNIT_CASE(printf_truncation),
	KUNIT_CASE(printf_flushed_never_cut),
	KUNIT_CASE(printf_precision_bounds_the_read),
	KUNIT_CASE(printf_fixed_point),
};

KUNIT_SUITE_DEFINE(printf_suite, "printf", printf_cases);
