/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hand-off record from the UEFI side (boot/) to the kernel (kernel/).
 * Everything the kernel needs from firmware is captured here before
 * ExitBootServices; after it, the kernel reads this record and never calls
 * boot services. It is the kernel's: boot/ sits above kernel/ and fills it
 * in (docs/layout.md, "Floors").
 */
#ifndef NTBOOT_KERNEL_BOOT_INFO_H
#define NTBOOT_KERNEL_BOOT_INFO_H

#include "include/types.h"
#include "lib/options.h"
#include "mm/phys_map.h"

enum secure_boot_state {
	SECURE_BOOT_UNKNOWN = -1,
	SECURE_BOOT_OFF = 0,
	SECURE_BOOT_ON = 1,
	SECURE_BOOT_SETUP = 2, /* setup mode: no platform key enrolled */
};

/* What a firmware reset does: power off, or restart the machine. */
enum firmware_reset {
	FIRMWARE_RESET_POWER_OFF,
	FIRMWARE_RESET_REBOOT,
};

/* The UEFI GOP framebuffer, for the screen console. */
struct boot_framebuffer {
	u64 base;		/* 0: none (no GOP, or a blt-only mode) */
	u64 size;
	u32 width, height;
	u32 stride;		/* pixels per scan line */
	/* Bit positions of the 8-bit colour fields in a 32-bit pixel. */
	u8 red_shift, green_shift, blue_shift;
};

struct boot_info {
	/* Physical memory, converted from the final UEFI memory map. */
	struct phys_map map;
	u32 efi_map_entries;
	u32 ebs_attempts;	/* ExitBootServices tries (map key retries) */
	bool map_bad;		/* the map did not fit or could not be mended */

	u64 rsdp;		/* ACPI root pointer, 0 if firmware had none */
	u32 rsdp_revision;
	char fw_vendor[64];
	u32 fw_revision;
	u32 uefi_revision;
	enum secure_boot_state secure_boot;

	struct boot_framebuffer fb;

	u64 image_base;
	u64 image_size;
	u64 stack_base;		/* the kernel stack, in loader memory */
	u64 stack_size;

	/*
	 * Options: parsed before ExitBootServices into the variables their
	 * owners declare (lib/options.h); errors reported after.
	 */
	bool options_bad;
	char options_error[256];
	bool cfg_found;
	char cfg_path[96];
	char load_options[1024]; /* as given, for the report */
	/* Bytes of a boot manager's binary load options (not parsed). */
	u64 load_options_binary;

	/*
	 * The firmware's runtime ResetSystem, the one firmware call left after
	 * ExitBootServices (boot/efi_runtime.c): returns only where the
	 * firmware refused. The kernel calls it through this pointer, so it
	 * names nothing of UEFI.
	 */
	void (*firmware_reset)(enum firmware_reset how);
};

#endif
