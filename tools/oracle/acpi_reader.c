// SPDX-License-Identifier: GPL-2.0-only
/*
 * acpi-reader: the image's ACPI parsers (lib/acpi.c) over tables read from
 * files, for tools/acpi-tables to compare with an independent reading of
 * the same bytes (ACPICA's disassembly, kept beside the raw bytes in
 * tests/data/acpi-real/).
 *
 * Each argument is one table as firmware laid it out, header included,
 * copied into a buffer of exactly its size (ASan sees any read past it).
 * Real dumps carry no RSDP, so one is made here: revision 2, an XSDT that
 * lists the tables in argument order, both checksummed. Then the image's
 * own sequence runs: acpi_scan(), and acpi_find() plus the parser for
 * SRAT, FACP, HPET, APIC and SPCR (kernel/main.c), NFIT (kernel/pmem.c).
 *
 * Output, one logfmt line per answer, e.g.
 *   scan rc=0 valid=1 xsdt=1 tables=5 problems=0
 *   madt rc=0 lapic_base=0xfee00000 cpus=8 enabled=8 ... ids=0,2,4,6,...
 * A table absent from the scan prints "<name> absent". A file that cannot
 * be read stops the program naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/acpi.h"
#include "lib/acpi_nfit.h"

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

static void *read_table(const char *path)
{
	struct acpi_table_header h;
	FILE *f = fopen(path, "rb");
	long size;
	void *buf;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "acpi-reader: cannot read %s\n", path);
		exit(2);
	}
	if ((size_t)size < sizeof(h)) {
		fprintf(stderr,
			"acpi-reader: %s: %ld bytes, shorter than a "
			"table header\n",
			path, size);
		exit(2);
	}
	buf = malloc((size_t)size);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "acpi-reader: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	memcpy(&h, buf, sizeof(h));
	if (h.length != (u32)size) {
		fprintf(stderr,
			"acpi-reader: %s: header length %u, file %ld "
			"bytes\n",
			path, h.length, size);
		exit(2);
	}
	return buf;
}

static u8 checksum_byte(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += b[i];
	return (u8)-sum;
}

/* Live to the end: the scan's answers point into them. */
static void **tables;
static struct acpi_table_header *xsdt;

static u64 make_rsdp(int n)
{
	static struct acpi_rsdp rsdp;
	size_t xlen = sizeof(struct acpi_table_header) + 8 * (size_t)n;
	u8 *entries;

	xsdt = calloc(1, xlen);
	if (!xsdt)
		exit(2);
	entries = (u8 *)(xsdt + 1);
	memcpy(xsdt->signature, "XSDT", 4);
	xsdt->length = (u32)xlen;
	xsdt->revision = 1;
	memcpy(xsdt->oem_id, "NTBOOT", 6);
	for (int i = 0; i < n; i++) {
		u64 addr = (u64)(uintptr_t)tables[i];

		memcpy(entries + 8 * i, &addr, 8);
	}
	xsdt->checksum = checksum_byte(xsdt, xlen);

	memcpy(rsdp.signature, "RSD PTR ", 8);
	memcpy(rsdp.oem_id, "NTBOOT", 6);
	rsdp.revision = 2;
	rsdp.length = sizeof(rsdp);
	rsdp.xsdt_address = (u64)(uintptr_t)xsdt;
	rsdp.checksum = checksum_byte(&rsdp, 20);
	rsdp.extended_checksum = checksum_byte(&rsdp, 36);
	return (u64)(uintptr_t)&rsdp;
}

static void print_madt(const struct acpi_table_header *t)
{
	static struct acpi_madt_info m;
	int rc = acpi_parse_madt(t, &m);

	printf("madt rc=%d lapic_base=0x%llx cpus=%u enabled=%u "
	       "online_capable=%u disabled=%u x2apic=%u dropped=%u "
	       "truncated=%d ids=",
	       rc, (unsigned long long)m.lapic_base, m.nr_cpus, m.nr_enabled,
	       m.nr_online_capable, m.nr_disabled, m.nr_x2apic,
	       m.nr_ids_dropped, m.truncated);
	for (u32 i = 0; i < m.nr_ids; i++)
		printf("%s%u", i ? "," : "", m.apic_ids[i]);
	printf("\n");
}

static void print_srat(const struct acpi_table_header *t)
{
	static struct acpi_srat_info s;
	int rc = acpi_parse_srat(t, &s);

	printf("srat rc=%d nodes=%u ranges=%u hotplug_ranges=%u "
	       "hotplug_bytes=%llu truncated=%d\n",
	       rc, s.nr_nodes, s.nr_ranges, s.nr_hotplug_ranges,
	       (unsigned long long)s.hotplug_bytes, s.truncated);
	for (u32 i = 0; i < s.nr_nodes; i++)
		printf("node id=%u cpus=%u mem_bytes=%llu\n", s.node_ids[i],
		       s.node_cpus[i], (unsigned long long)s.node_mem[i]);
}

int main(int argc, char **argv)
{
	static struct acpi_info info;
	const struct acpi_table_header *t;
	struct acpi_pm_timer pm;
	struct acpi_spcr_info spcr;
	static struct acpi_nfit_info nfit;
	u64 hpet = 0;
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: acpi-reader TABLE.bin...\n");
		return 2;
	}
	tables = calloc((size_t)argc, sizeof(*tables));
	if (!tables)
		return 2;
	for (int i = 1; i < argc; i++)
		tables[i - 1] = read_table(argv[i]);

	rc = acpi_scan(make_rsdp(argc - 1), 0, ~0ull, &info);
	printf("scan rc=%d valid=%d xsdt=%d tables=%u problems=%u\n", rc,
	       info.valid, info.xsdt, info.nr_tables, info.nr_problems);
	for (u32 i = 0; i < info.nr_problems; i++)
		printf("problem text=\"%s\"\n", info.problems[i]);

	t = acpi_find(&info, "FACP");
	if (t) {
		rc = acpi_parse_fadt_pm_timer(t, &pm);
		printf("fadt rc=%d pm_timer=%d hw_reduced=%d port=0x%x "
		       "ext32=%d\n",
		       rc, pm.present, pm.hw_reduced, pm.port, pm.ext32);
	} else {
		printf("fadt absent\n");
	}
	t = acpi_find(&info, "HPET");
	if (t) {
		rc = acpi_parse_hpet(t, &hpet);
		printf("hpet rc=%d base=0x%llx\n", rc,
		       rc ? 0ull : (unsigned long long)hpet);
	} else {
		printf("hpet absent\n");
	}
	t = acpi_find(&info, "APIC");
	if (t)
		print_madt(t);
	else
		printf("madt absent\n");
	t = acpi_find(&info, "SPCR");
	if (t) {
		rc = acpi_parse_spcr(t, &spcr);
		printf("spcr rc=%d type=0x%x mmio=%d width=%u address=0x%llx "
		       "baud=%u\n",
		       rc, spcr.interface_type, spcr.mmio, spcr.reg_width,
		       (unsigned long long)spcr.address, spcr.baud);
	} else {
		printf("spcr absent\n");
	}
	t = acpi_find(&info, "SRAT");
	if (t)
		print_srat(t);
	else
		printf("srat absent\n");
	t = acpi_find(&info, "NFIT");
	if (t) {
		rc = acpi_parse_nfit(t, &nfit);
		printf("nfit rc=%d ranges=%u\n", rc, rc ? 0 : nfit.nr_ranges);
	} else {
		printf("nfit absent\n");
	}
	return 0;
}
