/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical memory map as the kernel sees it: firmware descriptors
 * turned into sorted, non-overlapping regions of one type each. The UEFI
 * side (boot/) translates EFI memory types into these; everything here is
 * plain data, so the host tests exercise it with recorded and broken maps.
 */
#ifndef NTBOOT_MM_PHYS_MAP_H
#define NTBOOT_MM_PHYS_MAP_H

#include "include/types.h"

enum phys_type {
	/* In order of precedence: where regions overlap, the higher wins. */
	PHYS_FREE = 0,	    /* conventional memory: ours from the start */
	PHYS_BOOT_SERVICES, /* free once our GDT/IDT/stack/tables are in */
	PHYS_ACPI_RECLAIM,  /* ACPI tables: keep while we parse them */
	PHYS_LOADER,	    /* the image, its stack, boot-info, tables */
	PHYS_RUNTIME,	    /* UEFI runtime code/data: never touch */
	PHYS_PERSISTENT,    /* persistent memory (EfiPersistentMemory) */
	PHYS_ACPI_NVS,
	PHYS_MMIO,
	PHYS_RESERVED,
	PHYS_UNUSABLE, /* reported bad by firmware */
	PHYS_NR_TYPES
};

struct phys_region {
	u64 base;
	u64 size;
	enum phys_type type;
};

struct phys_map {
	struct phys_region *regions;
	u32 nr;
	u32 capacity;
	/* What normalisation found and mended, for the report. */
	u32 nr_zero_length;
	u32 nr_overlaps;
	u32 nr_unaligned;
	u32 nr_merged;
	u32 nr_wrapped; /* regions clipped where they ran past 2^64 */
};

const char *phys_type_name(enum phys_type t);

/*
 * Normalise in place: drop zero-length regions, clip regions that wrap past
 * 2^64 (the last byte of the address space is never part of a region),
 * sort by base, resolve overlaps by precedence (the stricter type wins for
 * the overlapping part), merge neighbours of the same type, and trim RAM
 * types (FREE, BOOT_SERVICES, ACPI_RECLAIM, LOADER) inwards to whole 4 KiB
 * pages. The trim comes after the overlaps are resolved, so a page shared
 * by two types becomes a hole rather than falling to the weaker type. A
 * type value past PHYS_NR_TYPES is taken as PHYS_RESERVED. The counters
 * are reset and then say what was mended. Needs room for up to 2*nr
 * regions (a region split by an overlap grows the list); returns -1 if
 * capacity runs out, and the map is then sorted but not usable. 0 on
 * success.
 */
int phys_map_normalize(struct phys_map *map);

/* Sum of bytes of @type. */
u64 phys_map_total(const struct phys_map *map, enum phys_type t);
/* Highest end address of any region. */
u64 phys_map_max_addr(const struct phys_map *map);
/*
 * Highest end address of any region but MMIO: what the write-back
 * identity map must cover (identity_map_limit()).
 */
u64 phys_map_memory_end(const struct phys_map *map);
/*
 * RAM: every type the OS or firmware keeps in DRAM (FREE, BOOT_SERVICES,
 * ACPI_RECLAIM, LOADER, RUNTIME, ACPI_NVS); not MMIO, reserved or unusable.
 */
u64 phys_map_ram_bytes(const struct phys_map *map);

#endif
