// SPDX-License-Identifier: GPL-2.0-only
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
	expect_fmt(test, "-9223372036854775808", "%lld", (long long)(-9223372036854775807LL - 1));
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
	expect_fmt(test, "100%", "100%%");
}

static void printf_pointer(struct kunit *test)
{
	expect_fmt(test, "0x1000", "%p", (void *)0x1000);
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

static const struct kunit_case printf_cases[] = {
	KUNIT_CASE(printf_integers),	  KUNIT_CASE(printf_width_precision),
	KUNIT_CASE(printf_strings_chars), KUNIT_CASE(printf_pointer),
	KUNIT_CASE(printf_truncation),	  KUNIT_CASE(printf_fixed_point),
};

KUNIT_SUITE_DEFINE(printf_suite, "printf", printf_cases);
