// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware-table and ntboot.cfg parsers at their edges: a checksum
 * that only the last byte breaks, a MADT entry one byte longer than what
 * is left of the table, the last SPCR baud code and the first one past
 * the table, a disabled SRAT memory range; a cfg file that is only a BOM,
 * UTF-16 of one byte, a high surrogate before U+E000, and U+10000, the
 * first code point of four UTF-8 bytes.
 */
#include "lib/acpi.h"
#include "lib/cfg_text.h"
#include "lib/kunit.h"
#include "lib/string.h"

static void edge_header(u8 *t, const char *sig, u32 len)
{
	struct acpi_table_header *h = (void *)t;

	memcpy(h->signature, sig, 4);
	h->length = len;
	h->revision = 1;
}

static void edge_seal(u8 *t)
{
	struct acpi_table_header *h = (void *)t;
	u8 sum = 0;

	h->checksum = 0;
	for (u32 i = 0; i < h->length; i++)
		sum += t[i];
	h->checksum = (u8)(0x100 - sum);
}

static void checksum_every_byte(struct kunit *test)
{
	u8 t[40] = {0};

	edge_header(t, "TEST", sizeof(t));
	for (size_t i = 36; i < sizeof(t); i++)
		t[i] = (u8)(i * 13);
	edge_seal(t);
	KUNIT_EXPECT_TRUE(test, acpi_checksum_ok(t, sizeof(t)));
	for (size_t i = 0; i < sizeof(t); i++) {
		t[i] ^= 0x10;
		if (acpi_checksum_ok(t, sizeof(t)))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "byte %zu of %zu changed: checksum "
				      "still ok",
				      i, sizeof(t));
		t[i] ^= 0x10;
	}
}

/* Two LAPIC entries, the second a byte longer than what is left. */
static void madt_entry_one_byte_past(struct kunit *test)
{
	const u32 len = 44 + 8 + 7;
	u8 *t = kunit_kzalloc(test, len + 8);
	struct acpi_madt_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	edge_header(t, "APIC", len);
	/* type 0 (LAPIC), length 8, APIC id 1, enabled */
	t[44] = 0;
	t[45] = 8;
	t[47] = 1;
	t[48] = 1;
	/* the same with APIC id 2: only 7 of its bytes in the table */
	t[52] = 0;
	t[53] = 8;
	t[55] = 2;
	t[56] = 1;
	edge_seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)t, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.truncated);
	KUNIT_EXPECT_EQ(test, info.nr_enabled, 1u);

	/* With the byte there, both count. */
	edge_header(t, "APIC", len + 1);
	edge_seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)t, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.truncated);
	KUNIT_EXPECT_EQ(test, info.nr_enabled, 2u);
}

static void spcr_baud_codes(struct kunit *test)
{
	u8 *t = kunit_kzalloc(test, 80);
	struct acpi_spcr_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	edge_header(t, "SPCR", 80);
	t[36] = 0; /* 16550 */
	t[40] = 1; /* I/O port 0x3f8 */
	t[41] = 8;
	t[44] = 0xf8;
	t[45] = 0x03;
	t[58] = 7; /* the last code: 115200 */
	edge_seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_spcr((void *)t, &info), 0);
	KUNIT_EXPECT_EQ(test, info.baud, 115200u);
	for (unsigned int code = 8; code < 256; code += 41) {
		t[58] = (u8)code; /* past the table: "as is" */
		edge_seal(t);
		KUNIT_ASSERT_EQ(test, acpi_parse_spcr((void *)t, &info), 0);
		KUNIT_EXPECT_EQ(test, info.baud, 0u);
	}
}

/* A disabled memory range gives its domain neither bytes nor a range. */
static void srat_disabled_memory(struct kunit *test)
{
	const u32 len = 48 + 40 * 2;
	u8 *t = kunit_kzalloc(test, len);
	struct acpi_srat_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	edge_header(t, "SRAT", len);
	/* 1 GiB at 0 in domain 0, enabled; 2 GiB at 4 GiB in 0, disabled */
	t[48] = 1;
	t[49] = 40;
	t[48 + 19] = 0x40;
	t[48 + 28] = 1;
	t[88] = 1;
	t[89] = 40;
	t[88 + 12] = 1;
	t[88 + 19] = 0x80;
	edge_seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_nodes, 1u);
	KUNIT_EXPECT_EQ(test, info.node_mem[0], 1ull << 30);
	KUNIT_EXPECT_EQ(test, info.nr_ranges, 1u);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(&info, 5ull << 30), -1);
}

static int decode(const u8 *raw, size_t len, char *out, size_t *n,
		  struct opt_error *e)
{
	memset(e, 0, sizeof(*e));
	return cfg_text_decode(raw, len, out, 64, n, "ntboot.cfg", e);
}

static void cfg_decode_edges(struct kunit *test)
{
	static const u8 bom_only[] = {0xef, 0xbb, 0xbf};
	static const u8 utf16_one_byte[] = {0xff, 0xfe, 'a'};
	/* "#", then U+D800 U+E000: a high surrogate with no low one */
	static const u8 bad_pair[] = {0xff, 0xfe, '#',	0,
				      0x00, 0xd8, 0x00, 0xe0};
	/* "#", then U+D800 U+DC00: U+10000 */
	static const u8 first_astral[] = {0xff, 0xfe, '#',  0,
					  0x00, 0xd8, 0x00, 0xdc};
	/* "#", then U+FFFD: the last three-byte code point we write */
	static const u8 last_bmp[] = {0xff, 0xfe, '#', 0, 0xfd, 0xff};
	struct opt_error e;
	char out[64];
	size_t n = 99;

	KUNIT_EXPECT_EQ(test, decode(bom_only, sizeof(bom_only), out, &n, &e),
			0);
	KUNIT_EXPECT_EQ(test, n, 0ul);
	KUNIT_EXPECT_EQ(
		test,
		decode(utf16_one_byte, sizeof(utf16_one_byte), out, &n, &e),
		-1);
	KUNIT_EXPECT_TRUE(test, strstr(e.msg, "odd number of bytes") != NULL);
	KUNIT_EXPECT_EQ(test, decode(bad_pair, sizeof(bad_pair), out, &n, &e),
			-1);
	KUNIT_ASSERT_EQ(test,
			decode(first_astral, sizeof(first_astral), out, &n, &e),
			0);
	KUNIT_EXPECT_EQ(test, n, 5ul);
	KUNIT_EXPECT_MEMEQ(test, out, "#\xf0\x90\x80\x80", 5);
	KUNIT_ASSERT_EQ(test, decode(last_bmp, sizeof(last_bmp), out, &n, &e),
			0);
	KUNIT_EXPECT_EQ(test, n, 4ul);
	KUNIT_EXPECT_MEMEQ(test, out, "#\xef\xbf\xbd", 4);
}

static const struct kunit_case parser_edges_cases[] = {
	KUNIT_CASE(checksum_every_byte), KUNIT_CASE(madt_entry_one_byte_past),
	KUNIT_CASE(spcr_baud_codes),	 KUNIT_CASE(srat_disabled_memory),
	KUNIT_CASE(cfg_decode_edges),
};

KUNIT_SUITE_DEFINE(parser_edges_suite, "parser_edges", parser_edges_cases);
