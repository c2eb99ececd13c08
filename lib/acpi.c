// SPDX-License-Identifier: GPL-2.0-only
#include "lib/acpi.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Tables bigger than this are not believed (the largest real DSDTs are ~1 MiB).
 */
#define ACPI_TABLE_MAX_LEN (16u << 20)

bool acpi_checksum_ok(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += b[i];
	return sum == 0;
}

static void problem(struct acpi_info *info, const char *fmt, ...)
	__printf(2, 3);

static void problem(struct acpi_info *info, const char *fmt, ...)
{
	va_list ap;

	if (info->nr_problems >= ACPI_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	ntb_vsnprintf(info->problems[info->nr_problems++],
		      sizeof(info->problems[0]), fmt, ap);
	va_end(ap);
}

/*
 * True when [addr, addr + len) lies inside the memory the scan may read
 * (acpi_scan()'s @mem_start..@mem_end): a firmware pointer past it is
 * reported, never followed.
 */
static bool readable(const struct acpi_info *info, u64 addr, u64 len)
{
	return addr >= info->mem_start && addr <= info->mem_end &&
	       len <= info->mem_end - addr;
}

static const struct acpi_table_header *check_table(struct acpi_info *info,
						   u64 addr)
{
	const struct acpi_table_header *h = (const void *)(uptr)addr;

	if (!addr) {
		problem(info, "null table pointer in the root table");
		return NULL;
	}
	if (!readable(info, addr, sizeof(*h))) {
		problem(info, "table at 0x%llx: outside mapped memory",
			(unsigned long long)addr);
		return NULL;
	}
	if (h->length < sizeof(*h) || h->length > ACPI_TABLE_MAX_LEN) {
		problem(info, "table %.4s at 0x%llx: bad length %u",
			h->signature, (unsigned long long)addr, h->length);
		return NULL;
	}
	if (!readable(info, addr, h->length)) {
		problem(info,
			"table %.4s at 0x%llx: length %u runs past mapped "
			"memory",
			h->signature, (unsigned long long)addr, h->length);
		return NULL;
	}
	if (!acpi_checksum_ok(h, h->length)) {
		problem(info, "table %.4s at 0x%llx: bad checksum",
			h->signature, (unsigned long long)addr);
		return NULL;
	}
	return h;
}

int acpi_scan(u64 rsdp_addr, u64 mem_start, u64 mem_end, struct acpi_info *info)
{
	const struct acpi_rsdp *rsdp = (const void *)(uptr)rsdp_addr;
	const struct acpi_table_header *root;
	u32 entry_size, n;
	const u8 *entries;

	memset(info, 0, sizeof(*info));
	info->mem_start = mem_start;
	info->mem_end = mem_end;
	if (!rsdp_addr) {
		problem(info, "no RSDP from firmware");
		return -1;
	}
	if (!readable(info, rsdp_addr, 20)) {
		problem(info, "RSDP at 0x%llx: outside mapped memory",
			(unsigned long long)rsdp_addr);
		return -1;
	}
	if (memcmp(rsdp->signature, "RSD PTR ", 8)) {
		problem(info, "RSDP signature wrong");
		return -1;
	}
	if (!acpi_checksum_ok(rsdp, 20)) {
		problem(info, "RSDP checksum wrong");
		return -1;
	}
	info->rsdp_revision = rsdp->revision;
	memcpy(info->oem_id, rsdp->oem_id, 6);
	info->oem_id[6] = '\0';

	if (rsdp->revision >= 2 && !readable(info, rsdp_addr, 36)) {
		problem(info,
			"RSDP revision %u runs past mapped memory; "
			"using RSDT",
			rsdp->revision);
	} else if (rsdp->revision >= 2 && rsdp->xsdt_address) {
		if (rsdp->length < 36 || !acpi_checksum_ok(rsdp, 36)) {
			problem(info,
				"RSDP extended checksum wrong; using RSDT");
		} else {
			root = check_table(info, rsdp->xsdt_address);
			if (root && !memcmp(root->signature, "XSDT", 4)) {
				info->xsdt = true;
				goto have_root;
			}
			problem(info, "XSDT unusable; using RSDT");
		}
	}
	root = check_table(info, rsdp->rsdt_address);
	if (!root || memcmp(root->signature, "RSDT", 4)) {
		problem(info, "no usable RSDT or XSDT");
		return -1;
	}
have_root:
	entry_size = info->xsdt ? 8 : 4;
	entries = (const u8 *)root + sizeof(*root);
	n = (root->length - sizeof(*root)) / entry_size;
	for (u32 i = 0; i < n; i++) {
		u64 addr = 0;
		const struct acpi_table_header *t;

		memcpy(&addr, entries + i * entry_size, entry_size);
		t = check_table(info, addr);
		if (!t)
			continue;
		if (info->nr_tables == ACPI_MAX_TABLES) {
			problem(info, "more than %d tables; rest ignored",
				ACPI_MAX_TABLES);
			break;
		}
		info->tables[info->nr_tables++] = t;
	}
	info->valid = true;
	return 0;
}

const struct acpi_table_header *acpi_find(const struct acpi_info *info,
					  const char *sig)
{
	for (u32 i = 0; i < info->nr_tables; i++)
		if (!memcmp(info->tables[i]->signature, sig, 4))
			return info->tables[i];
	return NULL;
}

/* FADT offsets (ACPI 6.x, table 5.9). */
#define FADT_PM_TMR_BLK 76
#define FADT_PM_TMR_LEN 91
#define FADT_FLAGS 112
#define FADT_X_PM_TMR_BLK 208
#define FADT_FLAG_TMR_VAL_EXT (1u << 8)
#define FADT_FLAG_HW_REDUCED_ACPI (1u << 20)

int acpi_parse_fadt_pm_timer(const struct acpi_table_header *fadt,
			     struct acpi_pm_timer *pm)
{
	const u8 *b = (const u8 *)fadt;
	u32 port32 = 0, flags = 0;

	memset(pm, 0, sizeof(*pm));
	if (!fadt || fadt->length < FADT_FLAGS + 4)
		return -1;
	memcpy(&flags, b + FADT_FLAGS, 4);
	if (flags & FADT_FLAG_HW_REDUCED_ACPI) {
		pm->hw_reduced = true;
		return -1;
	}
	if (fadt->length >= FADT_X_PM_TMR_BLK + 12) {
		struct acpi_generic_address gas;

		memcpy(&gas, b + FADT_X_PM_TMR_BLK, sizeof(gas));
		if (gas.address && gas.space_id == 1 && gas.address <= 0xfffc) {
			pm->port = (u16)gas.address;
			goto found;
		}
	}
	memcpy(&port32, b + FADT_PM_TMR_BLK, 4);
	if (!port32 || port32 > 0xfffc || b[FADT_PM_TMR_LEN] < 4)
		return -1;
	pm->port = (u16)port32;
found:
	pm->present = true;
	pm->ext32 = flags & FADT_FLAG_TMR_VAL_EXT;
	return 0;
}

#define HPET_ADDRESS_OFFSET 40

int acpi_parse_hpet(const struct acpi_table_header *hpet, u64 *base)
{
	struct acpi_generic_address gas;

	if (!hpet || hpet->length < HPET_ADDRESS_OFFSET + sizeof(gas))
		return -1;
	memcpy(&gas, (const u8 *)hpet + HPET_ADDRESS_OFFSET, sizeof(gas));
	if (gas.space_id != 0 || !gas.address || gas.address & 0x3ff)
		return -1;
	*base = gas.address;
	return 0;
}

#define MADT_LAPIC 0
#define MADT_LAPIC_ADDR_OVERRIDE 5
#define MADT_X2APIC 9
#define MADT_ENABLED (1u << 0)
#define MADT_ONLINE_CAPABLE (1u << 1)

static void madt_cpu(struct acpi_madt_info *out, u32 apic_id, u32 flags)
{
	if (flags & MADT_ENABLED)
		out->nr_enabled++;
	else if (flags & MADT_ONLINE_CAPABLE)
		out->nr_online_capable++;
	else {
		out->nr_disabled++;
		return;
	}
	out->nr_cpus++;
	if (out->nr_ids < ARRAY_SIZE(out->apic_ids))
		out->apic_ids[out->nr_ids++] = apic_id;
	else
		out->nr_ids_dropped++;
}

int acpi_parse_madt(const struct acpi_table_header *madt,
		    struct acpi_madt_info *out)
{
	const u8 *b = (const u8 *)madt, *end;
	const u8 *p;
	u32 lapic32;

	memset(out, 0, sizeof(*out));
	if (!madt || madt->length < sizeof(*madt) + 8)
		return -1;
	memcpy(&lapic32, b + sizeof(*madt), 4);
	out->lapic_base = lapic32;
	end = b + madt->length;
	for (p = b + sizeof(*madt) + 8; p + 2 <= end; p += p[1]) {
		u8 type = p[0], len = p[1];

		if (len < 2 || p + len > end) {
			out->truncated = true;
			break;
		}
		if (type == MADT_LAPIC && len >= 8) {
			u32 flags;

			memcpy(&flags, p + 4, 4);
			madt_cpu(out, p[3], flags);
		} else if (type == MADT_X2APIC && len >= 16) {
			u32 id, flags;

			memcpy(&id, p + 4, 4);
			memcpy(&flags, p + 8, 4);
			out->nr_x2apic++;
			madt_cpu(out, id, flags);
		} else if (type == MADT_LAPIC_ADDR_OVERRIDE && len >= 12) {
			memcpy(&out->lapic_base, p + 4, 8);
		}
	}
	return 0;
}

/* SPCR offsets (Microsoft's Serial Port Console Redirection Table). */
#define SPCR_INTERFACE_TYPE 36
#define SPCR_BASE_ADDRESS 40
#define SPCR_BAUD_RATE 58
#define SPCR_TYPE_16550 0x00
#define SPCR_TYPE_16450 0x01
#define SPCR_TYPE_16550_GAS 0x12

int acpi_parse_spcr(const struct acpi_table_header *spcr,
		    struct acpi_spcr_info *out)
{
	static const u32 bauds[8] = {0, 0, 0, 9600, 19200, 0, 57600, 115200};
	struct acpi_generic_address gas;
	const u8 *b = (const u8 *)spcr;
	u8 type;

	memset(out, 0, sizeof(*out));
	if (!spcr || spcr->length < SPCR_BAUD_RATE + 1)
		return -1;
	type = b[SPCR_INTERFACE_TYPE];
	out->interface_type = type;
	if (type != SPCR_TYPE_16550 && type != SPCR_TYPE_16450 &&
	    type != SPCR_TYPE_16550_GAS)
		return -1;
	memcpy(&gas, b + SPCR_BASE_ADDRESS, sizeof(gas));
	if (!gas.address || gas.space_id > 1)
		return -1;
	out->mmio = gas.space_id == 0;
	out->address = gas.address;
	/* Access size 3 (dword) or a 32-bit register width: 32-bit MMIO. */
	out->reg_width =
		(gas.access_width == 3 || gas.bit_width == 32) ? 32 : 8;
	if (!out->mmio && (out->address > 0xfff8 || out->reg_width != 8))
		return -1;
	if (b[SPCR_BAUD_RATE] < ARRAY_SIZE(bauds))
		out->baud = bauds[b[SPCR_BAUD_RATE]];
	return 0;
}

#define SRAT_CPU_AFFINITY 0
#define SRAT_MEM_AFFINITY 1
#define SRAT_X2APIC_AFFINITY 2
#define SRAT_ENABLED 1
#define SRAT_HOT_PLUGGABLE (1u << 1) /* memory affinity flags */

static int srat_node_index(struct acpi_srat_info *out, u32 domain)
{
	for (u32 i = 0; i < out->nr_nodes; i++)
		if (out->node_ids[i] == domain)
			return (int)i;
	if (out->nr_nodes == ACPI_MAX_NUMA_NODES) {
		out->truncated = true;
		return -1;
	}
	out->node_ids[out->nr_nodes] = domain;
	return (int)out->nr_nodes++;
}

int acpi_parse_srat(const struct acpi_table_header *srat,
		    struct acpi_srat_info *out)
{
	const u8 *b = (const u8 *)srat, *end, *p;

	memset(out, 0, sizeof(*out));
	/* 12 reserved bytes follow the header. */
	if (!srat || srat->length < sizeof(*srat) + 12)
		return -1;
	end = b + srat->length;
	for (p = b + sizeof(*srat) + 12; p + 2 <= end; p += p[1]) {
		u32 domain = 0, flags = 0;
		int idx;

		if (p[1] < 2 || p + p[1] > end) {
			out->truncated = true;
			break;
		}
		if (p[0] == SRAT_CPU_AFFINITY && p[1] >= 16) {
			memcpy(&flags, p + 4, 4);
			/* Domain bits 7:0 at 2, bits 31:8 at 9..11. */
			domain = p[2] | (u32)p[9] << 8 | (u32)p[10] << 16 |
				 (u32)p[11] << 24;
			if (!(flags & SRAT_ENABLED))
				continue;
			idx = srat_node_index(out, domain);
			if (idx >= 0)
				out->node_cpus[idx]++;
		} else if (p[0] == SRAT_X2APIC_AFFINITY && p[1] >= 24) {
			memcpy(&domain, p + 4, 4);
			memcpy(&flags, p + 12, 4);
			if (!(flags & SRAT_ENABLED))
				continue;
			idx = srat_node_index(out, domain);
			if (idx >= 0)
				out->node_cpus[idx]++;
		} else if (p[0] == SRAT_MEM_AFFINITY && p[1] >= 40) {
			u64 base, len;

			memcpy(&domain, p + 2, 4);
			memcpy(&base, p + 8, 8);
			memcpy(&len, p + 16, 8);
			memcpy(&flags, p + 28, 4);
			if (!(flags & SRAT_ENABLED) || !len)
				continue;
			idx = srat_node_index(out, domain);
			if (idx < 0)
				continue;
			if (flags & SRAT_HOT_PLUGGABLE) {
				out->nr_hotplug_ranges++;
				out->hotplug_bytes += len;
			} else {
				out->node_mem[idx] += len;
			}
			if (out->nr_ranges == ACPI_MAX_MEM_RANGES) {
				out->truncated = true;
				continue;
			}
			out->ranges[out->nr_ranges].base = base;
			out->ranges[out->nr_ranges].size = len;
			out->ranges[out->nr_ranges].node = domain;
			out->nr_ranges++;
		}
	}
	return 0;
}

int acpi_srat_node_of(const struct acpi_srat_info *srat, u64 pa)
{
	for (u32 i = 0; i < srat->nr_ranges; i++)
		if (pa >= srat->ranges[i].base &&
		    pa - srat->ranges[i].base < srat->ranges[i].size)
			return (int)srat->ranges[i].node;
	return -1;
}
