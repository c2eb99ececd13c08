// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of differences between the model's two kernels as data,
 * kernel_differences[], for the tests that walk it
 * (tests/memmap_kernels_test.c). The model's code reads the same list
 * through kernel_value() (model/kernels.h); tools/check-kernel-table
 * reads it in the header.
 */
#include "model/kernels.h"
#include "model/include/linux/mm_types.h"

/*
 * The base's column is the model's struct folio (mm_types.h): a table
 * that says otherwise does not build.
 */
BUILD_BUG_ON(KDIFF_BASE_FOLIO_ENTIRE_MAPCOUNT !=
	     __builtin_offsetof(struct folio_page1, _entire_mapcount));
BUILD_BUG_ON(KDIFF_BASE_FOLIO_NR_PAGES_MAPPED !=
	     __builtin_offsetof(struct folio_page1, _nr_pages_mapped));
BUILD_BUG_ON(KDIFF_BASE_FOLIO_NR_PAGES !=
	     __builtin_offsetof(struct folio_page1, _nr_pages));
BUILD_BUG_ON(KDIFF_BASE_FOLIO_MM_ID_MAPCOUNT !=
	     __builtin_offsetof(struct folio_page1, _mm_id_mapcount));
BUILD_BUG_ON(KDIFF_BASE_FOLIO_MM_IDS !=
	     __builtin_offsetof(struct folio_page1, _mm_ids));

#define KDIFF_ENTRY(ID, kind_, what_, base, v6_12, base_says, v6_12_says, \
		    changed_)                                             \
	{.id = #ID,                                                       \
	 .kind = kind_,                                                   \
	 .what = what_,                                                   \
	 .value = {[MODEL_KERNEL_BASE] = (base),                          \
		   [MODEL_KERNEL_6_12] = (v6_12)},                        \
	 .says = {[MODEL_KERNEL_BASE] = base_says,                        \
		  [MODEL_KERNEL_6_12] = v6_12_says},                      \
	 .changed = changed_},
const struct kernel_difference kernel_differences[] = {
	KERNEL_DIFFERENCES(KDIFF_ENTRY)};

const char *model_kernel_name(enum model_kernel k)
{
	switch (k) {
	case MODEL_KERNEL_BASE:
		return "base";
	case MODEL_KERNEL_6_12:
		return "6.12";
	case NR_MODEL_KERNELS:
		break;
	}
	return NULL;
}
