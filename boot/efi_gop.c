// SPDX-License-Identifier: GPL-2.0-only
#include <efi.h>

#include "boot/efi_gop.h"
#include "lib/string.h"

static int mask_shift(UINT32 mask)
{
	/* Only whole, byte-aligned 8-bit fields are drawn. */
	for (int s = 0; s <= 24; s += 8)
		if (mask == (0xffu << s))
			return s;
	return -1;
}

void efi_gop_query(EFI_SYSTEM_TABLE *st, struct boot_framebuffer *fb)
{
	EFI_GUID guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	int r, g, b;

	memset(fb, 0, sizeof(*fb));
	if (st->BootServices->LocateProtocol(&guid, NULL, (void **)&gop) !=
		    EFI_SUCCESS ||
	    !gop || !gop->Mode || !gop->Mode->Info)
		return;
	info = gop->Mode->Info;
	switch (info->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		r = 0, g = 8, b = 16;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		r = 16, g = 8, b = 0;
		break;
	case PixelBitMask:
		r = mask_shift(info->PixelInformation.RedMask);
		g = mask_shift(info->PixelInformation.GreenMask);
		b = mask_shift(info->PixelInformation.BlueMask);
		if (r < 0 || g < 0 || b < 0)
			return;
		break;
	default:
		return; /* PixelBltOnly: no framebuffer to draw into */
	}
	if (!gop->Mode->FrameBufferBase || !info->HorizontalResolution ||
	    !info->VerticalResolution ||
	    info->PixelsPerScanLine < info->HorizontalResolution)
		return;
	fb->base = gop->Mode->FrameBufferBase;
	fb->size = gop->Mode->FrameBufferSize;
	fb->width = info->HorizontalResolution;
	fb->height = info->VerticalResolution;
	fb->stride = info->PixelsPerScanLine;
	fb->red_shift = (u8)r;
	fb->green_shift = (u8)g;
	fb->blue_shift = (u8)b;
}
