/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPUs: discovery from the MADT, our own INIT-SIPI-SIPI bring-up, and a
 * run-on-CPU API; each CPU's data, reached through GS, is in
 * kernel/percpu.h. APs never take interrupts: each spins on its work slot,
 * runs what it is given, and goes back to spinning. A fault on an AP ends
 * that work item, not the run.
 */
#ifndef NTBOOT_KERNEL_SMP_H
#define NTBOOT_KERNEL_SMP_H

#include "include/types.h"
#include "lib/acpi.h"
#include "lib/cpu_plan.h"
#include "mm/phys_map.h"

/* NR_CPUS_MAX, the start plan: lib/cpu_plan.h */
#define AP_STACK_SIZE (64 * 1024)

struct smp_report {
	u32 present;		/* usable CPUs in the MADT */
	u32 wanted;		/* after smp= */
	u32 online;
	u32 failed;
	u32 late;		/* answered a SIPI after being given up */
	bool x2apic;
	u32 bsp_apic_id;
	u64 trampoline;
	char why_not[96];	/* set when no AP was started at all */
	char limited[128];	/* set when fewer than wanted could be tried */
};

extern struct smp_report smp_report;

/*
 * Start the APs the MADT lists, up to @smp (SMP_ALL, SMP_OFF or a total
 * count). Reports each CPU that fails by APIC ID and goes on.
 */
void smp_init(const struct acpi_madt_info *madt, int smp,
	      const u32 *extra_ids, u32 nr_extra, const struct phys_map *map);

/*
 * Start fn(arg) on @cpu without waiting, then collect it with
 * smp_wait_cpu() within @timeout_us: 0 on success, -1 if the work
 * faulted, -2 on timeout (the CPU is then marked stuck; from
 * smp_call_async(): still busy), -3 if the CPU is not online. The
 * waiting form, plat_run_on_cpu(), is in lib/on_cpus.c.
 */
int smp_call_async(u32 cpu, void (*fn)(void *), void *arg);
int smp_wait_cpu(u32 cpu, u64 timeout_us);

#endif
