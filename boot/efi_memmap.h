/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_BOOT_EFI_MEMMAP_H
#define NTBOOT_BOOT_EFI_MEMMAP_H

#include <efi.h>

#include "mm/phys_map.h"

/*
 * Translate the UEFI memory map into phys_map regions (map->regions and
 * map->capacity set by the caller) and normalise it. Pure data: safe after
 * ExitBootServices. Returns 0, or -1 when the map did not fit (the caller
 * gives room for twice the descriptors, which normalisation may need).
 * Descriptors are walked by desc_size, never by the
 * structure size, as the specification requires.
 */
int efi_memmap_convert(const EFI_MEMORY_DESCRIPTOR *map, UINTN map_size,
		       UINTN desc_size, struct phys_map *out);

enum phys_type efi_type_to_phys(UINT32 efi_type);

#endif
