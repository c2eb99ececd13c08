// SPDX-License-Identifier: GPL-2.0-only
#include <efi.h>

#include "boot/efi_runtime.h"

static EFI_RUNTIME_SERVICES *rt;

void efi_runtime_init(void *runtime_services)
{
	rt = runtime_services;
}

/*
 * Runtime services are called in physical mode: we never call
 * SetVirtualAddressMap and our page tables map all memory identity, so the
 * firmware's runtime regions are where it left them. Returns only where
 * the firmware refuses (or there is no table).
 */
void efi_reset(enum firmware_reset how)
{
	if (rt)
		rt->ResetSystem(how == FIRMWARE_RESET_REBOOT ? EfiResetCold
							     : EfiResetShutdown,
				EFI_SUCCESS, 0, NULL);
}
