// SPDX-License-Identifier: GPL-2.0-only
#include "lib/glob.h"

bool glob_match_n(const char *pat, size_t patlen, const char *str)
{
	const char *star_pat = NULL, *star_str = NULL;
	size_t pi = 0, star_pi = 0;

	/* Iterative matcher with single backtrack point: linear enough. */
	while (*str) {
		if (pi < patlen && (pat[pi] == '?' || pat[pi] == *str)) {
			pi++;
			str++;
		} else if (pi < patlen && pat[pi] == '*') {
			star_pat = pat;
			star_pi = ++pi;
			star_str = str;
		} else if (star_pat) {
			pi = star_pi;
			str = ++star_str;
		} else {
			return false;
		}
	}
	while (pi < patlen && pat[pi] == '*')
		pi++;
	return pi == patlen;
}

bool glob_list_match(const char *list, const char *str)
{
	const char *p = list;

	if (!list || !*list)
		return true;
	while (*p) {
		const char *end = p;

		while (*end && *end != ',')
			end++;
		if ((end - p == 3 && p[0] == 'a' && p[1] == 'l' && p[2] == 'l') ||
		    glob_match_n(p, end - p, str))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}
