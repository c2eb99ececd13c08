// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU exceptions. Each one is printed in full (vector, error code, RIP,
 * CR2, registers) as KTAP diagnostic lines. Inside a test case the runner
 * takes over: the case is marked failed (or, when the case provoked the
 * fault on purpose, the fault is recorded) and the run goes on with the
 * next case. Outside a case the run bails out cleanly.
 */
#include "kernel/percpu.h"
#include "kernel/trap_probe.h"
#include "kernel/traps.h"
#include "lib/kunit.h"
#include "lib/printf.h"

void (*trap_fatal_hook)(const char *reason);
void (*trap_fault_hook)(int vector, const char *name, u64 ip, u64 cr2);
bool (*trap_nmi_hook)(u64 ip);
static int nesting;

static const char *const trap_names[32] = {
	[0] = "#DE divide error",
	[1] = "#DB debug",
	[2] = "NMI",
	[3] = "#BP breakpoint",
	[4] = "#OF overflow",
	[5] = "#BR bound range",
	[6] = "#UD invalid opcode",
	[7] = "#NM device not available",
	[8] = "#DF double fault",
	[9] = "coprocessor segment overrun",
	[10] = "#TS invalid TSS",
	[11] = "#NP segment not present",
	[12] = "#SS stack fault",
	[13] = "#GP general protection",
	[14] = "#PF page fault",
	[16] = "#MF x87 error",
	[17] = "#AC alignment check",
	[18] = "#MC machine check",
	[19] = "#XM SIMD error",
	[20] = "#VE virtualization",
	[21] = "#CP control protection",
};

const char *trap_name(int vector)
{
	if (vector >= 0 && vector < 32 && trap_names[vector])
		return trap_names[vector];
	return "reserved";
}

static u64 read_cr2(void)
{
	u64 v;

	asm volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static void show_regs(const struct pt_regs *r, u64 cr2)
{
	kprintf("    # RIP: %04llx:%016llx RFLAGS: %08llx ERR: %llx CR2: %016llx\n",
		r->cs, r->ip, r->flags, r->error_code, cr2);
	kprintf("    # RAX: %016llx RBX: %016llx RCX: %016llx\n", r->ax, r->bx,
		r->cx);
	kprintf("    # RDX: %016llx RSI: %016llx RDI: %016llx\n", r->dx, r->si,
		r->di);
	kprintf("    # RBP: %016llx RSP: %016llx R8:  %016llx\n", r->bp, r->sp,
		r->r8);
	kprintf("    # R9:  %016llx R10: %016llx R11: %016llx\n", r->r9,
		r->r10, r->r11);
	kprintf("    # R12: %016llx R13: %016llx R14: %016llx R15: %016llx\n",
		r->r12, r->r13, r->r14, r->r15);
}

void do_exception(struct pt_regs *regs)
{
	int vector = (int)regs->vector;
	u64 cr2 = vector == X86_TRAP_PF ? read_cr2() : 0;
	struct kunit *test = kunit_current();
	char reason[96];

	struct trap_probe *probe = this_cpu_probe();

	/*
	 * NMIs stay blocked until an IRET, and no way out of here is one:
	 * unblock them for the next.
	 */
	if (vector == X86_TRAP_NMI)
		nmi_unblock();
	/* A hang's NMI first: it must never be taken for a probe. */
	if (vector == X86_TRAP_NMI && smp_processor_id() == 0 &&
	    trap_nmi_hook && trap_nmi_hook(regs->ip)) {
		show_regs(regs, cr2);
		if (trap_fault_hook)
			trap_fault_hook(vector, "hang (watchdog NMI)", regs->ip, 0);
		if (test) {
			nesting = 0;
			kunit_fault(vector, "hang (watchdog NMI)");
		}
		if (trap_fatal_hook)
			trap_fatal_hook("hang outside a test (watchdog NMI)");
	}
	if (probe->active) {
		probe->active = false;
		probe->vector = vector;
		ntb_longjmp(probe->jb, 1);
	}
	if (smp_processor_id() != 0) {
		/* An AP: report with its number; the work item fails. */
		kunit_diag("# CPU %u: exception %d: %s at RIP 0x%llx CR2 0x%llx\n",
			   smp_processor_id(), vector, trap_name(vector),
			   regs->ip, cr2);
		smp_ap_fault(vector);
	}
	if (trap_fault_hook)
		trap_fault_hook(vector, trap_name(vector), regs->ip, cr2);
	if (++nesting > 2) {
		/* Faulting while reporting a fault: stop without printing. */
		for (;;)
			asm volatile("cli; hlt");
	}
	if (test && test->fault_expected == vector) {
		/* A provoked fault: one line is enough. */
		kprintf("    # %s: caught %s at RIP %llx (expected)\n",
			test->name, trap_name(vector), regs->ip);
		nesting = 0;
		kunit_fault(vector, trap_name(vector));
	}
	kprintf("    # CPU exception %d: %s\n", vector, trap_name(vector));
	show_regs(regs, cr2);
	if (test) {
		nesting = 0;
		kunit_fault(vector, trap_name(vector)); /* does not return */
	}
	ntb_snprintf(reason, sizeof(reason), "%s at RIP 0x%llx outside a test",
		     trap_name(vector), (unsigned long long)regs->ip);
	if (trap_fatal_hook)
		trap_fatal_hook(reason);
	for (;;)
		asm volatile("cli; hlt");
}
