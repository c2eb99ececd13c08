// SPDX-License-Identifier: GPL-2.0-only
/*
 * memmap_verify() is the oracle of every memmap suite and benchmark, so it
 * is checked exhaustively here: for every struct page layout, every
 * namespace mode and every kind of struct page (head, first and second
 * tail, other tails, altmap pfns and tails left to the shared vmemmap
 * page), each byte of the struct page is changed in turn in an
 * initialised memmap. memmap_verify() must fail, at that pfn and that
 * byte, naming the field that holds the byte (padding included), with
 * the expected and found values of that field.
 *
 * The names expected for the first 64 bytes of heads and tails come from
 * tables written out below from the kernel's struct page and struct
 * folio, not from the code that names fields in reports, so a wrong
 * offset in either is seen. Those of an untouched page and past byte 64
 * are the layouts' manifest's (manifest/layouts.yaml), which
 * struct_page_test holds to the compiler's layout of the C declarations.
 *
 * The namespaces are small (130 pfns) so that the whole sweep, about ten
 * thousand verifications, runs in seconds under QEMU TCG and under ASan.
 */
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "tests/engines/memmap_case.h"

struct byte_name {
	u8 offset, width;
	const char *name;
};

/* The first 64 bytes, by what the struct page is. */
static const struct byte_name head_names[] = {
	{ 0, 8, "flags" },
	{ 8, 8, "pgmap" },
	{ 16, 8, "zone_device_data" },
	{ 24, 8, "mapping" },
	{ 32, 8, "index" },
	{ 40, 8, "private" },
	{ 48, 4, "_mapcount" },
	{ 52, 4, "_refcount" },
	{ 56, 8, "memcg_data" },
};

static const struct byte_name tail_names[] = {
	{ 0, 8, "flags" },
	{ 8, 8, "compound_head" },
	{ 16, 8, "zone_device_data" },
	{ 24, 8, "mapping" },
	{ 32, 8, "index" },
	{ 40, 8, "private" },
	{ 48, 4, "_mapcount" },
	{ 52, 4, "_refcount" },
	{ 56, 8, "memcg_data" },
};

static const struct byte_name tail1_names[] = {
	{ 0, 8, "_flags_1" },
	{ 8, 8, "compound_head" },
	{ 16, 4, "_large_mapcount" },
	{ 20, 4, "_nr_pages_mapped" },
	{ 24, 4, "_entire_mapcount" },
	{ 28, 4, "_pincount" },
	{ 32, 4, "_mm_id_mapcount[0]" },
	{ 36, 4, "_mm_id_mapcount[1]" },
	{ 40, 8, "_mm_ids" },
	{ 48, 4, "_mapcount" },
	{ 52, 4, "_refcount" },
	{ 56, 4, "_nr_pages" },
	{ 60, 4, "memcg_data" },
};

static const struct byte_name tail2_names[] = {
	{ 0, 8, "flags" },
	{ 8, 8, "compound_head" },
	{ 16, 8, "_deferred_list.next" },
	{ 24, 8, "_deferred_list.prev" },
	{ 32, 8, "index" },
	{ 40, 8, "private" },
	{ 48, 4, "_mapcount" },
	{ 52, 4, "_refcount" },
	{ 56, 8, "memcg_data" },
};

/* A struct page nothing writes is named by the plain struct page. */
static const struct byte_name untouched_names[] = {
	PAGE_LAYOUT_COMMON_NAMES /* manifest/layouts.yaml */
};

/*
 * What each layout appends after byte 64, from the layouts' manifest
 * (manifest/layouts.yaml, page_layouts.h); the rest is padding.
 */
static const struct byte_name extra_names[NR_PAGE_LAYOUTS]
					 [PAGE_LAYOUT_EXTRA_MAX] = {
						 PAGE_LAYOUT_EXTRA_NAMES};

struct expected_field {
	unsigned int offset, width;
	const char *name;
};

static bool find_name(const struct byte_name *t, size_t n, unsigned int byte,
		      struct expected_field *e)
{
	for (size_t i = 0; i < n; i++) {
		if (byte >= t[i].offset && byte < t[i].offset + t[i].width) {
			e->offset = t[i].offset;
			e->width = t[i].width;
			e->name = t[i].name;
			return true;
		}
	}
	return false;
}

enum sweep_kind {
	SWEEP_HEAD,
	SWEEP_TAIL1,
	SWEEP_TAIL2,
	SWEEP_TAIL,
	SWEEP_SKIPPED,
	SWEEP_SHARED,
};

static const char *const kind_role[] = {
	[SWEEP_HEAD] = "head",
	[SWEEP_TAIL1] = "tail 1",
	[SWEEP_TAIL2] = "tail 2",
	[SWEEP_TAIL] = "tail",
	[SWEEP_SKIPPED] = "altmap pfn, untouched",
	[SWEEP_SHARED] = "shared tail, untouched",
};

static void expected_field(const struct page_layout *l, enum sweep_kind k,
			   unsigned int byte, struct expected_field *e)
{
	static const struct {
		const struct byte_name *t;
		size_t n;
	} first64[] = {
		[SWEEP_HEAD] = { head_names, ARRAY_SIZE(head_names) },
		[SWEEP_TAIL1] = { tail1_names, ARRAY_SIZE(tail1_names) },
		[SWEEP_TAIL2] = { tail2_names, ARRAY_SIZE(tail2_names) },
		[SWEEP_TAIL] = { tail_names, ARRAY_SIZE(tail_names) },
		[SWEEP_SKIPPED] = { untouched_names,
				    ARRAY_SIZE(untouched_names) },
		[SWEEP_SHARED] = { untouched_names,
				   ARRAY_SIZE(untouched_names) },
	};

	/* (an entry a layout leaves empty has width 0: it never matches) */
	if (byte < 64 ? find_name(first64[k].t, first64[k].n, byte, e)
		      : find_name(extra_names[l->id], PAGE_LAYOUT_EXTRA_MAX,
				  byte, e))
		return;
	e->offset = byte;
	e->width = 1;
	e->name = "padding";
}

static u64 field_value(const u8 *page, unsigned int offset, unsigned int width)
{
	u64 v = 0;

	memcpy(&v, page + offset, width);
	return v;
}

struct sweep {
	struct kunit *test;
	struct memmap *m;
	const char *name;      /* "96/devdax2m/altmap" */
	unsigned int verified; /* corruptions tried */
	unsigned int missed;   /* of them, wrongly reported */
};

/* Report at most this many wrong answers per namespace, count the rest. */
#define SWEEP_MAX_REPORTS 6

static void sweep_fail(struct sweep *s, unsigned long pfn, unsigned int byte,
		       const char *what, const struct memmap_report *r)
{
	char msg[160];

	if (++s->missed > SWEEP_MAX_REPORTS)
		return;
	if (r->ok)
		ntb_snprintf(msg, sizeof(msg), "memmap matches the model");
	else
		memmap_report_format(r, msg, sizeof(msg));
	kunit_fail_at(s->test, __FILE__, __LINE__,
		      "%s: byte %u of pfn %#lx changed: %s; verify said: %s "
		      "(byte %u)",
		      s->name, byte, pfn, what, msg, r->byte);
}

/* Change every byte of the struct page of @pfn in turn. */
static void sweep_page(struct sweep *s, unsigned long pfn, enum sweep_kind k)
{
	const struct memmap *m = s->m;
	const struct page_layout *l = m->layout;
	u8 *page = memmap_case_page(m, pfn);
	u8 want[MAX_STRUCT_PAGE_SIZE];
	struct memmap_report r;

	/* What the byte must be: a copy of the page as it is, and clean. */
	memcpy(want, page, l->size);
	for (unsigned int byte = 0; byte < l->size; byte++) {
		struct expected_field e;
		u8 mask = (u8)(1u << ((byte + pfn) & 7));
		u64 expected, found;

		expected_field(l, k, byte, &e);
		expected = field_value(want, e.offset, e.width);
		found = expected ^ ((u64)mask << (8 * (byte - e.offset)));

		page[byte] ^= mask;
		s->verified++;
		if (memmap_verify(m, &r)) {
			page[byte] ^= mask;
			sweep_fail(s, pfn, byte, "not reported", &r);
			continue;
		}
		page[byte] ^= mask;
		if (r.pageblock || r.pfn != pfn || r.byte != byte)
			sweep_fail(s, pfn, byte, "reported elsewhere", &r);
		else if (strcmp(r.field, e.name) || r.offset != e.offset ||
			 r.width != e.width)
			sweep_fail(s, pfn, byte, "wrong field", &r);
		else if (strcmp(r.role, kind_role[k]))
			sweep_fail(s, pfn, byte, "wrong role", &r);
		else if (r.expected != expected || r.found != found)
			sweep_fail(s, pfn, byte, "wrong values", &r);
	}
}

/*
 * One namespace: 130 device pfns (after 3 altmap pfns when @altmap). A
 * folio of order 9 or 18 is cut after 130 struct pages; with the 64-byte
 * layout and no altmap the vmemmap optimisation writes 128 of them and
 * leaves two to the shared page.
 */
#define SWEEP_PAGES 130
#define SWEEP_RESERVE 1
#define SWEEP_FREE 2

static void sweep_namespace(struct kunit *test, enum page_layout_id lid,
			    unsigned int order, bool altmap,
			    unsigned int *verified)
{
	struct memmap_config cfg;
	struct memmap_report r;
	struct memmap m;
	struct sweep s = { .test = test, .m = &m };
	unsigned long first, last;
	char name[48];

	memmap_config_init(&cfg, lid, order,
			   order ? MEMORY_DEVICE_GENERIC : MEMORY_DEVICE_FS_DAX,
			   MEMMAP_CASE_START,
			   SWEEP_PAGES +
				   (altmap ? SWEEP_RESERVE + SWEEP_FREE : 0));
	cfg.nid = 3;
	if (altmap) {
		cfg.altmap = true;
		cfg.altmap_reserve = SWEEP_RESERVE;
		cfg.altmap_free = SWEEP_FREE;
	}
	ntb_snprintf(name, sizeof(name), "%s/%s%s", page_layout(lid)->name,
		     memmap_mode_name(order), altmap ? "/altmap" : "");
	s.name = name;
	if (!memmap_case_create(test, &m, &cfg))
		return;
	memmap_poison(&m, 0xa5);
	memmap_run(&m);
	if (!memmap_verify(&m, &r)) {
		char msg[160];

		memmap_report_format(&r, msg, sizeof(msg));
		kunit_fail_at(test, __FILE__, __LINE__, "%s before: %s", name,
			      msg);
		memmap_destroy(&m);
		return;
	}
	first = memmap_case_first(&m);
	last = cfg.start_pfn + cfg.nr_pages - 1;

	if (altmap)
		sweep_page(&s, cfg.start_pfn + 1, SWEEP_SKIPPED);
	if (!order) {
		/* order-0 pages: all heads; the first, one inside, the last */
		sweep_page(&s, first, SWEEP_HEAD);
		sweep_page(&s, first + 64, SWEEP_HEAD);
		sweep_page(&s, last, SWEEP_HEAD);
	} else {
		unsigned long written = memmap_pages_written(&m);

		sweep_page(&s, first, SWEEP_HEAD);
		sweep_page(&s, first + 1, SWEEP_TAIL1);
		sweep_page(&s, first + 2, SWEEP_TAIL2);
		sweep_page(&s, first + 3, SWEEP_TAIL);
		sweep_page(&s, first + written - 1, SWEEP_TAIL);
		if (written < SWEEP_PAGES) {
			KUNIT_EXPECT_FALSE(test, altmap);
			KUNIT_EXPECT_EQ(test, lid, PAGE_LAYOUT_64);
			sweep_page(&s, last, SWEEP_SHARED);
		}
	}

	/* Every change was undone: the memmap is whole again. */
	KUNIT_EXPECT_TRUE(test, memmap_verify(&m, &r));
	if (s.missed > SWEEP_MAX_REPORTS)
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s: %u of %u changed bytes misreported", name,
			      s.missed, s.verified);
	*verified += s.verified;
	memmap_destroy(&m);
}

static void sweep_layout(struct kunit *test, enum page_layout_id lid)
{
	static const unsigned int orders[] = {
		MEMMAP_ORDER_FSDAX,
		MEMMAP_ORDER_DEVDAX_2M,
		MEMMAP_ORDER_DEVDAX_1G,
	};
	unsigned int verified = 0;

	for (size_t o = 0; o < ARRAY_SIZE(orders); o++)
		for (int a = 0; a < 2; a++)
			sweep_namespace(test, lid, orders[o], a, &verified);
	kunit_info(test, "layout %s: %u single-byte changes, each reported",
		   page_layout(lid)->name, verified);
}

static void verify_every_byte_64(struct kunit *test)
{
	sweep_layout(test, PAGE_LAYOUT_64);
}

static void verify_every_byte_80_kmsan(struct kunit *test)
{
	sweep_layout(test, PAGE_LAYOUT_80_KMSAN);
}

static void verify_every_byte_80_cpupid(struct kunit *test)
{
	sweep_layout(test, PAGE_LAYOUT_80_CPUPID);
}

static void verify_every_byte_96(struct kunit *test)
{
	sweep_layout(test, PAGE_LAYOUT_96);
}

/* The tables above cover every byte of every layout exactly once. */
static void name_tables_cover_layouts(struct kunit *test)
{
	for (int lid = 0; lid < NR_PAGE_LAYOUTS; lid++) {
		const struct page_layout *l =
			page_layout((enum page_layout_id)lid);

		for (int k = SWEEP_HEAD; k <= SWEEP_SHARED; k++) {
			unsigned int byte = 0;

			while (byte < l->size) {
				struct expected_field e;

				expected_field(l, (enum sweep_kind)k, byte, &e);
				KUNIT_ASSERT_EQ(test, e.offset, byte);
				KUNIT_ASSERT_GT(test, e.width, 0);
				byte += e.width;
			}
			KUNIT_EXPECT_EQ(test, byte, l->size);
		}
	}
}

static const struct kunit_case memmap_verify_cases[] = {
	KUNIT_CASE(name_tables_cover_layouts),
	KUNIT_CASE(verify_every_byte_64),
	KUNIT_CASE(verify_every_byte_80_kmsan),
	KUNIT_CASE(verify_every_byte_80_cpupid),
	KUNIT_CASE(verify_every_byte_96),
};

KUNIT_SUITE_DEFINE(memmap_verify_suite, "memmap_verify", memmap_verify_cases);
