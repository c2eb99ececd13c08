// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bytes of ntboot.cfg and of the UEFI load options as they arrive
 * from other machines and editors: every encoding either decodes to the
 * words it holds, or is refused with a message naming what could not be
 * read. Nothing is dropped.
 */
#include "lib/bench.h"
#include "lib/cfg_text.h"
#include "lib/kunit.h"
#include "lib/string.h"

/* Decode @raw as a cfg file, then parse it: 0 or -1 with @e filled. */
static int cfg(const u8 *raw, size_t len, struct opt_error *e)
{
	char out[256];
	size_t n;

	options_set_defaults();
	memset(e, 0, sizeof(*e));
	if (cfg_text_decode(raw, len, out, sizeof(out), &n, "ntboot.cfg", e))
		return -1;
	return options_parse(out, n, "ntboot.cfg", e);
}

/* @text as UTF-16LE (or BE) with a BOM, ASCII only. */
static size_t utf16(u8 *buf, const char *text, bool big_endian)
{
	size_t n = 0;

	buf[n++] = big_endian ? 0xfe : 0xff;
	buf[n++] = big_endian ? 0xff : 0xfe;
	for (; *text; text++) {
		buf[n++] = big_endian ? 0 : (u8)*text;
		buf[n++] = big_endian ? (u8)*text : 0;
	}
	return n;
}

static void cfg_plain_and_utf8_bom(struct kunit *test)
{
	static const u8 bom[] = "\xef\xbb\xbfsuite=printf\nruns=4\n";
	static const u8 plain[] = "# r\xc3\xa9glages\r\nruns=6\r\n";
	struct opt_error e;

	/* A UTF-8 BOM is not part of the first key. */
	KUNIT_ASSERT_EQ(test, cfg(bom, sizeof(bom) - 1, &e), 0);
	KUNIT_EXPECT_STREQ(test, opt_suite, "printf");
	KUNIT_EXPECT_EQ(test, opt_runs, 4);
	/* UTF-8 in a comment, CRLF line ends. */
	KUNIT_ASSERT_EQ(test, cfg(plain, sizeof(plain) - 1, &e), 0);
	KUNIT_EXPECT_EQ(test, opt_runs, 6);
}

static void cfg_utf16_with_bom(struct kunit *test)
{
	u8 buf[128];
	struct opt_error e;
	size_t n;

	n = utf16(buf, "# Notepad\r\nsuite=tsc\r\nruns=7\r\n", false);
	KUNIT_ASSERT_EQ(test, cfg(buf, n, &e), 0);
	KUNIT_EXPECT_STREQ(test, opt_suite, "tsc");
	KUNIT_EXPECT_EQ(test, opt_runs, 7);

	n = utf16(buf, "runs=9\n", true);
	KUNIT_ASSERT_EQ(test, cfg(buf, n, &e), 0);
	KUNIT_EXPECT_EQ(test, opt_runs, 9);

	/* A non-ASCII character survives into the word and is named. */
	n = utf16(buf, "suite=x", false);
	buf[n++] = 0xe9; /* U+00E9 */
	buf[n++] = 0x00;
	KUNIT_EXPECT_EQ(test, cfg(buf, n, &e), 0);
	KUNIT_EXPECT_STREQ(test, opt_suite, "x\xc3\xa9");

	/* Half a character at the end. */
	n = utf16(buf, "runs=9", false);
	buf[n++] = 'x';
	KUNIT_EXPECT_EQ(test, cfg(buf, n, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "odd number of bytes"));

	/* An unpaired surrogate. */
	n = utf16(buf, "runs=9", false);
	buf[n++] = 0x00;
	buf[n++] = 0xd8;
	KUNIT_EXPECT_EQ(test, cfg(buf, n, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "surrogate"));
}

static void cfg_refused_with_reason(struct kunit *test)
{
	u8 buf[64];
	struct opt_error e;
	size_t n;

	/* UTF-16 whose BOM was lost. */
	n = utf16(buf, "runs=3", false);
	KUNIT_EXPECT_EQ(test, cfg(buf + 2, n - 2, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "UTF-16 without a byte-order"));
	n = utf16(buf, "runs=3", true);
	KUNIT_EXPECT_EQ(test, cfg(buf + 2, n - 2, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "UTF-16 without a byte-order"));

	/* A NUL in the middle of a text file: a binary file. */
	memcpy(buf, "runs=3\n\0suite=x\n", 16);
	KUNIT_EXPECT_EQ(test, cfg(buf, 16, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "NUL byte at offset 7"));

	/* A control character inside a word. */
	memcpy(buf, "runs=3\x01\n", 8);
	KUNIT_EXPECT_EQ(test, cfg(buf, 8, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "control character 0x01"));
}

/* A CR-only file (old Mac): a comment ends at the CR, not at the EOF. */
static void cfg_cr_line_ends(struct kunit *test)
{
	static const u8 mac[] = "# comment\rbogus=1\r";
	struct opt_error e;

	KUNIT_EXPECT_EQ(test, cfg(mac, sizeof(mac) - 1, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "unknown key 'bogus'"));
}

/* A long cfg is read to its end: a bad word after 64 KiB still counts. */
static void cfg_long_file_read_whole(struct kunit *test)
{
	size_t len = 200 * 1024, n;
	char *raw = kunit_kzalloc(test, len + 32);
	char *out = kunit_kzalloc(test, len * 3 / 2 + 1);
	struct opt_error e;

	KUNIT_ASSERT_NOT_NULL(test, raw);
	KUNIT_ASSERT_NOT_NULL(test, out);
	raw[0] = '#';
	memset(raw + 1, 'x', len - 1);
	memcpy(raw + len, "\nbogus=1\n", 9);
	options_set_defaults();
	KUNIT_ASSERT_EQ(test, cfg_text_decode((u8 *)raw, len + 9, out,
					      len * 3 / 2 + 1, &n, "ntboot.cfg",
					      &e),
			0);
	KUNIT_EXPECT_EQ(test, n, len + 9);
	KUNIT_EXPECT_EQ(test, options_parse(out, n, "ntboot.cfg", &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "bogus"));
}

/* @text as UCS-2 load options, NUL terminated as firmware passes them. */
static size_t ucs2(u16 *buf, const char *text)
{
	size_t n = 0;

	while (*text)
		buf[n++] = (u8)*text++;
	buf[n++] = 0;
	return n * 2;
}

static void load_options_text(struct kunit *test)
{
	u16 w[64] = { 0 };
	char out[64];
	enum load_options_kind kind;
	struct opt_error e;

	KUNIT_EXPECT_EQ(test, load_options_decode(w, 0, out, sizeof(out),
						  &kind, &e), 0);
	KUNIT_EXPECT_EQ(test, kind, LOAD_OPTIONS_NONE);

	KUNIT_EXPECT_EQ(test, load_options_decode(w, ucs2(w, "suite=tsc"),
						  out, sizeof(out), &kind, &e),
			0);
	KUNIT_EXPECT_EQ(test, kind, LOAD_OPTIONS_TEXT);
	KUNIT_EXPECT_STREQ(test, out, "suite=tsc");

	/* A non-ASCII character stops the run instead of dropping it all. */
	ucs2(w, "suite=tsc runs=5");
	w[10] = 0xfc;
	KUNIT_EXPECT_EQ(test, load_options_decode(w, 34, out, sizeof(out),
						  &kind, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "U+00FC at position 11"));

	/* Too long for the buffer: refused, not cut. */
	KUNIT_EXPECT_EQ(test, load_options_decode(w, ucs2(w, "suite=tsc"),
						  out, 5, &kind, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "longer than 4"));

	/* Bytes after the terminator would be unread. */
	ucs2(w, "runs=5");
	w[7] = 'x';
	KUNIT_EXPECT_EQ(test, load_options_decode(w, 16, out, sizeof(out),
						  &kind, &e), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(e.msg, "after the end"));
	/* Zero padding after it is fine. */
	w[7] = 0;
	KUNIT_EXPECT_EQ(test, load_options_decode(w, 16, out, sizeof(out),
						  &kind, &e), 0);
}

static void load_options_binary_blob(struct kunit *test)
{
	/* edk2 marks the boot entries it makes itself with a GUID. */
	static const u8 guid[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f,
				     0x59, 0x4d, 0x85, 0x0e, 0xe2, 0x1a,
				     0x52, 0x2c, 0x59, 0xb2 };
	char out[64];
	enum load_options_kind kind;
	struct opt_error e;

	KUNIT_EXPECT_EQ(test, load_options_decode(guid, sizeof(guid), out,
						  sizeof(out), &kind, &e), 0);
	KUNIT_EXPECT_EQ(test, kind, LOAD_OPTIONS_BINARY);
	KUNIT_EXPECT_STREQ(test, out, "");
}

static void load_options_image_word(struct kunit *test)
{
	const char *s;

	s = "fs0:\\EFI\\BOOT\\BOOTX64.EFI suite=tsc";
	KUNIT_EXPECT_STREQ(test, load_options_skip_image(s, "BOOTX64.EFI"),
			   " suite=tsc");
	s = "bootx64 runs=2";
	KUNIT_EXPECT_STREQ(test, load_options_skip_image(s, "BOOTX64.EFI"),
			   " runs=2");
	/* A typo is not the image: it is parsed, and refused. */
	s = "lsit suite=tsc";
	KUNIT_EXPECT_STREQ(test, load_options_skip_image(s, "BOOTX64.EFI"), s);
	s = "suite=tsc";
	KUNIT_EXPECT_STREQ(test, load_options_skip_image(s, "BOOTX64.EFI"), s);
}

static struct kunit_case cfg_text_cases[] = {
	KUNIT_CASE(cfg_plain_and_utf8_bom),
	KUNIT_CASE(cfg_utf16_with_bom),
	KUNIT_CASE(cfg_refused_with_reason),
	KUNIT_CASE(cfg_cr_line_ends),
	KUNIT_CASE(cfg_long_file_read_whole),
	KUNIT_CASE(load_options_text),
	KUNIT_CASE(load_options_binary_blob),
	KUNIT_CASE(load_options_image_word),
};

KUNIT_SUITE_DEFINE(cfg_text_suite, "cfg_text", cfg_text_cases,
		   .flags = KUNIT_SUITE_PARSES_OPTIONS);
