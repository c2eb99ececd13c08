// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy test matrix; see copy_matrix.h.
 */
#include "tests/engines/copy_matrix.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "include/platform.h"
#include "lib/string.h"

#define MAX_REPORTED_FAILURES 5

u8 copy_src_byte(size_t i)
{
	u32 h = (u32)i * 0x9e3779b1u;

	return (u8)(1 + (h >> 16) % 127);
}

u8 copy_fill_byte(size_t i)
{
	return (u8)(0x80 | ((i * 7 + 0x35) & 0x7f));
}

void copy_fill_src(void *buf, size_t n)
{
	u8 *b = buf;

	for (size_t i = 0; i < n; i++)
		b[i] = copy_src_byte(i);
}

void copy_fill_dst(void *buf, size_t n)
{
	u8 *b = buf;

	for (size_t i = 0; i < n; i++)
		b[i] = copy_fill_byte(i);
}

/*
 * The buffers are the harness's own and in bounds: not instrumenting this
 * loop halves the matrix time under ASan, while the copies under test keep
 * all their checks.
 */
__attribute__((no_sanitize("address")))
size_t copy_first_diff(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	size_t i = 0;

	/* Eight bytes at a time: the image's memcmp() is a byte loop. */
	for (; i + 8 <= n; i += 8) {
		u64 p, q;

		__builtin_memcpy(&p, x + i, 8);
		__builtin_memcpy(&q, y + i, 8);
		if (p != q)
			break;
	}
	for (; i < n; i++)
		if (x[i] != y[i])
			return i;
	return n;
}

void copy_matrix_init(struct copy_matrix *m, size_t max_size)
{
	memset(m, 0, sizeof(*m));
	m->max_size = max_size;
#if defined(COPY_MATRIX_FORCE_SUBSET)
	m->full = false;
#elif defined(COPY_MATRIX_FORCE_FULL)
	m->full = true;
#else
	m->full = !strcmp(plat_name(), "host");
#endif
}

void copy_matrix_init_full(struct copy_matrix *m, size_t max_size)
{
	copy_matrix_init(m, max_size);
	m->full = true;
}

const char *copy_matrix_kind(const struct copy_matrix *m)
{
	return m->full ? "full" : "strided subset";
}

static bool size_selected(const struct copy_matrix *m, size_t n,
			  size_t nr_sizes)
{
	/* A variant with few sizes (fixed sizes, fills) gets all of them. */
	if (m->full || nr_sizes <= 32 || n <= 80 || n + 8 >= m->max_size)
		return true;
	return n % 17 == 0 || n % 64 <= 1 || n % 64 == 63;
}

static bool dst_offset_selected(const struct copy_matrix *m, size_t n,
				unsigned int off)
{
	static const u64 picked = (0x1ffull << 0) | (1ull << 12) |
				  (1ull << 15) | (1ull << 16) | (1ull << 24) |
				  (1ull << 31) | (1ull << 32) | (1ull << 33) |
				  (1ull << 40) | (1ull << 47) | (1ull << 48) |
				  (1ull << 56) | (1ull << 57) | (0xfull << 60);

	if (m->full || n <= 16)
		return true;
	return picked & (1ull << off);
}

static bool src_offset_selected(const struct copy_matrix *m, size_t n,
				unsigned int doff, unsigned int soff)
{
	if (m->full)
		return true;
	return soff == 0 || soff == (n * 3 + doff) % COPY_MATRIX_SRC_OFFSETS;
}

struct matrix_bufs {
	u8 *dst, *dst_ref, *src, *src_ref;
	size_t dst_len, src_len;
};

static void report(struct kunit *test, struct copy_matrix *m,
		   const struct copy_variant *v, size_t n, unsigned int doff,
		   unsigned int soff, const char *what, long at, u8 got,
		   u8 want)
{
	m->failures++;
	if (m->failures > MAX_REPORTED_FAILURES)
		return;
	kunit_fail_at(test, __FILE__, __LINE__,
		      "%s: n=%zu dst_off=%u src_off=%u: %s at byte %ld: "
		      "0x%02x, expected 0x%02x",
		      v->name, n, doff, soff, what, at, got, want);
}

/* One case; false when it failed. */
static bool run_case(struct kunit *test, const struct copy_variant *v,
		     struct copy_matrix *m, struct matrix_bufs *b, size_t n,
		     unsigned int doff, unsigned int soff)
{
	const size_t g = COPY_MATRIX_GUARD;
	const size_t tsize = v->template_size;
	u8 *dst = b->dst + g + doff;
	const u8 *src = b->src + soff;
	const u8 *ref = b->dst_ref + g + doff;
	bool ok = true;
	size_t d;

	v->copy(dst, src, n);
	if (v->needs_drain)
		memcpy_nt_drain();
	m->cases++;

	if (tsize) {
		for (size_t k = 0; k < n; k += tsize) {
			d = copy_first_diff(dst + k, src, tsize);
			if (d != tsize) {
				report(test, m, v, n, doff, soff,
				       "template copy differs", (long)(k + d),
				       dst[k + d], src[d]);
				ok = false;
				break;
			}
		}
	} else {
		d = copy_first_diff(dst, src, n);
		if (d != n) {
			report(test, m, v, n, doff, soff, "copy differs",
			       (long)d, dst[d], src[d]);
			ok = false;
		}
	}
	d = copy_first_diff(dst - g, ref - g, g);
	if (d != g) {
		report(test, m, v, n, doff, soff, "guard before dst written",
		       (long)d - (long)g, dst[(long)d - (long)g],
		       ref[(long)d - (long)g]);
		ok = false;
	}
	d = copy_first_diff(dst + n, ref + n, g);
	if (d != g) {
		report(test, m, v, n, doff, soff, "guard after dst written",
		       (long)(n + d), dst[n + d], ref[n + d]);
		ok = false;
	}
	memcpy(dst - g, ref - g, n + 2 * g);
	return ok;
}

/* After each size: nothing outside the guards, nothing in the source. */
static bool check_buffers(struct kunit *test, const struct copy_variant *v,
			  struct copy_matrix *m, struct matrix_bufs *b,
			  size_t n)
{
	size_t d = copy_first_diff(b->dst, b->dst_ref, b->dst_len);
	bool ok = true;

	if (d != b->dst_len) {
		report(test, m, v, n, 0, 0, "destination buffer corrupted",
		       (long)d - COPY_MATRIX_GUARD, b->dst[d], b->dst_ref[d]);
		memcpy(b->dst, b->dst_ref, b->dst_len);
		ok = false;
	}
	d = copy_first_diff(b->src, b->src_ref, b->src_len);
	if (d != b->src_len) {
		report(test, m, v, n, 0, 0, "source written", (long)d,
		       b->src[d], b->src_ref[d]);
		memcpy(b->src, b->src_ref, b->src_len);
		ok = false;
	}
	return ok;
}

bool copy_matrix_run(struct kunit *test, const struct copy_variant *v,
		     struct copy_matrix *m)
{
	const size_t g = COPY_MATRIX_GUARD;
	const size_t step = copy_variant_size_step(v);
	const size_t dalign = copy_variant_dst_align(v);
	const size_t salign = copy_variant_src_align(v);
	size_t hi = min(copy_variant_max_size(v), m->max_size);
	size_t src_bytes = v->template_size ? v->template_size : hi;
	size_t first, nr_sizes;
	struct matrix_bufs b;
	bool ok = true;

	m->cases = 0;
	m->failures = 0;
	b.dst_len = g + COPY_MATRIX_DST_OFFSETS + m->max_size + g;
	b.src_len = COPY_MATRIX_SRC_OFFSETS + src_bytes + g;
	b.dst = plat_alloc_aligned(b.dst_len, 4096);
	b.dst_ref = plat_alloc_aligned(b.dst_len, 64);
	b.src = plat_alloc_aligned(b.src_len, 4096);
	b.src_ref = plat_alloc_aligned(b.src_len, 64);
	if (!b.dst || !b.dst_ref || !b.src || !b.src_ref) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s: no memory for the matrix buffers", v->name);
		ok = false;
		goto out;
	}
	copy_fill_dst(b.dst_ref, b.dst_len);
	memcpy(b.dst, b.dst_ref, b.dst_len);
	copy_fill_src(b.src_ref, b.src_len);
	memcpy(b.src, b.src_ref, b.src_len);

	first = ALIGN_UP(v->min_size, step);
	nr_sizes = first <= hi ? (hi - first) / step + 1 : 0;
	for (size_t n = first; n <= hi; n += step) {
		if (!size_selected(m, n, nr_sizes))
			continue;
		for (unsigned int doff = 0; doff < COPY_MATRIX_DST_OFFSETS;
		     doff += dalign) {
			if (!dst_offset_selected(m, n, doff))
				continue;
			for (unsigned int soff = 0;
			     soff < COPY_MATRIX_SRC_OFFSETS; soff += salign) {
				if (!src_offset_selected(m, n, doff, soff))
					continue;
				ok &= run_case(test, v, m, &b, n, doff, soff);
			}
		}
		ok &= check_buffers(test, v, m, &b, n);
		if (m->failures > MAX_REPORTED_FAILURES)
			break;
	}
out:
	plat_free(b.dst, b.dst_len);
	plat_free(b.dst_ref, b.dst_len);
	plat_free(b.src, b.src_len);
	plat_free(b.src_ref, b.src_len);
	return ok && !m->failures;
}

void copy_check_large(struct kunit *test,
		      void (*copy)(void *dst, const void *src, size_t n))
{
	static const size_t sizes[] = { 4096, 4099, 65536 + 13, (1 << 20) + 7 };
	const size_t len = (1 << 20) + 64;
	u8 *dst = plat_alloc_aligned(len, 4096);
	u8 *src = plat_alloc_aligned(len, 4096);
	u8 *ref = plat_alloc_aligned(len, 4096);

	if (!dst || !src || !ref) {
		kunit_fail_at(test, __FILE__, __LINE__, "no memory for %zu bytes",
			      len);
		goto out;
	}
	copy_fill_src(src, len);
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		for (unsigned int off = 0; off < 3; off++) {
			size_t n = sizes[k], doff = off * 21, soff = off * 3;

			copy_fill_dst(dst, len);
			copy_fill_dst(ref, len);
			memcpy(ref + doff, src + soff, n);
			copy(dst + doff, src + soff, n);
			memcpy_nt_drain();
			KUNIT_EXPECT_EQ(test, copy_first_diff(dst, ref, len),
					len);
		}
	}
out:
	plat_free(dst, len);
	plat_free(src, len);
	plat_free(ref, len);
}
