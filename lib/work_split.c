// SPDX-License-Identifier: GPL-2.0-only
/* Shares of a range per CPU (lib/work_split.h). */
#include "include/compiler.h"
#include "lib/work_split.h"

void work_split(u64 start, u64 nr, u32 k, u64 align, u32 i, u64 *s, u64 *e)
{
	u64 end = start + nr, per;

	if (!k || !align) {
		*s = *e = start;
		return;
	}
	per = (nr + k - 1) / k;
	per = (per + align - 1) / align * align;
	*s = min(start + (u64)i * per, end);
	*e = min(*s + per, end);
}
