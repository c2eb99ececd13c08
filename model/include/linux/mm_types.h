/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct page of x86_64 as the memmap model writes it: the kernel's
 * include/linux/mm_types.h at v7.2-rc1 (docs/model.md: the 64-byte
 * layout is faithful; the 80- and 96-byte ones are the series' claims,
 * unreachable with ZONE_DEVICE on x86_64).
 *
 * The kernel's struct page is 64 bytes on x86_64 (aligned to 16). Two
 * options append fields after memcg_data and round the size up to 16:
 *
 *   size  what appends                    tail fields
 *   64    nothing                         -
 *   80    CONFIG_KMSAN                    kmsan_shadow @64, kmsan_origin @72
 *   80    LAST_CPUPID_NOT_IN_PAGE_FLAGS   _last_cpupid @64 (an int)
 *   96    both                            _last_cpupid @64,
 *                                         kmsan_shadow @72, kmsan_origin @80
 *
 * The first 64 bytes are the same in all four, so they are a C struct
 * (struct page below); what differs is one table, page_layouts[], that
 * gives every layout its size and the offset of every field. The code is
 * written once against that table; instantiating it with a constant entry
 * lets the compiler fold the offsets and the size, as the kernel's
 * sizeof(struct page) is folded.
 *
 * Because the stride between two struct pages is the layout's size and
 * not sizeof(struct page), never index a struct page array directly: use
 * nth_page().
 *
 * The kernel configuration modelled is a distribution x86_64 build:
 * SPARSEMEM_VMEMMAP (no section number in page->flags), NODES_SHIFT 10,
 * NR_CPUS 8192, NUMA_BALANCING (last_cpupid kept), 64BIT, MEMCG,
 * PAGE_MAPCOUNT and MM_ID (selected by THP), no KASAN software tags, no
 * WANT_PAGE_VIRTUAL.
 */
#ifndef NTBOOT_MODEL_LINUX_MM_TYPES_H
#define NTBOOT_MODEL_LINUX_MM_TYPES_H

#include "include/compiler.h"
#include "include/types.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define BITS_PER_LONG 64

/* x86_64 without CONFIG_HIGHMEM: ZONE_DEVICE is zone index 4. */
enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	ZONE_MOVABLE,
	ZONE_DEVICE,
	MAX_NR_ZONES
};

/*
 * The page-flag bits this path sets, numbered as in enum pageflags since
 * PG_head moved into the low byte (bit 6) and PG_error/PG_slab went away:
 * PG_locked, PG_writeback, PG_referenced, PG_uptodate, PG_dirty, PG_lru,
 * PG_head, PG_waiters, PG_active, PG_workingset, PG_owner_priv_1,
 * PG_owner_2, PG_arch_1, PG_reserved, ...
 */
enum pageflags {
	PG_head = 6,
	PG_reserved = 13,
};

/*
 * page->flags, from the top: | NODE | ZONE | [LAST_CPUPID] | ... | FLAGS |
 * (SECTIONS_WIDTH is 0 with SPARSEMEM_VMEMMAP).
 */
#define ZONES_SHIFT 3
#define ZONES_WIDTH ZONES_SHIFT
#define NODES_SHIFT 10
#define NODES_WIDTH NODES_SHIFT
#define LAST__PID_SHIFT 8
#define LAST__CPU_SHIFT 13 /* NR_CPUS_BITS for NR_CPUS = 8192 */
#define LAST_CPUPID_SHIFT (LAST__PID_SHIFT + LAST__CPU_SHIFT)

#define NODES_PGSHIFT (BITS_PER_LONG - NODES_WIDTH)
#define ZONES_PGSHIFT (NODES_PGSHIFT - ZONES_WIDTH)
/* Where last_cpupid sits when it fits in the flags word. */
#define LAST_CPUPID_PGSHIFT_IN_FLAGS (ZONES_PGSHIFT - LAST_CPUPID_SHIFT)

#define ZONES_MASK ((1UL << ZONES_WIDTH) - 1)
#define NODES_MASK ((1UL << NODES_WIDTH) - 1)
#define LAST_CPUPID_MASK ((1UL << LAST_CPUPID_SHIFT) - 1)

/* POISON_POINTER_DELTA (0xdead000000000000 on x86_64) + 0x400. */
#define TAIL_MAPPING 0xdead000000000400UL

struct dev_pagemap;

struct list_head {
	struct list_head *next, *prev;
};

/*
 * The 64 bytes every layout starts with. Field names are the kernel's;
 * the unions show the uses this path makes of each word.
 */
struct page {
	unsigned long flags;
	union {
		struct list_head lru;
		/* tail pages: head | 1, or the head mask | 1 (set_compound_head()) */
		unsigned long compound_head;
		/* ZONE_DEVICE: the folio's pgmap, then the driver's word */
		struct {
			struct dev_pagemap *pgmap;
			void *zone_device_data;
		};
	};
	void *mapping;
	unsigned long index;
	unsigned long private;
	int _mapcount;	/* atomic_t */
	int _refcount;	/* atomic_t */
	unsigned long memcg_data;
};

/*
 * The first and second tail page as struct folio overlays them (the folio
 * of Linux 6.15 and later on 64-bit, as pinned at v7.2-rc1: _nr_pages shares the word of
 * memcg_data, the deferred-split list sits where page[2] keeps
 * zone_device_data and mapping). prep_compound_head() writes these.
 */
struct folio_page1 {
	unsigned long _flags_1;		/* low byte: folio order */
	unsigned long _head_1;
	int _large_mapcount;
	int _nr_pages_mapped;
	int _entire_mapcount;
	int _pincount;
	int _mm_id_mapcount[2];
	unsigned long _mm_ids;
	int _mapcount_1;
	int _refcount_1;
	unsigned int _nr_pages;
};

struct folio_page2 {
	unsigned long _flags_2;
	unsigned long _head_2;
	struct list_head _deferred_list;
};

/*
 * enum page_field, enum page_layout_id, MAX_STRUCT_PAGE_SIZE and the
 * macros below that fill the layouts' tables: generated from
 * manifest/layouts.yaml, the layouts' one definition (tools/manifest).
 */
#include "page_layouts.h"

struct page_layout {
	enum page_layout_id id;
	const char *name;	/* "64", "80-kmsan", ... */
	const char *why;	/* the configuration that gives this size */
	unsigned int size;	/* sizeof(struct page), a multiple of 16 */
	/* Byte offset of each field; -1 where the layout has none. */
	s16 offset[NR_PAGE_FIELDS];
	/* last_cpupid in page->flags: its shift and width (0: not there) */
	u8 last_cpupid_pgshift;
	u8 last_cpupid_width;
	bool kmsan;
	bool size_option; /* the layout layout=<size> picks */
};

/*
 * The layouts, from manifest/layouts.yaml. The table is static const in the
 * header, not extern, so that code instantiated with a constant layout
 * sees constant offsets and a constant size. Each file therefore has its
 * own copy: compare layouts by ->id, never by address.
 */
static const struct page_layout page_layouts[NR_PAGE_LAYOUTS] __maybe_unused = {
	PAGE_LAYOUT_TABLE /* build/gen/page_layouts.h */
};

static __always_inline const struct page_layout *
page_layout(enum page_layout_id id)
{
	return &page_layouts[id];
}

/*
 * The layout a size means, the one whose size_option is set
 * (manifest/layouts.yaml: 80 is the LAST_CPUPID one, the only 80-byte
 * layout the template path runs on in the kernel). NULL for any other
 * size.
 */
const struct page_layout *page_layout_for_size(unsigned int size);
const struct page_layout *page_layout_find(const char *name);

/* page + n, with the layout's stride. */
static __always_inline struct page *nth_page(const struct page_layout *l,
					     struct page *page,
					     unsigned long n)
{
	return (struct page *)((char *)page + n * l->size);
}

static __always_inline void *page_field_ptr(const struct page_layout *l,
					    struct page *page,
					    enum page_field f)
{
	return (char *)page + l->offset[f];
}

/* The kernel's name of a field ("flags", "_refcount", ...). */
const char *page_field_name(enum page_field f);
/* Its width in bytes (8, or 4 for the atomics and _last_cpupid). */
unsigned int page_field_width(enum page_field f);

/*
 * Which field of @l covers byte @offset of a struct page: the field, or
 * NR_PAGE_FIELDS for padding. @start receives the field's first byte.
 */
enum page_field page_field_at(const struct page_layout *l,
			      unsigned int offset, unsigned int *start);

/* The page->flags value of a page linked to @zone of node @nid. */
static __always_inline unsigned long page_links(unsigned long zone, int nid)
{
	return ((zone & ZONES_MASK) << ZONES_PGSHIFT) |
	       (((unsigned long)nid & NODES_MASK) << NODES_PGSHIFT);
}

static __always_inline unsigned long page_zonenum_of(unsigned long flags)
{
	return (flags >> ZONES_PGSHIFT) & ZONES_MASK;
}

static __always_inline int page_to_nid_of(unsigned long flags)
{
	return (int)((flags >> NODES_PGSHIFT) & NODES_MASK);
}

#endif
