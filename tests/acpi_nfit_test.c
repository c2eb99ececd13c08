// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NFIT reader on synthetic tables: persistent-memory SPA ranges kept
 * with their proximity domain, other range types counted apart, and a
 * structure that claims more bytes than the table has stops the walk
 * (truncated) instead of being read.
 */
#include "lib/acpi_nfit.h"
#include "lib/kunit.h"
#include "lib/string.h"

static const u8 pm_guid[16] = {0x79, 0xd3, 0xf0, 0x66, 0xf3, 0xb4, 0x74, 0x40,
			       0xac, 0x43, 0x0d, 0x33, 0x18, 0xb7, 0x8c, 0xdb};
/* the volatile-memory range type, 7305944F-FDDA-44E3-B16C-3F22D252E5D0 */
static const u8 vm_guid[16] = {0x4f, 0x94, 0x05, 0x73, 0xda, 0xfd, 0xe3, 0x44,
			       0xb1, 0x6c, 0x3f, 0x22, 0xd2, 0x52, 0xe5, 0xd0};

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put64(u8 *p, u64 v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* An SPA structure at @p: 56 bytes. */
static void spa(u8 *p, const u8 *guid, u32 domain, bool domain_valid, u64 base,
		u64 length)
{
	memset(p, 0, 56);
	put16(p, 0);
	put16(p + 2, 56);
	put16(p + 6, domain_valid ? 2 : 0);
	memcpy(p + 12, &domain, 4);
	memcpy(p + 16, guid, 16);
	put64(p + 32, base);
	put64(p + 40, length);
}

static struct acpi_table_header *table(u8 *buf, u32 len)
{
	struct acpi_table_header *h = (struct acpi_table_header *)buf;

	memcpy(h->signature, "NFIT", 4);
	h->length = len;
	return h;
}

static void nfit_ranges(struct kunit *test)
{
	static u8 buf[40 + 3 * 56 + 8] __aligned(8);
	struct acpi_nfit_info info;
	u8 *p = buf + 40;

	memset(buf, 0, sizeof(buf));
	spa(p, pm_guid, 1, true, 0x100000000ull, 256ull << 20);
	spa(p + 56, vm_guid, 0, false, 0x80000000ull, 1ull << 30);
	spa(p + 112, pm_guid, 0, false, 0x200000000ull, 1ull << 30);
	/* a control-region structure (type 4), skipped by its length */
	put16(p + 168, 4);
	put16(p + 170, 8);
	KUNIT_ASSERT_EQ(test, acpi_parse_nfit(table(buf, sizeof(buf)), &info),
			0);
	KUNIT_EXPECT_EQ(test, info.nr_ranges, 2u);
	KUNIT_EXPECT_EQ(test, info.nr_other, 1u);
	KUNIT_EXPECT_FALSE(test, info.truncated);
	KUNIT_EXPECT_EQ(test, info.ranges[0].base, 0x100000000ull);
	KUNIT_EXPECT_EQ(test, info.ranges[0].proximity_domain, 1u);
	KUNIT_EXPECT_TRUE(test, info.ranges[0].proximity_valid);
	KUNIT_EXPECT_FALSE(test, info.ranges[1].proximity_valid);
	KUNIT_EXPECT_EQ(test, acpi_nfit_largest(&info)->base, 0x200000000ull);
}

/* A structure longer than what is left: the walk stops, nothing past. */
static void nfit_truncated(struct kunit *test)
{
	/* room for two SPAs; the table says it ends 30 bytes into the 2nd */
	static u8 buf[40 + 2 * 56] __aligned(8);
	const u32 len = 40 + 56 + 30;
	struct acpi_nfit_info info;

	memset(buf, 0, sizeof(buf));
	spa(buf + 40, pm_guid, 0, false, 0x100000000ull, 1ull << 30);
	spa(buf + 96, pm_guid, 0, false, 0x300000000ull, 1ull << 30);
	/* the second SPA claims 56 bytes, 30 are in the table */
	KUNIT_ASSERT_EQ(test, acpi_parse_nfit(table(buf, len), &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_ranges, 1u);
	KUNIT_EXPECT_TRUE(test, info.truncated);

	/* a zero length would loop for ever: it stops the walk too */
	memset(buf + 96, 0, 56);
	KUNIT_ASSERT_EQ(test, acpi_parse_nfit(table(buf, len), &info), 0);
	KUNIT_EXPECT_TRUE(test, info.truncated);

	/* too short to be an NFIT, and no table */
	KUNIT_EXPECT_EQ(test, acpi_parse_nfit(table(buf, 39), &info), -1);
	KUNIT_EXPECT_EQ(test, acpi_parse_nfit(NULL, &info), -1);
	KUNIT_EXPECT_TRUE(test, acpi_nfit_largest(&info) == NULL);
}

static const struct kunit_case acpi_nfit_cases[] = {
	KUNIT_CASE(nfit_ranges),
	KUNIT_CASE(nfit_truncated),
};

KUNIT_SUITE_DEFINE(acpi_nfit_suite, "acpi_nfit", acpi_nfit_cases);
