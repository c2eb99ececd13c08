// SPDX-License-Identifier: GPL-2.0-only
#include "boot/efi_memmap.h"
#include "lib/string.h"

/* UEFI 2.5's EfiPersistentMemory, which gnu-efi's headers lack. */
#define EFI_PERSISTENT_MEMORY 14

enum phys_type efi_type_to_phys(UINT32 efi_type)
{
	switch (efi_type) {
	case EfiConventionalMemory:
		return PHYS_FREE;
	case EfiBootServicesCode:
	case EfiBootServicesData:
		return PHYS_BOOT_SERVICES;
	case EfiLoaderCode:
	case EfiLoaderData:
		return PHYS_LOADER;
	case EfiACPIReclaimMemory:
		return PHYS_ACPI_RECLAIM;
	case EfiACPIMemoryNVS:
		return PHYS_ACPI_NVS;
	case EfiRuntimeServicesCode:
	case EfiRuntimeServicesData:
		return PHYS_RUNTIME;
	case EfiMemoryMappedIO:
	case EfiMemoryMappedIOPortSpace:
		return PHYS_MMIO;
	case EfiUnusableMemory:
		return PHYS_UNUSABLE;
	case EFI_PERSISTENT_MEMORY:
		return PHYS_PERSISTENT;
	default:
		/* Reserved, PalCode, unknown types. */
		return PHYS_RESERVED;
	}
}

int efi_memmap_convert(const EFI_MEMORY_DESCRIPTOR *map, UINTN map_size,
		       UINTN desc_size, struct phys_map *out)
{
	const u8 *p = (const u8 *)map;

	out->nr = 0;
	if (!efi_memmap_desc_size_ok(desc_size))
		return -1;
	for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
		EFI_MEMORY_DESCRIPTOR d;
		struct phys_region *r;

		memcpy(&d, p + off, sizeof(d));
		/* Half the room stays free for overlaps split apart. */
		if (out->nr >= out->capacity / 2)
			return -1;
		r = &out->regions[out->nr++];
		r->base = d.PhysicalStart;
		/* A page count that overflows is clipped by normalisation. */
		r->size = d.NumberOfPages > (~0ull >> 12) ?
				  ~0ull :
				  d.NumberOfPages << 12;
		r->type = efi_type_to_phys(d.Type);
	}
	return phys_map_normalize(out);
}
