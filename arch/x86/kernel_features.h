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

struct cpuinfo_x86;

/*
 * 6.12's X86_FEATURE_ numbers (arch/x86/include/asm/cpufeatures.h: word *
 * 32 + bit) of the features its memmap objects' alternatives test; the
 * hosted runner's patching (tools/kernel-memmap/patch.c) names them too.
 */
#define KFEAT_REP_GOOD (3 * 32 + 16)
#define KFEAT_ALWAYS (3 * 32 + 21)
#define KFEAT_ERMS (9 * 32 + 9)
#define KFEAT_SMAP (9 * 32 + 20)
#define KFEAT_CLFLUSHOPT (9 * 32 + 23)
#define KFEAT_CLWB (9 * 32 + 24)
#define KFEAT_FSRS (12 * 32 + 11)
#define KFEAT_LA57 (16 * 32 + 16)
#define KFEAT_FSRM (18 * 32 + 4)

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
 * The CPUID part of @in from @c and the CPUID leaves 1 and 7 (user space
 * and ring 0 alike); IA32_MISC_ENABLE is left unread, for the caller.
 */
void kernel_cpu_inputs_from(const struct cpuinfo_x86 *c,
			    struct kernel_cpu_inputs *in);

/*
 * Does 6.12 set X86_FEATURE_ @feature (word * 32 + bit) on this CPU: 1 or
 * 0 with how it was derived in @how, or -1 with why not in @how (a
 * feature these rules do not cover, a vendor whose rules they do not
 * follow).
 */
int kernel_cpu_feature(const struct kernel_cpu_inputs *in, unsigned int feature,
		       char *how, size_t len);

#endif
