// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting result lines as the console writes them, byte by byte: a line
 * may reach the console in several writes (a metric line and its samples),
 * so the state is kept between calls. Only a line's first characters after
 * its indentation decide, as in the monitor's pattern.
 */
#include "lib/printf.h"
#include "lib/report_count.h"
#include "lib/string.h"

struct report_counter console_results = REPORT_COUNTER_INIT;

static bool has_prefix(const char *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(p, prefix, k);
}

static bool digit_at(const char *p, size_t n, size_t i)
{
	return i < n && p[i] >= '0' && p[i] <= '9';
}

static bool is_result_head(const char *p, size_t n)
{
	if (has_prefix(p, n, "ok "))
		return digit_at(p, n, 3);
	if (has_prefix(p, n, "not ok "))
		return digit_at(p, n, 7);
	return has_prefix(p, n, "# metric ") || has_prefix(p, n, "Bail out!");
}

void report_counter_feed(struct report_counter *rc, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c == '\n') {
			if (is_result_head(rc->head, rc->head_len))
				rc->results++;
			rc->in_indent = true;
			rc->head_len = 0;
			continue;
		}
		if (rc->in_indent && (c == ' ' || c == '\t'))
			continue;
		rc->in_indent = false;
		if (rc->head_len < REPORT_HEAD_MAX)
			rc->head[rc->head_len++] = c;
	}
}

void report_count_print(void)
{
	/* This line is a result too: counted in what it says. */
	kprintf("# metric suite=ntboot results=%u\n",
		console_results.results + 1);
}
