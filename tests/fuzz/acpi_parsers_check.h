/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every ACPI table parser over one table, each answer held to what the
 * parser promises (counts within their arrays, ranges kept only when
 * sane); a broken promise aborts, which libFuzzer reports as a crash.
 * Shared by the fuzz targets of the parsers (acpi_fuzz.c) and of the
 * whole scan (acpi_scan_fuzz.c).
 */
#ifndef NTBOOT_TESTS_FUZZ_ACPI_PARSERS_CHECK_H
#define NTBOOT_TESTS_FUZZ_ACPI_PARSERS_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "lib/acpi.h"
#include "lib/acpi_nfit.h"

static inline void acpi_parsers_check(const struct acpi_table_header *t)
{
	/* Static: the MADT and NFIT answers are large for a fuzzer's stack. */
	static struct acpi_madt_info madt;
	static struct acpi_srat_info srat;
	static struct acpi_nfit_info nfit;
	struct acpi_pm_timer pm;
	struct acpi_spcr_info spcr;
	u64 hpet;

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
}

#endif
