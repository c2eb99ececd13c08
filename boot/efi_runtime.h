/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The only firmware calls allowed after ExitBootServices: runtime
 * ResetSystem, for power-off and reboot at the end of a run. The kernel
 * reaches it through struct boot_info's firmware_reset.
 */
#ifndef NTBOOT_BOOT_EFI_RUNTIME_H
#define NTBOOT_BOOT_EFI_RUNTIME_H

#include "include/types.h"
#include "kernel/boot_info.h"

/* Remember the runtime services table (called before ExitBootServices). */
void efi_runtime_init(void *runtime_services);

/* ResetSystem as @how says; returns only if firmware refused. */
void efi_reset(enum firmware_reset how);

#endif
