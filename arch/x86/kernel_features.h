/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPU features Debian 6.12's kernel would set on this CPU, for the
 * alternatives of its objects that the image patches (the kernel blob):
 * derived from CPUID and IA32_MISC_ENABLE by the kernel's own rules
 * (docs/kernel-memmap.md, "In the image", says each rule and where it is
 * in the kernel). The hosted runner reads the running kernel's answer in
 * /proc/cpuinfo instead; the host tests hold this derivation to it.
 */
#ifndef NTBOOT_ARCH_X86_KERNEL_FEATURES_H
#define NTBOOT_ARCH_X86_KERNEL_FEATURES_H

#include "include/types.h"

/* What the CPU says, read by the caller (ring 0 for the MSR and CR4). */
struct kernel_cpu_inputs {
	char vendor[13];
	u32 family, model; /* with the extended family and model added */
	u32 leaf1_eax;	   /* K8's REP_GOOD goes by its signature */
	u32 max_leaf;
	u32 leaf7_eax, leaf7_ebx, leaf7_ecx, leaf7_edx; /* CPUID 7.0 */
	u32 leaf7_1_eax;				/* CPUID 7, subleaf 1 */
	/*
	 * IA32_MISC_ENABLE (Intel), where it could be read; unread, it is
	 * what 6.12's rdmsrl() leaves after its fault: 0.
	 */
	bool misc_enable_read;
	u64 misc_enable;
};

/*
 * Does 6.12 set X86_FEATURE_ @feature (word * 32 + bit) on this CPU: 1 or
 * 0 with how it was derived in @how, or -1 with why not in @how (a
 * feature these rules do not cover, a vendor whose rules they do not
 * follow).
 */
int kernel_cpu_feature(const struct kernel_cpu_inputs *in, unsigned int feature,
		       char *how, size_t len);

#endif
