// SPDX-License-Identifier: GPL-2.0-only
/* The CPU start plan (lib/cpu_plan.h). */
#include "lib/cpu_plan.h"
#include "lib/machine_options.h"
#include "lib/printf.h"
#include "lib/string.h"

void cpu_plan_make(struct cpu_plan *p, const struct acpi_madt_info *madt,
		   u32 bsp_apic_id, int smp, u32 room)
{
	u32 limit;

	memset(p, 0, sizeof(*p));
	p->present = madt->nr_cpus ? madt->nr_cpus : 1;
	if (smp == SMP_ALL)
		p->wanted = p->present;
	else if (smp == SMP_OFF)
		p->wanted = 1;
	else
		p->wanted = min((u32)smp, p->present);
	if (!room || room > NR_CPUS_MAX)
		room = NR_CPUS_MAX;
	/*
	 * Every usable AP the table has room for, not just @wanted - 1: one
	 * that does not answer is replaced by the next.
	 */
	limit = min(p->present, room);
	for (u32 i = 0; i < madt->nr_ids && p->nr_aps + 1 < limit; i++)
		if (madt->apic_ids[i] != bsp_apic_id)
			p->ap_ids[p->nr_aps++] = madt->apic_ids[i];
	if (p->nr_aps + 1 >= p->wanted)
		return;
	if (p->wanted > room)
		ntb_snprintf(p->why, sizeof(p->why),
			     "started at most %u of %u: the CPU table holds "
			     "%u (NR_CPUS_MAX)",
			     room, p->wanted, room);
	else if (madt->nr_ids_dropped)
		ntb_snprintf(p->why, sizeof(p->why),
			     "started at most %u of %u: the MADT reader keeps "
			     "%u APIC IDs",
			     p->nr_aps + 1, p->wanted, ACPI_MADT_MAX_IDS);
	else
		ntb_snprintf(p->why, sizeof(p->why),
			     "started at most %u of %u: the MADT lists no "
			     "other usable APIC ID",
			     p->nr_aps + 1, p->wanted);
}
