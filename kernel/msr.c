// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/msr.h"
#include "kernel/trap_probe.h"
#include "lib/jump.h"

int rdmsr_safe(u32 msr, u64 *val)
{
	u32 lo, hi;

	if (trap_probe_begin())
		return -1;
	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	trap_probe_end();
	*val = ((u64)hi << 32) | lo;
	return 0;
}

int wrmsr_safe(u32 msr, u64 val)
{
	if (trap_probe_begin())
		return -1;
	asm volatile("wrmsr" ::"a"((u32)val), "d"((u32)(val >> 32)), "c"(msr)
		     : "memory");
	trap_probe_end();
	return 0;
}

int read_microcode_rev(u32 *rev)
{
	u32 a, b, c, d;
	u64 v;

	/* The SDM's recipe: clear, CPUID(1), then read the revision. */
	if (wrmsr_safe(MSR_IA32_UCODE_REV, 0))
		return -1;
	asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (rdmsr_safe(MSR_IA32_UCODE_REV, &v))
		return -1;
	*rev = (u32)(v >> 32);
	return 0;
}
