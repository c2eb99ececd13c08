/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_BOOT_EFI_OPTIONS_H
#define NTBOOT_BOOT_EFI_OPTIONS_H

#include <efi.h>

#include "kernel/boot_info.h"

/*
 * Set the options (lib/options.h) from the image's load options, then from
 * ntboot.cfg in the directory the image was loaded from. The first error stops parsing
 * and is kept in bi->options_error for the kernel to report. Also records
 * the image's base and size.
 */
void efi_load_options(EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
		      struct boot_info *bi);

#endif
