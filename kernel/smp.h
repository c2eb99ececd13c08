/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPUs: discovery from the MADT, our own INIT-SIPI-SIPI bring-up, per-CPU
 * data reached through GS, and a run-on-CPU API. APs never take
 * interrupts: each spins on its work slot, runs what it is given, and goes
 * back to spinning. A fault on an AP ends that work item, not the run.
 */
#ifndef NTBOOT_KERNEL_SMP_H
#define NTBOOT_KERNEL_SMP_H

#include "include/types.h"
#include "lib/acpi.h"
#include "lib/cpu_plan.h"
#include "lib/jump.h"
#include "mm/phys_map.h"
#include "kernel/desc.h"
#include "kernel/traps.h"

/* NR_CPUS_MAX, the start plan: lib/cpu_plan.h */
#define AP_STACK_SIZE (64 * 1024)

enum cpu_state {
	CPU_ABSENT,
	CPU_STARTING,
	CPU_ONLINE,
	CPU_FAILED,	/* never answered INIT-SIPI-SIPI */
	CPU_STUCK,	/* stopped answering work */
	CPU_DEAD,	/* faulted outside any work item */
};

struct percpu {
	struct percpu *self;	/* at GS:0 */
	u32 cpu;		/* logical number, 0 = boot CPU */
	u32 apic_id;
	volatile u32 state;
	u64 stack_top;

	/* The work slot: the owner bumps work_seq, the CPU answers done_seq. */
	void (*volatile fn)(void *arg);
	void *volatile arg;
	volatile u32 work_seq;
	volatile u32 done_seq;
	volatile int work_result;
	volatile bool in_work;
	bool is_watchdog;	/* watches the boot CPU between work items */
	ntb_jmp_buf fault_jmp;
	struct trap_probe probe;	/* rdmsr_safe() and friends */
	struct cpu_tables tables;	/* its GDT, TSS and #DF stack */
};

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

/* Give the boot CPU its per-CPU area (GS) early, before any fault. */
void smp_boot_cpu_init(void);
/*
 * Start the APs the MADT lists, up to @smp (SMP_ALL, SMP_OFF or a total
 * count). Reports each CPU that fails by APIC ID and goes on.
 */
void smp_init(const struct acpi_madt_info *madt, int smp,
	      const u32 *extra_ids, u32 nr_extra, const struct phys_map *map);

struct percpu *this_cpu(void);

/*
 * Point GS at @v: a CPU's own per-CPU area, or for a call into the
 * kernel blob its page (kernel/kernel_blob_run.c).
 */
void write_gs_base(u64 v);
static inline u32 smp_processor_id(void)
{
	return this_cpu()->cpu;
}
unsigned int num_online_cpus(void);
struct percpu *per_cpu(u32 cpu);

/*
 * Start fn(arg) on @cpu without waiting, then collect it with
 * smp_wait_cpu() within @timeout_us: 0 on success, -1 if the work
 * faulted, -2 on timeout (the CPU is then marked stuck; from
 * smp_call_async(): still busy), -3 if the CPU is not online. The
 * waiting form, plat_run_on_cpu(), is in lib/on_cpus.c.
 */
int smp_call_async(u32 cpu, void (*fn)(void *), void *arg);
int smp_wait_cpu(u32 cpu, u64 timeout_us);

/* Called from the exception handler on an AP; returns if it cannot help. */
void smp_ap_fault(int vector);

#endif
