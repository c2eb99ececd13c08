// SPDX-License-Identifier: GPL-2.0-only
/*
 * Template fills from general registers; see copy_template.h.
 *
 * 96 bytes take 12 registers; with the destination pointer that is 13 of
 * the 14 the compiler may hand out (rbp is the frame pointer). The end
 * address may therefore live in memory ("rm"): comparing against it is
 * not a reload of the template.
 */
#include "arch/x86/lib/copy_template.h"
#include "arch/x86/lib/copy_variant.h"
#include "lib/ntcheck.h"

#define TMPL_ST(insn, i) insn " %[r" #i "], " #i "*8(%[p])\n\t"
#define TMPL_ST_64(insn)                                                     \
	TMPL_ST(insn, 0) TMPL_ST(insn, 1) TMPL_ST(insn, 2) TMPL_ST(insn, 3)  \
	TMPL_ST(insn, 4) TMPL_ST(insn, 5) TMPL_ST(insn, 6) TMPL_ST(insn, 7)
#define TMPL_ST_80(insn) TMPL_ST_64(insn) TMPL_ST(insn, 8) TMPL_ST(insn, 9)
#define TMPL_ST_96(insn)                                                     \
	TMPL_ST_80(insn) TMPL_ST(insn, 10) TMPL_ST(insn, 11)

#define TMPL_IN_64(t)                                                        \
	[r0] "r"(t[0]), [r1] "r"(t[1]), [r2] "r"(t[2]), [r3] "r"(t[3]),      \
	[r4] "r"(t[4]), [r5] "r"(t[5]), [r6] "r"(t[6]), [r7] "r"(t[7])
#define TMPL_IN_80(t) TMPL_IN_64(t), [r8] "r"(t[8]), [r9] "r"(t[9])
#define TMPL_IN_96(t) TMPL_IN_80(t), [r10] "r"(t[10]), [r11] "r"(t[11])

#define DEFINE_TMPL_FILL(kind, insn, size, nt, what)                         \
	void tmpl_fill_##kind##_##size(void *dst, const void *tmpl, size_t n) \
	{                                                                     \
		uptr p = (uptr)dst, end;                                      \
		u64 t[size / 8];                                              \
                                                                              \
		n -= n % size;                                                \
		if (!n)                                                       \
			return;                                               \
		end = p + n;                                                  \
		__builtin_memcpy(t, tmpl, size);                              \
		asm volatile("1:\n\t" TMPL_ST_##size(insn)                    \
			     "add $" #size ", %[p]\n\t"                       \
			     "cmp %[end], %[p]\n\t"                           \
			     "jb 1b"                                          \
			     : [p] "+r"(p)                                    \
			     : [end] "rm"(end), TMPL_IN_##size(t)             \
			     : "memory", "cc");                               \
		if (nt)                                                       \
			ntcheck_op(dst, n, NTCHECK_MOVNTI);                   \
	}                                                                     \
	DEFINE_COPY_VARIANT(tmpl_##kind##_##size,                             \
		.desc = "fill from a " #size "-byte template held in "        \
			"general registers, " what,                           \
		.copy = tmpl_fill_##kind##_##size,                            \
		.template_size = size, .needs_drain = nt,                     \
		.features = nt ? CPU_FEATURE_BIT(X86_FEATURE_SSE2) : 0)

DEFINE_TMPL_FILL(mov, "movq", 64, false, "cached MOV");
DEFINE_TMPL_FILL(mov, "movq", 80, false, "cached MOV");
DEFINE_TMPL_FILL(mov, "movq", 96, false, "cached MOV");
DEFINE_TMPL_FILL(movnti, "movntiq", 64, true, "MOVNTI");
DEFINE_TMPL_FILL(movnti, "movntiq", 80, true, "MOVNTI");
DEFINE_TMPL_FILL(movnti, "movntiq", 96, true, "MOVNTI");

/*
 * The template written once with the register fill, then copied forward
 * with "rep movsb": the written prefix doubles until it reaches the cap,
 * then cap-sized chunks of it follow. So almost every byte goes out
 * through fast-string stores (ERMS/FSRM), the same store machinery as the
 * "rep stosb" limit fill, but with a whole template, not one byte.
 *
 * The first block is the whole pages of 4 KiB: 4096, 4080 or 4032 bytes.
 * The cap is that times 64 (256 KiB, 255 KiB or 252 KiB): a whole number
 * of pages, so every copy starts at a page boundary and the chunks stay
 * in phase with the template; small enough to be read from L2 each time.
 * Source and destination never overlap (each copy is at most as long as
 * its distance): an overlapping "rep movsb" at a short distance falls back
 * to slow byte moves on some CPUs.
 *
 * "rep movsb" runs on every x86-64 CPU, so no feature bit is required; it
 * is only fast with ERMS/FSRM, which the benchmarks' CPU line shows.
 */
#define TMPL_MOVSB_FIRST(size) (4096 / (size) * (size))
#define TMPL_MOVSB_CAP(size) (64 * TMPL_MOVSB_FIRST(size))

#define DEFINE_TMPL_FILL_MOVSB(size)                                         \
	void tmpl_fill_movsb_##size(void *dst, const void *tmpl, size_t n)   \
	{                                                                     \
		u8 *d = dst;                                                  \
		size_t k, c;                                                  \
                                                                              \
		n -= n % size;                                                \
		k = min(n, (size_t)TMPL_MOVSB_FIRST(size));                   \
		tmpl_fill_mov_##size(d, tmpl, k);                             \
		for (; k < n && k < TMPL_MOVSB_CAP(size); k += c) {           \
			c = min(k, n - k);                                    \
			memcpy_rep_movsb(d + k, d, c);                        \
		}                                                             \
		for (; k < n; k += c) {                                       \
			c = min(n - k, (size_t)TMPL_MOVSB_CAP(size));         \
			memcpy_rep_movsb(d + k, d, c);                        \
		}                                                             \
	}                                                                     \
	DEFINE_COPY_VARIANT(tmpl_movsb_##size,                                \
		.desc = "fill from a " #size "-byte template: the first "     \
			"pages with MOV, then rep movsb copies of them",      \
		.copy = tmpl_fill_movsb_##size,                               \
		.template_size = size)

DEFINE_TMPL_FILL_MOVSB(64);
DEFINE_TMPL_FILL_MOVSB(80);
DEFINE_TMPL_FILL_MOVSB(96);
