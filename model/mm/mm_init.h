/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ZONE_DEVICE memmap initialisation, the kernel's mm/mm_init.c part of it
 * at v7.2-rc1 with the series: memmap_init_zone_device() and what it is
 * built from, __init_single_page(), __init_zone_device_page(),
 * memmap_init_compound() (prep_compound_tail() and prep_compound_head()
 * are in model/mm/internal.h).
 *
 * struct memmap (model/memmap.h) plays the zone: it knows the node, where the
 * struct page of a pfn lives, the pageblock flags, and which way to fill
 * the struct pages (the strategy).
 */
#ifndef NTBOOT_MODEL_MM_MM_INIT_H
#define NTBOOT_MODEL_MM_MM_INIT_H

#include "model/memmap.h"

/*
 * Initialise the struct pages of [start_pfn, start_pfn + nr_pages) for
 * @pgmap, as the kernel does when a pmem driver binds, with the strategy
 * of @m. An altmap of @pgmap moves the start past its reserve and free
 * pfns. @pgmap is normally &m->pgmap.
 */
void memmap_init_zone_device(struct memmap *m, unsigned long start_pfn,
			     unsigned long nr_pages, struct dev_pagemap *pgmap);

/*
 * The loop compiled for @copy and @layout of @kernel's model, or NULL
 * when that pair does not exist (a fill width the layout's size is not a
 * multiple of, 6.12 with the project's own strategies or off the 64-byte
 * layout, ...).
 * @checked: its instantiation with the ordering checker's model-level
 * hooks (docs/ntcheck.md).
 */
memmap_init_fn memmap_init_lookup(enum memmap_copy copy,
				  enum page_layout_id layout,
				  enum model_kernel kernel, bool checked);

#endif
