/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The NVDIMM Firmware Interface Table (ACPI 6.5 5.2.26): its System
 * Physical Address Range structures of the persistent-memory type give
 * where a machine's persistent memory lies (an Optane PMem interleave
 * set, an emulated NVDIMM). Untrusted firmware input: every structure's
 * length is checked against the table before it is read.
 */
#ifndef NTBOOT_LIB_ACPI_NFIT_H
#define NTBOOT_LIB_ACPI_NFIT_H

#include "lib/acpi.h"

#define NFIT_MAX_RANGES 16

struct acpi_nfit_range {
	u64 base;
	u64 length;
	u32 proximity_domain;
	bool proximity_valid;
};

struct acpi_nfit_info {
	u32 nr_ranges;	/* persistent-memory SPA ranges kept */
	u32 nr_dropped; /* more than NFIT_MAX_RANGES */
	u32 nr_other;	/* SPA ranges of other types (volatile, ...) */
	bool truncated; /* a structure ran past the table's end */
	struct acpi_nfit_range ranges[NFIT_MAX_RANGES];
};

/* 0, or -1 when @nfit is not a readable NFIT (too short, no table). */
int acpi_parse_nfit(const struct acpi_table_header *nfit,
		    struct acpi_nfit_info *out);

/* The largest range, or NULL when there is none. */
const struct acpi_nfit_range *
acpi_nfit_largest(const struct acpi_nfit_info *info);

#endif
