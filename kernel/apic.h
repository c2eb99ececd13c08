/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local APIC, just enough to start CPUs: ID, ICR, ESR. xAPIC through
 * MMIO, or x2APIC through MSRs when firmware left it in that mode (we do
 * not switch modes: what firmware chose is what the MADT describes).
 */
#ifndef NTBOOT_KERNEL_APIC_H
#define NTBOOT_KERNEL_APIC_H

#include "include/types.h"

struct lapic {
	bool x2apic;
	u64 base;	/* xAPIC MMIO base */
	bool enabled;
};

extern struct lapic lapic;

/* Read IA32_APIC_BASE and set the mode. -1 if the APIC is disabled. */
int lapic_init(void);
u32 lapic_id(void);
/* Clear and read the error status register. */
u32 lapic_read_esr(void);
/*
 * Send an IPI: @icr_low holds vector/delivery mode/level bits. Waits (up to
 * @timeout_us) for the xAPIC delivery status to clear. 0, or -1 on timeout.
 */
int lapic_send_ipi(u32 apic_id, u32 icr_low, u64 timeout_us);
/* Software-enable the APIC (SVR) on the calling CPU. */
void lapic_sw_enable(void);

#define APIC_ICR_INIT 0x00000500
#define APIC_ICR_STARTUP 0x00000600
#define APIC_ICR_LEVEL_ASSERT 0x00004000
#define APIC_ICR_TRIGGER_LEVEL 0x00008000
#define APIC_ICR_BUSY 0x00001000

#endif
