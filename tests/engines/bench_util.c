// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "arch/x86/lib/copy_variant.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/engines/bench_util.h"
#include "include/platform.h"
#include "model/memmap.h"

DEFINE_OPTION_SIZE(namespace, 100ull << 30, SZ_2M, SZ_4K,
		   "modelled pmem namespace size (100G); its end is cut "
		   "to the data alignment as nd_pfn_init() cuts it");

/* The sizes and their words: manifest/layouts.yaml (page_layouts.h). */
static const struct opt_word layout_words[] = {
	PAGE_LAYOUT_OPTION_WORDS{NULL},
};
DEFINE_OPTION_LIST(layout, "layout", layout_words, 1, 0, 1,
		   PAGE_LAYOUT_OPTION_EXPECT, PAGE_LAYOUT_OPTION_HELP,
		   PAGE_LAYOUT_OPTION_SIZES);

static const struct opt_word mode_words[] = {
	{"fsdax", MODE_FSDAX},
	{"devdax2m", MODE_DEVDAX2M},
	{"devdax1g", MODE_DEVDAX1G},
	{NULL},
};
DEFINE_OPTION_FLAGS(mode, MODE_FSDAX | MODE_DEVDAX2M, mode_words,
		    "modes are fsdax, devdax2m, devdax1g",
		    "namespace modes: fsdax,devdax2m,devdax1g");

static const struct opt_word map_words[] = {
	{"dev", PFN_MODE_PMEM},
	{"mem", PFN_MODE_RAM},
	{NULL},
};
DEFINE_OPTION_ENUM(enum nd_pfn_mode, map, PFN_MODE_PMEM, map_words,
		   "where the namespace's memmap lives, as ndctl's --map: dev "
		   "(in the namespace, behind an altmap: ndctl's default and "
		   "the postings') or mem");

static const struct opt_word kernel_words[] = {
	{"base", MODEL_KERNEL_BASE},
	{"6.12", MODEL_KERNEL_6_12},
	{NULL},
};
DEFINE_OPTION_ENUM(enum model_kernel, kernel, MODEL_KERNEL_BASE, kernel_words,
		   "which kernel bench_memmap_init's model is: base (the "
		   "series' base, v7.2-rc1) or 6.12 (Debian's 6.12.118: "
		   "the slow path and the series backported to it on "
		   "layout=64 only; docs/model.md, \"The two kernels\")");

int bench_kernel_base_only(char *reason, size_t len)
{
	if (opt_kernel == MODEL_KERNEL_BASE)
		return 0;
	ntb_snprintf(reason, len,
		     "kernel=%s is bench_memmap_init's alone: this suite "
		     "models the base kernel",
		     model_kernel_name(opt_kernel));
	return 1;
}

static const struct opt_word memmap_in_words[] = {
	{"auto", MEMMAP_IN_AUTO},
	{"dram", MEMMAP_IN_DRAM},
	{"pmem", MEMMAP_IN_PMEM},
	{NULL},
};
DEFINE_OPTION_ENUM(enum memmap_in, memmap_in, MEMMAP_IN_AUTO, memmap_in_words,
		   "where bench_memmap_init writes the memmap: auto "
		   "(persistent memory when the machine has it and map=dev), "
		   "dram or pmem");

/* namespace=, halved until its memmap of @page_size struct pages fits. */
static u64 fit_namespace(unsigned int page_size, u64 room)
{
	u64 ns = opt_namespace;

	while (ns > SZ_2M && ns / 4096 * page_size > room)
		ns /= 2;
	return ns;
}

void *bench_memmap_buffer(struct kunit *test, unsigned int page_size, u64 *ns,
			  size_t *bytes, bool *in_pmem)
{
	const char *source;
	u64 base, size;
	bool want =
		opt_memmap_in == MEMMAP_IN_PMEM ||
		(opt_memmap_in == MEMMAP_IN_AUTO && opt_map == PFN_MODE_PMEM);
	bool have = !plat_pmem_region(&base, &size, &source);
	void *buf;

	*in_pmem = false;
	if (opt_memmap_in == MEMMAP_IN_PMEM && opt_map != PFN_MODE_PMEM) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "memmap_in=pmem with map=mem: map=mem keeps the "
			      "memmap in system memory");
		return NULL;
	}
	if (opt_memmap_in == MEMMAP_IN_PMEM && !have) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "memmap_in=pmem: no persistent memory: %s",
			      source);
		return NULL;
	}
	if (want && have) {
		*ns = fit_namespace(page_size, size);
		*bytes = *ns / 4096 * page_size;
		*in_pmem = true;
		kunit_diag("# memmap_in=pmem source=%s base=0x%llx bytes=%zu "
			   "namespace_mib=%llu: the struct pages are written "
			   "into persistent memory, as the kernel writes them "
			   "with map=dev\n",
			   source, (unsigned long long)base, *bytes,
			   (unsigned long long)(*ns >> 20));
		return (void *)(uptr)base;
	}
	*ns = bench_fit_namespace(test, page_size);
	*bytes = *ns / 4096 * page_size;
	buf = plat_alloc_aligned(*bytes, SZ_2M);
	kunit_diag("# memmap_in=dram: %s\n",
		   opt_memmap_in == MEMMAP_IN_DRAM ? "memmap_in=dram"
		   : opt_map != PFN_MODE_PMEM
			   ? "map=mem keeps the memmap in system memory"
			   : source);
	return buf;
}

#define DEFAULT_L2 (1ull << 20)
#define DEFAULT_LLC (32ull << 20)

/* CPUID.80000001H:ECX[22]: leaf 0x8000001D enumerates the caches. */
#define AMD_TOPOEXT (1u << 22)

enum { CACHE_NULL, CACHE_DATA, CACHE_INSN, CACHE_UNIFIED };

/*
 * Leaves 4 and 0x8000001D share one format: EAX type and level, EBX
 * ways/partitions/line, ECX sets. Returns false when @leaf enumerates
 * no data cache at all.
 */
static bool walk_cache_leaf(u32 leaf, struct bench_caches *c)
{
	bool any = false;

	for (u32 sub = 0; sub < 16; sub++) {
		u32 a, b, cx, d, type, level, shared;
		u64 size;

		cpuid_count(leaf, sub, &a, &b, &cx, &d);
		type = a & 0x1f;
		if (type == CACHE_NULL)
			break;
		if (type == CACHE_INSN)
			continue;
		level = (a >> 5) & 7;
		shared = ((a >> 14) & 0xfff) + 1;
		size = (u64)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
		       ((b & 0xfff) + 1) * ((u64)cx + 1);
		any = true;
		if (level == 1) {
			c->l1d_bytes = size;
			c->line_bytes = (b & 0xfff) + 1;
		} else if (level == 2) {
			c->l2_bytes = size;
			c->l2_shared_by = shared;
		}
		if (level >= c->llc_level) {
			c->llc_level = level;
			c->llc_bytes = size;
			c->llc_shared_by = shared;
		}
	}
	return any && c->l2_bytes;
}

static bool is_amd(void)
{
	return !strcmp(boot_cpu_data.vendor, "AuthenticAMD") ||
	       !strcmp(boot_cpu_data.vendor, "HygonGenuine");
}

/*
 * The legacy AMD leaves: L1d in 0x80000005 ECX[31:24] KiB; L2 in
 * 0x80000006 ECX[31:16] KiB, L3 in its EDX[31:18] x 512 KiB.
 */
static bool legacy_amd_leaf(struct bench_caches *c)
{
	u32 a, b, cx, d;

	if (boot_cpu_data.max_ext_leaf < 0x80000006)
		return false;
	if (is_amd()) {
		cpuid_count(0x80000005, 0, &a, &b, &cx, &d);
		c->l1d_bytes = (u64)(cx >> 24) << 10;
	}
	cpuid_count(0x80000006, 0, &a, &b, &cx, &d);
	if (!(cx >> 16))
		return false;
	c->l2_bytes = (u64)(cx >> 16) << 10;
	c->line_bytes = cx & 0xff;
	c->llc_level = 2;
	c->llc_bytes = c->l2_bytes;
	if (d >> 18) {
		c->llc_level = 3;
		c->llc_bytes = (u64)(d >> 18) << 19;
	}
	return true;
}

void bench_caches_detect(struct bench_caches *c)
{
	u32 a, b, cx, d;

	memset(c, 0, sizeof(*c));
	if (is_amd()) {
		if (boot_cpu_data.max_ext_leaf >= 0x8000001d) {
			cpuid_count(0x80000001, 0, &a, &b, &cx, &d);
			if ((cx & AMD_TOPOEXT) &&
			    walk_cache_leaf(0x8000001d, c)) {
				c->source = "cpuid8000001d";
				goto done;
			}
		}
		memset(c, 0, sizeof(*c));
		ntb_snprintf(c->note, sizeof(c->note),
			     "CPUID 0x8000001D not enumerated (no TOPOEXT)");
	} else if (boot_cpu_data.max_leaf >= 4) {
		if (walk_cache_leaf(4, c)) {
			c->source = "cpuid4";
			goto done;
		}
		memset(c, 0, sizeof(*c));
		ntb_snprintf(c->note, sizeof(c->note),
			     "CPUID leaf 4 lists no L2");
	} else {
		ntb_snprintf(c->note, sizeof(c->note),
			     "CPUID leaf 4 absent (max leaf %u)",
			     boot_cpu_data.max_leaf);
	}
	if (legacy_amd_leaf(c)) {
		c->source = "cpuid80000006";
		goto done;
	}
	c->source = "default";
	c->l2_bytes = DEFAULT_L2;
	c->llc_bytes = DEFAULT_LLC;
	c->llc_level = 3;
	ntb_snprintf(c->note + strlen(c->note),
		     sizeof(c->note) - strlen(c->note),
		     "%sno cache leaf usable: assuming a %s L2 and a %s LLC",
		     c->note[0] ? "; " : "", bench_size_str(DEFAULT_L2),
		     bench_size_str(DEFAULT_LLC));
done:
	if (!c->line_bytes)
		c->line_bytes = boot_cpu_data.clflush_size
					? boot_cpu_data.clflush_size
					: 64;
}

void bench_caches_print(const char *suite, const struct bench_caches *c)
{
	kunit_diag("# %s: caches l1d_bytes=%llu l2_bytes=%llu llc_bytes=%llu "
		   "llc_level=%u line_bytes=%u l2_shared_by=%u "
		   "llc_shared_by=%u source=%s\n",
		   suite, c->l1d_bytes, c->l2_bytes, c->llc_bytes, c->llc_level,
		   c->line_bytes, c->l2_shared_by, c->llc_shared_by, c->source);
	if (c->note[0])
		kunit_diag("# %s: caches: %s\n", suite, c->note);
}

const char *bench_size_str(u64 bytes)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	static char ring[8][24];
	static unsigned int next;
	char *buf = ring[next++ % ARRAY_SIZE(ring)];
	unsigned int u = 0;
	int n;

	while (u + 1 < ARRAY_SIZE(unit) && bytes >> (10 * (u + 1)))
		u++;
	/* Whole units where exact, else one decimal. */
	if (bytes & ((1ull << (10 * u)) - 1))
		n = ntb_fmt_fixed(buf, sizeof(ring[0]), bytes, 1ull << (10 * u),
				  1);
	else
		n = ntb_snprintf(buf, sizeof(ring[0]), "%llu",
				 bytes >> (10 * u));
	ntb_snprintf(buf + n, sizeof(ring[0]) - n, " %s", unit[u]);
	return buf;
}

#define MEM_HEADROOM_DIV 10

u64 bench_mem_room(void)
{
	u64 avail = plat_mem_available();

	return avail - avail / MEM_HEADROOM_DIV;
}

u64 bench_fit_namespace(struct kunit *test, unsigned int page_size)
{
	u64 ns = fit_namespace(page_size, bench_mem_room());

	if (ns != opt_namespace)
		kunit_info(test,
			   "namespace scaled down from %llu MiB to %llu MiB: "
			   "its memmap of %u-byte struct pages needs %llu MiB, "
			   "%llu MiB free",
			   opt_namespace >> 20, ns >> 20, page_size,
			   opt_namespace / 4096 * page_size >> 20,
			   plat_mem_available() >> 20);
	return ns;
}

void bench_unreachable_add(struct bench_unreachable *u,
			   const struct memmap_strategy *s,
			   const struct page_layout *l)
{
	char why[320];
	unsigned int i;
	size_t len;

	if (!memmap_unreachable(s, l, why, sizeof(why)))
		return;
	for (i = 0; i < u->nr; i++)
		if (!strcmp(u->r[i].reason, why))
			break;
	if (i == u->nr) {
		/* More reasons than slots: the last slot says so. */
		if (u->nr == BENCH_UNREACHABLE_REASONS)
			i = u->nr - 1;
		else
			u->nr++;
		ntb_snprintf(u->r[i].reason, sizeof(u->r[i].reason), "%s", why);
		u->r[i].names[0] = '\0';
	}
	len = strlen(u->r[i].names);
	ntb_snprintf(u->r[i].names + len, sizeof(u->r[i].names) - len, "%s%s",
		     len ? "," : "", s->name);
}

void bench_unreachable_print(struct bench_unreachable *u, const char *config)
{
	for (unsigned int i = 0; i < u->nr; i++)
		kunit_diag("# unreachable: %s strategies=%s: %s\n", config,
			   u->r[i].names, u->r[i].reason);
	u->nr = 0;
}

void bench_poison_streaming(void *dst, u8 byte, size_t n)
{
	static const struct copy_variant *v;
	u8 pattern[64] __aligned(64);
	size_t body = n - n % 64;

	if (!v)
		v = copy_variant_find("tmpl_movnti_64");
	memset(pattern, byte, sizeof(pattern));
	/* MOVNTI is SSE2, which every x86_64 CPU has. */
	v->copy(dst, pattern, body);
	memset((u8 *)dst + body, byte, n - body);
	memcpy_nt_drain();
}
