/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_TRAPS_H
#define NTBOOT_KERNEL_TRAPS_H

#include "include/types.h"
#include "include/compiler.h"

enum x86_trap {
	X86_TRAP_DE = 0,
	X86_TRAP_DB = 1,
	X86_TRAP_NMI = 2,
	X86_TRAP_BP = 3,
	X86_TRAP_OF = 4,
	X86_TRAP_BR = 5,
	X86_TRAP_UD = 6,
	X86_TRAP_NM = 7,
	X86_TRAP_DF = 8,
	X86_TRAP_TS = 10,
	X86_TRAP_NP = 11,
	X86_TRAP_SS = 12,
	X86_TRAP_GP = 13,
	X86_TRAP_PF = 14,
	X86_TRAP_MF = 16,
	X86_TRAP_AC = 17,
	X86_TRAP_MC = 18,
	X86_TRAP_XF = 19,
};

/* The frame built by kernel/entry.asm. */
struct pt_regs {
	u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	u64 ax, cx, dx, si, di;
	u64 vector;
	u64 error_code;
	u64 ip, cs, flags, sp, ss;
};

const char *trap_name(int vector);

/*
 * Called with a fatal fault outside any test case: the kernel prints
 * "Bail out!" and the summary, then finishes. Set by kernel_main.
 */
extern void (*trap_fatal_hook)(const char *reason);

/*
 * Asked first about an exception (@vector, named @name, at @ip; @cr2 for
 * a page fault) on the boot CPU, the watchdog's NMI on a hang included:
 * code that runs what it does not trust (the kernel blob's calls,
 * kernel/kernel_blob_run.c) ends its call there and does not return; it
 * returns where the exception is not its own. NULL: none.
 */
extern void (*trap_fault_hook)(int vector, const char *name, u64 ip, u64 cr2);

/*
 * Asked about an NMI on the boot CPU (at @ip) before anything else: true
 * where the NMI is a hang's, said on the console by the hook (the
 * watchdog's, kernel/watchdog.c); the handler then shows the registers
 * and ends the case, or the run, as hung. NULL: none.
 */
extern bool (*trap_nmi_hook)(u64 ip);

void do_exception(struct pt_regs *regs);

/* IRET to the next instruction: ends the NMI-blocked state (entry.asm). */
void nmi_unblock(void);

#endif
