/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixed-width types shared by the image and the host programs. Only the
 * compiler's freestanding headers are used, so this works in both worlds.
 */
#ifndef NTBOOT_TYPES_H
#define NTBOOT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64; /* as the kernel: %llx prints it */
typedef unsigned __int128 u128;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef uintptr_t uptr;
typedef u64 phys_addr_t;

#endif
