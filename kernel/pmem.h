/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's persistent memory: the persistent-memory ranges of the
 * ACPI NFIT (where Optane PMem interleave sets and emulated NVDIMMs are
 * described), else the UEFI map's EfiPersistentMemory. The largest range
 * is mapped write-back and lent whole to a benchmark that asks
 * (plat_pmem_region(), memmap_in=).
 */
#ifndef NTBOOT_KERNEL_PMEM_H
#define NTBOOT_KERNEL_PMEM_H

#include "lib/acpi.h"
#include "mm/phys_map.h"

/* After memory_init(): find and map. Problems go to the header line. */
void pmem_init(const struct acpi_info *acpi, const struct phys_map *map);

/* "# pmem ..." for the header. */
void pmem_print_header(void);

#endif
