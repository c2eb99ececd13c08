/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_LIB_GLOB_H
#define NTBOOT_LIB_GLOB_H

#include "include/types.h"

/* Shell-style match of @str against @pat of length @patlen: '*' and '?'. */
bool glob_match_n(const char *pat, size_t patlen, const char *str);

/*
 * Does @str match any word of the comma-separated @list? An empty or NULL
 * list, or "all", matches everything.
 */
bool glob_list_match(const char *list, const char *str);

#endif
