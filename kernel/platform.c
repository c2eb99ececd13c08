// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform interface (include/platform.h) on bare metal; the console
 * and memory parts are in kernel/console.c and kernel/memory.c.
 */
#include "include/platform.h"
#include "arch/x86/cpu.h"
#include "kernel/msr.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/tsc.h"
#include "lib/timing.h"
#include "lib/printf.h"

unsigned int plat_this_cpu(void)
{
	return smp_processor_id();
}

/* The link address of the image: ntboot.so is linked at 0. */
extern char ImageBase[];

void plat_symbolize(uptr ip, char *buf, size_t len)
{
	/* The return address: the call is the instruction before it. */
	ntb_snprintf(buf, len, "ntboot.so+0x%lx",
		     (unsigned long)(ip - 1 - (uptr)ImageBase));
}

u64 plat_tsc_khz(void)
{
	return tsc_cal.khz;
}

unsigned int plat_cpu_count(void)
{
	return num_online_cpus();
}

int plat_run_on_cpu_async(unsigned int cpu, void (*fn)(void *), void *arg)
{
	return smp_call_async(cpu, fn, arg);
}

int plat_wait_cpu(unsigned int cpu, u64 timeout_us)
{
	return smp_wait_cpu(cpu, timeout_us);
}

const char *plat_name(void)
{
	return "image";
}

bool plat_can_catch_faults(void)
{
	return true;
}

bool plat_kernel_returns_set(char *why, size_t len)
{
	(void)why;
	(void)len;
	return false;
}

/*
 * APERF and MPERF count only in C0; MPERF at the TSC's rate on the CPUs
 * with an invariant TSC this image is for, so it converts to ns as the
 * TSC does. Absent (TCG, most hypervisors): -1, and nothing is reported.
 */
int plat_read_active_clock(u64 *cycles, u64 *ns, const char **how)
{
	u64 mperf;

	if (!boot_cpu_has(X86_FEATURE_APERFMPERF) || !plat_tsc_khz())
		return -1;
	if (rdmsr_safe(MSR_IA32_APERF, cycles) ||
	    rdmsr_safe(MSR_IA32_MPERF, &mperf))
		return -1;
	*ns = cycles_to_ns(mperf);
	if (how)
		*how = "aperf_mperf";
	return 0;
}
