// SPDX-License-Identifier: GPL-2.0-only
#include <efi.h>

#include "boot/efi_main.h"
#include "boot/efi_options.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CFG_NAME L"ntboot.cfg"
#define CFG_MAX_SIZE (64 * 1024)

/*
 * Load options come as UCS-2 text when set by a shell or a boot entry made
 * with efibootmgr --unicode; a binary blob (some boot managers) is ignored.
 */
static size_t load_options_ascii(EFI_LOADED_IMAGE *li, char *out, size_t len)
{
	const CHAR16 *w = li->LoadOptions;
	size_t nchars = li->LoadOptionsSize / sizeof(CHAR16), n = 0;

	if (!w || !nchars)
		return 0;
	for (size_t i = 0; i < nchars && w[i]; i++) {
		if (w[i] >= 0x80 || (w[i] < 0x20 && w[i] != '\t')) {
			out[0] = '\0'; /* none of a binary blob is parsed */
			return 0;
		}
		if (n + 1 < len)
			out[n++] = (char)w[i];
	}
	out[n] = '\0';
	return n;
}

/* A shell passes the image path as the first word: skip it. */
static const char *skip_image_name(const char *s)
{
	const char *p = s, *word_end;

	while (*p == ' ')
		p++;
	word_end = p;
	while (*word_end && *word_end != ' ')
		word_end++;
	for (const char *q = p; q < word_end; q++)
		if (*q == '=')
			return p; /* first word is an option */
	return word_end;
}

/* Directory of the image file, from the last file-path node. */
static void image_dir(EFI_LOADED_IMAGE *li, CHAR16 *out, size_t outlen)
{
	EFI_DEVICE_PATH *dp = li->FilePath;
	size_t n = 0, last_sep = 0;

	out[0] = 0;
	while (dp && !IsDevicePathEndType(dp)) {
		if (DevicePathType(dp) == MEDIA_DEVICE_PATH &&
		    DevicePathSubType(dp) == MEDIA_FILEPATH_DP) {
			FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)dp;
			size_t chars = (DevicePathNodeLength(dp) -
					SIZE_OF_FILEPATH_DEVICE_PATH) /
				       sizeof(CHAR16);

			/* Several nodes concatenate into one path. */
			for (size_t i = 0; i < chars && fp->PathName[i]; i++) {
				if (n + 2 >= outlen)
					break;
				if (n && out[n - 1] == L'\\' &&
				    fp->PathName[i] == L'\\')
					continue;
				out[n++] = fp->PathName[i];
			}
		}
		dp = NextDevicePathNode(dp);
	}
	for (size_t i = 0; i < n; i++)
		if (out[i] == L'\\' || out[i] == L'/')
			last_sep = i + 1;
	out[last_sep] = 0;
}

static EFI_STATUS read_cfg(EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
			   EFI_LOADED_IMAGE *li, struct boot_info *bi,
			   char **text, UINTN *size)
{
	EFI_GUID sfs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_HANDLE root, file;
	CHAR16 path[128];
	size_t dirlen, k = 0;
	EFI_STATUS status;
	char *buf;

	status = st->BootServices->HandleProtocol(li->DeviceHandle, &sfs_guid,
						  (void **)&sfs);
	if (status != EFI_SUCCESS)
		return status;
	status = sfs->OpenVolume(sfs, &root);
	if (status != EFI_SUCCESS)
		return status;

	image_dir(li, path, ARRAY_SIZE(path) - ARRAY_SIZE(CFG_NAME));
	if (!path[0]) {
		path[0] = L'\\';
		path[1] = 0;
	}
	for (dirlen = 0; path[dirlen]; dirlen++)
		;
	memcpy(path + dirlen, CFG_NAME, sizeof(CFG_NAME));
	for (size_t i = 0; path[i] && k + 1 < sizeof(bi->cfg_path); i++)
		bi->cfg_path[k++] = path[i] < 0x80 ? (char)path[i] : '?';
	bi->cfg_path[k] = '\0';

	status = root->Open(root, &file, path, EFI_FILE_MODE_READ, 0);
	root->Close(root);
	if (status != EFI_SUCCESS)
		return status;
	status = st->BootServices->AllocatePool(EfiLoaderData, CFG_MAX_SIZE,
						(void **)&buf);
	if (status == EFI_SUCCESS) {
		*size = CFG_MAX_SIZE - 1;
		status = file->Read(file, size, buf);
		if (status == EFI_SUCCESS) {
			buf[*size] = '\0';
			*text = buf;
		}
	}
	file->Close(file);
	return status;
}

void efi_load_options(EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
		      struct boot_info *bi)
{
	EFI_GUID li_guid = LOADED_IMAGE_PROTOCOL;
	EFI_LOADED_IMAGE *li = NULL;
	struct opt_error err;
	char *cfg = NULL;
	UINTN cfg_size = 0;
	const char *words;

	options_set_defaults(&bi->options);
	if (st->BootServices->HandleProtocol(image, &li_guid, (void **)&li) !=
	    EFI_SUCCESS)
		return;
	bi->image_base = (u64)(uptr)li->ImageBase;
	bi->image_size = li->ImageSize;

	load_options_ascii(li, bi->load_options, sizeof(bi->load_options));
	words = skip_image_name(bi->load_options);
	if (options_parse(&bi->options, words, strlen(words), "load options",
			  &err)) {
		bi->options_bad = true;
		memcpy(bi->options_error, err.msg, sizeof(bi->options_error));
		return;
	}

	if (read_cfg(image, st, li, bi, &cfg, &cfg_size) != EFI_SUCCESS)
		return; /* no ntboot.cfg: defaults and load options stand */
	bi->cfg_found = true;
	if (options_parse(&bi->options, cfg, cfg_size, "ntboot.cfg", &err)) {
		bi->options_bad = true;
		memcpy(bi->options_error, err.msg, sizeof(bi->options_error));
	}
	st->BootServices->FreePool(cfg);
}
