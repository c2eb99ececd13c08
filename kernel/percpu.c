// SPDX-License-Identifier: GPL-2.0-only
#include "include/compiler.h"
#include "kernel/msr.h"
#include "kernel/percpu.h"
#include "lib/cpu_plan.h"

static struct percpu boot_cpu_area;
static struct percpu *cpus[NR_CPUS_MAX];
static unsigned int nr_online = 1;

struct percpu *this_cpu(void)
{
	struct percpu *p;

	asm volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

struct percpu *per_cpu(u32 cpu)
{
	return cpu < NR_CPUS_MAX ? cpus[cpu] : NULL;
}

unsigned int num_online_cpus(void)
{
	return nr_online;
}

struct trap_probe *this_cpu_probe(void)
{
	return &this_cpu()->probe;
}

/*
 * A plain WRMSR: GS_BASE exists on every x86_64 CPU, and the probe that
 * wrmsr_safe() uses lives behind GS itself.
 */
void write_gs_base(u64 v)
{
	asm volatile("wrmsr" ::"c"(MSR_GS_BASE), "a"((u32)v),
		     "d"((u32)(v >> 32))
		     : "memory");
}

void set_gs_base(struct percpu *p)
{
	p->self = p;
	write_gs_base((u64)(uptr)p);
}

void smp_boot_cpu_init(void)
{
	boot_cpu_area.cpu = 0;
	boot_cpu_area.state = CPU_ONLINE;
	cpus[0] = &boot_cpu_area;
	set_gs_base(&boot_cpu_area);
}

void percpu_record_online(struct percpu *pc)
{
	cpus[pc->cpu] = pc;
	nr_online = pc->cpu + 1;
}

void smp_ap_fault(int vector)
{
	struct percpu *pc = this_cpu();

	if (!pc || pc->cpu == 0)
		return;
	if (pc->in_work) {
		pc->in_work = false;
		ntb_longjmp(pc->fault_jmp, 1);
	}
	WRITE_ONCE(pc->state, CPU_DEAD);
	for (;;)
		asm volatile("cli; hlt");
}
