/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which CPUs to start: the MADT's usable CPUs, the smp= option and the
 * room in the CPU table decide, before any INIT-SIPI-SIPI. Kept apart
 * from kernel/smp.c so that the host tests can feed it the MADTs of
 * machines far larger than anything QEMU boots here (QEMU 7.2's TCG has
 * no x2APIC).
 */
#ifndef NTBOOT_LIB_CPU_PLAN_H
#define NTBOOT_LIB_CPU_PLAN_H

#include "include/types.h"
#include "lib/acpi.h"

/* Logical CPUs the image runs on at most, the boot CPU included. */
#define NR_CPUS_MAX 1024

struct cpu_plan {
	u32 present; /* usable CPUs the MADT lists (1 without a MADT) */
	u32 wanted;  /* after smp=, the boot CPU included */
	/*
	 * Application processors that may be started, in table order: the
	 * kernel starts them until @wanted CPUs are online, so one that does
	 * not answer is replaced by the next.
	 */
	u32 nr_aps;
	u32 ap_ids[NR_CPUS_MAX - 1];
	/*
	 * "" or why fewer than @wanted get started: "started at most 1024
	 * of 1500: the CPU table holds 1024 (NR_CPUS_MAX)".
	 */
	char why[128];
};

/*
 * Plan the start of the CPUs of @madt for the boot CPU @bsp_apic_id and
 * @smp (SMP_ALL, SMP_OFF or a count, lib/machine_options.h), with room
 * for @room CPUs (at most NR_CPUS_MAX). APs are taken in table order;
 * the boot CPU's own entry is skipped. @why is set when fewer than
 * @wanted CPUs can be online even if every AP answers.
 */
void cpu_plan_make(struct cpu_plan *p, const struct acpi_madt_info *madt,
		   u32 bsp_apic_id, int smp, u32 room);

#endif
