/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_MAIN_H
#define NTBOOT_KERNEL_MAIN_H

#include "include/compiler.h"
#include "kernel/boot_info.h"

/* The kernel proper, entered on its own stack after ExitBootServices. */
void kernel_main(struct boot_info *bi) __noreturn;

#endif
