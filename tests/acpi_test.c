// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPI discovery on synthetic tables: a well-formed set like QEMU's, and
 * every way firmware tables are seen to be broken. Pointers in the tables
 * are plain addresses of the test's buffers (physical == virtual).
 */
#include "lib/acpi.h"
#include "lib/kunit.h"
#include "lib/string.h"
#include "tests/engines/acpi_synth.h"

struct fake_acpi {
	struct acpi_rsdp rsdp;
	u8 xsdt[sizeof(struct acpi_table_header) + 4 * 8] __aligned(8);
	u8 rsdt[sizeof(struct acpi_table_header) + 4 * 4] __aligned(8);
	u8 fadt[276] __aligned(8);
	u8 hpet[56] __aligned(8);
	u8 madt[sizeof(struct acpi_table_header) + 8 + 4 * 8 + 16] __aligned(8);
};

static void fix_checksum(void *p, size_t len, u8 *field)
{
	u8 sum = 0;

	*field = 0;
	for (size_t i = 0; i < len; i++)
		sum += ((u8 *)p)[i];
	*field = (u8)(0x100 - sum);
}

static void header(void *p, const char *sig, u32 len)
{
	struct acpi_table_header *h = p;

	memcpy(h->signature, sig, 4);
	h->length = len;
	h->revision = 1;
	memcpy(h->oem_id, "NTBOOT", 6);
}

static void seal(void *p)
{
	struct acpi_table_header *h = p;

	fix_checksum(h, h->length, &h->checksum);
}

/* FADT with PM timer at 0x608 (X_PM_TMR_BLK), HPET at 0xfed00000, 3 CPUs. */
static struct fake_acpi *build(struct kunit *test)
{
	struct fake_acpi *f = kunit_kzalloc(test, sizeof(*f));
	u64 ptrs[4];
	u32 ptrs32[4];
	u8 *m;

	KUNIT_ASSERT_NOT_NULL(test, f);
	header(f->fadt, "FACP", sizeof(f->fadt));
	f->fadt[208] = 1; /* X_PM_TMR_BLK: I/O space */
	f->fadt[209] = 32;
	f->fadt[212 - 1 + 1] = 0x08; /* address 0x608, little endian */
	f->fadt[213] = 0x06;
	f->fadt[112 + 1] = 0x01; /* flags: TMR_VAL_EXT (bit 8) */
	seal(f->fadt);

	header(f->hpet, "HPET", sizeof(f->hpet));
	f->hpet[40] = 0; /* memory space */
	f->hpet[44 + 2] = 0xd0;
	f->hpet[44 + 3] = 0xfe;
	seal(f->hpet);

	header(f->madt, "APIC", sizeof(f->madt));
	m = f->madt + sizeof(struct acpi_table_header);
	m[2] = 0xe0; /* local APIC at 0xfee00000 */
	m[3] = 0xfe;
	m += 8;
	for (int i = 0; i < 4; i++, m += 8) {
		m[0] = 0; /* processor local APIC */
		m[1] = 8;
		m[2] = i;
		m[3] = i * 2;	       /* sparse APIC IDs */
		m[4] = i == 3 ? 0 : 1; /* the last one disabled */
	}
	m[0] = 9; /* x2APIC, online capable */
	m[1] = 16;
	m[4] = 0x00;
	m[5] = 0x01; /* id 256 */
	m[8] = 2;
	seal(f->madt);

	ptrs[0] = (u64)(uptr)f->fadt;
	ptrs[1] = (u64)(uptr)f->hpet;
	ptrs[2] = (u64)(uptr)f->madt;
	header(f->xsdt, "XSDT", sizeof(struct acpi_table_header) + 3 * 8);
	memcpy(f->xsdt + sizeof(struct acpi_table_header), ptrs, 3 * 8);
	seal(f->xsdt);
	for (int i = 0; i < 3; i++)
		ptrs32[i] = (u32)ptrs[i];
	header(f->rsdt, "RSDT", sizeof(struct acpi_table_header) + 3 * 4);
	memcpy(f->rsdt + sizeof(struct acpi_table_header), ptrs32, 3 * 4);
	seal(f->rsdt);

	memcpy(f->rsdp.signature, "RSD PTR ", 8);
	memcpy(f->rsdp.oem_id, "NTBOOT", 6);
	f->rsdp.revision = 2;
	f->rsdp.rsdt_address = (u32)(uptr)f->rsdt;
	f->rsdp.length = 36;
	f->rsdp.xsdt_address = (u64)(uptr)f->xsdt;
	fix_checksum(&f->rsdp, 20, &f->rsdp.checksum);
	fix_checksum(&f->rsdp, 36, &f->rsdp.extended_checksum);
	return f;
}

static void acpi_good_tables(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_info info;
	struct acpi_pm_timer pm;
	struct acpi_madt_info madt;
	u64 hpet = 0;

	KUNIT_ASSERT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			0);
	KUNIT_EXPECT_TRUE(test, info.xsdt);
	KUNIT_EXPECT_EQ(test, info.nr_tables, 3);
	KUNIT_EXPECT_EQ(test, info.nr_problems, 0);
	KUNIT_ASSERT_EQ(test,
			acpi_parse_fadt_pm_timer(acpi_find(&info, "FACP"), &pm),
			0);
	KUNIT_EXPECT_EQ(test, pm.port, 0x608);
	KUNIT_EXPECT_TRUE(test, pm.ext32);
	KUNIT_ASSERT_EQ(test, acpi_parse_hpet(acpi_find(&info, "HPET"), &hpet),
			0);
	KUNIT_EXPECT_EQ(test, hpet, 0xfed00000ull);
	KUNIT_ASSERT_EQ(test, acpi_parse_madt(acpi_find(&info, "APIC"), &madt),
			0);
	KUNIT_EXPECT_EQ(test, madt.lapic_base, 0xfee00000ull);
	KUNIT_EXPECT_EQ(test, madt.nr_enabled, 3);
	KUNIT_EXPECT_EQ(test, madt.nr_disabled, 1);
	KUNIT_EXPECT_EQ(test, madt.nr_online_capable, 1);
	KUNIT_EXPECT_EQ(test, madt.nr_cpus, 4);
	KUNIT_EXPECT_EQ(test, madt.nr_x2apic, 1);
	KUNIT_EXPECT_EQ(test, madt.apic_ids[1], 2);
	KUNIT_EXPECT_EQ(test, madt.apic_ids[3], 256);
	KUNIT_EXPECT_FALSE(test, madt.truncated);
	KUNIT_EXPECT_TRUE(test, acpi_find(&info, "SSDT") == NULL);
}

/* The HPET block is 1 KiB of memory-mapped registers: not I/O, aligned. */
static void acpi_hpet_unaligned_or_io(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	u64 hpet = 0;

	f->hpet[44] = 0x08; /* 0xfed00008 */
	seal(f->hpet);
	KUNIT_EXPECT_EQ(test, acpi_parse_hpet((void *)f->hpet, &hpet), -1);
	f->hpet[44] = 0;
	f->hpet[40] = 1; /* I/O space */
	seal(f->hpet);
	KUNIT_EXPECT_EQ(test, acpi_parse_hpet((void *)f->hpet, &hpet), -1);
	KUNIT_EXPECT_EQ(test, hpet, 0ull);
}

static void acpi_bad_rsdp(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_info info;

	KUNIT_EXPECT_EQ(test, acpi_scan(0, 0, ~0ull, &info), -1);
	f->rsdp.checksum ^= 1;
	KUNIT_EXPECT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			-1);
	KUNIT_EXPECT_EQ(test, info.nr_problems, 1);
	f->rsdp.checksum ^= 1;
	f->rsdp.signature[0] = 'X';
	KUNIT_EXPECT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			-1);
}

static void acpi_bad_xsdt_falls_back_to_rsdt(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_info info;

	if ((u64)(uptr)f + sizeof(*f) > 0xffffffffull)
		kunit_skip(test, "test tables above 4 GiB; the RSDT holds "
				 "32-bit pointers");
	f->xsdt[sizeof(struct acpi_table_header)] ^=
		0xff; /* checksum now wrong */
	KUNIT_ASSERT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			0);
	KUNIT_EXPECT_FALSE(test, info.xsdt);
	KUNIT_EXPECT_EQ(test, info.nr_tables, 3);
	KUNIT_EXPECT_GE(test, info.nr_problems, 1);
}

static void acpi_bad_table_checksum_skipped(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_info info;

	f->hpet[50] ^= 0x55;
	KUNIT_ASSERT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			0);
	KUNIT_EXPECT_EQ(test, info.nr_tables, 2);
	KUNIT_EXPECT_TRUE(test, acpi_find(&info, "HPET") == NULL);
	KUNIT_EXPECT_EQ(test, info.nr_problems, 1);
}

static void acpi_bad_lengths(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_table_header *h = (void *)f->fadt;
	struct acpi_info info;
	struct acpi_pm_timer pm;
	struct acpi_madt_info madt;
	u8 *last;

	h->length = 3; /* shorter than a header */
	KUNIT_ASSERT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			0);
	KUNIT_EXPECT_TRUE(test, acpi_find(&info, "FACP") == NULL);
	KUNIT_EXPECT_EQ(test, acpi_parse_fadt_pm_timer(NULL, &pm), -1);
	h->length = 0; /* no header at all: its zero bytes sum to zero */
	KUNIT_ASSERT_EQ(test, acpi_scan((u64)(uptr)&f->rsdp, 0, ~0ull, &info),
			0);
	KUNIT_EXPECT_TRUE(test, acpi_find(&info, "FACP") == NULL);

	/* A MADT entry whose length runs past the table end. */
	last = f->madt + sizeof(f->madt) - 16;
	last[1] = 40;
	seal(f->madt);
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)f->madt, &madt), 0);
	KUNIT_EXPECT_TRUE(test, madt.truncated);
	KUNIT_EXPECT_EQ(test, madt.nr_enabled, 3);
	/* A zero-length entry must not loop forever. */
	last[1] = 0;
	seal(f->madt);
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)f->madt, &madt), 0);
	KUNIT_EXPECT_TRUE(test, madt.truncated);
}

static void acpi_spcr(struct kunit *test)
{
	u8 *t = kunit_kzalloc(test, 80);
	struct acpi_spcr_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	header(t, "SPCR", 80);
	t[36] = 0x12;	  /* 16550-compatible, GAS */
	t[40] = 0;	  /* memory space */
	t[41] = 32;	  /* 32-bit registers */
	t[43] = 3;	  /* dword access */
	t[44 + 2] = 0x03; /* 0xfe030000 */
	t[44 + 3] = 0xfe;
	t[58] = 6; /* 57600 */
	seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_spcr((void *)t, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.mmio);
	KUNIT_EXPECT_EQ(test, info.reg_width, 32);
	KUNIT_EXPECT_EQ(test, info.address, 0xfe030000ull);
	KUNIT_EXPECT_EQ(test, info.baud, 57600);

	/* COM2 as an I/O port, baud "as is". */
	memset(t + 36, 0, 44);
	t[36] = 0;
	t[40] = 1;
	t[41] = 8;
	t[44] = 0xf8;
	t[45] = 0x02;
	seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_spcr((void *)t, &info), 0);
	KUNIT_EXPECT_FALSE(test, info.mmio);
	KUNIT_EXPECT_EQ(test, info.address, 0x2f8);
	KUNIT_EXPECT_EQ(test, info.baud, 0);

	/* A UART type we cannot drive (ARM PL011) and a missing table. */
	t[36] = 0x03;
	KUNIT_EXPECT_EQ(test, acpi_parse_spcr((void *)t, &info), -1);
	KUNIT_EXPECT_EQ(test, acpi_parse_spcr(NULL, &info), -1);
}

static void acpi_srat(struct kunit *test)
{
	size_t len = 36 + 12 + 16 * 2 + 40 * 2 + 24;
	u8 *t = kunit_kzalloc(test, len), *p;
	struct acpi_srat_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	header(t, "SRAT", len);
	p = t + 48;
	/* Two CPUs in domain 0 and 0x100 (high domain bytes at 9..11). */
	p[0] = 0;
	p[1] = 16;
	p[2] = 0;
	p[3] = 0;
	p[4] = 1;
	p += 16;
	p[0] = 0;
	p[1] = 16;
	p[2] = 0;
	p[3] = 1;
	p[4] = 1;
	p[9] = 1;
	p += 16;
	/* Memory: 1 GiB at 0 in domain 0, 2 GiB at 4 GiB in 0x100. */
	p[0] = 1;
	p[1] = 40;
	p[19] = 0x40;
	p[28] = 1;
	p += 40;
	p[0] = 1;
	p[1] = 40;
	p[3] = 1;
	p[12] = 1;
	p[19] = 0x80;
	p[28] = 1;
	p += 40;
	/* A disabled x2APIC entry is not counted. */
	p[0] = 2;
	p[1] = 24;
	p[4] = 7;
	seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_nodes, 2);
	KUNIT_EXPECT_EQ(test, info.node_cpus[0], 1);
	KUNIT_EXPECT_EQ(test, info.node_ids[1], 0x100);
	KUNIT_EXPECT_EQ(test, info.node_mem[0], 1ull << 30);
	KUNIT_EXPECT_EQ(test, info.node_mem[1], 2ull << 30);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(&info, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(&info, 5ull << 30), 0x100);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(&info, 2ull << 30), -1);
	KUNIT_EXPECT_FALSE(test, info.truncated);
}

/*
 * A hot-pluggable range (as QEMU's -m 2G,slots=2,maxmem=4G describes its
 * hotplug area) is room, not memory: not in node_mem, still in ranges.
 * An entry that runs past the table end stops the walk (truncated).
 */
static void acpi_srat_hotplug_and_truncated(struct kunit *test)
{
	size_t len = 36 + 12 + 16 + 40 * 2;
	u8 *t = kunit_kzalloc(test, len + 40), *p;
	struct acpi_srat_info info;

	KUNIT_ASSERT_NOT_NULL(test, t);
	header(t, "SRAT", len);
	p = t + 48;
	p[0] = 0;
	p[1] = 16;
	p[4] = 1;
	p += 16;
	/* 2 GiB at 0, enabled */
	p[0] = 1;
	p[1] = 40;
	p[19] = 0x80;
	p[28] = 1;
	p += 40;
	/* 4 GiB at 8 GiB, enabled and hot-pluggable */
	p[0] = 1;
	p[1] = 40;
	p[12] = 2;
	p[20] = 1;
	p[28] = 3;
	seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, &info), 0);
	KUNIT_EXPECT_EQ(test, info.node_mem[0], 2ull << 30);
	KUNIT_EXPECT_EQ(test, info.nr_hotplug_ranges, 1);
	KUNIT_EXPECT_EQ(test, info.hotplug_bytes, 4ull << 30);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(&info, 9ull << 30), 0);
	KUNIT_EXPECT_FALSE(test, info.truncated);

	/* the last entry claims 40 bytes, 20 are in the table */
	header(t, "SRAT", len - 20);
	seal(t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, &info), 0);
	KUNIT_EXPECT_TRUE(test, info.truncated);
	KUNIT_EXPECT_EQ(test, info.nr_hotplug_ranges, 0);
}

/*
 * An SRAT of @nr_enabled memory ranges, 1 GiB each at 2 GiB steps in
 * domains 0, 1, 2 in turn, with a disabled range after the first (it takes
 * no room). The CPU entries of a real table are left out: they do not
 * take the ranges' room.
 */
static u8 *srat_of_ranges(struct kunit *test, u32 nr_enabled)
{
	u32 len = 48 + SRAT_MEM_LEN * (nr_enabled + 1);
	u8 *t = kunit_kzalloc(test, len);

	if (!t)
		return NULL;
	header(t, "SRAT", len);
	for (u32 i = 0; i < nr_enabled + 1; i++)
		synth_srat_mem(t + 48 + SRAT_MEM_LEN * i, i % 3,
			       (u64)i * (2ull << 30), 1ull << 30,
			       i == 1 ? 0 : SRAT_MEM_ENABLED);
	seal(t);
	return t;
}

/*
 * As many enabled ranges as the reader has room for: all kept, nothing
 * reported. Two more: the first ACPI_MAX_MEM_RANGES kept in table order,
 * the table reported truncated, the rest's addresses of no node, and
 * their bytes still the node's (the memory is there).
 */
static void acpi_srat_more_ranges_than_room(struct kunit *test)
{
	const u64 gib = 1ull << 30;
	struct acpi_srat_info *info = kunit_kzalloc(test, sizeof(*info));
	u8 *t = srat_of_ranges(test, ACPI_MAX_MEM_RANGES);
	u64 last = (u64)ACPI_MAX_MEM_RANGES * 2 * gib;

	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, info), 0);
	KUNIT_EXPECT_FALSE(test, info->truncated);
	KUNIT_EXPECT_EQ(test, info->nr_ranges, ACPI_MAX_MEM_RANGES);
	KUNIT_EXPECT_EQ(test, info->nr_nodes, 3u);
	KUNIT_EXPECT_EQ(test, info->ranges[ACPI_MAX_MEM_RANGES - 1].base, last);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(info, last),
			(int)(ACPI_MAX_MEM_RANGES % 3));
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(info, 2 * gib), -1);

	t = srat_of_ranges(test, ACPI_MAX_MEM_RANGES + 2);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)t, info), 0);
	KUNIT_EXPECT_TRUE(test, info->truncated);
	KUNIT_EXPECT_EQ(test, info->nr_ranges, ACPI_MAX_MEM_RANGES);
	KUNIT_EXPECT_EQ(test, info->ranges[0].base, 0ull);
	KUNIT_EXPECT_EQ(test, info->ranges[1].base, 4 * gib);
	KUNIT_EXPECT_EQ(test, info->ranges[ACPI_MAX_MEM_RANGES - 1].base, last);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(info, last),
			(int)(ACPI_MAX_MEM_RANGES % 3));
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(info, last + 2 * gib), -1);
	KUNIT_EXPECT_EQ(test, acpi_srat_node_of(info, last + 4 * gib), -1);
	KUNIT_EXPECT_EQ(
		test, info->node_mem[0] + info->node_mem[1] + info->node_mem[2],
		(u64)(ACPI_MAX_MEM_RANGES + 2) * gib);
}

/* HW_REDUCED_ACPI (FADT flags bit 20): the PM timer is not there. */
static void acpi_fadt_hw_reduced(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	struct acpi_pm_timer pm;

	KUNIT_ASSERT_EQ(test, acpi_parse_fadt_pm_timer((void *)f->fadt, &pm),
			0);
	KUNIT_EXPECT_TRUE(test, pm.present);
	f->fadt[112 + 2] |= 0x10; /* flags bit 20 */
	seal(f->fadt);
	KUNIT_EXPECT_EQ(test, acpi_parse_fadt_pm_timer((void *)f->fadt, &pm),
			-1);
	KUNIT_EXPECT_FALSE(test, pm.present);
	KUNIT_EXPECT_TRUE(test, pm.hw_reduced);
}

/*
 * A pointer past the mapped memory is named, never followed: the scan
 * reads only inside [mem_start, mem_end), headers and whole lengths.
 */
static void acpi_tables_outside_mapped_memory(struct kunit *test)
{
	struct fake_acpi *f = build(test);
	u64 rsdp = (u64)(uptr)&f->rsdp;
	struct acpi_info info;

	/* The HPET's header is mapped, its last 16 bytes and the MADT not. */
	KUNIT_ASSERT_EQ(
		test, acpi_scan(rsdp, rsdp, (u64)(uptr)f->hpet + 40, &info), 0);
	KUNIT_EXPECT_EQ(test, info.nr_tables, 1);
	KUNIT_EXPECT_TRUE(test, acpi_find(&info, "FACP") != NULL);
	KUNIT_ASSERT_EQ(test, info.nr_problems, 2);
	KUNIT_EXPECT_TRUE(test, strstr(info.problems[0], "HPET") &&
					strstr(info.problems[0], "runs past"));
	KUNIT_EXPECT_TRUE(test,
			  strstr(info.problems[1], "outside mapped memory"));

	/* The RSDP itself outside: nothing is read. */
	KUNIT_EXPECT_EQ(test, acpi_scan(rsdp, rsdp + 1, ~0ull, &info), -1);
	KUNIT_EXPECT_TRUE(test, strstr(info.problems[0], "RSDP at"));
	KUNIT_EXPECT_EQ(test, acpi_scan(rsdp, 0, rsdp + 19, &info), -1);
	/*
	 * Revision 2 with only its first 20 bytes mapped: the RSDT, which
	 * lies outside too.
	 */
	KUNIT_EXPECT_EQ(test, acpi_scan(rsdp, rsdp, rsdp + 20, &info), -1);
	KUNIT_EXPECT_TRUE(test, strstr(info.problems[0], "runs past"));
}

static const struct kunit_case acpi_cases[] = {
	KUNIT_CASE(acpi_spcr),
	KUNIT_CASE(acpi_srat),
	KUNIT_CASE(acpi_srat_hotplug_and_truncated),
	KUNIT_CASE(acpi_srat_more_ranges_than_room),
	KUNIT_CASE(acpi_fadt_hw_reduced),
	KUNIT_CASE(acpi_good_tables),
	KUNIT_CASE(acpi_hpet_unaligned_or_io),
	KUNIT_CASE(acpi_bad_rsdp),
	KUNIT_CASE(acpi_bad_xsdt_falls_back_to_rsdt),
	KUNIT_CASE(acpi_bad_table_checksum_skipped),
	KUNIT_CASE(acpi_bad_lengths),
	KUNIT_CASE(acpi_tables_outside_mapped_memory),
};

KUNIT_SUITE_DEFINE(acpi_suite, "acpi_tables", acpi_cases);
