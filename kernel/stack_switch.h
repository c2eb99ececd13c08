/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_STACK_SWITCH_H
#define NTBOOT_KERNEL_STACK_SWITCH_H

#include "include/compiler.h"

/* Switch to @stack_top and call fn(arg); never returns (kernel/entry.asm). */
void call_on_stack(void *stack_top, void (*fn)(void *), void *arg) __noreturn;

#endif
