/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI table discovery: RSDP -> XSDT (or RSDT) -> tables, every checksum
 * checked, and the few tables the kernel reads: FADT (PM timer), HPET and
 * MADT (CPUs). Firmware tables are untrusted input: a bad signature,
 * checksum or length is reported by name and the table is ignored. Plain
 * memory parsing (physical == virtual in the image), so the host tests feed
 * it recorded and deliberately broken tables.
 */
#ifndef NTBOOT_LIB_ACPI_H
#define NTBOOT_LIB_ACPI_H

#include "include/compiler.h"
#include "include/types.h"

struct acpi_table_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 asl_compiler_id;
	u32 asl_compiler_revision;
} __packed;

struct acpi_rsdp {
	char signature[8];
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt_address;
	/* ACPI 2.0+ */
	u32 length;
	u64 xsdt_address;
	u8 extended_checksum;
	u8 reserved[3];
} __packed;

struct acpi_generic_address {
	u8 space_id; /* 0 memory, 1 I/O */
	u8 bit_width;
	u8 bit_offset;
	u8 access_width;
	u64 address;
} __packed;

#define ACPI_MAX_TABLES 64
#define ACPI_MAX_PROBLEMS 8

struct acpi_info {
	/* The memory the scan may read, [mem_start, mem_end). */
	u64 mem_start;
	u64 mem_end;
	bool valid;
	bool xsdt;
	u8 rsdp_revision;
	char oem_id[7];
	u32 nr_tables;
	const struct acpi_table_header *tables[ACPI_MAX_TABLES];
	u32 nr_problems;
	char problems[ACPI_MAX_PROBLEMS][80];
};

/*
 * Walk from the RSDP at @rsdp. Every structure read, the RSDP included,
 * must lie in [@mem_start, @mem_end): the memory that is mapped (the
 * image: its identity map, identity_map_limit()); a pointer outside is a
 * problem by name, not a fault. Returns 0, or -1 if nothing usable.
 */
int acpi_scan(u64 rsdp, u64 mem_start, u64 mem_end, struct acpi_info *info);

/* The first valid table with @sig ("FACP", "HPET", "APIC"), or NULL. */
const struct acpi_table_header *acpi_find(const struct acpi_info *info,
					  const char *sig);

bool acpi_checksum_ok(const void *p, size_t len);

struct acpi_pm_timer {
	bool present;
	/*
	 * FADT flag HW_REDUCED_ACPI: the fixed hardware, the PM timer
	 * included, is to be ignored (ACPI 6.5 5.2.9), whatever the FADT
	 * says; no timer then.
	 */
	bool hw_reduced;
	u16 port;
	bool ext32; /* 32-bit counter, else 24-bit */
};

/* From the FADT: the ACPI PM timer port (I/O space only). */
int acpi_parse_fadt_pm_timer(const struct acpi_table_header *fadt,
			     struct acpi_pm_timer *pm);

/* From the HPET table: the register block (memory space only). 0 or -1. */
int acpi_parse_hpet(const struct acpi_table_header *hpet, u64 *base);

/*
 * APIC IDs the MADT reader keeps: a two-socket Granite Rapids has 512
 * logical CPUs, a two-socket EPYC Turin 768; room for 1024.
 */
#define ACPI_MADT_MAX_IDS 1024

struct acpi_madt_info {
	u64 lapic_base;
	u32 nr_cpus; /* enabled, plus online-capable */
	u32 nr_enabled;
	u32 nr_online_capable;
	u32 nr_disabled;
	u32 nr_x2apic;
	/* of usable CPUs, in table order; the rest counted in @nr_ids_dropped */
	u32 apic_ids[ACPI_MADT_MAX_IDS];
	u32 nr_ids;
	u32 nr_ids_dropped;
	bool truncated; /* an entry ran past the table end */
};

int acpi_parse_madt(const struct acpi_table_header *madt,
		    struct acpi_madt_info *out);

/* SPCR: the firmware's serial console (Microsoft's table, in ACPI 6.x). */
struct acpi_spcr_info {
	u8 interface_type; /* 0 = 16550, 1 = 16450, 0x12 = 16550 (GAS) */
	bool mmio;	   /* else I/O port */
	u8 reg_width;	   /* bits per register access: 8 or 32 */
	u64 address;
	u32 baud; /* 0: leave as firmware set it */
};

/* 0 for a 16550-compatible UART we can drive, -1 otherwise. */
int acpi_parse_spcr(const struct acpi_table_header *spcr,
		    struct acpi_spcr_info *out);

#define ACPI_MAX_NUMA_NODES 64
#define ACPI_MAX_MEM_RANGES 128

/* SRAT: which CPUs and which memory belong to which proximity domain. */
struct acpi_srat_info {
	u32 nr_nodes; /* distinct enabled domains */
	u32 node_ids[ACPI_MAX_NUMA_NODES];
	u32 node_cpus[ACPI_MAX_NUMA_NODES];
	u64 node_mem[ACPI_MAX_NUMA_NODES]; /* bytes present */
	/*
	 * Ranges flagged hot-pluggable (ACPI 6.5 5.2.16.2, bit 1): room for
	 * memory that may be added, not memory that is there. Kept in
	 * @ranges (a DIMM added there belongs to that node), not counted in
	 * @node_mem.
	 */
	u32 nr_hotplug_ranges;
	u64 hotplug_bytes;
	u32 nr_ranges;
	struct {
		u64 base, size;
		u32 node;
	} ranges[ACPI_MAX_MEM_RANGES];
	/*
	 * Not all of the table was kept: an entry ran past its end, or a
	 * domain or memory range found no room (the first ones in table
	 * order are kept; a dropped range's bytes still count in @node_mem,
	 * its addresses have no node).
	 */
	bool truncated;
};

int acpi_parse_srat(const struct acpi_table_header *srat,
		    struct acpi_srat_info *out);

/* The proximity domain of physical address @pa, or -1 when unknown. */
int acpi_srat_node_of(const struct acpi_srat_info *srat, u64 pa);

#endif
