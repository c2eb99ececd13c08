/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Our own GDT and IDT, installed right after ExitBootServices so that no
 * firmware structure (which lives in boot-services memory we are about to
 * reuse) stays in use.
 */
#ifndef NTBOOT_KERNEL_DESC_H
#define NTBOOT_KERNEL_DESC_H

#include "include/compiler.h"
#include "include/types.h"

#define __KERNEL_CS 0x08
#define __KERNEL_DS 0x10

/* Fill the IDT with the exception stubs (once). */
void idt_init(void);

#define GDT_TSS 0x18 /* selector of the per-CPU TSS (two GDT slots) */
#define DF_STACK_SIZE (16 * 1024)

/*
 * Each CPU's own GDT and TSS: the TSS gives the double-fault handler a
 * stack of its own (IST1), so a stack overflow that cannot even push the
 * page fault's frame is still reported instead of resetting the machine.
 */
struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct cpu_tables {
	u64 gdt[5] __aligned(16);
	struct tss64 tss __aligned(16);
	u8 df_stack[DF_STACK_SIZE] __aligned(16);
};

/* Load @t (GDT, TSS, IDT) on the calling CPU. */
void load_cpu_tables(struct cpu_tables *t);

/* The boot CPU's tables (static: needed before any allocator). */
extern struct cpu_tables boot_cpu_tables;

#endif
