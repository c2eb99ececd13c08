/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What patch.c and jump_labels.c take from C's library, in the two
 * programs that build them: libc's in the hosted runner's program
 * (tools/kernel-memmap/build), the image's own in the image (built
 * -ffreestanding: __STDC_HOSTED__ is 0 there).
 */
#ifndef NTBOOT_KERNEL_MEMMAP_FREESTANDING_H
#define NTBOOT_KERNEL_MEMMAP_FREESTANDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __STDC_HOSTED__
#include <stdio.h>
#include <string.h>
#else
#include "lib/printf.h"
#include "lib/string.h"
#define snprintf ntb_snprintf
#endif

#endif
