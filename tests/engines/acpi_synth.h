/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entries of synthetic ACPI tables, laid out as firmware writes them, for
 * the suites that feed the readers tables no machine here has.
 */
#ifndef NTBOOT_TESTS_ENGINES_ACPI_SYNTH_H
#define NTBOOT_TESTS_ENGINES_ACPI_SYNTH_H

#include "include/types.h"

/* SRAT Memory Affinity structure (ACPI 6.5 5.2.16.2). */
#define SRAT_MEM_LEN 40
#define SRAT_MEM_ENABLED 1u

/* Write one at @e: @len bytes at @base in proximity domain @domain. */
void synth_srat_mem(u8 *e, u32 domain, u64 base, u64 len, u32 flags);

#endif
