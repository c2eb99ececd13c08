// SPDX-License-Identifier: GPL-2.0-only
/* Entries of synthetic ACPI tables (tests/engines/acpi_synth.h). */
#include "lib/string.h"
#include "tests/engines/acpi_synth.h"

void synth_srat_mem(u8 *e, u32 domain, u64 base, u64 len, u32 flags)
{
	memset(e, 0, SRAT_MEM_LEN);
	e[0] = 1; /* type: memory affinity */
	e[1] = SRAT_MEM_LEN;
	memcpy(e + 2, &domain, 4);
	memcpy(e + 8, &base, 8);
	memcpy(e + 16, &len, 8);
	memcpy(e + 28, &flags, 4);
}
