/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Non-local jumps for aborting a test case. The image has its own
 * setjmp/longjmp (lib/jump.asm, built into the image only); hosted builds
 * use the C library's, which the sanitizers know about.
 */
#ifndef NTBOOT_LIB_JUMP_H
#define NTBOOT_LIB_JUMP_H

#ifdef NTB_HOSTED
#include <setjmp.h>
typedef jmp_buf ntb_jmp_buf;
#define ntb_setjmp(b) setjmp(b)
#define ntb_longjmp(b, v) longjmp(b, v)
#else
#include "include/compiler.h"
#include "include/types.h"
/* rbx, rbp, r12-r15, rsp, rip */
typedef u64 ntb_jmp_buf[8];
int ntb_setjmp(ntb_jmp_buf buf) __attribute__((returns_twice));
void ntb_longjmp(ntb_jmp_buf buf, int val) __noreturn;
#endif

#endif
