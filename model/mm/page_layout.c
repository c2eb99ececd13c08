// SPDX-License-Identifier: GPL-2.0-only
/*
 * Look-ups on the struct page layouts of model/include/linux/mm_types.h:
 * by size, by name, and from a byte offset back to the field, for reports
 * that name what differs. The project's own harness, not kernel code.
 */
#include "model/include/linux/mm_types.h"
#include "lib/string.h"

/* The C view of the common 64 bytes must match the table. */
BUILD_BUG_ON(sizeof(struct page) != 64);
BUILD_BUG_ON(__builtin_offsetof(struct page, flags) != 0);
BUILD_BUG_ON(__builtin_offsetof(struct page, lru) != 8);
BUILD_BUG_ON(__builtin_offsetof(struct page, compound_head) != 8);
BUILD_BUG_ON(__builtin_offsetof(struct page, pgmap) != 8);
BUILD_BUG_ON(__builtin_offsetof(struct page, zone_device_data) != 16);
BUILD_BUG_ON(__builtin_offsetof(struct page, mapping) != 24);
BUILD_BUG_ON(__builtin_offsetof(struct page, index) != 32);
BUILD_BUG_ON(__builtin_offsetof(struct page, private) != 40);
BUILD_BUG_ON(__builtin_offsetof(struct page, _mapcount) != 48);
BUILD_BUG_ON(__builtin_offsetof(struct page, _refcount) != 52);
BUILD_BUG_ON(__builtin_offsetof(struct page, memcg_data) != 56);

/* The folio overlays land where the kernel's FOLIO_MATCH() wants them. */
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _head_1) != 8);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _large_mapcount) != 16);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _entire_mapcount) != 24);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _pincount) != 28);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _mm_id_mapcount) != 32);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _mm_ids) != 40);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _mapcount_1) != 48);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _refcount_1) != 52);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page1, _nr_pages) != 56);
BUILD_BUG_ON(__builtin_offsetof(struct folio_page2, _deferred_list) != 16);

/* Every node id a distribution kernel allows fits the node field. */
BUILD_BUG_ON(NODES_PGSHIFT + NODES_WIDTH != BITS_PER_LONG);
BUILD_BUG_ON(ZONE_DEVICE > ZONES_MASK);

static const char *const page_field_names[NR_PAGE_FIELDS] = {
	[PAGE_FIELD_FLAGS] = "flags",
	[PAGE_FIELD_LRU_NEXT] = "lru.next",
	[PAGE_FIELD_LRU_PREV] = "lru.prev",
	[PAGE_FIELD_MAPPING] = "mapping",
	[PAGE_FIELD_INDEX] = "index",
	[PAGE_FIELD_PRIVATE] = "private",
	[PAGE_FIELD_MAPCOUNT] = "_mapcount",
	[PAGE_FIELD_REFCOUNT] = "_refcount",
	[PAGE_FIELD_MEMCG_DATA] = "memcg_data",
	[PAGE_FIELD_LAST_CPUPID] = "_last_cpupid",
	[PAGE_FIELD_KMSAN_SHADOW] = "kmsan_shadow",
	[PAGE_FIELD_KMSAN_ORIGIN] = "kmsan_origin",
};

const char *page_field_name(enum page_field f)
{
	return f < NR_PAGE_FIELDS ? page_field_names[f] : "padding";
}

unsigned int page_field_width(enum page_field f)
{
	switch (f) {
	case PAGE_FIELD_MAPCOUNT:
	case PAGE_FIELD_REFCOUNT:
	case PAGE_FIELD_LAST_CPUPID:
		return 4;
	case NR_PAGE_FIELDS:
		return 1;
	default:
		return 8;
	}
}

enum page_field page_field_at(const struct page_layout *l,
			      unsigned int offset, unsigned int *start)
{
	for (int f = 0; f < NR_PAGE_FIELDS; f++) {
		int off = l->offset[f];

		if (off < 0)
			continue;
		if (offset >= (unsigned int)off &&
		    offset < (unsigned int)off +
				     page_field_width((enum page_field)f)) {
			if (start)
				*start = (unsigned int)off;
			return (enum page_field)f;
		}
	}
	if (start)
		*start = offset;
	return NR_PAGE_FIELDS;
}

const struct page_layout *page_layout_for_size(unsigned int size)
{
	switch (size) {
	case 64:
		return &page_layouts[PAGE_LAYOUT_64];
	case 80:
		return &page_layouts[PAGE_LAYOUT_80_CPUPID];
	case 96:
		return &page_layouts[PAGE_LAYOUT_96];
	default:
		return NULL;
	}
}

const struct page_layout *page_layout_find(const char *name)
{
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++)
		if (name && !strcmp(page_layouts[i].name, name))
			return &page_layouts[i];
	return NULL;
}
