/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Cutting a range of work (pfns) into one share per CPU for on_cpus():
 * equal shares rounded up to @align, so that no folio or pageblock is
 * split between two CPUs; the last shares may be short or empty.
 */
#ifndef NTBOOT_LIB_WORK_SPLIT_H
#define NTBOOT_LIB_WORK_SPLIT_H

#include "include/types.h"

/*
 * Share @i (0 .. @k - 1) of [@start, @start + @nr): [*@s, *@e), empty
 * (*@s == *@e) when the shares before it cover the range. @align >= 1.
 */
void work_split(u64 start, u64 nr, u32 k, u64 align, u32 i, u64 *s, u64 *e);

#endif
