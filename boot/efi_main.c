// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UEFI side of ntboot. It gathers what the kernel needs from firmware
 * (options, memory map, ACPI root pointer, firmware identity, Secure Boot
 * state), leaves boot services, and jumps to kernel_main on the kernel's own
 * stack. Messages before ExitBootServices go to the firmware console, which
 * OVMF mirrors on COM1; after it, only kernel/ prints.
 */
#include <efi.h>

#include "boot/efi_gop.h"
#include "boot/efi_main.h"
#include "boot/efi_memmap.h"
#include "boot/efi_options.h"
#include "boot/efi_runtime.h"
#include "kernel/boot_info.h"
#include "kernel/io.h"
#include "kernel/main.h"
#include "kernel/stack_switch.h"
#include "lib/printf.h"
#include "version.h"
#include "lib/string.h"

#define KERNEL_STACK_SIZE (256 * 1024)
/* Spare room for descriptors firmware may add between map and exit. */
#define MEMMAP_SLACK_DESCS 32
#define EBS_MAX_ATTEMPTS 8

static struct boot_info boot_info;

void efi_con_print(EFI_SYSTEM_TABLE *st, const char *msg)
{
	CHAR16 buf[160];
	size_t n = 0;

	if (!st->ConOut)
		return;
	for (const char *p = msg; *p; p++) {
		if (*p == '\n')
			buf[n++] = L'\r';
		buf[n++] = (CHAR16)(u8)*p;
		if (n >= ARRAY_SIZE(buf) - 3 || !p[1]) {
			buf[n] = 0;
			st->ConOut->OutputString(st->ConOut, buf);
			n = 0;
		}
	}
}

static void ucs2_to_ascii(char *dst, size_t dstlen, const CHAR16 *src,
			  size_t srcmax)
{
	size_t n = 0;

	for (size_t i = 0; i < srcmax && src[i] && n + 1 < dstlen; i++)
		dst[n++] = src[i] < 0x80 ? (char)src[i] : '?';
	dst[n] = '\0';
}

static void find_acpi_rsdp(EFI_SYSTEM_TABLE *st, struct boot_info *bi)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;

	/* Prefer the ACPI 2.0+ pointer: it has the XSDT. */
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];

		if (!memcmp(&t->VendorGuid, &acpi20, sizeof(EFI_GUID))) {
			bi->rsdp = (u64)(uptr)t->VendorTable;
			bi->rsdp_revision = 2;
			return;
		}
	}
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];

		if (!memcmp(&t->VendorGuid, &acpi10, sizeof(EFI_GUID))) {
			bi->rsdp = (u64)(uptr)t->VendorTable;
			bi->rsdp_revision = 0;
			return;
		}
	}
}

static void read_secure_boot(EFI_SYSTEM_TABLE *st, struct boot_info *bi)
{
	EFI_GUID global = EFI_GLOBAL_VARIABLE;
	UINT8 sb = 0, setup = 0;
	UINTN size = sizeof(sb);
	UINT32 attr;

	bi->secure_boot = SECURE_BOOT_UNKNOWN;
	if (st->RuntimeServices->GetVariable(L"SecureBoot", &global, &attr,
					     &size, &sb) != EFI_SUCCESS)
		return;
	bi->secure_boot = sb ? SECURE_BOOT_ON : SECURE_BOOT_OFF;
	size = sizeof(setup);
	if (st->RuntimeServices->GetVariable(L"SetupMode", &global, &attr,
					     &size, &setup) == EFI_SUCCESS &&
	    setup && !sb)
		bi->secure_boot = SECURE_BOOT_SETUP;
}

static EFI_STATUS exit_boot_services(EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
				     struct boot_info *bi)
{
	EFI_BOOT_SERVICES *bs = st->BootServices;
	UINTN map_size = 0, map_key, desc_size, buf_size, nr;
	UINT32 desc_version;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	struct phys_region *regions;
	EFI_STATUS status;

	status = bs->GetMemoryMap(&map_size, NULL, &map_key, &desc_size,
				  &desc_version);
	if (status != EFI_BUFFER_TOO_SMALL)
		return status;
	if (!efi_memmap_desc_size_ok(desc_size)) {
		char msg[120];

		ntb_snprintf(msg, sizeof(msg),
			     "ntboot: the firmware's memory descriptors are "
			     "%llu bytes, less than one descriptor\n",
			     (unsigned long long)desc_size);
		efi_con_print(st, msg);
		return EFI_UNSUPPORTED;
	}
	/*
	 * Allocating the buffers adds descriptors, hence the slack; after a
	 * failed ExitBootServices only GetMemoryMap may be called again, so
	 * everything is allocated now.
	 */
	buf_size = map_size + MEMMAP_SLACK_DESCS * desc_size;
	status = bs->AllocatePool(EfiLoaderData, buf_size, (void **)&map);
	if (status != EFI_SUCCESS)
		return status;
	nr = efi_memmap_capacity(buf_size, desc_size);
	status = bs->AllocatePool(EfiLoaderData, nr * sizeof(*regions),
				  (void **)&regions);
	if (status != EFI_SUCCESS)
		return status;

	for (u32 attempt = 1; attempt <= EBS_MAX_ATTEMPTS; attempt++) {
		map_size = buf_size;
		status = bs->GetMemoryMap(&map_size, map, &map_key, &desc_size,
					  &desc_version);
		if (status != EFI_SUCCESS)
			return status;
		bi->ebs_attempts = attempt;
		status = bs->ExitBootServices(image, map_key);
		if (status == EFI_SUCCESS)
			break;
		/* EFI_INVALID_PARAMETER: the map changed; take it again. */
	}
	if (status != EFI_SUCCESS)
		return status;

	/* From here on: no boot services. Plain data conversion only. */
	bi->map.regions = regions;
	bi->map.capacity = nr;
	/* Each GetMemoryMap() answered the size anew: checked again. */
	bi->efi_map_entries =
		efi_memmap_desc_size_ok(desc_size) ? map_size / desc_size : 0;
	bi->map_bad = efi_memmap_convert(map, map_size, desc_size, &bi->map);
	return EFI_SUCCESS;
}

/* Polled COM1 output with no set-up and bounded waits, for last words. */
static void com1_raw_print(const char *s)
{
	for (; *s; s++) {
		for (int i = 0; i < 100000 && !(inb(0x3f8 + 5) & 0x20); i++)
			cpu_relax();
		outb(0x3f8, (u8)*s);
	}
}

static void kernel_entry(void *arg)
{
	kernel_main(arg);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct boot_info *bi = &boot_info;
	EFI_PHYSICAL_ADDRESS stack = 0;
	EFI_STATUS status;
	char msg[320];

	efi_con_print(st, "ntboot " NTB_VERSION ": starting\n");
	efi_runtime_init(st->RuntimeServices);
	bi->firmware_reset = efi_reset;
	ucs2_to_ascii(bi->fw_vendor, sizeof(bi->fw_vendor), st->FirmwareVendor,
		      64);
	bi->fw_revision = st->FirmwareRevision;
	bi->uefi_revision = st->Hdr.Revision;
	find_acpi_rsdp(st, bi);
	efi_gop_query(st, &bi->fb);
	read_secure_boot(st, bi);

	efi_load_options(image, st, bi);
	if (bi->options_bad) {
		ntb_snprintf(msg, sizeof(msg), "ntboot: %s\n", bi->options_error);
		efi_con_print(st, msg);
	}

	status = st->BootServices->AllocatePages(AllocateAnyPages,
						 EfiLoaderData,
						 KERNEL_STACK_SIZE / 4096,
						 &stack);
	if (status != EFI_SUCCESS) {
		efi_con_print(st, "ntboot: cannot allocate the kernel stack\n");
		return status;
	}
	bi->stack_base = stack;
	bi->stack_size = KERNEL_STACK_SIZE;

	efi_con_print(st, "ntboot: leaving boot services; the report follows "
			  "on the serial console\n");
	status = exit_boot_services(image, st, bi);
	if (status != EFI_SUCCESS) {
		ntb_snprintf(msg, sizeof(msg),
			     "ntboot: ExitBootServices failed after %u tries "
			     "(status 0x%llx)\n",
			     bi->ebs_attempts, (unsigned long long)status);
		if (!bi->ebs_attempts) {
			efi_con_print(st, msg);
			return status;
		}
		/*
		 * A failed ExitBootServices may have shut part of the
		 * firmware down: only GetMemoryMap may still be called. Say
		 * it on COM1 directly and stop.
		 */
		com1_raw_print(msg);
		for (;;)
			asm volatile("cli; hlt");
	}
	call_on_stack((void *)(uptr)(stack + KERNEL_STACK_SIZE), kernel_entry,
		      bi);
	/* kernel_main never returns. */
	for (;;)
		asm volatile("cli; hlt");
}
