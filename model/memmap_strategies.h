/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The strategies of the memmap model, in one list. Everything else is
 * generated from it: enum memmap_copy, the table memmap_strategies[]
 * (model/memmap.c), the NT flag memmap_copy_nt(), and in
 * model/mm/mm_init.c the dispatch of the page writes (memmap_copy_fill(),
 * tmpl_copy_page(), tmpl_fill()) and the loops compiled per strategy and
 * layout with their table. A new strategy is one entry here plus its copy
 * function: tmpl_copy_<name>() next to tmpl_copy_page() for a per-page
 * copy; a fill's functions are its variants' tmpl_fill_<variant>_<size>().
 * A misspelt variant name fails the build: each entry refers to its copy
 * variant's symbol (the link fails), and a fill calls its functions by
 * name (the compile fails).
 *
 *   X(name, COPY, write, variant, nt, layouts, origin, desc)
 *
 * name      the strategy's name (strategy= option, reports)
 * COPY      enum memmap_copy constant, MEMMAP_<COPY>
 * write     how a page gets written, which also says how the copy variant
 *           (arch/x86/lib/copy_variant.h) is named from variant:
 *           none        each page built field by field, no copy (the
 *                       variant token is not used)
 *           copy        a copy per page, tmpl_copy_<name>(); the variant
 *                       <variant>
 *           copy_sized  the same, with one variant per struct page size,
 *                       <variant>_<size>
 *           fill        runs of pages from one template,
 *                       tmpl_fill_<variant>_<size>() for each size of its
 *                       layouts; the variants tmpl_<variant>_<size>
 * variant   the copy variant's name, or its part named above
 * nt        weakly ordered stores that the drains must order
 * layouts   the struct page layouts it is compiled for: one of the
 *           MEMMAP_L_* sets below, by name (a fill's functions are picked
 *           by it, one per size of the set)
 * origin    where it comes from (enum memmap_origin): the kernel at
 *           v7.2-rc1, the series, or the project's own
 * desc      one line for lists
 */
#ifndef NTBOOT_MODEL_MEMMAP_STRATEGIES_H
#define NTBOOT_MODEL_MEMMAP_STRATEGIES_H

/*
 * Layout sets, as bit masks over enum page_layout_id. tmpl_fill()
 * (model/mm/mm_init.c) has a chain of sizes for each set a fill uses,
 * TMPL_FILL_SIZES_<set>: a fill with a set it lacks fails to compile.
 */
#define MEMMAP_L_ALL 0xfu	/* 64, 80 (KMSAN), 80 (last_cpupid), 96 */
#define MEMMAP_L_64 0x1u
#define MEMMAP_L_64_96 0x9u

#define MEMMAP_STRATEGIES(X)                                                  \
	X(slow, SLOW, none, none, false, MEMMAP_L_ALL, MEMMAP_KERNEL,         \
	  "__init_zone_device_page() for every pfn (no template)")            \
	X(tmpl_memcpy, TMPL_MEMCPY, copy, memcpy, false, MEMMAP_L_ALL,        \
	  MEMMAP_SERIES, "template, cached memcpy() of sizeof(struct page)")  \
	X(tmpl_nt_generic, TMPL_NT_GENERIC, copy, flushcache, true,           \
	  MEMMAP_L_ALL, MEMMAP_SERIES,                                        \
	  "template, memcpy_nt() as a __memcpy_flushcache() call")            \
	X(tmpl_nt_fixed, TMPL_NT_FIXED, copy_sized, flushcache, true,         \
	  MEMMAP_L_ALL, MEMMAP_SERIES,                                        \
	  "template, memcpy_nt() of a constant size: inline MOVNTI")          \
	X(tmpl_nocache, TMPL_NOCACHE, copy, nocache, false, MEMMAP_L_ALL,     \
	  MEMMAP_OWN,                                                         \
	  "template, memcpy_nocache() call (fences each copy itself)")        \
	X(tmpl_sse2_nt, TMPL_SSE2_NT, copy, sse2_nt, true, MEMMAP_L_ALL,      \
	  MEMMAP_OWN, "template, SSE2 MOVNTDQ copy")                          \
	X(tmpl_avx_nt, TMPL_AVX_NT, copy, avx_nt, true, MEMMAP_L_ALL,         \
	  MEMMAP_OWN, "template, AVX VMOVNTDQ copy")                          \
	X(tmpl_avx512_nt, TMPL_AVX512_NT, copy, avx512_nt, true,              \
	  MEMMAP_L_ALL, MEMMAP_OWN, "template, AVX-512 VMOVNTDQ copy")        \
	X(tmpl_movdir64b, TMPL_MOVDIR64B, copy, movdir64b, true, MEMMAP_L_64, \
	  MEMMAP_OWN, "template, one MOVDIR64B per 64-byte page")             \
	X(fill_mov, FILL_MOV, fill, mov, false, MEMMAP_L_ALL, MEMMAP_OWN,     \
	  "runs of pages from a template in registers, MOV")                  \
	X(fill_movsb, FILL_MOVSB, fill, movsb, false, MEMMAP_L_ALL,           \
	  MEMMAP_OWN,                                                         \
	  "runs of pages: 4 KiB of them with MOV, then rep movsb copies of "  \
	  "the written prefix, doubling")                                     \
	X(fill_movnti, FILL_MOVNTI, fill, movnti, true, MEMMAP_L_ALL,         \
	  MEMMAP_OWN, "runs of pages from a template in registers, MOVNTI")   \
	X(fill_sse2, FILL_SSE2, fill, sse2, true, MEMMAP_L_ALL, MEMMAP_OWN,   \
	  "runs of pages from a template in xmm, MOVNTDQ")                    \
	X(fill_avx, FILL_AVX, fill, avx, true, MEMMAP_L_64_96, MEMMAP_OWN,    \
	  "runs of pages from a template in ymm, VMOVNTDQ")                   \
	X(fill_avx512, FILL_AVX512, fill, avx512, true, MEMMAP_L_64,          \
	  MEMMAP_OWN, "runs of pages from a template in zmm, VMOVNTDQ")

/* Where a strategy comes from. */
enum memmap_origin {
	MEMMAP_KERNEL,	/* the kernel at v7.2-rc1 without the series */
	MEMMAP_SERIES,	/* the series' template path (or a step of it) */
	MEMMAP_OWN,	/* the project's own, beyond the kernel and series */
};

#endif
