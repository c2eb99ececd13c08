// SPDX-License-Identifier: GPL-2.0-only
#include <efi.h>

#include "boot/efi_main.h"
#include "boot/efi_options.h"
#include "lib/cfg_text.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CFG_NAME L"ntboot.cfg"
/*
 * A cfg file is a few lines; one this large is a mistake (a disk image
 * copied over it). It is refused by name, never read in part.
 */
#define CFG_MAX_SIZE (1024 * 1024)
/* Longest image path (characters) the cfg path is built from. */
#define PATH_MAX_CHARS 512

static void set_error(struct boot_info *bi, const char *fmt, ...)
	__printf(2, 3);
static void set_error(struct boot_info *bi, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(bi->options_error, sizeof(bi->options_error), fmt, ap);
	va_end(ap);
	bi->options_bad = true;
}

static const char *efi_status_name(EFI_STATUS s)
{
	switch (s) {
	case EFI_NOT_FOUND: return "not found";
	case EFI_ACCESS_DENIED: return "access denied";
	case EFI_DEVICE_ERROR: return "device error";
	case EFI_VOLUME_CORRUPTED: return "volume corrupted";
	case EFI_NO_MEDIA: return "no media";
	case EFI_MEDIA_CHANGED: return "media changed";
	case EFI_OUT_OF_RESOURCES: return "out of resources";
	case EFI_UNSUPPORTED: return "unsupported";
	case EFI_BUFFER_TOO_SMALL: return "buffer too small";
	case EFI_INVALID_PARAMETER: return "invalid parameter";
	default: return "error";
	}
}

/*
 * The image's own path, from the file-path nodes of its device path
 * (several nodes concatenate into one path). Returns false when it does
 * not fit in @outlen characters.
 */
static bool image_path(EFI_LOADED_IMAGE *li, CHAR16 *out, size_t outlen)
{
	EFI_DEVICE_PATH *dp = li->FilePath;
	size_t n = 0;

	out[0] = 0;
	while (dp && !IsDevicePathEndType(dp)) {
		if (DevicePathType(dp) == MEDIA_DEVICE_PATH &&
		    DevicePathSubType(dp) == MEDIA_FILEPATH_DP) {
			FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)dp;
			size_t chars = (DevicePathNodeLength(dp) -
					SIZE_OF_FILEPATH_DEVICE_PATH) /
				       sizeof(CHAR16);

			for (size_t i = 0; i < chars && fp->PathName[i]; i++) {
				if (n && out[n - 1] == L'\\' &&
				    fp->PathName[i] == L'\\')
					continue;
				if (n + 1 >= outlen)
					return false;
				out[n++] = fp->PathName[i];
			}
		}
		dp = NextDevicePathNode(dp);
	}
	out[n] = 0;
	return true;
}

/* Index just past the last separator of @path: where the file name starts. */
static size_t file_name_start(const CHAR16 *path)
{
	size_t last_sep = 0;

	for (size_t i = 0; path[i]; i++)
		if (path[i] == L'\\' || path[i] == L'/')
			last_sep = i + 1;
	return last_sep;
}

static void ucs2_to_report(char *out, size_t outlen, const CHAR16 *w)
{
	size_t k = 0;

	for (size_t i = 0; w[i] && k + 1 < outlen; i++)
		out[k++] = w[i] < 0x80 ? (char)w[i] : '?';
	out[k] = '\0';
}

/*
 * Open @path, check that it is a file that fits, and read all of it into
 * pool memory. Returns 1 when there is no such file, 0 with *@raw and
 * *@size set, -1 after set_error().
 */
static int read_whole_file(EFI_SYSTEM_TABLE *st, EFI_FILE_HANDLE root,
			   CHAR16 *path, struct boot_info *bi, u8 **raw,
			   UINTN *size)
{
	EFI_GUID info_guid = EFI_FILE_INFO_ID;
	EFI_FILE_INFO *info = NULL;
	EFI_FILE_HANDLE file;
	UINTN info_size = 0, done = 0;
	EFI_STATUS status;
	u8 *buf = NULL;
	int ret = -1;

	status = root->Open(root, &file, path, EFI_FILE_MODE_READ, 0);
	if (status == EFI_NOT_FOUND)
		return 1;
	if (status != EFI_SUCCESS) {
		set_error(bi, "%s: cannot open: %s", bi->cfg_path,
			  efi_status_name(status));
		return -1;
	}
	status = file->GetInfo(file, &info_guid, &info_size, NULL);
	if (status == EFI_BUFFER_TOO_SMALL)
		status = st->BootServices->AllocatePool(EfiLoaderData,
							info_size,
							(void **)&info);
	if (status == EFI_SUCCESS)
		status = file->GetInfo(file, &info_guid, &info_size, info);
	if (status != EFI_SUCCESS) {
		set_error(bi, "%s: cannot read its size: %s", bi->cfg_path,
			  efi_status_name(status));
		goto out;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		set_error(bi, "%s is a directory, not a file", bi->cfg_path);
		goto out;
	}
	if (info->FileSize > CFG_MAX_SIZE) {
		set_error(bi, "%s is %llu bytes; a cfg file of more than %u "
			  "bytes is refused, not read in part", bi->cfg_path,
			  (unsigned long long)info->FileSize, CFG_MAX_SIZE);
		goto out;
	}
	*size = info->FileSize;
	status = st->BootServices->AllocatePool(EfiLoaderData, *size + 1,
						(void **)&buf);
	if (status != EFI_SUCCESS) {
		set_error(bi, "%s: no memory for %llu bytes", bi->cfg_path,
			  (unsigned long long)*size);
		goto out;
	}
	/* A driver may return less than asked: read until all is in. */
	while (done < *size) {
		UINTN chunk = *size - done;

		status = file->Read(file, &chunk, buf + done);
		if (status != EFI_SUCCESS || !chunk) {
			set_error(bi, "%s: read %llu of %llu bytes: %s",
				  bi->cfg_path, (unsigned long long)done,
				  (unsigned long long)*size,
				  status != EFI_SUCCESS ?
					  efi_status_name(status) :
					  "end of file");
			goto out;
		}
		done += chunk;
	}
	*raw = buf;
	buf = NULL;
	ret = 0;
out:
	if (buf)
		st->BootServices->FreePool(buf);
	if (info)
		st->BootServices->FreePool(info);
	file->Close(file);
	return ret;
}

/*
 * ntboot.cfg beside the image: absent is fine (defaults and load options
 * stand); anything else that stops it from being read whole is an error.
 */
static void read_cfg(EFI_SYSTEM_TABLE *st, EFI_LOADED_IMAGE *li,
		     const CHAR16 *image, struct boot_info *bi)
{
	EFI_GUID sfs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	static CHAR16 path[PATH_MAX_CHARS + ARRAY_SIZE(CFG_NAME)];
	EFI_FILE_HANDLE root;
	size_t dirlen = file_name_start(image);
	struct opt_error err;
	EFI_STATUS status;
	UINTN size = 0, text_len;
	char *text = NULL;
	size_t outn;
	u8 *raw = NULL;
	int r;

	if (dirlen) {
		memcpy(path, image, dirlen * sizeof(CHAR16));
	} else {
		path[0] = L'\\';
		dirlen = 1;
	}
	memcpy(path + dirlen, CFG_NAME, sizeof(CFG_NAME));
	ucs2_to_report(bi->cfg_path, sizeof(bi->cfg_path), path);

	status = st->BootServices->HandleProtocol(li->DeviceHandle, &sfs_guid,
						  (void **)&sfs);
	if (status != EFI_SUCCESS)
		return; /* not loaded from a file system: no cfg to read */
	status = sfs->OpenVolume(sfs, &root);
	if (status != EFI_SUCCESS) {
		set_error(bi, "cannot open the volume holding %s: %s",
			  bi->cfg_path, efi_status_name(status));
		return;
	}
	r = read_whole_file(st, root, path, bi, &raw, &size);
	root->Close(root);
	if (r)
		return;
	bi->cfg_found = true;

	/* UTF-16 to UTF-8 grows by half at most. */
	text_len = size * 3 / 2 + 1;
	if (st->BootServices->AllocatePool(EfiLoaderData, text_len,
					   (void **)&text) != EFI_SUCCESS) {
		set_error(bi, "%s: no memory to decode it", bi->cfg_path);
	} else if (cfg_text_decode(raw, size, text, text_len, &outn,
				   "ntboot.cfg", &err) ||
		   options_parse(text, outn, "ntboot.cfg",
				 &err)) {
		set_error(bi, "%s", err.msg);
	}
	if (text)
		st->BootServices->FreePool(text);
	st->BootServices->FreePool(raw);
}

void efi_load_options(EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
		      struct boot_info *bi)
{
	EFI_GUID li_guid = LOADED_IMAGE_PROTOCOL;
	static CHAR16 path[PATH_MAX_CHARS];
	enum load_options_kind kind;
	EFI_LOADED_IMAGE *li = NULL;
	char file[64];
	struct opt_error err;
	const char *words;
	EFI_STATUS status;

	options_set_defaults();
	status = st->BootServices->HandleProtocol(image, &li_guid,
						  (void **)&li);
	if (status != EFI_SUCCESS) {
		set_error(bi, "no loaded-image protocol (%s): cannot read the "
			  "load options or find ntboot.cfg",
			  efi_status_name(status));
		return;
	}
	bi->image_base = (u64)(uptr)li->ImageBase;
	bi->image_size = li->ImageSize;
	if (!image_path(li, path, ARRAY_SIZE(path))) {
		set_error(bi, "the image's path is longer than %u characters: "
			  "cannot find ntboot.cfg beside it", PATH_MAX_CHARS);
		return;
	}
	ucs2_to_report(file, sizeof(file), path + file_name_start(path));

	if (load_options_decode(li->LoadOptions, li->LoadOptionsSize,
				bi->load_options, sizeof(bi->load_options),
				&kind, &err)) {
		set_error(bi, "%s", err.msg);
		return;
	}
	if (kind == LOAD_OPTIONS_BINARY) {
		/* Reported in the header; a boot manager's, not ours. */
		bi->load_options_binary = li->LoadOptionsSize;
	} else {
		words = load_options_skip_image(bi->load_options, file);
		if (options_parse(words, strlen(words),
				  "load options", &err)) {
			set_error(bi, "%s", err.msg);
			return;
		}
	}
	read_cfg(st, li, path, bi);
}
