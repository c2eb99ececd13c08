// SPDX-License-Identifier: GPL-2.0-only
/*
 * Line recording for the copy suites; see copy_lines.h.
 */
#include "tests/engines/copy_lines.h"
#include "include/compiler.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "model/arch/x86/include/asm/string_64.h"

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

#define SWEEP_MAX_SIZE 300
#define SWEEP_MAX_OFFSET 130
#define SWEEP_SRC_BYTES 512

static bool sweep_one(const struct copy_lines_case *c, struct copy_lines *got,
		      uptr dst, const u8 *src, size_t n)
{
	struct copy_lines want;

	copy_lines_reset(got);
	copy_lines_reset(&want);
	c->copy((void *)dst, src, n);
	if (c->expect)
		c->expect(&want, dst, n);
	return copy_lines_equal(got, &want);
}

unsigned long copy_lines_sweep(struct kunit *test,
			       const struct copy_lines_case *cases,
			       unsigned int nr)
{
	u8 *buf = plat_alloc_aligned(4096, 4096);
	u8 *src = plat_alloc_aligned(SWEEP_SRC_BYTES, 64);
	enum clean_cache_method old;
	struct copy_lines got;
	unsigned long checked = 0;

	if (!buf || !src) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "no memory for the line sweep");
		goto out;
	}
	for (unsigned int i = 0; i < SWEEP_SRC_BYTES; i++)
		src[i] = (u8)(i * 7 + 1);
	old = copy_lines_start(&got);
	for (size_t n = 0; n <= SWEEP_MAX_SIZE; n++) {
		for (unsigned int off = 0; off < SWEEP_MAX_OFFSET; off++) {
			uptr dst = (uptr)buf + 64 + off;

			for (unsigned int i = 0; i < nr; i++, checked++) {
				if (sweep_one(&cases[i], &got, dst,
					      src + (off & 7), n))
					continue;
				copy_lines_stop(old);
				kunit_fail_at(test, __FILE__, __LINE__,
					      "%s n=%zu dst_off=%u: %u lines "
					      "cleaned, not the %s",
					      cases[i].name, n, off, got.nr,
					      cases[i].expect ?
						      "expected ones" :
						      "none expected");
				goto out;
			}
		}
	}
	copy_lines_stop(old);
out:
	/* The copies are done: drain them before the buffer goes back. */
	memcpy_nt_drain();
	if (buf)
		plat_free(buf, 4096);
	if (src)
		plat_free(src, SWEEP_SRC_BYTES);
	return checked;
}
