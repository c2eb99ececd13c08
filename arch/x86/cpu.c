// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "lib/printf.h"
#include "lib/string.h"

struct cpuinfo_x86 boot_cpu_data;

static const char *const feature_names[X86_NR_FEATURES] = {
	[X86_FEATURE_SSE2] = "sse2",
	[X86_FEATURE_CLFLUSH] = "clflush",
	[X86_FEATURE_CLFLUSHOPT] = "clflushopt",
	[X86_FEATURE_CLWB] = "clwb",
	[X86_FEATURE_AVX] = "avx",
	[X86_FEATURE_AVX2] = "avx2",
	[X86_FEATURE_AVX512F] = "avx512f",
	[X86_FEATURE_MOVDIRI] = "movdiri",
	[X86_FEATURE_MOVDIR64B] = "movdir64b",
	[X86_FEATURE_ERMS] = "erms",
	[X86_FEATURE_FSRM] = "fsrm",
	[X86_FEATURE_INVARIANT_TSC] = "invariant_tsc",
	[X86_FEATURE_XSAVE] = "xsave",
	[X86_FEATURE_OSXSAVE] = "osxsave",
	[X86_FEATURE_PDPE1GB] = "pdpe1gb",
	[X86_FEATURE_HYPERVISOR] = "hypervisor",
	[X86_FEATURE_X2APIC] = "x2apic",
	[X86_FEATURE_APERFMPERF] = "aperfmperf",
	[X86_FEATURE_TSC_DEADLINE] = "tsc_deadline",
	[X86_FEATURE_NX] = "nx",
};

const char *x86_feature_name(enum x86_feature f)
{
	return f < X86_NR_FEATURES ? feature_names[f] : "?";
}

static void copy_regs_str(char *dst, u32 a, u32 b, u32 c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = '\0';
}

static u64 xgetbv0(void)
{
	u32 lo, hi;

	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((u64)hi << 32) | lo;
}

void cpu_detect(struct cpuinfo_x86 *c)
{
	u32 a, b, cx, d, fam, model;

	memset(c, 0, sizeof(*c));
	cpuid_count(0, 0, &a, &b, &cx, &d);
	c->max_leaf = a;
	copy_regs_str(c->vendor, b, d, cx);

	cpuid_count(1, 0, &a, &b, &cx, &d);
	fam = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	c->family = fam;
	c->model = model;
	c->stepping = a & 0xf;
	c->clflush_size = ((b >> 8) & 0xff) * 8;
	c->has[X86_FEATURE_SSE2] = d & (1u << 26);
	c->has[X86_FEATURE_CLFLUSH] = d & (1u << 19);
	c->has[X86_FEATURE_XSAVE] = cx & (1u << 26);
	c->has[X86_FEATURE_OSXSAVE] = cx & (1u << 27);
	c->has[X86_FEATURE_AVX] = cx & (1u << 28);
	c->has[X86_FEATURE_HYPERVISOR] = cx & (1u << 31);
	c->has[X86_FEATURE_X2APIC] = cx & (1u << 21);
	c->has[X86_FEATURE_TSC_DEADLINE] = cx & (1u << 24);

	if (c->max_leaf >= 6) {
		cpuid_count(6, 0, &a, &b, &cx, &d);
		c->has[X86_FEATURE_APERFMPERF] = cx & 1;
	}
	if (c->max_leaf >= 7) {
		cpuid_count(7, 0, &a, &b, &cx, &d);
		c->has[X86_FEATURE_AVX2] = b & (1u << 5);
		c->has[X86_FEATURE_ERMS] = b & (1u << 9);
		c->has[X86_FEATURE_AVX512F] = b & (1u << 16);
		c->has[X86_FEATURE_CLFLUSHOPT] = b & (1u << 23);
		c->has[X86_FEATURE_CLWB] = b & (1u << 24);
		c->has[X86_FEATURE_MOVDIRI] = cx & (1u << 27);
		c->has[X86_FEATURE_MOVDIR64B] = cx & (1u << 28);
		c->has[X86_FEATURE_FSRM] = d & (1u << 4);
	}
	if (c->max_leaf >= 0x15) {
		cpuid_count(0x15, 0, &a, &b, &cx, &d);
		c->tsc_ratio_den = a;
		c->tsc_ratio_num = b;
		c->tsc_crystal_hz = cx;
	}
	if (c->max_leaf >= 0x16) {
		cpuid_count(0x16, 0, &a, &b, &cx, &d);
		c->base_mhz = a & 0xffff;
	}

	cpuid_count(0x80000000, 0, &a, &b, &cx, &d);
	c->max_ext_leaf = a;
	if (c->max_ext_leaf >= 0x80000001) {
		cpuid_count(0x80000001, 0, &a, &b, &cx, &d);
		c->has[X86_FEATURE_PDPE1GB] = d & (1u << 26);
		c->has[X86_FEATURE_NX] = d & (1u << 20);
	}
	if (c->max_ext_leaf >= 0x80000004) {
		u32 *w = (u32 *)(void *)c->brand;
		const char *p;

		for (u32 i = 0; i < 3; i++)
			cpuid_count(0x80000002 + i, 0, &w[i * 4], &w[i * 4 + 1],
				    &w[i * 4 + 2], &w[i * 4 + 3]);
		c->brand[48] = '\0';
		/* Brand strings are often right-aligned with spaces. */
		p = c->brand;
		while (*p == ' ')
			p++;
		memmove(c->brand, p, strlen(p) + 1);
	}
	if (c->max_ext_leaf >= 0x80000007) {
		cpuid_count(0x80000007, 0, &a, &b, &cx, &d);
		c->has[X86_FEATURE_INVARIANT_TSC] = d & (1u << 8);
	}
	if (c->max_ext_leaf >= 0x80000008) {
		cpuid_count(0x80000008, 0, &a, &b, &cx, &d);
		c->phys_bits = a & 0xff;
	} else {
		c->phys_bits = 36;
	}
	if (c->has[X86_FEATURE_HYPERVISOR]) {
		cpuid_count(0x40000000, 0, &a, &b, &cx, &d);
		copy_regs_str(c->hypervisor, b, cx, d);
	}
	if (c->has[X86_FEATURE_OSXSAVE])
		c->xcr0 = xgetbv0();
}

bool cpu_is_emulated(void)
{
	return boot_cpu_has(X86_FEATURE_HYPERVISOR) &&
	       !strcmp(boot_cpu_data.hypervisor, "TCGTCGTCGTCG");
}

bool cpu_avx_usable(void)
{
	/* XCR0 bits 1 (SSE) and 2 (AVX) must both be enabled. */
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       (boot_cpu_data.xcr0 & 0x6) == 0x6;
}

bool cpu_avx512_usable(void)
{
	/* Plus opmask, ZMM_Hi256 and Hi16_ZMM state (bits 5-7). */
	return boot_cpu_has(X86_FEATURE_AVX512F) &&
	       (boot_cpu_data.xcr0 & 0xe6) == 0xe6;
}

void cpu_format_features(char *buf, size_t len)
{
	size_t pos = 0;

	if (len)
		buf[0] = '\0';
	for (int f = 0; f < X86_NR_FEATURES; f++) {
		int n;

		if (!boot_cpu_data.has[f])
			continue;
		n = ntb_snprintf(buf + pos, len - pos, "%s%s", pos ? "," : "",
				 feature_names[f]);
		if (n < 0 || (size_t)n >= len - pos)
			break;
		pos += n;
	}
}
