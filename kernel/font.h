/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_FONT_H
#define NTBOOT_KERNEL_FONT_H

#include "include/types.h"

#define FONT_WIDTH 5
#define FONT_HEIGHT 7
#define FONT_FIRST 0x20
#define FONT_LAST 0x7e

/* Is pixel (@x, @y) of glyph @c inked? Characters outside ASCII draw '?'. */
bool font_pixel(char c, unsigned int x, unsigned int y);

#endif
