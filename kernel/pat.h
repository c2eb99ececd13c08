/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_PAT_H
#define NTBOOT_KERNEL_PAT_H

#include "mm/pgtable.h"

/*
 * Page attribute table: entry 1 (PWT set, PCD clear) becomes
 * write-combining, the rest keep their power-on meaning (WB, WT, UC-, UC).
 * Every CPU must load the same table, so APs call this too.
 */
void pat_init(void);

/* Page-table flags that select write-combining once pat_init() ran. */
#define _PAGE_CACHE_WC _PAGE_PWT

#endif
