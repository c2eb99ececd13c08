/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_MSR_H
#define NTBOOT_KERNEL_MSR_H

#include "include/types.h"

#define MSR_IA32_UCODE_REV 0x0000008b
#define MSR_IA32_MPERF 0x000000e7
#define MSR_IA32_APERF 0x000000e8
#define MSR_IA32_MISC_ENABLE 0x000001a0
#define MSR_GS_BASE 0xc0000101

/*
 * Read an MSR that may not exist (hypervisors, older CPUs): a #GP is
 * caught and reported as -1 instead of ending the run.
 */
int rdmsr_safe(u32 msr, u64 *val);
int wrmsr_safe(u32 msr, u64 val);

/* Microcode revision, or -1 when the MSR is not readable. */
int read_microcode_rev(u32 *rev);

#endif
