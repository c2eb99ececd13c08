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
