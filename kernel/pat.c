// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/msr.h"
#include "kernel/pat.h"

#define MSR_IA32_CR_PAT 0x277

/* Memory types in PAT entries. */
#define PAT_UC 0x00
#define PAT_WC 0x01
#define PAT_WT 0x04
#define PAT_WB 0x06
#define PAT_UC_MINUS 0x07

#define PAT_ENTRY(i, t) ((u64)(t) << ((i) * 8))

void pat_init(void)
{
	u64 pat = PAT_ENTRY(0, PAT_WB) | PAT_ENTRY(1, PAT_WC) |
		  PAT_ENTRY(2, PAT_UC_MINUS) | PAT_ENTRY(3, PAT_UC) |
		  PAT_ENTRY(4, PAT_WB) | PAT_ENTRY(5, PAT_WT) |
		  PAT_ENTRY(6, PAT_UC_MINUS) | PAT_ENTRY(7, PAT_UC);

	/* A CPU without PAT faults here; the probe keeps that harmless. */
	wrmsr_safe(MSR_IA32_CR_PAT, pat);
}
