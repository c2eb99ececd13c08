// SPDX-License-Identifier: GPL-2.0-only
#include "include/platform.h"
#include "kernel/memory.h"
#include "kernel/pmem.h"
#include "lib/acpi_nfit.h"
#include "lib/printf.h"

static struct {
	bool present;
	u64 base, size;
	const char *source;
	u32 nr_ranges;
	char why[120];
} pmem;

/* The largest EfiPersistentMemory region of the UEFI map, or NULL. */
static const struct phys_region *largest_persistent(const struct phys_map *m,
						    u32 *nr)
{
	const struct phys_region *best = NULL;

	*nr = 0;
	for (u32 i = 0; i < m->nr; i++) {
		const struct phys_region *r = &m->regions[i];

		if (r->type != PHYS_PERSISTENT)
			continue;
		(*nr)++;
		if (!best || r->size > best->size)
			best = r;
	}
	return best;
}

void pmem_init(const struct acpi_info *acpi, const struct phys_map *map)
{
	const struct acpi_table_header *t =
		acpi->valid ? acpi_find(acpi, "NFIT") : NULL;
	static struct acpi_nfit_info nfit;
	const struct phys_region *r;
	u64 base = 0, size = 0;

	if (t && !acpi_parse_nfit(t, &nfit) && acpi_nfit_largest(&nfit)) {
		base = acpi_nfit_largest(&nfit)->base;
		size = acpi_nfit_largest(&nfit)->length;
		pmem.source = "nfit";
		pmem.nr_ranges = nfit.nr_ranges;
	} else if ((r = largest_persistent(map, &pmem.nr_ranges))) {
		base = r->base;
		size = r->size;
		pmem.source = "efi";
	} else {
		ntb_snprintf(pmem.why, sizeof(pmem.why),
			     "%s, no "
			     "EfiPersistentMemory in the UEFI map",
			     t ? "an NFIT without a persistent-memory range"
			       : "no NFIT");
		return;
	}
	/* Whole pages inside the range, 2 MiB-aligned as a namespace is. */
	{
		u64 start = ALIGN_UP(base, SZ_2M);
		u64 end = ALIGN_DOWN(base + size, SZ_4K);

		if (end <= start) {
			ntb_snprintf(pmem.why, sizeof(pmem.why),
				     "the %s range at 0x%llx is too small",
				     pmem.source, (unsigned long long)base);
			return;
		}
		base = start;
		size = end - start;
	}
	if (memory_map_wb(base, size)) {
		ntb_snprintf(pmem.why, sizeof(pmem.why),
			     "cannot map the %s range 0x%llx+0x%llx",
			     pmem.source, (unsigned long long)base,
			     (unsigned long long)size);
		return;
	}
	pmem.present = true;
	pmem.base = base;
	pmem.size = size;
}

void pmem_print_header(void)
{
	if (pmem.present)
		kprintf("# pmem source=%s ranges=%u base=0x%llx mib=%llu\n",
			pmem.source, pmem.nr_ranges,
			(unsigned long long)pmem.base,
			(unsigned long long)(pmem.size >> 20));
	else
		kprintf("# pmem none (%s)\n", pmem.why);
}

int plat_pmem_region(u64 *base, u64 *size, const char **source)
{
	if (!pmem.present) {
		*source = pmem.why;
		return -1;
	}
	*base = pmem.base;
	*size = pmem.size;
	*source = pmem.source;
	return 0;
}
