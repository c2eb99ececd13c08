/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_BOOT_EFI_GOP_H
#define NTBOOT_BOOT_EFI_GOP_H

#include <efi.h>

#include "kernel/boot_info.h"

/*
 * Record the Graphics Output Protocol's current mode and framebuffer, so
 * the kernel can mirror its console on the screen after ExitBootServices.
 * Leaves @fb zeroed when there is no GOP or no linear framebuffer.
 */
void efi_gop_query(EFI_SYSTEM_TABLE *st, struct boot_framebuffer *fb);

#endif
