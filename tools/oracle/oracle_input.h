/* SPDX-License-Identifier: GPL-2.0-only */
/* The oracles' input: unsigned integers separated by blanks. */
#ifndef NTBOOT_TOOLS_ORACLE_INPUT_H
#define NTBOOT_TOOLS_ORACLE_INPUT_H

#include <stdlib.h>

#include "include/types.h"

/* The next number at *@p into @v, *@p past it; -1 when none is there. */
static inline int read_u64(char **p, u64 *v)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p < '0' || **p > '9')
		return -1;
	*v = strtoull(*p, &end, 10);
	*p = end;
	return 0;
}

/* Whether only blanks are left of the line at @p. */
static inline bool line_ends(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\n';
}

#endif
