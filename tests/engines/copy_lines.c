// SPDX-License-Identifier: GPL-2.0-only
/*
 * Line recording for the copy suites; see copy_lines.h.
 */
#include "tests/engines/copy_lines.h"
#include "include/compiler.h"

static void record_line(void *line, void *ctx)
{
	struct copy_lines *l = ctx;

	if (l->nr < COPY_LINES_MAX)
		l->line[l->nr++] = (uptr)line;
	else
		l->overflow = true;
}

void copy_lines_reset(struct copy_lines *l)
{
	l->nr = 0;
	l->overflow = false;
}

enum clean_cache_method copy_lines_start(struct copy_lines *l)
{
	copy_lines_reset(l);
	return clean_cache_set_hook(record_line, l);
}

void copy_lines_stop(enum clean_cache_method old)
{
	clean_cache_use_method(old, NULL);
}

void copy_lines_expect(struct copy_lines *l, uptr addr, size_t size)
{
	uptr line = clean_cache_line_size();

	for (uptr p = ALIGN_DOWN(addr, line); p < addr + size; p += line)
		record_line((void *)p, l);
}

void copy_lines_expect_head_tail(struct copy_lines *l, uptr dst, size_t n)
{
	size_t head = 0, tail;

	if (!IS_ALIGNED(dst, 8)) {
		head = min(n, (size_t)(ALIGN_UP(dst, 8) - dst));
		copy_lines_expect(l, dst, head);
	}
	tail = (n - head) % 4;
	if (tail)
		copy_lines_expect(l, dst + n - tail, tail);
}

bool copy_lines_equal(const struct copy_lines *a, const struct copy_lines *b)
{
	if (a->nr != b->nr || a->overflow || b->overflow)
		return false;
	for (unsigned int i = 0; i < a->nr; i++)
		if (a->line[i] != b->line[i])
			return false;
	return true;
}
