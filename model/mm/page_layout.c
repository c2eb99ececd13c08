// SPDX-License-Identifier: GPL-2.0-only
/*
 * Look-ups on the struct page layouts of model/include/linux/mm_types.h:
 * by size, by name, and from a byte offset back to the field, for reports
 * that name what differs. The project's own harness, not kernel code.
 */
#include "model/include/linux/mm_types.h"
#include "lib/string.h"

/* The C view of the common 64 bytes must match manifest/layouts.yaml. */
#define PAGE_OFFSET_IS(field, id)                              \
	BUILD_BUG_ON(__builtin_offsetof(struct page, field) != \
		     PAGE_COMMON_OFFSET_##id)
BUILD_BUG_ON(sizeof(struct page) != 64);
PAGE_OFFSET_IS(flags, FLAGS);
PAGE_OFFSET_IS(lru.next, LRU_NEXT);
PAGE_OFFSET_IS(compound_head, LRU_NEXT);
PAGE_OFFSET_IS(pgmap, LRU_NEXT);
PAGE_OFFSET_IS(lru.prev, LRU_PREV);
PAGE_OFFSET_IS(zone_device_data, LRU_PREV);
PAGE_OFFSET_IS(mapping, MAPPING);
PAGE_OFFSET_IS(index, INDEX);
PAGE_OFFSET_IS(private, PRIVATE);
PAGE_OFFSET_IS(_mapcount, MAPCOUNT);
PAGE_OFFSET_IS(_refcount, REFCOUNT);
PAGE_OFFSET_IS(memcg_data, MEMCG_DATA);

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

static const char *const page_field_names[NR_PAGE_FIELDS] = {PAGE_FIELD_NAMES};

static const u8 page_field_widths[NR_PAGE_FIELDS] = {PAGE_FIELD_WIDTHS};

const char *page_field_name(enum page_field f)
{
	return f < NR_PAGE_FIELDS ? page_field_names[f] : "padding";
}

unsigned int page_field_width(enum page_field f)
{
	return f < NR_PAGE_FIELDS ? page_field_widths[f] : 1;
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
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++)
		if (page_layouts[i].size_option && page_layouts[i].size == size)
			return &page_layouts[i];
	return NULL;
}

const struct page_layout *page_layout_find(const char *name)
{
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++)
		if (name && !strcmp(page_layouts[i].name, name))
			return &page_layouts[i];
	return NULL;
}
