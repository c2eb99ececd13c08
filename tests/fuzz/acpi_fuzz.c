// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the ACPI table parsers, the firmware input the
 * image trusts least: the input is one table, header included, in a
 * buffer of exactly its size. The header's length field is set to that
 * size, as acpi_scan() has checked (it sums `length` bytes for the
 * checksum before anything parses a table), and every parser reads it:
 * FADT (PM timer), HPET, MADT, SPCR, SRAT and NFIT. ASan sees any read
 * past the table; each parser's answers are checked for what it promises
 * (counts within their arrays, ranges kept only when sane).
 *
 * Host only (clang -fsanitize=fuzzer,address,undefined): `make fuzz`
 * builds build/host/acpi_fuzz, `make fuzz-short` runs it for a few
 * seconds from a corpus seeded with tables of the host tests' shapes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/acpi.h"
#include "lib/acpi_nfit.h"

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_table_header *t;
	struct acpi_pm_timer pm;
	struct acpi_madt_info madt;
	struct acpi_spcr_info spcr;
	struct acpi_srat_info srat;
	struct acpi_nfit_info nfit;
	u64 hpet;
	u32 len;

	if (size < sizeof(*t) || size > 1 << 20)
		return 0;
	t = malloc(size);
	if (!t)
		return 0;
	memcpy(t, data, size);
	len = (u32)size;
	memcpy(&t->length, &len, sizeof(len));

	acpi_parse_fadt_pm_timer(t, &pm);
	acpi_parse_hpet(t, &hpet);
	memset(&madt, 0, sizeof(madt));
	acpi_parse_madt(t, &madt);
	if (madt.nr_ids > ARRAY_SIZE(madt.apic_ids))
		abort();
	acpi_parse_spcr(t, &spcr);
	if (!acpi_parse_srat(t, &srat) &&
	    (srat.nr_nodes > ACPI_MAX_NUMA_NODES ||
	     srat.nr_ranges > ACPI_MAX_MEM_RANGES))
		abort();
	if (!acpi_parse_nfit(t, &nfit)) {
		if (nfit.nr_ranges > NFIT_MAX_RANGES)
			abort();
		for (u32 i = 0; i < nfit.nr_ranges; i++)
			if (!nfit.ranges[i].length ||
			    nfit.ranges[i].base + nfit.ranges[i].length <
				    nfit.ranges[i].base)
				abort();
	}
	free(t);
	return 0;
}
