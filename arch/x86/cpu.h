/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU identification and the features the copies and benchmarks depend on.
 * Valid in ring 0 and in user space: only CPUID and XGETBV are used, so the
 * same answers come from the image and from the hosted runner.
 */
#ifndef NTBOOT_ARCH_X86_CPU_H
#define NTBOOT_ARCH_X86_CPU_H

#include "include/types.h"

enum x86_feature {
	X86_FEATURE_SSE2,
	X86_FEATURE_CLFLUSH,
	X86_FEATURE_CLFLUSHOPT,
	X86_FEATURE_CLWB,
	X86_FEATURE_AVX,
	X86_FEATURE_AVX2,
	X86_FEATURE_AVX512F,
	X86_FEATURE_MOVDIRI,
	X86_FEATURE_MOVDIR64B,
	X86_FEATURE_ERMS,
	X86_FEATURE_FSRM,
	X86_FEATURE_INVARIANT_TSC,
	X86_FEATURE_XSAVE,
	X86_FEATURE_OSXSAVE,
	X86_FEATURE_PDPE1GB,
	X86_FEATURE_HYPERVISOR,
	X86_FEATURE_X2APIC,
	X86_FEATURE_APERFMPERF,
	X86_FEATURE_TSC_DEADLINE,
	X86_FEATURE_NX,
	X86_NR_FEATURES
};

struct cpuinfo_x86 {
	char vendor[13];
	char brand[49];
	char hypervisor[13];
	u32 family, model, stepping;
	u32 max_leaf, max_ext_leaf;
	u32 clflush_size;	/* bytes, from CPUID.1:EBX[15:8] */
	u32 phys_bits;
	u32 tsc_crystal_hz;	/* CPUID 0x15 ECX (0 when not enumerated) */
	u32 tsc_ratio_num, tsc_ratio_den; /* CPUID 0x15 EBX/EAX */
	u32 base_mhz;		/* CPUID 0x16 EAX */
	u64 xcr0;		/* 0 when OSXSAVE is off */
	bool has[X86_NR_FEATURES];
};

extern struct cpuinfo_x86 boot_cpu_data;

static inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c,
			       u32 *d)
{
	asm volatile("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(sub));
}

/* Fill boot_cpu_data from CPUID (and XGETBV when OSXSAVE is set). */
void cpu_detect(struct cpuinfo_x86 *c);

static inline bool boot_cpu_has(enum x86_feature f)
{
	return boot_cpu_data.has[f];
}

/*
 * Can the CPU run AVX / AVX-512 code now? Needs the CPUID bit and the OS
 * (we, in the image) having enabled the state in XCR0.
 */
bool cpu_avx_usable(void);
bool cpu_avx512_usable(void);

const char *x86_feature_name(enum x86_feature f);

/*
 * Is this QEMU's TCG, an emulated CPU? Its timings mean nothing about
 * silicon and its clocks drift apart under load: sizes and tolerances
 * that only make sense on real CPUs are adapted where this is true.
 */
bool cpu_is_emulated(void);

/* "sse2 clflush clwb avx ..." into @buf. */
void cpu_format_features(char *buf, size_t len);

#endif
