// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "include/compiler.h"
#include "include/platform.h"
#include "kernel/apic.h"
#include "kernel/delay.h"
#include "kernel/desc.h"
#include "kernel/fpu.h"
#include "kernel/memory.h"
#include "kernel/pat.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/watchdog.h"
#include "lib/machine_options.h"
#include "lib/printf.h"
#include "lib/scale.h"
#include "lib/string.h"


/* Offsets of the trampoline's parameter block (boot/ap_trampoline.asm). */
#define TR_OFFSETS 8
#define TR_PM_FAR 24
#define TR_LM_FAR 32
#define TR_CR3 40
#define TR_STACK 48
#define TR_ENTRY 56
#define TR_ARG 64
#define TR_ALIVE 72
#define TR_APIC_ID 76
#define TR_ID_HOW 80
#define TR_LATE_ID 84
#define TR_LATE 88
#define TR_LAPIC 96

/* How the AP tells whose block it found (TR_ID_HOW). */
#define TR_ID_XAPIC_REG 0
#define TR_ID_CPUID_0B 1
#define TR_ID_NO_CHECK 2
/* No CPU's: the block while the boot CPU rewrites it. */
#define TR_APIC_ID_NONE 0xffffffffu

/* The SDM's INIT-SIPI-SIPI timing, and how long an AP may take to answer. */
#define INIT_DELAY_US 10000
#define SIPI_DELAY_US 200
/* On silicon; an emulated CPU gets longer (lib/scale.c). */
#define AP_ONLINE_TIMEOUT_US 200000
#define IPI_SEND_TIMEOUT_US 1000

extern const u8 ap_trampoline_start[];
extern const u8 ap_trampoline_end[];

struct smp_report smp_report;

/* Runs the work item with a recovery point for faults. */
static __noinline void ap_run_work(struct percpu *pc)
{
	pc->work_result = 0;
	if (!ntb_setjmp(pc->fault_jmp)) {
		pc->in_work = true;
		barrier();
		pc->fn(pc->arg);
		barrier();
	} else {
		pc->work_result = -1;
	}
	pc->in_work = false;
}

static void __noreturn ap_main(void *arg)
{
	struct percpu *pc = arg;

	load_cpu_tables(&pc->tables);
	set_gs_base(pc);
	pat_init();
	fpu_init();
	lapic_sw_enable();
	pc->done_seq = pc->work_seq;
	barrier();
	WRITE_ONCE(pc->state, CPU_ONLINE);

	for (;;) {
		u32 seq = READ_ONCE(pc->work_seq);

		if (seq != pc->done_seq) {
			ap_run_work(pc);
			barrier();
			WRITE_ONCE(pc->done_seq, seq);
			/* It did not watch meanwhile: start the period anew. */
			if (pc->is_watchdog)
				watchdog_restart();
		}
		if (pc->is_watchdog)
			watchdog_check(pc);
		cpu_relax();
	}
}

int smp_call_async(u32 cpu, void (*fn)(void *), void *arg)
{
	struct percpu *pc = per_cpu(cpu);

	/* The boot CPU runs the caller: it has no work slot to post to. */
	if (!pc || cpu == 0)
		return -3;
	/* A CPU that was late but has since finished is usable again. */
	if (pc->state == CPU_STUCK && READ_ONCE(pc->done_seq) == pc->work_seq)
		pc->state = CPU_ONLINE;
	if (pc->state != CPU_ONLINE)
		return -3;
	if (READ_ONCE(pc->done_seq) != pc->work_seq)
		return -2; /* still busy with the last item */
	pc->fn = fn;
	pc->arg = arg;
	barrier();
	WRITE_ONCE(pc->work_seq, pc->work_seq + 1);
	return 0;
}

int smp_wait_cpu(u32 cpu, u64 timeout_us)
{
	struct percpu *pc = per_cpu(cpu);
	u64 deadline = deadline_after_us(timeout_us);

	if (!pc)
		return -3;
	while (READ_ONCE(pc->done_seq) != READ_ONCE(pc->work_seq)) {
		if (deadline_passed(deadline)) {
			pc->state = CPU_STUCK;
			return -2;
		}
		cpu_relax();
	}
	barrier();
	return pc->work_result;
}

/* A free page below 1 MiB for the real-mode entry. */
static u64 find_trampoline_page(const struct phys_map *map)
{
	for (u32 i = 0; i < map->nr; i++) {
		const struct phys_region *r = &map->regions[i];
		u64 start = ALIGN_UP(max(r->base, 0x1000ull), SZ_4K);

		if (r->type != PHYS_FREE && r->type != PHYS_BOOT_SERVICES)
			continue;
		if (start + SZ_4K <= r->base + r->size && start + SZ_4K <= 0x9f000)
			return start;
	}
	return 0;
}

static bool wait_online(struct percpu *pc, u64 us)
{
	u64 deadline = deadline_after_us(us);

	while (READ_ONCE(pc->state) != CPU_ONLINE) {
		if (deadline_passed(deadline))
			return false;
		cpu_relax();
	}
	return true;
}

static int start_ap(struct percpu *pc, u8 *tr, u64 online_us)
{
	u32 vector = (u32)((uptr)tr >> 12), esr;
	volatile u32 *alive = (volatile u32 *)(tr + TR_ALIVE);
	volatile u32 *owner = (volatile u32 *)(tr + TR_APIC_ID);

	/*
	 * The block is no one's while it changes, so a CPU answering late
	 * never takes a stack with another CPU's argument.
	 */
	*owner = TR_APIC_ID_NONE;
	barrier();
	memcpy(tr + TR_STACK, &pc->stack_top, 8);
	memcpy(tr + TR_ARG, &pc, 8);
	*alive = 0;
	barrier();
	*owner = pc->apic_id;
	pc->state = CPU_STARTING;
	barrier();

	lapic_read_esr();
	if (lapic_send_ipi(pc->apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL_ASSERT,
			   IPI_SEND_TIMEOUT_US)) {
		kprintf("# smp: CPU apic_id=%u: INIT not delivered\n", pc->apic_id);
		return -1;
	}
	udelay(INIT_DELAY_US);
	for (int i = 0; i < 2; i++) {
		/* A CPU already running ignores a second SIPI; skip it. */
		if (*alive)
			break;
		lapic_read_esr();
		if (lapic_send_ipi(pc->apic_id, APIC_ICR_STARTUP | vector,
				   IPI_SEND_TIMEOUT_US)) {
			kprintf("# smp: CPU apic_id=%u: SIPI not delivered\n",
				pc->apic_id);
			return -1;
		}
		udelay(SIPI_DELAY_US);
		esr = lapic_read_esr() & 0xef;
		if (esr)
			kprintf("# smp: CPU apic_id=%u: APIC error 0x%x after SIPI\n",
				pc->apic_id, esr);
	}
	if (wait_online(pc, online_us))
		return 0;
	kprintf("# smp: CPU apic_id=%u did not come up within %llu ms (%s)\n",
		pc->apic_id, (unsigned long long)online_us / 1000,
		*alive ? "reached 64-bit mode, stopped before going online" :
			 "no sign of life after INIT-SIPI-SIPI");
	pc->state = CPU_FAILED;
	/* Park it in wait-for-SIPI so a late start cannot share a stack. */
	lapic_send_ipi(pc->apic_id, APIC_ICR_INIT | APIC_ICR_LEVEL_ASSERT,
		       IPI_SEND_TIMEOUT_US);
	return -1;
}

/*
 * How an AP in the trampoline reads its own APIC ID, with no IDT and no
 * stack: in xAPIC mode the ID register, which is what a SIPI is
 * addressed to (firmware may have rewritten it, so not CPUID's initial
 * ID); in x2APIC mode the read-only x2APIC ID of CPUID leaf 0xb, where
 * the leaf exists (a CPU without it reports another leaf's data there).
 */
static u32 trampoline_id_how(void)
{
	u32 a, b, c, d;

	if (!lapic.x2apic)
		return TR_ID_XAPIC_REG;
	cpuid_count(0, 0, &a, &b, &c, &d);
	if (a < 0xb)
		return TR_ID_NO_CHECK;
	cpuid_count(0xb, 0, &a, &b, &c, &d);
	return b & 0xffff ? TR_ID_CPUID_0B : TR_ID_NO_CHECK;
}

static u8 *prepare_trampoline(u64 page)
{
	u8 *tr = (u8 *)(uptr)page;
	size_t len = ap_trampoline_end - ap_trampoline_start;
	u32 off[4];
	u64 cr3, entry = (u64)(uptr)ap_main;

	memcpy(tr, ap_trampoline_start, len);
	memcpy(off, tr + TR_OFFSETS, sizeof(off));
	/* Absolute addresses inside the blob: the far jumps and GDT base. */
	*(u32 *)(tr + TR_PM_FAR) = (u32)page + off[0];
	*(u32 *)(tr + TR_LM_FAR) = (u32)page + off[1];
	*(u32 *)(tr + off[3] + 2) = (u32)page + off[2];
	asm volatile("mov %%cr3, %0" : "=r"(cr3));
	memcpy(tr + TR_CR3, &cr3, 8);
	memcpy(tr + TR_ENTRY, &entry, 8);
	*(u32 *)(tr + TR_ID_HOW) = trampoline_id_how();
	memcpy(tr + TR_LAPIC, &lapic.base, 8);
	*(u32 *)(tr + TR_APIC_ID) = TR_APIC_ID_NONE;
	*(u32 *)(tr + TR_LATE) = 0;
	return tr;
}

static void start_cpu(u32 id, u8 *tr, u64 online_us)
{
	struct smp_report *r = &smp_report;
	struct percpu *pc;
	void *stack;

	if (!lapic.x2apic && id > 0xfe) {
		kprintf("# smp: CPU apic_id=%u needs x2APIC mode; skipped\n", id);
		r->failed++;
		return;
	}
	pc = plat_alloc_aligned(sizeof(*pc), 64);
	stack = plat_alloc_aligned(AP_STACK_SIZE, 4096);
	if (!pc || !stack) {
		kprintf("# smp: out of memory for CPU apic_id=%u\n", id);
		r->failed++;
		return;
	}
	memset(pc, 0, sizeof(*pc));
	pc->cpu = num_online_cpus();
	pc->apic_id = id;
	pc->stack_top = (u64)(uptr)stack + AP_STACK_SIZE;
	if (start_ap(pc, tr, online_us)) {
		/* Its memory stays: a late start must not land in reused pages. */
		r->failed++;
		return;
	}
	percpu_record_online(pc);
}

void smp_init(const struct acpi_madt_info *madt, int smp,
	      const u32 *extra_ids, u32 nr_extra, const struct phys_map *map)
{
	static struct cpu_plan plan;
	struct smp_report *r = &smp_report;
	u64 cr3, online_us;
	u8 *tr;

	if (lapic_init()) {
		cpu_plan_make(&plan, madt, 0, smp, NR_CPUS_MAX);
		r->present = plan.present;
		r->wanted = plan.wanted;
		ntb_snprintf(r->why_not, sizeof(r->why_not),
			     "local APIC disabled by firmware");
		return;
	}
	r->x2apic = lapic.x2apic;
	r->bsp_apic_id = lapic_id();
	cpu_plan_make(&plan, madt, r->bsp_apic_id, smp, NR_CPUS_MAX);
	r->present = plan.present;
	r->wanted = plan.wanted;
	memcpy(r->limited, plan.why, sizeof(r->limited));
	per_cpu(0)->apic_id = r->bsp_apic_id;
	if (r->wanted <= 1 && !nr_extra) {
		ntb_snprintf(r->why_not, sizeof(r->why_not), "%s",
			     smp == SMP_OFF ? "smp=off" : "one CPU");
		return;
	}
	asm volatile("mov %%cr3, %0" : "=r"(cr3));
	if (cr3 >= SZ_1G * 4) {
		ntb_snprintf(r->why_not, sizeof(r->why_not),
			     "page tables above 4 GiB (CR3 0x%llx)", cr3);
		return;
	}
	r->trampoline = find_trampoline_page(map);
	if (!r->trampoline) {
		ntb_snprintf(r->why_not, sizeof(r->why_not),
			     "no free page below 1 MiB for the trampoline");
		return;
	}
	tr = prepare_trampoline(r->trampoline);
	online_us =
		platform_scaled(SCALE_AP_ONLINE_US, AP_ONLINE_TIMEOUT_US, NULL);

	for (u32 i = 0; i < plan.nr_aps && num_online_cpus() < r->wanted; i++)
		start_cpu(plan.ap_ids[i], tr, online_us);
	for (u32 i = 0; i < nr_extra && num_online_cpus() < NR_CPUS_MAX; i++) {
		kprintf("# smp: starting apic_id=%u (smp.extra_apic_ids)\n",
			extra_ids[i]);
		start_cpu(extra_ids[i], tr, online_us);
	}
	r->online = num_online_cpus();
	r->late = READ_ONCE(*(volatile u32 *)(tr + TR_LATE));
	if (r->late)
		kprintf("# smp: %u CPU(s) answered a SIPI after being given up "
			"(the last apic_id=%u) and stopped in the trampoline\n",
			r->late, READ_ONCE(*(volatile u32 *)(tr + TR_LATE_ID)));
}
