/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clean_cache_range() (model/arch/x86/lib/usercopy_64.c, the kernel's):
 * write back every cache line that holds a byte of
 * [addr, addr + size), with the best instruction the CPU has: CLWB, else
 * CLFLUSHOPT, else CLFLUSH. The choice is made once, from CPUID, at the
 * first use (or by clean_cache_init()); the loop then runs one fixed
 * instruction, which is what the kernel's alternatives patching gives.
 * The line size is CPUID.1:EBX[15:8] * 8 (boot_cpu_data.clflush_size).
 *
 * As in the kernel, the walk starts at the line holding @addr and goes on
 * while the line start is below @addr + @size: a zero @size at an
 * unaligned @addr still cleans the line holding @addr.
 *
 * CLWB and CLFLUSHOPT are weakly ordered: SFENCE (memcpy_nt_drain()) before
 * relying on the write-back. No fence here.
 */
#ifndef NTBOOT_ARCH_X86_LIB_CLEAN_CACHE_H
#define NTBOOT_ARCH_X86_LIB_CLEAN_CACHE_H

#include "include/types.h"

enum clean_cache_method {
	CLEAN_CACHE_AUTO,	/* not chosen yet: chosen at the first use */
	CLEAN_CACHE_CLFLUSH,
	CLEAN_CACHE_CLFLUSHOPT,
	CLEAN_CACHE_CLWB,
	CLEAN_CACHE_HOOK,	/* a function per line: tests only */
	CLEAN_CACHE_NR_METHODS
};

void clean_cache_range(void *addr, size_t size);

/* Choose the method from CPUID (again). Called lazily; idempotent. */
void clean_cache_init(void);

/* The best method this CPU has, by CLWB > CLFLUSHOPT > CLFLUSH. */
enum clean_cache_method clean_cache_best_method(void);
/* The method clean_cache_range() uses now (chooses it if not yet done). */
enum clean_cache_method clean_cache_current_method(void);
/* "clwb", "clflushopt", "clflush", "hook", "auto". */
const char *clean_cache_method_name(enum clean_cache_method m);
/* Does this CPU have the instruction of @m? */
bool clean_cache_method_supported(enum clean_cache_method m);

/*
 * Force @m (benchmarks compare the three; tests cover each). Returns false,
 * changing nothing, when the CPU lacks it. @old, if not NULL, receives the
 * method in use before, for restoring it. CLEAN_CACHE_AUTO goes back to
 * the CPUID choice.
 */
bool clean_cache_use_method(enum clean_cache_method m,
			    enum clean_cache_method *old);

/*
 * Tests: call @fn(line, @ctx) for every line instead of writing it back,
 * so the lines a copy cleans can be checked. Undo with
 * clean_cache_use_method(old, NULL).
 */
typedef void (*clean_cache_hook_fn)(void *line, void *ctx);
enum clean_cache_method clean_cache_set_hook(clean_cache_hook_fn fn,
					     void *ctx);

/* clean_cache_range()'s CLEAN_CACHE_HOOK step: the hook for one line. */
void clean_cache_hook_line(void *line);

/* Bytes per line as clean_cache_range() walks them. */
unsigned int clean_cache_line_size(void);

#endif
