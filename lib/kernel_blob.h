/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel blob: Debian 6.12's compiled memmap_init_zone_device() (its
 * mm/mm_init.o, mm/page_alloc.o, the kernel's memcpy/memset/memmove and
 * the memmap glue, all built by the kernel's build) linked with the
 * image's stubs into one flat image at the kernel's own text address,
 * which the image carries and maps there (docs/kernel-memmap.md, "In the
 * image"). tools/kernel-memmap/blob builds it and tools/kernel-memmap/
 * blob-pack writes this layout; this reader checks every field before
 * the image trusts one.
 *
 * The file: a header (struct kernel_blob_header), the image bytes at
 * @image_offset (the text, then the data, from @link_addr; the bss
 * follows them in memory, zeroed, not in the file), then the symbol
 * table (struct kernel_blob_symbol, by address) and its strings. A build
 * without the kernel's sources carries a struct kernel_blob_none that
 * says why instead.
 */
#ifndef NTBOOT_LIB_KERNEL_BLOB_H
#define NTBOOT_LIB_KERNEL_BLOB_H

#include "include/types.h"

#define KERNEL_BLOB_MAGIC 0x626f6c626b62746eULL	     /* "ntbkblob" */
#define KERNEL_BLOB_NONE_MAGIC 0x656e6f6e6b62746eULL /* "ntbknone" */
#define KERNEL_BLOB_VERSION 1

/*
 * The kernel's text address (the kernel code model's R_X86_64_32S
 * relocations resolve in the top 2 GiB): the blob is linked there, and
 * everything it names lies in [KERNEL_BLOB_REACH, 2^64).
 */
#define KERNEL_BLOB_LINK_ADDR 0xffffffff81000000ULL
#define KERNEL_BLOB_REACH 0xffffffff80000000ULL
/*
 * The blob's per-CPU page, which the image maps 2 MiB below the text, in
 * a 2 MiB of its own: the variable stubs lie below it, unmapped.
 */
#define KERNEL_BLOB_PERCPU_ADDR (KERNEL_BLOB_LINK_ADDR - 0x200000ULL)

/*
 * The entries of what the image patches, as 6.12 and the site table lay
 * them out: struct alt_instr (packed), an __mcount_loc address, struct
 * jump_entry, and struct kmemmap_sites (tools/kernel-memmap/patch.h,
 * whose size kernel/kernel_blob_run.c holds to this).
 */
#define KERNEL_BLOB_ALT_INSTR_SIZE 14
#define KERNEL_BLOB_MCOUNT_SIZE 8
#define KERNEL_BLOB_JUMP_ENTRY_SIZE 16
#define KERNEL_BLOB_MAX_SITES 2048
/* in the site table: its count, its first site, a site (address first) */
#define KERNEL_BLOB_SITES_NR_OFF 8
#define KERNEL_BLOB_SITES_SITE_OFF 16
#define KERNEL_BLOB_SITE_SIZE 24
#define KERNEL_BLOB_SITES_SIZE      \
	(KERNEL_BLOB_SITES_SITE_OFF + \
	 KERNEL_BLOB_MAX_SITES * KERNEL_BLOB_SITE_SIZE)

/* The glue's functions (tools/kernel-memmap/glue.h), by link address. */
enum kernel_blob_entry {
	KERNEL_BLOB_SETUP,		 /* ntb_kmemmap_setup */
	KERNEL_BLOB_CALL,		 /* ntb_kmemmap_call */
	KERNEL_BLOB_PAGEBLOCKS_RESET,	 /* ntb_kmemmap_pageblocks_reset */
	KERNEL_BLOB_ARENA_BYTES,	 /* ntb_kmemmap_arena_bytes */
	KERNEL_BLOB_PGMAP,		 /* ntb_kmemmap_pgmap */
	KERNEL_BLOB_PAGE_SIZE,		 /* ntb_kmemmap_page_size */
	KERNEL_BLOB_PAGEBLOCK_PAGES,	 /* ntb_kmemmap_pageblock_pages */
	KERNEL_BLOB_STACK_CANARY_OFFSET, /* ntb_kmemmap_stack_canary_offset */
	KERNEL_BLOB_PAGEBLOCK_BITS,	 /* ntb_kmemmap_pageblock_bits */
	KERNEL_BLOB_NR_ENTRIES
};

/* A part of the linked blob, by link address. */
struct kernel_blob_range {
	u64 addr, size;
};

struct kernel_blob_header {
	u64 magic;
	u32 version, header_size;
	u64 link_addr;
	/* the image's bytes: text, data (in the file), bss (zeroed) */
	u64 image_offset, text_size, data_size, bss_size;
	u64 entry[KERNEL_BLOB_NR_ENTRIES];
	/* the glue's vmemmap_base, which the image points at its window */
	u64 vmemmap_base;
	/* struct kernel_blob_hooks, which the image fills before a call */
	u64 hooks;
	/* what the image patches: as tools/kernel-memmap/patch.c reads them */
	struct kernel_blob_range mcount_loc, altinstructions, jump_table;
	struct kernel_blob_range sites; /* struct kmemmap_sites */
	/*
	 * The variable stubs: addresses the image leaves unmapped, so that
	 * a read of one faults and is named from the symbol table; below
	 * KERNEL_BLOB_PERCPU_ADDR.
	 */
	struct kernel_blob_range stub_variables;
	u64 symbols_offset, nr_symbols;
	u64 strings_offset, strings_size;
	u64 patches;		 /* patch files the objects were built with */
	char object[16];	 /* "mm_init.o" */
	char release[32];	 /* "6.12.118" */
	char patches_sha256[72]; /* hex, NUL-terminated */
};

/* A build without the blob: why, NUL-terminated. */
struct kernel_blob_none {
	u64 magic;
	u32 version, header_size;
	char reason[240];
};

/* A symbol of the linked blob; @name is an offset into the strings. */
struct kernel_blob_symbol {
	u64 addr;
	u32 size, name;
};

/*
 * What the blob's own code calls in the image (tools/kernel-memmap/
 * blob_support.c): both sides are the SysV ABI, general registers only.
 */
struct kernel_blob_hooks {
	/* A function stub was reached: stop the case naming it; no return. */
	void (*stop)(const char *name, u64 from);
	/* The glue's snprintf(), for the reasons it gives. */
	int (*vsnprintf)(char *buf, size_t size, const char *fmt, va_list ap);
};

/* A read blob: pointers into the bytes it was read from. */
struct kernel_blob {
	const struct kernel_blob_header *h;
	const u8 *image; /* text_size + data_size bytes */
	const struct kernel_blob_symbol *symbols;
	const char *strings;
};

/*
 * Read the blob in @bytes (@len): 0 and @b filled, every range checked,
 * and every address the patching reads code at (each site of the site
 * table, each __mcount_loc entry, each alternative's instruction and
 * replacement, each static branch) inside the text; 1 where it is the
 * none form (its reason in @why); -1 where it is no blob this reader
 * knows, or any field lies outside it (why in @why).
 */
int kernel_blob_read(struct kernel_blob *b, const void *bytes, u64 len,
		     char *why, size_t why_len);

/* Bytes the blob takes in memory from its link address: text+data+bss. */
u64 kernel_blob_span(const struct kernel_blob *b);

/*
 * The symbol @addr lies in (the last at or below it), its offset in
 * *@offset; NULL where @addr is below every symbol or past the span and
 * the stub variables.
 */
const char *kernel_blob_symbol_at(const struct kernel_blob *b, u64 addr,
				  u64 *offset);

/*
 * The address of the symbol named @name, or 0 where the blob has none.
 */
u64 kernel_blob_symbol_addr(const struct kernel_blob *b, const char *name);

#endif
