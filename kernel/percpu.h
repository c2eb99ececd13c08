/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU data: each CPU's struct percpu, reached through GS (GS:0 holds
 * its own address), and the table of the CPUs that are online. The boot
 * CPU's area is set up here; kernel/smp.c starts the APs and records each
 * one that answers. The exception handler and the watchdog read this
 * state without knowing how CPUs are started.
 */
#ifndef NTBOOT_KERNEL_PERCPU_H
#define NTBOOT_KERNEL_PERCPU_H

#include "include/types.h"
#include "kernel/desc.h"
#include "kernel/trap_probe.h"
#include "lib/jump.h"

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

/* Give the boot CPU its per-CPU area (GS) early, before any fault. */
void smp_boot_cpu_init(void);

/*
 * Point GS at @v: a CPU's own per-CPU area, or for a call into the
 * kernel blob its page (kernel/kernel_blob_run.c).
 */
void write_gs_base(u64 v);
/* Make @p this CPU's area: GS:0 reads @p. */
void set_gs_base(struct percpu *p);

/*
 * Record @pc, which answered INIT-SIPI-SIPI, as online. Its number,
 * pc->cpu, is given before the start so that a fault there names it: the
 * next one, num_online_cpus(), below NR_CPUS_MAX (kernel/smp.c starts no
 * more).
 */
void percpu_record_online(struct percpu *pc);

struct percpu *this_cpu(void);
static inline u32 smp_processor_id(void)
{
	return this_cpu()->cpu;
}
unsigned int num_online_cpus(void);
struct percpu *per_cpu(u32 cpu);

/* Called from the exception handler on an AP; returns if it cannot help. */
void smp_ap_fault(int vector);

#endif
