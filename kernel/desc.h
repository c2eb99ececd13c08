/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Our own GDT and IDT, installed right after ExitBootServices so that no
 * firmware structure (which lives in boot-services memory we are about to
 * reuse) stays in use.
 */
#ifndef NTBOOT_KERNEL_DESC_H
#define NTBOOT_KERNEL_DESC_H

#include "include/types.h"

#define __KERNEL_CS 0x08
#define __KERNEL_DS 0x10

/* Fill the IDT with the exception stubs (once). */
void idt_init(void);

/* Loaded per CPU (the tables themselves are shared). */
void load_gdt_idt(void);

#endif
