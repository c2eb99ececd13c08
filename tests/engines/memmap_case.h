/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the memmap suites (struct_page, memmap_slow, memmap_template,
 * memmap_compound): the matrix of namespaces they run, and checks that
 * turn a memmap_verify() report into a test failure.
 *
 * The ranges start and end off pageblock and folio boundaries, and are
 * small (about a thousand pfns) so that the whole matrix runs in seconds
 * under QEMU TCG; an order-18 folio is only partly covered, and its
 * vmemmap-optimised form writes 128 struct pages.
 */
#ifndef NTBOOT_TESTS_ENGINES_MEMMAP_CASE_H
#define NTBOOT_TESTS_ENGINES_MEMMAP_CASE_H

#include "lib/kunit.h"
#include "model/memmap.h"

/* drain=: the SFENCE drains of the template path (off: research only). */
extern bool opt_drain;

struct memmap_case {
	enum page_layout_id layout;
	unsigned int order;
	enum memory_type type;
	bool altmap;
};

/* The altmap the cases use: 2 pfns of info block, 61 pfns of memmap. */
#define MEMMAP_CASE_RESERVE 2
#define MEMMAP_CASE_FREE 61
/* The cases start 37 pfns into a section: off every alignment. */
#define MEMMAP_CASE_START (MEMMAP_DEFAULT_START_PFN + 37)

/* Fill @cfg for @c with the case range of its order. */
void memmap_case_config(const struct memmap_case *c,
			struct memmap_config *cfg);

/* "64/generic/order9/altmap" */
void memmap_case_name(const struct memmap_case *c, char *buf, size_t len);

/*
 * Every layout x memory type x order (0, 9, 18) x altmap (off, on) for
 * @layout: 30 cases. Returns the count written to @out (>= 30 entries).
 */
unsigned int memmap_cases_for_layout(enum page_layout_id layout,
				     struct memmap_case *out);

/*
 * memmap_create() or fail the test (false). @buf may be NULL.
 */
bool memmap_case_create(struct kunit *test, struct memmap *m,
			const struct memmap_config *cfg);

/* memmap_verify(), failing the test with the report and @what. */
bool memmap_expect_model(struct kunit *test, const struct memmap *m,
			 const char *what);

/* The struct page of @pfn. */
static inline void *memmap_case_page(const struct memmap *m,
				     unsigned long pfn)
{
	return (char *)m->pages + (pfn - m->base_pfn) * m->layout->size;
}

static inline u64 memmap_case_u64(const struct memmap *m, unsigned long pfn,
				  unsigned int offset)
{
	u64 v;

	__builtin_memcpy(&v, (char *)memmap_case_page(m, pfn) + offset, 8);
	return v;
}

static inline u32 memmap_case_u32(const struct memmap *m, unsigned long pfn,
				  unsigned int offset)
{
	u32 v;

	__builtin_memcpy(&v, (char *)memmap_case_page(m, pfn) + offset, 4);
	return v;
}

/* Where device pages start in a memmap: after the altmap pfns. */
static inline unsigned long memmap_case_first(const struct memmap *m)
{
	if (!m->cfg.altmap)
		return m->cfg.start_pfn;
	return m->cfg.start_pfn + m->cfg.altmap_reserve + m->cfg.altmap_free;
}

#endif
