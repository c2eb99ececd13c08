/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small freestanding printf: integers (all widths and bases), strings,
 * characters and pointers, with flags, width and precision. No floating
 * point: the image is built without SSE in general code, so every figure
 * is printed from fixed-point integers.
 *
 * Conversions follow C99 (a '#' prefix counts in the width, zero padding
 * goes after the sign and the prefix, '-' wins over '0', a precision turns
 * '0' off, '+' and ' ' apply to signed conversions only), with one
 * difference taken from the kernel's vsprintf: "%#x" of zero is "0x0",
 * so that values in reports always show their base.
 */
#ifndef NTBOOT_LIB_PRINTF_H
#define NTBOOT_LIB_PRINTF_H

#include "include/compiler.h"
#include "include/types.h"

int ntb_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ntb_snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * @fmt formatted through @buf of @size bytes: each time it fills, its bytes
 * go to @flush, and what is left at the end, so the whole output reaches
 * @flush however long it is. Returns its length.
 */
int ntb_vprintf_flushed(void (*flush)(const char *s, size_t len), char *buf,
			size_t size, const char *fmt, va_list ap);

/*
 * Format and write to the platform console, whole however long (in pieces
 * of 511 bytes). Returns the length printed.
 */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);

/*
 * Print a fixed-point value num/den with @decimals digits after the point,
 * rounded to nearest. Used for ns/page, GB/s and ratios.
 */
int ntb_fmt_fixed(char *buf, size_t size, u64 num, u64 den,
		  unsigned int decimals);

#endif
