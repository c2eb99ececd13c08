/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_FPU_H
#define NTBOOT_KERNEL_FPU_H

#include "include/types.h"

/*
 * Enable SSE (firmware did) and, where the CPU has XSAVE, the AVX and
 * AVX-512 register state in XCR0: OVMF leaves AVX off, and using a ymm/zmm
 * register without it is #UD. Returns the XCR0 value set (0 if no XSAVE).
 */
u64 fpu_init(void);

#endif
