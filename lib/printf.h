/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small freestanding printf: integers (all widths and bases), strings,
 * characters and pointers, with flags, width and precision. No floating
 * point: the image is built without SSE in general code, so every figure
 * is printed from fixed-point integers.
 */
#ifndef NTBOOT_LIB_PRINTF_H
#define NTBOOT_LIB_PRINTF_H

#include "include/compiler.h"
#include "include/types.h"

int ntb_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ntb_snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Format and write to the platform console. Returns the length printed. */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);

/*
 * Print a fixed-point value num/den with @decimals digits after the point,
 * rounded to nearest. Used for ns/page, GB/s and ratios.
 */
int ntb_fmt_fixed(char *buf, size_t size, u64 num, u64 den, unsigned int decimals);

#endif
