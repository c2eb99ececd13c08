// SPDX-License-Identifier: GPL-2.0-only
/*
 * The project's harness around the model (not kernel code): the modelled
 * namespace memmap, its configuration and memory, the strategy table
 * generated from manifest/strategies.yaml, the configurations the kernel
 * cannot reach, and memmap_verify(), which checks a memmap against a model of
 * the result written down field by field from the kernel's rules, not by
 * running the code that wrote it.
 */
#include "model/memmap.h"
#include "arch/x86/lib/copy_variant.h"
#include "include/platform.h"
#include "lib/options.h"
#include "lib/prandom.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/mm/internal.h"
#include "model/mm/mm_init.h"

/*
 * Each entry refers to its copy variant's symbol: a misspelt variant name
 * in the list is an undefined symbol, and the link fails. How the variant
 * is named follows the entry's write column.
 */
#define MEMMAP_VDECL_none(v)
#define MEMMAP_VDECL_copy(v)                                                 \
	extern const struct copy_variant __copy_variant_##v;
#define MEMMAP_VDECL_copy_sized(v)                                           \
	extern const struct copy_variant __copy_variant_##v##_64;
#define MEMMAP_VDECL_fill(v)                                                 \
	extern const struct copy_variant __copy_variant_tmpl_##v##_64;
#define MEMMAP_VREF_none(v)
#define MEMMAP_VREF_copy(v) &__copy_variant_##v,
#define MEMMAP_VREF_copy_sized(v) &__copy_variant_##v##_64,
#define MEMMAP_VREF_fill(v) &__copy_variant_tmpl_##v##_64,
#define MEMMAP_VNAME_none(v) NULL
#define MEMMAP_VNAME_copy(v) #v
#define MEMMAP_VNAME_copy_sized(v) #v "_%u"
#define MEMMAP_VNAME_fill(v) "tmpl_" #v "_%u"

#define MEMMAP_STRATEGY_VDECL(name, COPY, w, v, ...) MEMMAP_VDECL_##w(v)
MEMMAP_STRATEGIES(MEMMAP_STRATEGY_VDECL)

#define MEMMAP_STRATEGY_VREF(name, COPY, w, v, ...) MEMMAP_VREF_##w(v)
static const struct copy_variant *const memmap_variant_refs[] __used = {
	MEMMAP_STRATEGIES(MEMMAP_STRATEGY_VREF) NULL
};

#define MEMMAP_STRATEGY_ENTRY(n, COPY, w, v, is_nt, l, o, d)                 \
	{ .name = #n, .desc = d, .copy = MEMMAP_##COPY,                        \
	  .variant = MEMMAP_VNAME_##w(v), .nt = is_nt, .layouts = l,          \
	  .origin = o },
const struct memmap_strategy memmap_strategies[] = {
	MEMMAP_STRATEGIES(MEMMAP_STRATEGY_ENTRY)
};

const unsigned int memmap_nr_strategies = ARRAY_SIZE(memmap_strategies);

const char *memmap_strategy_name_at(unsigned int i)
{
	return i < memmap_nr_strategies ? memmap_strategies[i].name : NULL;
}

const struct memmap_strategy *memmap_strategy_find(const char *name)
{
	const struct memmap_strategy *s;

	if (!name)
		name = "slow";
	for_each_memmap_strategy(s)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

const char *memmap_unreachable(const struct memmap_strategy *s,
			       const struct page_layout *l, char *buf,
			       size_t len)
{
	const char *layout = NULL, *path = NULL, *own = NULL;

	if (l->offset[PAGE_FIELD_LAST_CPUPID] >= 0)
		layout = "last_cpupid out of page->flags cannot happen on "
			 "x86_64 with ZONE_DEVICE (SPARSEMEM_VMEMMAP leaves "
			 "room for it in page->flags)";
	if (s->copy != MEMMAP_SLOW && l->kmsan)
		path = "the series keeps KASAN/KMSAN builds on the slow path";
	if (s->origin == MEMMAP_OWN)
		own = "the project's own strategy, beyond the kernel and the "
		      "series";
	if (!layout && !path && !own)
		return NULL;
	ntb_snprintf(buf, len, "%s%s%s%s%s", layout ? layout : "",
		     layout && (path || own) ? "; " : "", path ? path : "",
		     path && own ? "; " : "", own ? own : "");
	return buf;
}

/* The largest power of two every struct page address is a multiple of. */
static unsigned int page_address_align(const struct page_layout *l)
{
	return l->size & -l->size;
}

bool memmap_strategy_usable(const struct memmap_strategy *s,
			    const struct page_layout *l, char *why,
			    size_t len)
{
	const struct copy_variant *v;
	char name[32];

	if (len)
		why[0] = '\0';
	if (s->variant) {
		ntb_snprintf(name, sizeof(name), s->variant, l->size);
		v = copy_variant_find(name);
		if (!v) {
			ntb_snprintf(why, len, "no copy variant %s", name);
			return false;
		}
		if (!copy_variant_usable(v, why, len))
			return false;
		if (l->size < v->min_size ||
		    l->size > copy_variant_max_size(v) ||
		    l->size % copy_variant_size_step(v) ||
		    page_address_align(l) % copy_variant_dst_align(v)) {
			ntb_snprintf(why, len,
				     "%s does not serve %u-byte struct pages",
				     name, l->size);
			return false;
		}
	}
	if (!memmap_init_lookup(s->copy, l->id, MODEL_KERNEL_BASE, false)) {
		ntb_snprintf(why, len, "%s not built for the %s layout",
			     s->name, l->name);
		return false;
	}
	return true;
}

int memmap_mode_order(u32 mode)
{
	switch (mode) {
	case MODE_FSDAX:
		return MEMMAP_ORDER_FSDAX;
	case MODE_DEVDAX2M:
		return MEMMAP_ORDER_DEVDAX_2M;
	case MODE_DEVDAX1G:
		return MEMMAP_ORDER_DEVDAX_1G;
	default:
		return -1;
	}
}

const char *memmap_mode_name(unsigned int order)
{
	switch (order) {
	case MEMMAP_ORDER_FSDAX:
		return "fsdax";
	case MEMMAP_ORDER_DEVDAX_2M:
		return "devdax2m";
	case MEMMAP_ORDER_DEVDAX_1G:
		return "devdax1g";
	default:
		return "devdax";
	}
}

void memmap_config_init(struct memmap_config *cfg, enum page_layout_id layout,
			unsigned int order, enum memory_type type,
			unsigned long start_pfn, unsigned long nr_pages)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->layout = layout;
	cfg->order = order;
	cfg->type = type;
	cfg->start_pfn = start_pfn;
	cfg->nr_pages = nr_pages;
	cfg->strategy = "slow";
	cfg->drain = true;
	cfg->vmemmap_optimize = true;
	cfg->kmsan = layout < NR_PAGE_LAYOUTS && page_layout(layout)->kmsan;
}

int memmap_config_namespace(struct memmap_config *cfg,
			    enum page_layout_id layout, unsigned int order,
			    u64 bytes, enum nd_pfn_mode map, char *unreachable,
			    size_t len)
{
	const struct page_layout *l = page_layout(layout);
	/* nd_pfn_default_alignment(), or the 1 GiB a devdax1g namespace asks */
	u64 align = order == MEMMAP_ORDER_DEVDAX_1G ? SZ_1G : SZ_2M;
	struct nd_pfn_layout nd;
	u64 start;
	char why[200];

	memmap_config_init(cfg, layout, order,
			   order ? MEMORY_DEVICE_GENERIC : MEMORY_DEVICE_FS_DAX,
			   MEMMAP_DEFAULT_START_PFN, bytes >> PAGE_SHIFT);
	cfg->map = map;
	start = (u64)cfg->start_pfn << PAGE_SHIFT;
	unreachable[0] = '\0';
	if (nd_pfn_layout(map, start, bytes, align, l->size, l->kmsan, &nd, why,
			  sizeof(why))) {
		/* The kernel refuses: lay it out as CONFIG_NVDIMM_KMSAN would. */
		ntb_snprintf(unreachable, len, "%s", why);
		if (nd_pfn_layout(map, start, bytes, align, l->size, true, &nd,
				  why, sizeof(why))) {
			ntb_snprintf(unreachable, len, "%s", why);
			return -1;
		}
	}
	/* __nvdimm_setup_pfn(): the range ends at the cut end */
	cfg->end_trunc = nd.end_trunc;
	cfg->nr_pages = (bytes - nd.end_trunc) >> PAGE_SHIFT;
	if (map != PFN_MODE_PMEM)
		return 0;
	cfg->altmap = true;
	cfg->altmap_reserve = nd.reserve;
	cfg->altmap_free = nd.free;
	/* vmemmap_can_optimize(): never with an altmap */
	cfg->vmemmap_optimize = false;
	return 0;
}

/* Where device pages start: after the altmap's reserve and free pfns. */
static unsigned long memmap_first_pfn(const struct memmap_config *cfg)
{
	if (!cfg->altmap)
		return cfg->start_pfn;
	return cfg->start_pfn + cfg->altmap_reserve + cfg->altmap_free;
}

bool memmap_kernel_refuses(enum model_kernel k, const struct memmap_strategy *s,
			   const struct page_layout *l, char *why, size_t len)
{
	if (k >= NR_MODEL_KERNELS) {
		ntb_snprintf(why, len, "no kernel %d", k);
		return true;
	}
	if (k == MODEL_KERNEL_BASE)
		return false;
	if (s && s->origin == MEMMAP_OWN) {
		ntb_snprintf(why, len,
			     "kernel=%s has the slow path and the series' "
			     "strategies only (patches/6.12/series/): %s is "
			     "the project's own, not the series",
			     model_kernel_name(k), s->name);
		return true;
	}
	if (l && l->id != PAGE_LAYOUT_64) {
		ntb_snprintf(why, len,
			     "kernel=%s is modelled on the 64-byte struct "
			     "page of Debian's configuration only, not %u "
			     "bytes (%s)",
			     model_kernel_name(k), l->size, l->name);
		return true;
	}
	return false;
}

int memmap_config_check(const struct memmap_config *cfg, char *why,
			size_t len)
{
	unsigned long first, nr, tail;

	if (cfg->layout >= NR_PAGE_LAYOUTS) {
		ntb_snprintf(why, len, "no struct page layout %d", cfg->layout);
		return -1;
	}
	if (cfg->order > 20) {
		ntb_snprintf(why, len, "folio order %u too large", cfg->order);
		return -1;
	}
	if (cfg->type < MEMORY_TYPE_FIRST || cfg->type > MEMORY_TYPE_LAST) {
		ntb_snprintf(why, len, "no memory type %d", cfg->type);
		return -1;
	}
	if (!cfg->nr_pages || cfg->start_pfn + cfg->nr_pages < cfg->start_pfn) {
		ntb_snprintf(why, len, "empty or wrapping pfn range");
		return -1;
	}
	if (cfg->nid < 0 || (unsigned long)cfg->nid > NODES_MASK) {
		ntb_snprintf(why, len, "node %d does not fit page->flags",
			     cfg->nid);
		return -1;
	}
	first = memmap_first_pfn(cfg);
	if (first >= cfg->start_pfn + cfg->nr_pages) {
		ntb_snprintf(why, len, "the altmap covers the whole range");
		return -1;
	}
	/*
	 * A folio cut by the end of the range must keep the struct pages
	 * prep_compound_head() writes.
	 */
	nr = cfg->start_pfn + cfg->nr_pages - first;
	tail = nr & ((1UL << cfg->order) - 1);
	if (cfg->order && tail && tail < (cfg->order > 1 ? 3u : 2u)) {
		ntb_snprintf(why, len,
			     "the last folio keeps %lu struct pages: too few",
			     tail);
		return -1;
	}
	if (!memmap_strategy_find(cfg->strategy)) {
		ntb_snprintf(why, len, "no strategy %s", cfg->strategy);
		return -1;
	}
	if (memmap_kernel_refuses(cfg->kernel,
				  memmap_strategy_find(cfg->strategy),
				  page_layout(cfg->layout), why, len))
		return -1;
	if (cfg->compound_info_mask &&
	    !kernel_value(cfg->kernel, KDIFF_COMPOUND_INFO_MASK)) {
		ntb_snprintf(why, len,
			     "kernel=%s has no mask form of compound_head",
			     model_kernel_name(cfg->kernel));
		return -1;
	}
	return 0;
}

size_t memmap_line_offset(const struct memmap_config *cfg)
{
	return (size_t)(cfg->start_pfn * page_layout(cfg->layout)->size) & 63;
}

size_t memmap_bytes(const struct memmap_config *cfg)
{
	return memmap_line_offset(cfg) +
	       (size_t)cfg->nr_pages * page_layout(cfg->layout)->size;
}

int memmap_set_strategy(struct memmap *m, const char *name, char *why,
			size_t len)
{
	const struct memmap_strategy *s = memmap_strategy_find(name);

	if (!s) {
		ntb_snprintf(why, len, "no strategy %s", name);
		return -1;
	}
	if (!memmap_strategy_usable(s, m->layout, why, len) ||
	    memmap_kernel_refuses(m->cfg.kernel, s, m->layout, why, len))
		return -1;
	m->strategy = s;
	m->cfg.strategy = s->name;
	m->init = memmap_init_lookup(s->copy, m->layout->id, m->cfg.kernel,
				     false);
	m->init_checked =
		memmap_init_lookup(s->copy, m->layout->id, m->cfg.kernel, true);
	return 0;
}

int memmap_create(struct memmap *m, const struct memmap_config *cfg,
		  void *buf, size_t buf_bytes, char *why, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->poison = -1;
	if (memmap_config_check(cfg, why, len))
		return -1;
	m->cfg = *cfg;
	m->layout = page_layout(cfg->layout);
	if (page_layout_for_size(m->layout->size)->size != m->layout->size) {
		ntb_snprintf(why, len, "layout table inconsistent");
		return -1;
	}
	m->base_pfn = cfg->start_pfn;
	m->nr_pfns = cfg->nr_pages;
	m->bytes = (size_t)cfg->nr_pages * m->layout->size;

	m->pgmap.type = cfg->type;
	m->pgmap.vmemmap_shift = cfg->order;
	if (cfg->altmap) {
		m->pgmap.flags |= PGMAP_ALTMAP_VALID;
		m->pgmap.altmap.base_pfn = cfg->start_pfn;
		m->pgmap.altmap.end_pfn = cfg->start_pfn + cfg->nr_pages - 1;
		m->pgmap.altmap.reserve = cfg->altmap_reserve;
		m->pgmap.altmap.free = cfg->altmap_free;
		m->pgmap.altmap.alloc = cfg->altmap_free;
	}

	if (memmap_set_strategy(m, cfg->strategy, why, len))
		return -1;

	if (buf) {
		if (buf_bytes < memmap_bytes(cfg) ||
		    !IS_ALIGNED((uptr)buf, 64)) {
			ntb_snprintf(why, len,
				     "memmap buffer too small or unaligned");
			return -1;
		}
		m->pages = (struct page *)((char *)buf +
					   memmap_line_offset(cfg));
	} else {
		m->alloc_bytes = memmap_bytes(cfg);
		m->alloc = plat_alloc_aligned(m->alloc_bytes, PAGE_SIZE);
		if (!m->alloc) {
			ntb_snprintf(why, len,
				     "no memory for %zu bytes of memmap",
				     m->alloc_bytes);
			return -1;
		}
		m->pages = (struct page *)((char *)m->alloc +
					   memmap_line_offset(cfg));
		m->own_pages = true;
	}
	if (pageblock_flags_alloc(&m->pageblocks, cfg->start_pfn,
				  cfg->start_pfn + cfg->nr_pages,
				  cfg->kernel)) {
		memmap_destroy(m);
		ntb_snprintf(why, len, "no memory for the pageblock flags");
		return -1;
	}
	return 0;
}

void memmap_destroy(struct memmap *m)
{
	pageblock_flags_free(&m->pageblocks);
	if (m->own_pages && m->alloc)
		plat_free(m->alloc, m->alloc_bytes);
	m->alloc = NULL;
	m->pages = NULL;
	m->own_pages = false;
}

void memmap_poison(struct memmap *m, u8 byte)
{
	memmap_poison_with(m, byte, NULL);
}

void memmap_poison_with(struct memmap *m, u8 byte,
			void (*fill)(void *dst, u8 byte, size_t n))
{
	if (fill)
		fill(m->pages, byte, m->bytes);
	else
		memset(m->pages, byte, m->bytes);
	pageblock_flags_clear(&m->pageblocks);
	m->poison = byte;
}

/* What one run reports starts from nothing. */
static void memmap_run_reset(struct memmap *m)
{
	memset(m->drains, 0, sizeof(m->drains));
	m->nr_initialised = 0;
}

void memmap_run(struct memmap *m)
{
	memmap_run_reset(m);
	memmap_init_zone_device(m, m->cfg.start_pfn, m->cfg.nr_pages,
				&m->pgmap);
}

void memmap_run_plain(struct memmap *m)
{
	memmap_run_reset(m);
	m->init(m, m->cfg.start_pfn, m->cfg.nr_pages, &m->pgmap);
}

unsigned long memmap_nr_heads(const struct memmap *m)
{
	unsigned long nr = m->base_pfn + m->nr_pfns - memmap_first_pfn(&m->cfg);

	return (nr + (1UL << m->cfg.order) - 1) >> m->cfg.order;
}

/* ---------------------------------------------------------------------
 * The model
 */

union page_buf {
	struct page page;
	u8 bytes[MAX_STRUCT_PAGE_SIZE];
};

static struct page *memmap_page(const struct memmap *m, unsigned long pfn)
{
	return (struct page *)((char *)m->pages +
			       (pfn - m->base_pfn) * m->layout->size);
}

/* Struct pages of a folio that get written (vmemmap_can_optimize()). */
static unsigned long model_unique_pages(const struct memmap *m)
{
	const struct page_layout *l = m->layout;
	unsigned long nr = 1UL << m->cfg.order;
	bool pow2 = !(l->size & (l->size - 1));

	if (!m->cfg.vmemmap_optimize || !pow2 || m->cfg.altmap ||
	    (nr * l->size) / PAGE_SIZE <= 2)
		return nr;
	return 2 * (PAGE_SIZE / l->size);
}

unsigned long memmap_pages_written(const struct memmap *m)
{
	unsigned long first = memmap_first_pfn(&m->cfg);
	unsigned long end = m->base_pfn + m->nr_pfns;
	unsigned long folio = 1UL << m->cfg.order, unique, total = 0;

	if (folio == 1)
		return end - first;
	unique = model_unique_pages(m);
	/* Whole folios write @unique struct pages; a cut one up to its end. */
	for (unsigned long head = first; head < end; head += folio)
		total += min(unique, end - head);
	return total;
}

/* What a tail's compound_head holds. */
static unsigned long model_compound_head(const struct memmap *m,
					 unsigned long head_pfn)
{
	unsigned int size = m->layout->size;

	if (m->cfg.compound_info_mask && !(size & (size - 1)))
		return (~0UL << (m->cfg.order + __builtin_ctz(size))) | 1;
	return (unsigned long)memmap_page(m, head_pfn) + 1;
}

/*
 * The refcount of a head as the model's kernel leaves it: 1 from
 * init_page_count(), 0 where __init_zone_device_page() sets it
 * (model/kernels.h: REFCOUNT_*).
 */
static int model_head_refcount(const struct memmap *m)
{
	switch (m->cfg.type) {
	case MEMORY_DEVICE_GENERIC:
		return 1;
	case MEMORY_DEVICE_FS_DAX:
		return kernel_value(m->cfg.kernel, KDIFF_REFCOUNT_FS_DAX);
	case MEMORY_DEVICE_PCI_P2PDMA:
		return kernel_value(m->cfg.kernel, KDIFF_REFCOUNT_P2PDMA);
	case MEMORY_DEVICE_PRIVATE:
	case MEMORY_DEVICE_COHERENT:
		break;
	}
	return 0;
}

static void model_page(const struct memmap *m, union page_buf *out,
		       unsigned long head_pfn, unsigned long idx)
{
	const enum model_kernel k = m->cfg.kernel;
	const struct page_layout *l = m->layout;
	struct page *p = &out->page;
	unsigned int order = m->cfg.order;
	unsigned long flags;

	memset(out, 0, sizeof(*out));

	/* zone and node; PG_reserved; last_cpupid all ones */
	flags = page_links(ZONE_DEVICE, m->cfg.nid) | (1UL << PG_reserved);
	if (l->last_cpupid_width)
		flags |= LAST_CPUPID_MASK << l->last_cpupid_pgshift;
	else
		*(int *)page_field_ptr(l, p, PAGE_FIELD_LAST_CPUPID) =
			(int)LAST_CPUPID_MASK;
	p->_mapcount = -1;
	/* mapping, index, private, memcg_data, kmsan_*: 0 */

	if (!idx) {
		if (order)
			flags |= 1UL << PG_head;
		p->pgmap = (struct dev_pagemap *)&m->pgmap;
		p->zone_device_data = NULL;
		p->_refcount = model_head_refcount(m);
	} else {
		p->compound_head = model_compound_head(m, head_pfn);
		p->mapping = (void *)TAIL_MAPPING;
		p->_refcount = 0;
	}
	p->flags = flags;

	if (idx == 1) {
		struct folio_page1 *f1 = (struct folio_page1 *)p;

		f1->_flags_1 = (f1->_flags_1 & ~0xffUL) | order;
		f1->_large_mapcount = -1;
		f1->_pincount = 0;
		kernel_folio_set_int(k, f1, KDIFF_FOLIO_NR_PAGES_MAPPED, 0);
		kernel_folio_set_int(k, f1, KDIFF_FOLIO_ENTIRE_MAPCOUNT, -1);
		kernel_folio_set_mm_id(k, f1);
		kernel_folio_set_int(k, f1, KDIFF_FOLIO_NR_PAGES, 1 << order);
	} else if (idx == 2 && order > 1 &&
		   !kernel_value(k, KDIFF_PREP_HEAD_AFTER_FIRST_TAIL)) {
		/*
		 * Where prep_compound_head() runs after the second tail's
		 * own initialisation, its _deferred_list stays; 6.12 runs it
		 * before, and tail 2 keeps its own fields.
		 */
		struct folio_page2 *f2 = (struct folio_page2 *)p;
		struct folio_page2 *real =
			(struct folio_page2 *)memmap_page(m, head_pfn + 2);

		f2->_deferred_list.next = &real->_deferred_list;
		f2->_deferred_list.prev = &real->_deferred_list;
	}
}

enum memmap_role memmap_expected_page(const struct memmap *m,
				      unsigned long pfn, void *out,
				      unsigned long *head_pfn,
				      unsigned long *idx)
{
	unsigned long first = memmap_first_pfn(&m->cfg);
	unsigned long end = m->base_pfn + m->nr_pfns;
	unsigned long head, i, nr;
	union page_buf buf;

	if (pfn < first) {
		if (head_pfn)
			*head_pfn = pfn;
		if (idx)
			*idx = 0;
		return MEMMAP_ROLE_SKIPPED;
	}
	head = first + (((pfn - first) >> m->cfg.order) << m->cfg.order);
	i = pfn - head;
	nr = min(model_unique_pages(m), end - head);
	if (head_pfn)
		*head_pfn = head;
	if (idx)
		*idx = i;
	if (i >= nr)
		return MEMMAP_ROLE_SHARED;
	model_page(m, &buf, head, i);
	memcpy(out, buf.bytes, m->layout->size);
	return i ? MEMMAP_ROLE_TAIL : MEMMAP_ROLE_HEAD;
}

/* ---------------------------------------------------------------------
 * memmap_verify()
 */

struct named_field {
	u8 offset, width;
	const char *name;
};

static const struct named_field folio_page1_fields[] = {
	{ 0, 8, "_flags_1" },		{ 8, 8, "compound_head" },
	{ 16, 4, "_large_mapcount" },	{ 20, 4, "_nr_pages_mapped" },
	{ 24, 4, "_entire_mapcount" },	{ 28, 4, "_pincount" },
	{ 32, 4, "_mm_id_mapcount[0]" }, { 36, 4, "_mm_id_mapcount[1]" },
	{ 40, 8, "_mm_ids" },		{ 48, 4, "_mapcount" },
	{ 52, 4, "_refcount" },		{ 56, 4, "_nr_pages" },
	{ 60, 4, "memcg_data" },
};

/* 6.12's first tail (model/kernels.h: FOLIO_*). */
static const struct named_field folio_page1_fields_v6_12[] = {
	{0, 8, "_flags_1"},
	{8, 8, "compound_head"},
	{16, 4, "_large_mapcount"},
	{KDIFF_6_12_FOLIO_ENTIRE_MAPCOUNT, 4, "_entire_mapcount"},
	{KDIFF_6_12_FOLIO_NR_PAGES_MAPPED, 4, "_nr_pages_mapped"},
	{28, 4, "_pincount"},
	{KDIFF_6_12_FOLIO_NR_PAGES, 4, "_folio_nr_pages"},
	{36, 4, "index"},
	{40, 8, "private"},
	{48, 4, "_mapcount"},
	{52, 4, "_refcount"},
	{56, 8, "memcg_data"},
};

static const struct named_field folio_page2_fields[] = {
	{ 8, 8, "compound_head" },
	{ 16, 8, "_deferred_list.next" },
	{ 24, 8, "_deferred_list.prev" },
};

static const struct named_field head_fields[] = {
	{ 8, 8, "pgmap" },
	{ 16, 8, "zone_device_data" },
};

static const struct named_field tail_fields[] = {
	{ 8, 8, "compound_head" },
	{ 16, 8, "zone_device_data" },
};

static bool named_field_at(const struct named_field *f, size_t n,
			   unsigned int offset, struct memmap_report *r)
{
	for (size_t i = 0; i < n; i++) {
		if (offset >= f[i].offset &&
		    offset < (unsigned int)f[i].offset + f[i].width) {
			r->offset = f[i].offset;
			r->width = f[i].width;
			r->field = f[i].name;
			return true;
		}
	}
	return false;
}

static void name_field(const struct memmap *m, enum memmap_role role,
		       unsigned long idx, unsigned int offset,
		       struct memmap_report *r)
{
	unsigned int start;
	enum page_field f;

	if (role == MEMMAP_ROLE_HEAD &&
	    named_field_at(head_fields, ARRAY_SIZE(head_fields), offset, r))
		return;
	if (role == MEMMAP_ROLE_TAIL && idx == 1 &&
	    m->cfg.kernel == MODEL_KERNEL_6_12 &&
	    named_field_at(folio_page1_fields_v6_12,
			   ARRAY_SIZE(folio_page1_fields_v6_12), offset, r))
		return;
	if (role == MEMMAP_ROLE_TAIL && idx == 1 &&
	    named_field_at(folio_page1_fields, ARRAY_SIZE(folio_page1_fields),
			   offset, r))
		return;
	if (role == MEMMAP_ROLE_TAIL && idx == 2 && m->cfg.order > 1 &&
	    !kernel_value(m->cfg.kernel, KDIFF_PREP_HEAD_AFTER_FIRST_TAIL) &&
	    named_field_at(folio_page2_fields, ARRAY_SIZE(folio_page2_fields),
			   offset, r))
		return;
	if (role == MEMMAP_ROLE_TAIL &&
	    named_field_at(tail_fields, ARRAY_SIZE(tail_fields), offset, r))
		return;
	f = page_field_at(m->layout, offset, &start);
	r->offset = start;
	r->width = page_field_width(f);
	r->field = page_field_name(f);
}

static u64 read_le(const u8 *p, unsigned int width)
{
	u64 v = 0;

	for (unsigned int i = 0; i < width; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

static const char *role_name(enum memmap_role role, unsigned long idx)
{
	switch (role) {
	case MEMMAP_ROLE_SKIPPED:
		return "altmap pfn, untouched";
	case MEMMAP_ROLE_HEAD:
		return "head";
	case MEMMAP_ROLE_SHARED:
		return "shared tail, untouched";
	case MEMMAP_ROLE_TAIL:
		break;
	}
	if (idx == 1)
		return "tail 1";
	if (idx == 2)
		return "tail 2";
	return "tail";
}

/* Compare one struct page; on a difference fill @r and return false. */
static bool check_page(const struct memmap *m, unsigned long pfn,
		       enum memmap_role role, unsigned long idx,
		       const u8 *expected, struct memmap_report *r)
{
	const u8 *found = (const u8 *)memmap_page(m, pfn);
	unsigned int size = m->layout->size, off;

	r->pages_checked++;
	if (!memcmp(found, expected, size))
		return true;
	for (off = 0; off < size && found[off] == expected[off]; off++)
		;
	r->ok = false;
	r->pfn = pfn;
	r->byte = off;
	r->role = role_name(role, idx);
	name_field(m, role, idx, off, r);
	if (r->offset + r->width > size)
		r->width = size - r->offset;
	r->expected = read_le(expected + r->offset, r->width);
	r->found = read_le(found + r->offset, r->width);
	return false;
}

static bool check_untouched(const struct memmap *m, unsigned long pfn,
			    unsigned long nr, enum memmap_role role,
			    const u8 *poison, struct memmap_report *r)
{
	if (m->poison < 0)
		return true;
	for (; nr; nr--, pfn++)
		if (!check_page(m, pfn, role, 0, poison, r))
			return false;
	return true;
}

/* The model's bits of the pageblock of @pfn against @want. */
static bool check_pageblock(const struct memmap *m, unsigned long pfn,
			    unsigned long want, struct memmap_report *r)
{
	unsigned long bits = get_pfnblock_bits(&m->pageblocks, pfn);

	if (bits == want)
		return true;
	r->ok = false;
	r->pageblock = true;
	r->pfn = pfn;
	r->role = "pageblock";
	r->field = "migratetype";
	r->offset = 0;
	r->width = 1;
	r->expected = want;
	r->found = bits;
	return false;
}

static bool check_pageblocks(const struct memmap *m, struct memmap_report *r)
{
	unsigned long first = memmap_first_pfn(&m->cfg);
	unsigned long end = m->base_pfn + m->nr_pfns;
	unsigned long pfn = memmap_pageblocks_pfn(m);

	for (unsigned long i = 0; i < memmap_nr_pageblocks(m);
	     i++, pfn += pageblock_nr_pages)
		if (!check_pageblock(
			    m, pfn,
			    pfn >= first && pfn < end ? MIGRATE_MOVABLE : 0, r))
			return false;
	return true;
}

bool memmap_verify(const struct memmap *m, struct memmap_report *r)
{
	unsigned long first = memmap_first_pfn(&m->cfg);
	unsigned long end = m->base_pfn + m->nr_pfns;
	unsigned long per_folio = 1UL << m->cfg.order;
	unsigned long unique = model_unique_pages(m);
	union page_buf head, tail, poison;
	unsigned long h;

	memset(r, 0, sizeof(*r));
	r->ok = true;
	if (m->poison >= 0)
		memset(&poison, m->poison, sizeof(poison));

	if (!check_untouched(m, m->base_pfn, first - m->base_pfn,
			     MEMMAP_ROLE_SKIPPED, poison.bytes, r))
		return false;

	/* Heads are all alike; so are a folio's tails beyond the second. */
	model_page(m, &head, first, 0);
	for (h = first; h < end; h += per_folio) {
		unsigned long nr = min(per_folio, end - h);
		unsigned long written = min(unique, nr), i;

		if (!check_page(m, h, MEMMAP_ROLE_HEAD, 0, head.bytes, r))
			return false;
		if (per_folio == 1)
			continue;
		model_page(m, &tail, h, 3);
		for (i = 1; i < written; i++) {
			const u8 *want = tail.bytes;
			union page_buf special;

			if (i <= 2) {
				model_page(m, &special, h, i);
				want = special.bytes;
			}
			if (!check_page(m, h + i, MEMMAP_ROLE_TAIL, i, want, r))
				return false;
		}
		if (!check_untouched(m, h + written, nr - written,
				     MEMMAP_ROLE_SHARED, poison.bytes, r))
			return false;
	}
	return check_pageblocks(m, r);
}

void memmap_sample_pfns(const struct memmap *m, unsigned long *pfns,
			unsigned int nr, u64 *state)
{
	unsigned long first = memmap_first_pfn(&m->cfg);
	unsigned long end = m->base_pfn + m->nr_pfns;
	unsigned long heads = memmap_nr_heads(m);
	unsigned long unique = min(model_unique_pages(m), 1UL << m->cfg.order);

	for (unsigned int i = 0; i < nr; i++) {
		u64 r = prandom_u64(state);
		unsigned long pfn;

		if (i == 0) {
			pfn = m->base_pfn;		/* the edges */
		} else if (i == 1) {
			pfn = end - 1;
		} else if (i % 2 || !heads) {
			pfn = m->base_pfn + r % m->nr_pfns;
		} else {
			/* A folio's written struct pages: head or tail. */
			pfn = first + ((r % heads) << m->cfg.order) +
			      (r >> 40) % unique;
			if (pfn >= end)
				pfn = end - 1;
		}
		pfns[i] = pfn;
	}
}

void memmap_poison_pfns(struct memmap *m, const unsigned long *pfns,
			unsigned int nr)
{
	if (m->poison < 0)
		m->poison = MEMMAP_POISON_DEFAULT;
	for (unsigned int i = 0; i < nr; i++)
		memset(memmap_page(m, pfns[i]), m->poison, m->layout->size);
	pageblock_flags_clear(&m->pageblocks);
}

bool memmap_verify_pfns(const struct memmap *m, const unsigned long *pfns,
			unsigned int nr, struct memmap_report *r)
{
	union page_buf want, poison;

	memset(r, 0, sizeof(*r));
	r->ok = true;
	if (m->poison >= 0)
		memset(&poison, m->poison, sizeof(poison));
	for (unsigned int i = 0; i < nr; i++) {
		unsigned long idx;
		enum memmap_role role =
			memmap_expected_page(m, pfns[i], want.bytes, NULL, &idx);

		if (role == MEMMAP_ROLE_HEAD || role == MEMMAP_ROLE_TAIL) {
			if (!check_page(m, pfns[i], role, idx, want.bytes, r))
				return false;
		} else if (m->poison >= 0 &&
			   !check_page(m, pfns[i], role, idx, poison.bytes, r)) {
			return false;
		}
	}
	return check_pageblocks(m, r);
}

unsigned long memmap_pageblocks_pfn(const struct memmap *m)
{
	return m->pageblocks.first_section << PFN_SECTION_SHIFT;
}

unsigned long memmap_nr_pageblocks(const struct memmap *m)
{
	return (m->pageblocks.nr_sections << PFN_SECTION_SHIFT) /
	       pageblock_nr_pages;
}

/* A word of the kernel's memmap as it reads in the model's place. */
static u64 kernel_word_here(const struct memmap *m,
			    const struct memmap_kernel_run *k, u64 w)
{
	u64 end = k->pages_addr + (u64)m->nr_pfns * m->layout->size;

	if (w == k->pgmap_addr)
		return (u64)(uptr)&m->pgmap;
	if ((w & ~1ULL) >= k->pages_addr && (w & ~1ULL) < end)
		return w - k->pages_addr + (u64)(uptr)m->pages;
	return w;
}

/* The struct page of @pfn in @k against @m's: true, or false naming why. */
static bool compare_kernel_page(const struct memmap *m,
				const struct memmap_kernel_run *k,
				unsigned long pfn, struct memmap_report *r)
{
	unsigned int size = m->layout->size;
	union page_buf want, unused;
	enum memmap_role role;
	unsigned long idx = 0;

	memcpy(want.bytes, k->pages + (pfn - m->base_pfn) * size, size);
	for (unsigned int off = 0; off + 8 <= size; off += 8) {
		u64 w;

		memcpy(&w, want.bytes + off, 8);
		w = kernel_word_here(m, k, w);
		memcpy(want.bytes + off, &w, 8);
	}
	if (!memcmp(memmap_page(m, pfn), want.bytes, size)) {
		r->pages_checked++;
		return true;
	}
	/* only a difference needs the page's role: it names the field */
	role = memmap_expected_page(m, pfn, unused.bytes, NULL, &idx);
	return check_page(m, pfn, role, idx, want.bytes, r);
}

static bool compare_kernel_pageblocks(const struct memmap *m,
				      const struct memmap_kernel_run *k,
				      struct memmap_report *r)
{
	unsigned long pb_pfn = memmap_pageblocks_pfn(m);

	for (unsigned long i = 0; i < memmap_nr_pageblocks(m); i++)
		if (!check_pageblock(m, pb_pfn + i * pageblock_nr_pages,
				     k->pageblock_bits[i], r))
			return false;
	return true;
}

bool memmap_compare_kernel_pfns(const struct memmap *m,
				const struct memmap_kernel_run *k,
				const unsigned long *pfns, unsigned int nr,
				struct memmap_report *r)
{
	unsigned long n = pfns ? nr : m->nr_pfns;

	memset(r, 0, sizeof(*r));
	r->ok = true;
	r->against_kernel = true;
	for (unsigned long i = 0; i < n; i++)
		if (!compare_kernel_page(m, k, pfns ? pfns[i] : m->base_pfn + i,
					 r))
			return false;
	return compare_kernel_pageblocks(m, k, r);
}

bool memmap_compare_kernel(const struct memmap *m,
			   const struct memmap_kernel_run *k,
			   struct memmap_report *r)
{
	return memmap_compare_kernel_pfns(m, k, NULL, 0, r);
}

int memmap_report_format(const struct memmap_report *r, char *buf,
			 size_t len)
{
	if (r->ok)
		return ntb_snprintf(buf, len,
				    "memmap matches the %s (%lu pages)",
				    r->against_kernel ? "kernel's" : "model",
				    r->pages_checked);
	if (r->against_kernel && r->pageblock)
		return ntb_snprintf(buf, len,
				    "pageblock of pfn %#lx: %s bits: kernel "
				    "%#llx, model %#llx",
				    r->pfn, r->field, r->expected, r->found);
	if (r->against_kernel)
		return ntb_snprintf(buf, len,
				    "pfn %#lx (%s) %s @%u: kernel %#llx, "
				    "model %#llx",
				    r->pfn, r->role, r->field, r->offset,
				    r->expected, r->found);
	if (r->pageblock)
		return ntb_snprintf(buf, len,
				    "pageblock of pfn %#lx: migratetype bits "
				    "expected %#llx, found %#llx",
				    r->pfn, r->expected, r->found);
	return ntb_snprintf(buf, len,
			    "pfn %#lx (%s) %s @%u: expected %#llx, found %#llx",
			    r->pfn, r->role, r->field, r->offset, r->expected,
			    r->found);
}
