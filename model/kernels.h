/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernels the memmap model can be: the series' base (v7.2-rc1, read
 * at 7.1-rc3), the default, and Debian's 6.12 (6.12.118), the kernel whose
 * compiled objects can be built and run beside the model
 * (tools/kernel-object). Every way 6.12 differs from the base in what
 * memmap_init_zone_device() does is one entry of KERNEL_DIFFERENCES()
 * below; the 6.12 loop of the model (model/mm/mm_init.c) and the 6.12
 * expected page of memmap_verify() (model/memmap.c) read their values
 * from it, and docs/model.md, "The two kernels", lists the same entries
 * (tools/check-kernel-table holds the two equal).
 *
 *   X(ID, kind, what, base, v6_12, base_says, v6_12_says, changed)
 *
 * ID          KDIFF_<ID>, the entry's name in the code
 * kind        KDIFF_BYTES: the memmap's bytes differ; KDIFF_REFUSED: a
 *             configuration one kernel does not have; KDIFF_SHAPE: the
 *             same bytes by other code (matters for timing, not bytes)
 * what        the field or step
 * base, v6_12 the value each kernel's code reads (kernel_value()): an
 *             offset in the first tail page (-1: no such field), a
 *             refcount, a bit count or mask, 1/0 for a step taken or not
 * base_says, v6_12_says   the two kernels' behaviour, in words
 * changed     the mainline release and commit that changed it
 */
#ifndef NTBOOT_MODEL_KERNELS_H
#define NTBOOT_MODEL_KERNELS_H

#include "include/compiler.h"
#include "include/types.h"

enum model_kernel {
	MODEL_KERNEL_BASE, /* v7.2-rc1, the series' base: the default */
	MODEL_KERNEL_6_12, /* Debian's 6.12.118 */
	NR_MODEL_KERNELS
};

enum kdiff_kind {
	KDIFF_BYTES,
	KDIFF_REFUSED,
	KDIFF_SHAPE,
};

#define KERNEL_DIFFERENCES(X)                                                  \
	X(REFCOUNT_FS_DAX, KDIFF_BYTES,                                        \
	  "_refcount of an fsdax page (MEMORY_DEVICE_FS_DAX)", 0, 1,           \
	  "0: set_page_count(page, 0) for every type but GENERIC",             \
	  "1: init_page_count()'s, kept (0 only for PRIVATE and COHERENT)",    \
	  "6.15: fs/dax: properly refcount fs dax pages (38607c62b34b)")       \
	X(REFCOUNT_P2PDMA, KDIFF_BYTES,                                        \
	  "_refcount of a p2pdma page (MEMORY_DEVICE_PCI_P2PDMA)", 0, 1,       \
	  "0: set_page_count(page, 0) for every type but GENERIC",             \
	  "1: init_page_count()'s, kept (0 only for PRIVATE and COHERENT)",    \
	  "6.15: mm/mm_init: move p2pdma page refcount initialisation to "     \
	  "p2pdma (b7e282378773)")                                             \
	X(FOLIO_ENTIRE_MAPCOUNT, KDIFF_BYTES,                                  \
	  "page[1] _entire_mapcount = -1: offset", 24, 20,                     \
	  "24, after _nr_pages_mapped", "20, before _nr_pages_mapped",         \
	  "6.15: mm: move _entire_mapcount in folio to page[2] on 32bit "      \
	  "(845d2be6d41f)")                                                    \
	X(FOLIO_NR_PAGES_MAPPED, KDIFF_BYTES,                                  \
	  "page[1] _nr_pages_mapped = 0: offset", 20, 24,                      \
	  "20 (CONFIG_PAGE_MAPCOUNT)", "24, after _entire_mapcount",           \
	  "6.15: mm: move _entire_mapcount in folio to page[2] on 32bit "      \
	  "(845d2be6d41f)")                                                    \
	X(FOLIO_NR_PAGES, KDIFF_BYTES,                                         \
	  "page[1] the folio's page count 1 << order: offset", 56, 32,         \
	  "56, _nr_pages over memcg_data",                                     \
	  "32, _folio_nr_pages over index; memcg_data stays 0",                \
	  "6.15: mm: let _folio_nr_pages overlay memcg_data in first tail "    \
	  "page (4996fc547f5b)")                                               \
	X(FOLIO_MM_ID_MAPCOUNT, KDIFF_BYTES,                                   \
	  "page[1] _mm_id_mapcount[0], [1] = -1, -1: offset", 32, -1,          \
	  "32 and 36 (CONFIG_MM_ID)",                                          \
	  "none: index stays 0 past _folio_nr_pages",                          \
	  "6.15: mm/rmap: basic MM owner tracking for large folios "           \
	  "(!hugetlb) (6af8cb80d3a9)")                                         \
	X(FOLIO_MM_IDS, KDIFF_BYTES, "page[1] _mm_ids = 0: offset", 40, -1,    \
	  "40 (CONFIG_MM_ID)", "none: private, 0 from prep_compound_tail()",   \
	  "6.15: mm/rmap: basic MM owner tracking for large folios "           \
	  "(!hugetlb) (6af8cb80d3a9)")                                         \
	X(PREP_HEAD_AFTER_FIRST_TAIL, KDIFF_BYTES,                             \
	  "memmap_init_compound(): prep_compound_head() after tail 1", 0, 1,   \
	  "0: after all the tails; tail 2 keeps _deferred_list",               \
	  "1: after tail 1; tail 2's own initialisation then overwrites "      \
	  "_deferred_list (0 at 16, TAIL_MAPPING at 24)",                      \
	  "6.18: mm/mm_init: make memmap_init_compound() look more like "      \
	  "prep_compound_page() (50765b46ab44)")                               \
	X(PAGEBLOCK_BITS, KDIFF_BYTES, "usemap bits per pageblock", 8, 4,      \
	  "8: 3 migratetype bits, compaction skip, the isolate bit at 4",      \
	  "4: 3 migratetype bits, compaction skip (4 longs per section)",      \
	  "6.17: mm/page_isolation: make page isolation a standalone bit "     \
	  "(591342fccd72)")                                                    \
	X(PAGEBLOCK_MASK, KDIFF_BYTES,                                         \
	  "the pageblock bits the migratetype store replaces", 0x17, 0x7,      \
	  "0x17: the migratetype and the isolate bit",                         \
	  "0x7: MIGRATETYPE_MASK",                                             \
	  "6.17: mm/page_isolation: make page isolation a standalone bit "     \
	  "(591342fccd72)")                                                    \
	X(COMPOUND_INFO_MASK, KDIFF_REFUSED,                                   \
	  "compound_head as a mask (power-of-two struct page)", 1, 0,          \
	  "1: with HUGETLB_PAGE_OPTIMIZE_VMEMMAP (compound_info_mask)",        \
	  "0: none; head + 1 only, a mask is refused",                         \
	  "7.1: mm: rework compound_head() for power-of-2 sizeof(struct "      \
	  "page) (8c846c879e22)")                                              \
	X(PGMAP_THROUGH_FOLIO, KDIFF_SHAPE,                                    \
	  "__init_zone_device_page(): the pgmap store", 1, 0,                  \
	  "1: page_folio(page)->pgmap (a load and a test per page)",           \
	  "0: page->pgmap",                                                    \
	  "6.15: mm: allow compound zone device pages (its mainline hash "     \
	  "not read)")                                                         \
	X(PREP_TAIL_BY_INDEX, KDIFF_SHAPE, "prep_compound_tail()'s arguments", \
	  0, 1, "0: (tail, head, order)", "1: (head, tail_idx)",               \
	  "7.1: mm: change the interface of prep_compound_tail() (f0369fb13619)")

#define KDIFF_ENUM(ID, ...) KDIFF_##ID,
enum kernel_difference_id {
	KERNEL_DIFFERENCES(KDIFF_ENUM) NR_KERNEL_DIFFERENCES
};
#undef KDIFF_ENUM

/* The values as constants: KDIFF_BASE_<ID> and KDIFF_6_12_<ID>. */
#define KDIFF_VALUES(ID, kind, what, base, v6_12, ...) \
	KDIFF_BASE_##ID = (base), KDIFF_6_12_##ID = (v6_12),
enum { KERNEL_DIFFERENCES(KDIFF_VALUES) };
#undef KDIFF_VALUES

/*
 * The value kernel @k's code reads for entry @id. Inline and a switch,
 * so that with both constant (the model's loops) it folds to the
 * number: a kernel's loop carries no lookup.
 */
#define KDIFF_VALUE_CASE(ID, ...)                               \
	case KDIFF_##ID:                                        \
		return k == MODEL_KERNEL_6_12 ? KDIFF_6_12_##ID \
					      : KDIFF_BASE_##ID;
static __always_inline long kernel_value(enum model_kernel k,
					 enum kernel_difference_id id)
{
	switch (id) {
		KERNEL_DIFFERENCES(KDIFF_VALUE_CASE)
	case NR_KERNEL_DIFFERENCES:
		break;
	}
	return 0;
}
#undef KDIFF_VALUE_CASE

struct kernel_difference {
	const char *id;
	enum kdiff_kind kind;
	const char *what;
	long value[NR_MODEL_KERNELS];
	const char *says[NR_MODEL_KERNELS];
	const char *changed;
};

/* The table, NR_KERNEL_DIFFERENCES entries in the order of the list. */
extern const struct kernel_difference kernel_differences[];

/* "base" or "6.12", as kernel= takes them; NULL for no kernel. */
const char *model_kernel_name(enum model_kernel k);

#endif
