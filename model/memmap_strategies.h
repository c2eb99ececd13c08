/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The strategies of the memmap model. Their one definition is
 * manifest/strategies.yaml; tools/manifest turns it into
 * build/gen/memmap_strategy_list.h, included here, which holds the list
 *
 *   MEMMAP_STRATEGIES(X): X(name, COPY, write, variant, nt, layouts,
 *                           origin, desc)
 *
 * (the columns as the manifest describes them; layouts is a set's mask
 * MEMMAP_L_<set>, over enum page_layout_id, with its sizes
 * MEMMAP_L_<set>_SIZES(X, ...)), and the other contenders' names. From
 * the list: enum memmap_copy, the table memmap_strategies[]
 * (model/memmap.c), the NT flag memmap_copy_nt(), and in
 * model/mm/mm_init.c the dispatch of the page writes (memmap_copy_fill(),
 * tmpl_copy_page(), tmpl_fill()) and the loops compiled per strategy and
 * layout with their table. Adding one: docs/design.md, "Adding a
 * strategy".
 */
#ifndef NTBOOT_MODEL_MEMMAP_STRATEGIES_H
#define NTBOOT_MODEL_MEMMAP_STRATEGIES_H

#include "memmap_strategy_list.h"

/* Where a strategy comes from. */
enum memmap_origin {
	MEMMAP_KERNEL,	/* the kernel at v7.2-rc1 without the series */
	MEMMAP_SERIES,	/* the series' template path (or a step of it) */
	MEMMAP_OWN,	/* the project's own, beyond the kernel and series */
};

#endif
