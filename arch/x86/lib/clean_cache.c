// SPDX-License-Identifier: GPL-2.0-only
/*
 * The choice of instruction for clean_cache_range()
 * (model/arch/x86/lib/usercopy_64.c), made once, and the methods the
 * tests and benchmarks force: the project's own stand-in for the
 * kernel's alternatives patching. See clean_cache.h.
 */
#include "arch/x86/lib/clean_cache.h"
#include "arch/x86/cpu.h"
#include "arch/x86/special_insns.h"
#include "include/compiler.h"

static enum clean_cache_method clean_method;	/* CLEAN_CACHE_AUTO */
static unsigned int clean_line;
static clean_cache_hook_fn clean_hook;
static void *clean_hook_ctx;

static const char *const method_names[CLEAN_CACHE_NR_METHODS] = {
	[CLEAN_CACHE_AUTO] = "auto",
	[CLEAN_CACHE_CLFLUSH] = "clflush",
	[CLEAN_CACHE_CLFLUSHOPT] = "clflushopt",
	[CLEAN_CACHE_CLWB] = "clwb",
	[CLEAN_CACHE_HOOK] = "hook",
};

const char *clean_cache_method_name(enum clean_cache_method m)
{
	return (unsigned int)m < CLEAN_CACHE_NR_METHODS ? method_names[m] : "?";
}

/* CPUID has been read once boot_cpu_data holds a leaf count. */
static bool cpu_detected(void)
{
	return boot_cpu_data.max_leaf != 0;
}

bool clean_cache_method_supported(enum clean_cache_method m)
{
	switch (m) {
	case CLEAN_CACHE_AUTO:
	case CLEAN_CACHE_HOOK:
		return true;
	case CLEAN_CACHE_CLFLUSH:
		/* Architectural on x86_64 (SSE2 implies it). */
		return !cpu_detected() || boot_cpu_has(X86_FEATURE_CLFLUSH);
	case CLEAN_CACHE_CLFLUSHOPT:
		return boot_cpu_has(X86_FEATURE_CLFLUSHOPT);
	case CLEAN_CACHE_CLWB:
		return boot_cpu_has(X86_FEATURE_CLWB);
	default:
		return false;
	}
}

enum clean_cache_method clean_cache_best_method(void)
{
	if (boot_cpu_has(X86_FEATURE_CLWB))
		return CLEAN_CACHE_CLWB;
	if (boot_cpu_has(X86_FEATURE_CLFLUSHOPT))
		return CLEAN_CACHE_CLFLUSHOPT;
	return CLEAN_CACHE_CLFLUSH;
}

static unsigned int line_size_from_cpuid(void)
{
	unsigned int sz = boot_cpu_data.clflush_size;

	/* Not enumerated (or nonsense): the x86_64 line size. */
	if (sz < 16 || (sz & (sz - 1)))
		return 64;
	return sz;
}

void clean_cache_init(void)
{
	WRITE_ONCE(clean_line, line_size_from_cpuid());
	/*
	 * Before CPUID has been read only CLFLUSH is known to exist: use it
	 * without remembering the choice, so the first call after detection
	 * still picks the best one.
	 */
	WRITE_ONCE(clean_method, cpu_detected() ? clean_cache_best_method() :
						  CLEAN_CACHE_AUTO);
}

enum clean_cache_method clean_cache_current_method(void)
{
	enum clean_cache_method m = READ_ONCE(clean_method);

	if (m == CLEAN_CACHE_AUTO) {
		clean_cache_init();
		m = READ_ONCE(clean_method);
		if (m == CLEAN_CACHE_AUTO)
			m = CLEAN_CACHE_CLFLUSH;
	}
	return m;
}

unsigned int clean_cache_line_size(void)
{
	unsigned int l = READ_ONCE(clean_line);

	if (!l) {
		clean_cache_init();
		l = READ_ONCE(clean_line);
	}
	return l;
}

bool clean_cache_use_method(enum clean_cache_method m,
			    enum clean_cache_method *old)
{
	if (m == CLEAN_CACHE_HOOK || !clean_cache_method_supported(m))
		return false;
	if (old)
		*old = clean_cache_current_method();
	if (m == CLEAN_CACHE_AUTO) {
		clean_cache_init();
		return true;
	}
	clean_cache_line_size();
	WRITE_ONCE(clean_method, m);
	return true;
}

enum clean_cache_method clean_cache_set_hook(clean_cache_hook_fn fn,
					     void *ctx)
{
	enum clean_cache_method old = clean_cache_current_method();

	clean_cache_line_size();
	clean_hook = fn;
	clean_hook_ctx = ctx;
	WRITE_ONCE(clean_method, CLEAN_CACHE_HOOK);
	return old;
}

/* One line through the test hook (CLEAN_CACHE_HOOK). */
void clean_cache_hook_line(void *line)
{
	clean_hook(line, clean_hook_ctx);
}
