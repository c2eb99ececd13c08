/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the cache benchmarks (bench_nocache_copy,
 * bench_pollution): the cache sizes from CPUID, so buffers can be sized
 * against the caches they are meant to fit in or to overflow, and sizes
 * in words for the lines that explain them.
 */
#ifndef NTBOOT_TESTS_ENGINES_BENCH_UTIL_H
#define NTBOOT_TESTS_ENGINES_BENCH_UTIL_H

#include "include/types.h"
#include "lib/options.h"
#include "model/drivers/nvdimm/pfn_devs.h"
#include "model/kernels.h"

/*
 * The benchmarked namespace: namespace= (bytes), layout= (struct page
 * sizes) and mode= (a mask of enum ntb_mode).
 */
extern u64 opt_namespace;
extern struct opt_u32_list opt_layout;
extern u32 opt_mode;
extern enum nd_pfn_mode opt_map;
extern enum model_kernel opt_kernel;

/*
 * For the suites that model the base kernel only (all but
 * bench_memmap_init): 0, or 1 with the reason in @reason when kernel=
 * asks for another, so that the suite is skipped saying why.
 */
int bench_kernel_base_only(char *reason, size_t len);

/* memmap_in=: where bench_memmap_init writes the struct pages */
enum memmap_in { MEMMAP_IN_AUTO, MEMMAP_IN_DRAM, MEMMAP_IN_PMEM };
extern enum memmap_in opt_memmap_in;

struct kunit;
/*
 * The memmap buffer of bench_memmap_init for struct pages of up to
 * @page_size bytes: the machine's persistent memory where memmap_in=
 * and map= ask for it (the namespace scaled down to fit it), else
 * system memory; a "# memmap_in=..." line says which and why. @ns and
 * @bytes get the namespace and buffer sizes. NULL: nothing to write to
 * (memmap_in=pmem on a machine without it fails the case).
 */
void *bench_memmap_buffer(struct kunit *test, unsigned int page_size,
			  u64 *ns, size_t *bytes, bool *in_pmem);

struct kunit;

struct bench_caches {
	u64 l1d_bytes;
	u64 l2_bytes;
	u64 llc_bytes;		/* the last level (L3, if any) */
	unsigned int llc_level;
	unsigned int line_bytes;
	/* CPUs sharing one L2 and one LLC (0: not enumerated). */
	unsigned int l2_shared_by;
	unsigned int llc_shared_by;
	/*
	 * Where the figures come from: "cpuid4" (deterministic cache
	 * parameters, Intel), "cpuid8000001d" (the same for AMD),
	 * "cpuid80000006" (the legacy AMD leaf), or "default" (guesses).
	 */
	const char *source;
	/* Why a fallback was taken; "" when the first choice worked. */
	char note[120];
};

/*
 * Detect the cache sizes of the CPU we run on: CPUID leaf 4 on Intel (and
 * others that enumerate it), 0x8000001D on AMD/Hygon with TOPOEXT, else
 * the legacy 0x80000006, else a 1 MiB L2 and a 32 MiB LLC, saying so in
 * @c->note. Hypervisors may report what they like: the figures are what
 * the CPU says, not what was measured.
 */
void bench_caches_detect(struct bench_caches *c);

/*
 * A diagnostic line "# @suite: caches l1d_bytes=... source=..." (not a
 * metric: nothing was measured), and one with the note when there is one.
 */
void bench_caches_print(const char *suite, const struct bench_caches *c);

/* "1 GiB", "240 MiB", "48 KiB", "100 B": for diagnostics. */
const char *bench_size_str(u64 bytes);

/*
 * Fill @n bytes at @dst with @byte by non-temporal stores, then SFENCE:
 * the poison a full check needs, written without leaving up to an LLC's
 * worth of dirty lines for the timed run that follows (a cached memset
 * would). The lines end up where a non-temporal run leaves them: in
 * memory, not in the cache.
 */
void bench_poison_streaming(void *dst, u8 byte, size_t n);

/*
 * Memory a benchmark may take: free memory less a tenth kept for
 * everything else.
 */
u64 bench_mem_room(void);

/*
 * The namespace to model: namespace=, halved until its
 * memmap at @page_size bytes per struct page fits bench_mem_room(); a
 * scaled namespace is said in a line of @test.
 */
u64 bench_fit_namespace(struct kunit *test, unsigned int page_size);

struct memmap_strategy;
struct page_layout;

/*
 * What the kernel cannot run, said once per reason: a benchmark adds each
 * strategy it runs on a layout, and bench_unreachable_print() writes one
 * "# unreachable: <config> strategies=a,b,...: <reason>" line for every
 * distinct reason (memmap_unreachable()) among them.
 */
#define BENCH_UNREACHABLE_REASONS 8

struct bench_unreachable {
	unsigned int nr;
	struct {
		char reason[320];
		char names[320];
	} r[BENCH_UNREACHABLE_REASONS];
};

void bench_unreachable_add(struct bench_unreachable *u,
			   const struct memmap_strategy *s,
			   const struct page_layout *l);
/* Print the lines, prefixed by @config, and start over. */
void bench_unreachable_print(struct bench_unreachable *u, const char *config);

#endif
