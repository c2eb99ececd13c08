// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's side of the kernel memmap runner: compiled by the kernel's
 * own build (tools/kernel-object copies it into the tree's mm/), with its
 * configuration, flags and headers, so that every structure it lays out
 * is the kernel's own. It stands for what nd_pfn_init(), memremap_pages()
 * and the boot leave behind before memmap_init_zone_device() runs, and
 * defines the few variables of the rest of the kernel that the path
 * reads. docs/kernel-memmap.md says which code is the kernel's and which
 * is this file's.
 */
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/pageblock-flags.h>
#include <linux/string.h>
#include <asm/processor.h>
#include "ntb_kmemmap_glue.h" /* glue.h, copied beside it */

/*
 * Variables of the parts of the kernel that are not linked: the
 * vmemmap's base (the runner points it at its buffer), the sparse
 * sections (mm/sparse.c), the jiffies counter (read for pr_debug()'s
 * time only) and the boot CPU's features (head64.c, common.c), zeroed:
 * the runner's patched alternatives answer every static_cpu_has() on the
 * path (4- or 5-level paging among them) before any of this runs.
 */
unsigned long vmemmap_base;
struct mem_section **mem_section;
unsigned long volatile jiffies;
struct cpuinfo_x86 boot_cpu_data;

static struct pglist_data ntb_pgdat;
static struct dev_pagemap ntb_pgmap;
/* The call ntb_kmemmap_setup() prepared. */
static unsigned long ntb_start_pfn, ntb_nr_pages;

static unsigned long nr_roots(void)
{
	return NR_SECTION_ROOTS;
}

static unsigned long usage_bytes(void)
{
	return sizeof(struct mem_section_usage) +
	       BITS_TO_LONGS(SECTION_BLOCKFLAGS_BITS) * sizeof(unsigned long);
}

unsigned long ntb_kmemmap_arena_bytes(unsigned long start_pfn,
				      unsigned long nr_pages)
{
	unsigned long first = pfn_to_section_nr(start_pfn);
	unsigned long last = pfn_to_section_nr(start_pfn + nr_pages - 1);
	unsigned long roots =
		SECTION_NR_TO_ROOT(last) - SECTION_NR_TO_ROOT(first) + 1;

	return nr_roots() * sizeof(struct mem_section *) +
	       roots * SECTIONS_PER_ROOT * sizeof(struct mem_section) +
	       (last - first + 1) * ALIGN(usage_bytes(), sizeof(long));
}

static void *arena_take(char **arena, unsigned long *left, unsigned long n)
{
	void *p = *arena;

	n = ALIGN(n, sizeof(long));
	if (n > *left)
		return NULL;
	*arena += n;
	*left -= n;
	return p;
}

/*
 * The sections of pfns start..start+nr as sparse_add_section() leaves
 * them for hotplugged memory: a root table, a usage with its pageblock
 * bitmap, and no SECTION_IS_EARLY (compound_nr_pages() reads it). The
 * caller has checked that every section has a root.
 */
static int sections_init(unsigned long start_pfn, unsigned long nr_pages,
			 char *arena, unsigned long left)
{
	unsigned long nr, last = pfn_to_section_nr(start_pfn + nr_pages - 1);

	mem_section = arena_take(&arena, &left,
				 nr_roots() * sizeof(struct mem_section *));
	if (!mem_section)
		return -1;
	for (nr = pfn_to_section_nr(start_pfn); nr <= last; nr++) {
		unsigned long root = SECTION_NR_TO_ROOT(nr);
		struct mem_section *ms;

		if (!mem_section[root]) {
			mem_section[root] = arena_take(
				&arena, &left,
				SECTIONS_PER_ROOT * sizeof(struct mem_section));
			if (!mem_section[root])
				return -1;
		}
		ms = __nr_to_section(nr);
		ms->usage = arena_take(&arena, &left, usage_bytes());
		if (!ms->usage)
			return -1;
	}
	return 0;
}

int ntb_kmemmap_setup(unsigned long start_pfn, unsigned long nr_pages,
		      unsigned long order, int type, int nid, int altmap,
		      unsigned long reserve, unsigned long free, void *arena,
		      unsigned long arena_bytes, char *why, unsigned long len)
{
	struct zone *zone = &ntb_pgdat.node_zones[ZONE_DEVICE];
	/*
	 * __nvdimm_setup_pfn()'s altmap: init_altmap_base() aligns its base
	 * down to a subsection and init_altmap_reserve() adds what that
	 * took to the reserve. alloc is vmemmap_populate()'s, not read here.
	 */
	unsigned long base_pfn = SUBSECTION_ALIGN_DOWN(start_pfn);
	const struct vmem_altmap am = {
		.base_pfn = base_pfn,
		.end_pfn = start_pfn + nr_pages - 1,
		.reserve = reserve + start_pfn - base_pfn,
		.free = free,
	};

	if (type < MEMORY_DEVICE_PRIVATE || type > MEMORY_DEVICE_PCI_P2PDMA) {
		snprintf(why, len, "memory type %d is not one of 6.12's", type);
		return -1;
	}
	if (!nr_pages || order > PFN_SECTION_SHIFT + 3) {
		snprintf(why, len, "no pages, or order %lu too big", order);
		return -1;
	}
	if (pfn_to_section_nr(start_pfn + nr_pages - 1) >=
	    nr_roots() * SECTIONS_PER_ROOT) {
		snprintf(why, len,
			 "pfns %#lx+%lu lie past the last section "
			 "(MAX_PHYSMEM_BITS %d)",
			 start_pfn, nr_pages, MAX_PHYSMEM_BITS);
		return -1;
	}
	if (sections_init(start_pfn, nr_pages, arena, arena_bytes)) {
		snprintf(why, len,
			 "the sections of pfns %#lx+%lu do not fit "
			 "the arena",
			 start_pfn, nr_pages);
		return -1;
	}
	ntb_pgdat.node_id = nid;
	zone->zone_pgdat = &ntb_pgdat;
	memset(&ntb_pgmap, 0, sizeof(ntb_pgmap));
	ntb_pgmap.type = type;
	ntb_pgmap.vmemmap_shift = order;
	ntb_pgmap.nr_range = 1;
	ntb_pgmap.range.start = PFN_PHYS(start_pfn);
	ntb_pgmap.range.end = PFN_PHYS(start_pfn + nr_pages) - 1;
	if (altmap) {
		memcpy(&ntb_pgmap.altmap, &am, sizeof(am));
		ntb_pgmap.flags |= PGMAP_ALTMAP_VALID;
	}
	ntb_start_pfn = start_pfn;
	ntb_nr_pages = nr_pages;
	return 0;
}

void ntb_kmemmap_call(void)
{
	memmap_init_zone_device(&ntb_pgdat.node_zones[ZONE_DEVICE],
				ntb_start_pfn, ntb_nr_pages, &ntb_pgmap);
}

void ntb_kmemmap_pageblocks_reset(void)
{
	unsigned long nr = pfn_to_section_nr(ntb_start_pfn);
	unsigned long last =
		pfn_to_section_nr(ntb_start_pfn + ntb_nr_pages - 1);

	for (; nr <= last; nr++)
		memset(__nr_to_section(nr)->usage->pageblock_flags, 0,
		       BITS_TO_LONGS(SECTION_BLOCKFLAGS_BITS) *
			       sizeof(unsigned long));
}

void *ntb_kmemmap_pgmap(void)
{
	return &ntb_pgmap;
}

unsigned long ntb_kmemmap_page_size(void)
{
	return sizeof(struct page);
}

long ntb_kmemmap_stack_canary_offset(void)
{
#ifdef CONFIG_STACKPROTECTOR
	return offsetof(struct fixed_percpu_data, stack_canary);
#else
	return -1;
#endif
}

unsigned long ntb_kmemmap_pageblock_pages(void)
{
	return pageblock_nr_pages;
}

unsigned long ntb_kmemmap_pageblock_bits(unsigned long pfn)
{
	struct mem_section *ms = __pfn_to_section(pfn);

	if (!ms || !ms->usage)
		return ULONG_MAX;
	return get_pfnblock_flags_mask(pfn_to_page(pfn), pfn,
				       BIT(NR_PAGEBLOCK_BITS) - 1);
}
