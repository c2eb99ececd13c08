// SPDX-License-Identifier: GPL-2.0-only
/*
 * The struct page model itself: the four x86_64 layouts from their one
 * description, the flags packing, the folio overlays of the first two
 * tails, and the numbers docs/model.md states for them.
 */
#include "lib/kunit.h"
#include "lib/string.h"
#include "model/include/linux/mm_types.h"

static const struct page_layout *layout_nr(int i)
{
	return page_layout((enum page_layout_id)i);
}

static void layout_sizes(struct kunit *test)
{
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++) {
		const struct page_layout *l = layout_nr(i);

		/* _struct_page_alignment: 2 * sizeof(unsigned long) */
		KUNIT_EXPECT_EQ(test, l->size % 16, 0);
		KUNIT_EXPECT_LE(test, l->size, MAX_STRUCT_PAGE_SIZE);
		KUNIT_EXPECT_EQ(test, l->id, i);
		KUNIT_ASSERT_NOT_NULL(test, page_layout_find(l->name));
		KUNIT_EXPECT_EQ(test, page_layout_find(l->name)->id, i);
	}

	KUNIT_EXPECT_EQ(test, page_layout_for_size(64)->id, PAGE_LAYOUT_64);
	KUNIT_EXPECT_EQ(test, page_layout_for_size(80)->id,
			PAGE_LAYOUT_80_CPUPID);
	KUNIT_EXPECT_EQ(test, page_layout_for_size(96)->id, PAGE_LAYOUT_96);
	KUNIT_EXPECT_TRUE(test, page_layout_for_size(72) == NULL);
	KUNIT_EXPECT_TRUE(test, page_layout_find("128") == NULL);
}

/*
 * The layouts' offsets (manifest/layouts.yaml) against the compiler's own
 * layout of the kernel's declarations: struct page's 64 bytes, then what
 * the configuration appends (int _last_cpupid under
 * LAST_CPUPID_NOT_IN_PAGE_FLAGS, then KMSAN's two pointers), the whole
 * aligned to 2 * sizeof(unsigned long) (_struct_page_alignment).
 */
struct page_80_kmsan {
	struct page base;
	void *kmsan_shadow, *kmsan_origin;
} __aligned(16);

struct page_80_cpupid {
	struct page base;
	int _last_cpupid;
} __aligned(16);

struct page_96 {
	struct page base;
	int _last_cpupid;
	void *kmsan_shadow, *kmsan_origin;
} __aligned(16);

#define C_OFFSET(type, field) ((int)__builtin_offsetof(type, field))

static void layout_offsets(struct kunit *test)
{
	static const struct {
		unsigned int size;
		int last_cpupid, kmsan_shadow, kmsan_origin;
	} c[NR_PAGE_LAYOUTS] = {
		[PAGE_LAYOUT_64] = {sizeof(struct page), -1, -1, -1},
		[PAGE_LAYOUT_80_KMSAN] = {sizeof(struct page_80_kmsan), -1,
					  C_OFFSET(struct page_80_kmsan,
						   kmsan_shadow),
					  C_OFFSET(struct page_80_kmsan,
						   kmsan_origin)},
		[PAGE_LAYOUT_80_CPUPID] = {sizeof(struct page_80_cpupid),
					   C_OFFSET(struct page_80_cpupid,
						    _last_cpupid),
					   -1, -1},
		[PAGE_LAYOUT_96] = {sizeof(struct page_96),
				    C_OFFSET(struct page_96, _last_cpupid),
				    C_OFFSET(struct page_96, kmsan_shadow),
				    C_OFFSET(struct page_96, kmsan_origin)},
	};
	/* checked against the C struct page at build time (page_layout.c) */
	static const int common[] = {
		[PAGE_FIELD_FLAGS] = PAGE_COMMON_OFFSET_FLAGS,
		[PAGE_FIELD_LRU_NEXT] = PAGE_COMMON_OFFSET_LRU_NEXT,
		[PAGE_FIELD_LRU_PREV] = PAGE_COMMON_OFFSET_LRU_PREV,
		[PAGE_FIELD_MAPPING] = PAGE_COMMON_OFFSET_MAPPING,
		[PAGE_FIELD_INDEX] = PAGE_COMMON_OFFSET_INDEX,
		[PAGE_FIELD_PRIVATE] = PAGE_COMMON_OFFSET_PRIVATE,
		[PAGE_FIELD_MAPCOUNT] = PAGE_COMMON_OFFSET_MAPCOUNT,
		[PAGE_FIELD_REFCOUNT] = PAGE_COMMON_OFFSET_REFCOUNT,
		[PAGE_FIELD_MEMCG_DATA] = PAGE_COMMON_OFFSET_MEMCG_DATA,
	};

	/*
	 * (the first 64 bytes against the C struct page: BUILD_BUG_ON in
	 * model/mm/page_layout.c)
	 */
#define C_WIDTH(type, field) ((unsigned int)sizeof(((type *)0)->field))
	static const unsigned int width[NR_PAGE_FIELDS] = {
		[PAGE_FIELD_FLAGS] = C_WIDTH(struct page, flags),
		[PAGE_FIELD_LRU_NEXT] = C_WIDTH(struct page, lru.next),
		[PAGE_FIELD_LRU_PREV] = C_WIDTH(struct page, lru.prev),
		[PAGE_FIELD_MAPPING] = C_WIDTH(struct page, mapping),
		[PAGE_FIELD_INDEX] = C_WIDTH(struct page, index),
		[PAGE_FIELD_PRIVATE] = C_WIDTH(struct page, private),
		[PAGE_FIELD_MAPCOUNT] = C_WIDTH(struct page, _mapcount),
		[PAGE_FIELD_REFCOUNT] = C_WIDTH(struct page, _refcount),
		[PAGE_FIELD_MEMCG_DATA] = C_WIDTH(struct page, memcg_data),
		[PAGE_FIELD_LAST_CPUPID] =
			C_WIDTH(struct page_96, _last_cpupid),
		[PAGE_FIELD_KMSAN_SHADOW] =
			C_WIDTH(struct page_96, kmsan_shadow),
		[PAGE_FIELD_KMSAN_ORIGIN] =
			C_WIDTH(struct page_96, kmsan_origin),
	};

	for (int f = 0; f < NR_PAGE_FIELDS; f++)
		KUNIT_EXPECT_EQ(test, page_field_width((enum page_field)f),
				width[f]);
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++) {
		const struct page_layout *l = layout_nr(i);

		kunit_info(test, "layout %s: %u bytes", l->name, l->size);
		KUNIT_EXPECT_EQ(test, l->size, c[i].size);
		/* the first 64 bytes are the C struct page's in every layout */
		for (int f = 0; f < (int)ARRAY_SIZE(common); f++)
			KUNIT_EXPECT_EQ(test, l->offset[f], common[f]);
		KUNIT_EXPECT_EQ(test, l->offset[PAGE_FIELD_LAST_CPUPID],
				c[i].last_cpupid);
		KUNIT_EXPECT_EQ(test, l->offset[PAGE_FIELD_KMSAN_SHADOW],
				c[i].kmsan_shadow);
		KUNIT_EXPECT_EQ(test, l->offset[PAGE_FIELD_KMSAN_ORIGIN],
				c[i].kmsan_origin);
		/* last_cpupid is in the flags exactly when it has no field */
		KUNIT_EXPECT_EQ(test, l->last_cpupid_width != 0,
				l->offset[PAGE_FIELD_LAST_CPUPID] < 0);
		KUNIT_EXPECT_EQ(test, l->kmsan,
				l->offset[PAGE_FIELD_KMSAN_SHADOW] >= 0);
	}
}

/* No two fields share a byte, and all lie inside the struct. */
static void layout_fields_disjoint(struct kunit *test)
{
	for (int i = 0; i < NR_PAGE_LAYOUTS; i++) {
		const struct page_layout *l = layout_nr(i);
		s8 owner[MAX_STRUCT_PAGE_SIZE];

		memset(owner, -1, sizeof(owner));
		for (int f = 0; f < NR_PAGE_FIELDS; f++) {
			int off = l->offset[f];
			unsigned int w = page_field_width((enum page_field)f);

			if (off < 0)
				continue;
			KUNIT_EXPECT_LE(test, off + w, l->size);
			for (unsigned int b = 0; b < w; b++) {
				KUNIT_EXPECT_EQ(test, owner[off + b], -1);
				owner[off + b] = (s8)f;
			}
		}
		/* every byte maps back to its field, or to padding */
		for (unsigned int b = 0; b < l->size; b++) {
			unsigned int start;
			enum page_field f = page_field_at(l, b, &start);

			if (owner[b] < 0) {
				KUNIT_EXPECT_EQ(test, f, NR_PAGE_FIELDS);
			} else {
				KUNIT_EXPECT_EQ(test, f, owner[b]);
				KUNIT_EXPECT_EQ(test, start,
						l->offset[owner[b]]);
			}
		}
	}
}

static void field_lookup(struct kunit *test)
{
	unsigned int start;

	KUNIT_EXPECT_EQ(test, page_field_at(page_layout(PAGE_LAYOUT_96), 75,
					    &start),
			PAGE_FIELD_KMSAN_SHADOW);
	KUNIT_EXPECT_EQ(test, start, 72);
	KUNIT_EXPECT_EQ(test, page_field_at(page_layout(PAGE_LAYOUT_80_CPUPID),
					    70, &start),
			NR_PAGE_FIELDS);
	KUNIT_EXPECT_EQ(test, page_field_at(page_layout(PAGE_LAYOUT_64), 55,
					    &start),
			PAGE_FIELD_REFCOUNT);
	KUNIT_EXPECT_EQ(test, start, 52);
	KUNIT_EXPECT_STREQ(test, page_field_name(PAGE_FIELD_REFCOUNT),
			   "_refcount");
	KUNIT_EXPECT_STREQ(test, page_field_name(PAGE_FIELD_LAST_CPUPID),
			   "_last_cpupid");
	KUNIT_EXPECT_STREQ(test, page_field_name(NR_PAGE_FIELDS), "padding");
	KUNIT_EXPECT_EQ(test, page_field_width(PAGE_FIELD_MAPCOUNT), 4);
	KUNIT_EXPECT_EQ(test, page_field_width(PAGE_FIELD_MEMCG_DATA), 8);
}

/*
 * page->flags of a ZONE_DEVICE page: node in the top NODES_WIDTH bits,
 * then the zone, then last_cpupid when it fits, the page flags at the
 * bottom.
 */
static void flags_packing(struct kunit *test)
{
	unsigned long f = page_links(ZONE_DEVICE, 3);
	const struct page_layout *l = page_layout(PAGE_LAYOUT_64);

	KUNIT_EXPECT_EQ(test, ZONE_DEVICE, 4);
	KUNIT_EXPECT_EQ(test, ZONES_PGSHIFT, 51);
	KUNIT_EXPECT_EQ(test, NODES_PGSHIFT, 54);
	KUNIT_EXPECT_EQ(test, f, (4UL << 51) | (3UL << 54));
	KUNIT_EXPECT_EQ(test, page_zonenum_of(f), ZONE_DEVICE);
	KUNIT_EXPECT_EQ(test, page_to_nid_of(f), 3);
	KUNIT_EXPECT_EQ(test, page_to_nid_of(page_links(ZONE_DEVICE, 1023)),
			1023);
	KUNIT_EXPECT_EQ(test, page_zonenum_of(page_links(ZONE_DEVICE, 1023)),
			ZONE_DEVICE);

	/* last_cpupid sits right below the zone and above the page flags */
	KUNIT_EXPECT_EQ(test, l->last_cpupid_pgshift + l->last_cpupid_width,
			ZONES_PGSHIFT);
	KUNIT_EXPECT_EQ(test, LAST_CPUPID_MASK, 0x1fffff);
	KUNIT_EXPECT_EQ(test, (LAST_CPUPID_MASK << l->last_cpupid_pgshift) &
				      page_links(ZONE_DEVICE, 1023),
			0);
	KUNIT_EXPECT_LT(test, PG_reserved, l->last_cpupid_pgshift);

	/* PG_head is bit 6, so a folio order in the low byte clears it */
	KUNIT_EXPECT_EQ(test, PG_head, 6);
	KUNIT_EXPECT_EQ(test, PG_reserved, 13);
	KUNIT_EXPECT_EQ(test, TAIL_MAPPING, 0xdead000000000400UL);
}

/* The overlays prep_compound_head() writes through. */
static void folio_overlays(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, __builtin_offsetof(struct folio_page1, _flags_1),
			0);
	KUNIT_EXPECT_EQ(test,
			__builtin_offsetof(struct folio_page1, _large_mapcount),
			16);
	KUNIT_EXPECT_EQ(test,
			__builtin_offsetof(struct folio_page1,
					   _entire_mapcount),
			24);
	KUNIT_EXPECT_EQ(test, __builtin_offsetof(struct folio_page1, _pincount),
			28);
	KUNIT_EXPECT_EQ(test, __builtin_offsetof(struct folio_page1, _nr_pages),
			56);
	KUNIT_EXPECT_EQ(test,
			__builtin_offsetof(struct folio_page2, _deferred_list),
			16);
	KUNIT_EXPECT_LE(test, sizeof(struct folio_page1), 64);
	KUNIT_EXPECT_EQ(test, sizeof(struct folio_page2), 32);
}

static void nth_page_stride(struct kunit *test)
{
	static u8 buf[4 * MAX_STRUCT_PAGE_SIZE] __aligned(64);

	for (int i = 0; i < NR_PAGE_LAYOUTS; i++) {
		const struct page_layout *l = layout_nr(i);
		struct page *p = (struct page *)buf;

		KUNIT_EXPECT_EQ(test, (uptr)nth_page(l, p, 3) - (uptr)p,
				3 * l->size);
		KUNIT_EXPECT_EQ(test,
				(uptr)page_field_ptr(l, p,
						     PAGE_FIELD_REFCOUNT) -
					(uptr)p,
				52);
	}
}

static const struct kunit_case struct_page_cases[] = {
	KUNIT_CASE(layout_sizes),
	KUNIT_CASE(layout_offsets),
	KUNIT_CASE(layout_fields_disjoint),
	KUNIT_CASE(field_lookup),
	KUNIT_CASE(flags_packing),
	KUNIT_CASE(folio_overlays),
	KUNIT_CASE(nth_page_stride),
};

KUNIT_SUITE_DEFINE(struct_page_suite, "struct_page", struct_page_cases);
