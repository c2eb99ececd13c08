// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/apic.h"
#include "kernel/delay.h"
#include "kernel/io.h"
#include "kernel/msr.h"

#define MSR_IA32_APICBASE 0x1b
#define APICBASE_ENABLE (1ull << 11)
#define APICBASE_X2APIC (1ull << 10)
#define APICBASE_ADDR_MASK 0x000ffffffffff000ull

#define APIC_ID 0x20
#define APIC_SVR 0xf0
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300
#define APIC_ICR_HIGH 0x310
#define APIC_SVR_ENABLE 0x100

/* x2APIC MSR = 0x800 + (xAPIC offset >> 4) */
#define X2APIC_MSR(off) (0x800 + ((off) >> 4))

struct lapic lapic;

static u32 xapic_read(u32 off)
{
	return readl((volatile void *)(uptr)(lapic.base + off));
}

static void xapic_write(u32 off, u32 v)
{
	writel(v, (volatile void *)(uptr)(lapic.base + off));
}

int lapic_init(void)
{
	u64 v;

	if (rdmsr_safe(MSR_IA32_APICBASE, &v))
		return -1;
	lapic.enabled = v & APICBASE_ENABLE;
	lapic.x2apic = v & APICBASE_X2APIC;
	lapic.base = v & APICBASE_ADDR_MASK;
	return lapic.enabled ? 0 : -1;
}

u32 lapic_id(void)
{
	u64 v;

	if (lapic.x2apic) {
		if (rdmsr_safe(X2APIC_MSR(APIC_ID), &v))
			return ~0u;
		return (u32)v;
	}
	return xapic_read(APIC_ID) >> 24;
}

u32 lapic_read_esr(void)
{
	u64 v;

	/* A write arms the register; the read then returns the errors. */
	if (lapic.x2apic) {
		wrmsr_safe(X2APIC_MSR(APIC_ESR), 0);
		return rdmsr_safe(X2APIC_MSR(APIC_ESR), &v) ? ~0u : (u32)v;
	}
	xapic_write(APIC_ESR, 0);
	return xapic_read(APIC_ESR);
}

void lapic_sw_enable(void)
{
	u64 v;

	if (lapic.x2apic) {
		if (!rdmsr_safe(X2APIC_MSR(APIC_SVR), &v))
			wrmsr_safe(X2APIC_MSR(APIC_SVR), v | APIC_SVR_ENABLE | 0xff);
		return;
	}
	xapic_write(APIC_SVR, xapic_read(APIC_SVR) | APIC_SVR_ENABLE | 0xff);
}

int lapic_send_ipi(u32 apic_id, u32 icr_low, u64 timeout_us)
{
	u64 deadline;

	if (lapic.x2apic) {
		/* No delivery status in x2APIC mode: the write is the send. */
		return wrmsr_safe(X2APIC_MSR(APIC_ICR_LOW),
				  ((u64)apic_id << 32) | icr_low);
	}
	xapic_write(APIC_ICR_HIGH, apic_id << 24);
	xapic_write(APIC_ICR_LOW, icr_low);
	deadline = deadline_after_us(timeout_us);
	while (xapic_read(APIC_ICR_LOW) & APIC_ICR_BUSY) {
		if (deadline_passed(deadline))
			return -1;
		cpu_relax();
	}
	return 0;
}
