/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The only firmware calls allowed after ExitBootServices: runtime
 * ResetSystem, for power-off and reboot at the end of a run.
 */
#ifndef NTBOOT_BOOT_EFI_RUNTIME_H
#define NTBOOT_BOOT_EFI_RUNTIME_H

#include "include/types.h"

/* Remember the runtime services table (called before ExitBootServices). */
void efi_runtime_init(void *runtime_services);

/* Return only if firmware refused. */
void efi_power_off(void);
void efi_reboot(void);

#endif
