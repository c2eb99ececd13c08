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
 * firmware's runtime regions are where it left them.
 */
static void efi_power_off(void)
{
	if (rt)
		rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
}

static void efi_reboot(void)
{
	if (rt)
		rt->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
}

void efi_reset(enum firmware_reset how)
{
	if (how == FIRMWARE_RESET_REBOOT)
		efi_reboot();
	else
		efi_power_off();
}
