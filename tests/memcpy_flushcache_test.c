// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcpy_flushcache(): the inline constant-size cases of
 * "x86/string: extend memcpy_flushcache() fixed-size fastpaths", byte for
 * byte at every destination and source offset, the proof that a constant
 * 64/80/96-byte call compiles to MOVNTI stores and no call, and the
 * memcpy_nt()/memcpy_nt_drain() API built on it.
 */
#include "model/arch/x86/include/asm/string_64.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/ntcheck.h"
#include "lib/string.h"
#include "tests/engines/copy_matrix.h"

/*
 * Run memcpy_flushcache() with constant @sz (the switch of the inline
 * function is resolved at compile time) over every destination offset
 * 0..63 and source offset 0..7.
 */
#define FIXED_CASE(sz)                                                       \
	static void fixed_copy_##sz(void *dst, const void *src, size_t n)    \
	{                                                                     \
		memcpy_flushcache(dst, src, sz);                              \
	}                                                                     \
	static void fixed_##sz(struct kunit *test)                            \
	{                                                                     \
		const struct copy_variant v = {                               \
			.name = "memcpy_flushcache(" #sz ")",                 \
			.copy = fixed_copy_##sz,                              \
			.min_size = sz,                                       \
			.max_size = sz,                                       \
			.needs_drain = true,                                  \
		};                                                            \
		struct copy_matrix m;                                         \
                                                                              \
		copy_matrix_init(&m, sz);                                     \
		m.full = true;                                                \
		KUNIT_EXPECT_TRUE(test, copy_matrix_run(test, &v, &m));       \
		KUNIT_EXPECT_EQ(test, m.cases,                                \
				COPY_MATRIX_DST_OFFSETS *                     \
					COPY_MATRIX_SRC_OFFSETS);             \
	}

FIXED_CASE(4)
FIXED_CASE(8)
FIXED_CASE(16)
FIXED_CASE(32)
FIXED_CASE(48)
FIXED_CASE(64)
FIXED_CASE(80)
FIXED_CASE(96)

/*
 * Probes for the object code check: each body is one memcpy_flushcache()
 * of a constant size. noipa keeps each a real function with the plain
 * calling convention; no sanitizer instrumentation (it would add calls to
 * the sanitizer runtime) is put into them.
 */
#define PROBE_ATTRS                                                          \
	__attribute__((noipa, used, no_sanitize("address", "undefined")))
#define DEFINE_PROBE(sz)                                                     \
	static PROBE_ATTRS void fc_probe_##sz(void *dst, const void *src)    \
	{                                                                     \
		memcpy_flushcache(dst, src, sz);                              \
	}

DEFINE_PROBE(4)
DEFINE_PROBE(8)
DEFINE_PROBE(16)
DEFINE_PROBE(32)
DEFINE_PROBE(48)
DEFINE_PROBE(64)
DEFINE_PROBE(80)
DEFINE_PROBE(96)
/* Not an inline size: must go out of line. The check's control case. */
DEFINE_PROBE(72)

struct code_scan {
	unsigned int movnti8, movnti4;	/* MOVNTI m64 / m32 */
	unsigned int calls;		/* call rel32, call/jmp indirect */
	unsigned int jumps_out;		/* jmp rel32: a tail call */
	unsigned int branches;		/* anything else that branches */
	bool ret;			/* reached the return */
	bool calls_generic;		/* a call/jmp lands on the generic */
	unsigned int recorder_calls;	/* calls to the ntcheck recorder */
	int unknown_at;			/* offset of an undecoded byte, or -1 */
	u8 unknown_byte;
	size_t len;
};

/* Length of a ModRM operand (ModRM, SIB, displacement) at @p. */
static size_t modrm_len(const u8 *p)
{
	u8 mod = p[0] >> 6, rm = p[0] & 7;
	size_t len = 1;

	if (mod == 3)
		return 1;
	if (rm == 4) {
		len++;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		len += 4;	/* RIP-relative */
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len;
}

static s32 rel32_at(const u8 *p)
{
	s32 v;

	__builtin_memcpy(&v, p, 4);
	return v;
}

/*
 * Decode the straight-line code at @fn up to its return: the few opcodes a
 * compiler emits for a function that copies with MOVNTI (moves, push/pop,
 * nops, endbr64, MOVNTI) or calls out (call/jmp). Anything else stops the
 * scan and is reported, so an unexpected shape fails rather than passes.
 */
static void scan_code(const void *fn, size_t max, struct code_scan *s)
{
	const u8 *code = fn;
	size_t i = 0;

	memset(s, 0, sizeof(*s));
	s->unknown_at = -1;
	while (i < max) {
		size_t start = i;
		bool rex_w = false, rep = false;
		u8 op;

		/* Legacy prefixes, then REX. */
		for (;;) {
			op = code[i];
			if (op == 0x66 || op == 0x67 || op == 0xf2 ||
			    op == 0x2e || op == 0x3e || op == 0x26 ||
			    op == 0x36 || op == 0x64 || op == 0x65) {
				i++;
			} else if (op == 0xf3) {
				rep = true;
				i++;
			} else {
				break;
			}
		}
		if ((op & 0xf0) == 0x40) {
			rex_w = op & 8;
			op = code[++i];
		}
		i++;
		switch (op) {
		case 0x0f:
			op = code[i++];
			if (op == 0xc3) {
				if (rex_w)
					s->movnti8++;
				else
					s->movnti4++;
				i += modrm_len(&code[i]);
			} else if (op == 0x1f) {
				i += modrm_len(&code[i]);	/* nop r/m */
			} else if (op == 0x1e && rep && code[i] == 0xfa) {
				i++;				/* endbr64 */
			} else if (op >= 0x80 && op <= 0x8f) {
				s->branches++;
				i += 4;
			} else {
				goto unknown;
			}
			break;
		case 0x50 ... 0x5f:	/* push, pop */
		case 0x90:		/* nop */
		case 0xc9:		/* leave */
			break;
		case 0x01: case 0x03: case 0x29: case 0x2b: case 0x31:
		case 0x33: case 0x39: case 0x3b: case 0x85:
		case 0x88: case 0x89: case 0x8a: case 0x8b: case 0x8d:
			i += modrm_len(&code[i]);
			break;
		case 0x83:
			i += modrm_len(&code[i]) + 1;
			break;
		case 0x81:
		case 0xc7:
			i += modrm_len(&code[i]) + 4;
			break;
		case 0xb8 ... 0xbf:
			i += rex_w ? 8 : 4;
			break;
		case 0x70 ... 0x7f:
		case 0xeb:
			s->branches++;
			i += 1;
			break;
		case 0xe8:
		case 0xe9: {
			uptr target = (uptr)&code[i + 4] + rel32_at(&code[i]);

			if (target == (uptr)__memcpy_flushcache)
				s->calls_generic = true;
			i += 4;
#ifdef NTB_NTCHECK
			/* a checking build records every store */
			if (op == 0xe8 && target == (uptr)__ntcheck_op) {
				s->recorder_calls++;
				break;
			}
#endif
			if (op == 0xe8) {
				s->calls++;
				break;
			}
			s->jumps_out++;
			s->len = i;
			return;		/* a tail call ends the function */
		}
		case 0xff: {
			u8 reg = (code[i] >> 3) & 7;

			if (reg == 2 || reg == 3) {
				s->calls++;
			} else if (reg == 4 || reg == 5) {
				s->jumps_out++;
				s->len = i + modrm_len(&code[i]);
				return;
			} else if (reg > 1 && reg != 6) {
				goto unknown;
			}
			i += modrm_len(&code[i]);
			break;
		}
		case 0xc2:
		case 0xc3:
			s->ret = true;
			s->len = i + (op == 0xc2 ? 2 : 0);
			return;
		default:
			i = start;
			goto unknown;
		}
		continue;
unknown:
		s->unknown_at = (int)start;
		s->unknown_byte = code[start];
		s->len = i;
		return;
	}
	s->len = i;
}

static void expect_inline(struct kunit *test, const char *name,
			  void (*probe)(void *, const void *), size_t sz)
{
	struct code_scan s;

	scan_code((const void *)probe, 512, &s);
	kunit_info(test, "%s: %zu code bytes, %u x MOVNTI-8, %u x MOVNTI-4, "
		   "%u calls, %u tail jumps", name, s.len, s.movnti8,
		   s.movnti4, s.calls, s.jumps_out);
	KUNIT_EXPECT_EQ(test, s.unknown_at, -1);
	if (s.unknown_at >= 0)
		kunit_info(test, "%s: undecoded byte 0x%02x at +%d", name,
			   s.unknown_byte, s.unknown_at);
	KUNIT_EXPECT_TRUE(test, s.ret);
	KUNIT_EXPECT_EQ(test, s.calls, 0);
	KUNIT_EXPECT_EQ(test, s.jumps_out, 0);
	KUNIT_EXPECT_EQ(test, s.branches, 0);
	KUNIT_EXPECT_EQ(test, s.movnti8, sz / 8);
	KUNIT_EXPECT_EQ(test, s.movnti4, sz % 8 ? 1u : 0u);
	/* The checker's recorder, one call per store, or nothing at all. */
	KUNIT_EXPECT_EQ(test, s.recorder_calls,
			ntcheck_built() ? s.movnti8 + s.movnti4 : 0u);
}

/*
 * The struct page sizes of "x86/string: extend memcpy_flushcache() fixed-size fastpaths"
 * (and the smaller ones) stay inline.
 */
static void stays_inline(struct kunit *test)
{
	expect_inline(test, "memcpy_flushcache(64)", fc_probe_64, 64);
	expect_inline(test, "memcpy_flushcache(80)", fc_probe_80, 80);
	expect_inline(test, "memcpy_flushcache(96)", fc_probe_96, 96);
	expect_inline(test, "memcpy_flushcache(4)", fc_probe_4, 4);
	expect_inline(test, "memcpy_flushcache(8)", fc_probe_8, 8);
	expect_inline(test, "memcpy_flushcache(16)", fc_probe_16, 16);
	expect_inline(test, "memcpy_flushcache(32)", fc_probe_32, 32);
	expect_inline(test, "memcpy_flushcache(48)", fc_probe_48, 48);
}

/*
 * The control: a constant size without an inline case calls (or jumps to)
 * __memcpy_flushcache(), and the scan sees it. Were the scan blind to
 * calls, stays_inline would prove nothing.
 */
static void inline_check_sees_calls(struct kunit *test)
{
	struct code_scan s;

	scan_code((const void *)fc_probe_72, 512, &s);
	kunit_info(test, "memcpy_flushcache(72): %zu code bytes, %u calls, "
		   "%u tail jumps, target %s", s.len, s.calls, s.jumps_out,
		   s.calls_generic ? "__memcpy_flushcache" : "elsewhere");
	KUNIT_EXPECT_EQ(test, s.unknown_at, -1);
	KUNIT_EXPECT_EQ(test, s.calls + s.jumps_out, 1);
	KUNIT_EXPECT_EQ(test, s.movnti8 + s.movnti4, 0);
}

/* The probes also copy correctly (what the scan looked at is what runs). */
static void probes_copy(struct kunit *test)
{
	static void (*const probes[])(void *, const void *) = {
		fc_probe_4,  fc_probe_8,  fc_probe_16, fc_probe_32, fc_probe_48,
		fc_probe_64, fc_probe_80, fc_probe_96, fc_probe_72,
	};
	static const size_t sizes[] = { 4, 8, 16, 32, 48, 64, 80, 96, 72 };
	u8 src[128], dst[128 + 16];

	for (size_t p = 0; p < ARRAY_SIZE(probes); p++) {
		copy_fill_src(src, sizeof(src));
		copy_fill_dst(dst, sizeof(dst));
		probes[p](dst + 3, src + 1);
		memcpy_nt_drain();
		KUNIT_EXPECT_MEMEQ(test, dst + 3, src + 1, sizes[p]);
		KUNIT_EXPECT_EQ(test, dst[2], copy_fill_byte(2));
		KUNIT_EXPECT_EQ(test, dst[3 + sizes[p]],
				copy_fill_byte(3 + sizes[p]));
	}
}

/* A size the compiler cannot see goes to __memcpy_flushcache(). */
static void __noinline flushcache_runtime_size(void *dst, const void *src,
					       size_t n)
{
	memcpy_flushcache(dst, src, n);
}

static void runtime_size(struct kunit *test)
{
	const struct copy_variant v = {
		.name = "memcpy_flushcache(n)",
		.copy = flushcache_runtime_size,
		.max_size = 256,
		.needs_drain = true,
	};
	struct copy_matrix m;

	copy_matrix_init(&m, 256);
	KUNIT_EXPECT_TRUE(test, copy_matrix_run(test, &v, &m));
	kunit_info(test, "%lu cases (%s matrix, sizes 0..256)", m.cases,
		   copy_matrix_kind(&m));
}

/*
 * The pattern of "mm: use memcpy_nt() in zone-device template copies": memcpy_nt() one template per struct page over a
 * run of pages, memcpy_nt_drain(), then ordinary loads see every byte.
 */
static void memcpy_nt_drain_visible(struct kunit *test)
{
	static const size_t sizes[] = { 64, 80, 96 };
	const size_t pages = 4096;

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t sz = sizes[k], len = pages * sz;
		u8 *map = plat_alloc_aligned(len, 4096);
		u8 tmpl[96];
		size_t bad = len;

		KUNIT_ASSERT_NOT_NULL(test, map);
		copy_fill_dst(map, len);
		copy_fill_src(tmpl, sizeof(tmpl));
		for (size_t i = 0; i < pages; i++) {
			u8 *page = map + i * sz;

			/* A pfn-dependent field, refreshed per page. */
			__builtin_memcpy(tmpl + 32, &i, sizeof(i));
			if (sz == 64)
				memcpy_nt(page, tmpl, 64);
			else if (sz == 80)
				memcpy_nt(page, tmpl, 80);
			else
				memcpy_nt(page, tmpl, 96);
		}
		memcpy_nt_drain();
		for (size_t i = 0; i < pages && bad == len; i++) {
			const volatile u8 *page = map + i * sz;
			size_t idx;

			for (size_t j = 0; j < sz; j++) {
				u8 want = copy_src_byte(j);

				if (j >= 32 && j < 40)
					want = (u8)(i >> (8 * (j - 32)));
				if (page[j] != want) {
					bad = i * sz + j;
					break;
				}
			}
			__builtin_memcpy(&idx, (const u8 *)page + 32,
					 sizeof(idx));
			if (idx != i && bad == len)
				bad = i * sz + 32;
		}
		if (bad != len)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%zu-byte pages: byte %zu (page %zu) "
				      "wrong after the drain", sz, bad,
				      bad / sz);
		plat_free(map, len);
	}
}

static const struct kunit_case memcpy_flushcache_cases[] = {
	KUNIT_CASE(fixed_4),
	KUNIT_CASE(fixed_8),
	KUNIT_CASE(fixed_16),
	KUNIT_CASE(fixed_32),
	KUNIT_CASE(fixed_48),
	KUNIT_CASE(fixed_64),
	KUNIT_CASE(fixed_80),
	KUNIT_CASE(fixed_96),
	KUNIT_CASE(stays_inline),
	KUNIT_CASE(inline_check_sees_calls),
	KUNIT_CASE(probes_copy),
	KUNIT_CASE(runtime_size),
	KUNIT_CASE(memcpy_nt_drain_visible),
};

KUNIT_SUITE_DEFINE(memcpy_flushcache_suite, "memcpy_flushcache",
		   memcpy_flushcache_cases,
		   .cpu_needs = KUNIT_NEEDS_SSE2);
