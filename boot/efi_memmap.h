/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_BOOT_EFI_MEMMAP_H
#define NTBOOT_BOOT_EFI_MEMMAP_H

#include <efi.h>

#include "mm/phys_map.h"

/*
 * Translate the UEFI memory map into phys_map regions (map->regions and
 * map->capacity set by the caller) and normalise it. Pure data: safe after
 * ExitBootServices. Returns 0, or -1 when the map did not fit (the caller
 * gives room for twice the descriptors, which normalisation may need),
 * or when @desc_size is smaller than a descriptor. Descriptors are walked
 * by desc_size, never by the structure size, as the specification
 * requires, and copied out, so a size that is not a multiple of 8 is read
 * as well.
 */
int efi_memmap_convert(const EFI_MEMORY_DESCRIPTOR *map, UINTN map_size,
		       UINTN desc_size, struct phys_map *out);

/*
 * A descriptor size the map can be walked by: at least the descriptor
 * the specification defines (a later version may append fields, hence
 * the firmware's DescriptorSize). Anything smaller is no map to read.
 */
static inline bool efi_memmap_desc_size_ok(UINTN desc_size)
{
	return desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR);
}

/*
 * Regions to give efi_memmap_convert() for a buffer of @buf_size bytes of
 * descriptors: twice their number (normalisation splits overlaps) and a
 * few more. 0 for a descriptor size that is not efi_memmap_desc_size_ok().
 */
static inline UINTN efi_memmap_capacity(UINTN buf_size, UINTN desc_size)
{
	if (!efi_memmap_desc_size_ok(desc_size))
		return 0;
	return 2 * (buf_size / desc_size + 16);
}

enum phys_type efi_type_to_phys(UINT32 efi_type);

#endif
