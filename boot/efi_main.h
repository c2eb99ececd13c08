/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_BOOT_EFI_MAIN_H
#define NTBOOT_BOOT_EFI_MAIN_H

#include <efi.h>

/* The UEFI entry point, called by gnu-efi's crt0 after self-relocation. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

/* Print ASCII on the firmware console (before ExitBootServices only). */
void efi_con_print(EFI_SYSTEM_TABLE *st, const char *msg);

#endif
