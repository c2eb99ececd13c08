/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memmap of a modelled pmem namespace: the struct pages of its pfns
 * (and nothing of the namespace itself), the pageblock flags of its
 * sections, and the choice of how memmap_init_zone_device() fills them.
 * Tests and benchmarks use this API:
 *
 *   struct memmap_config cfg;
 *   struct memmap m;
 *   struct memmap_report r;
 *
 *   memmap_config_init(&cfg, PAGE_LAYOUT_64, 9, MEMORY_DEVICE_GENERIC,
 *                      start_pfn, nr_pages);
 *   cfg.strategy = "tmpl_nt_fixed";
 *   if (memmap_create(&m, &cfg, NULL, 0, why, sizeof(why)))
 *           skip(why);
 *   memmap_run(&m);                     // memmap_init_zone_device()
 *   if (!memmap_verify(&m, &r))         // against the model
 *           fail(r);
 *   memmap_destroy(&m);
 *
 * Strategies (memmap_strategies[], generated from the list in
 * manifest/strategies.yaml): "slow" is the kernel at v7.2-rc1 without the
 * series; "tmpl_memcpy", "tmpl_nt_generic" and "tmpl_nt_fixed" the
 * series' template path and its steps; the other "tmpl_*" copy a
 * prepared struct page per pfn with a wider copy routine, and "fill_*"
 * store runs of identical struct pages from a template held in registers:
 * the project's own, beyond the kernel and the series. A strategy runs as one
 * loop compiled for it and for the layout, so no call or branch per page
 * chooses the copy.
 */
#ifndef NTBOOT_MODEL_MEMMAP_H
#define NTBOOT_MODEL_MEMMAP_H

#include "include/types.h"
#include "model/drivers/nvdimm/pfn_devs.h"
#include "model/include/linux/memremap.h"
#include "model/include/linux/mm_types.h"
#include "model/include/linux/pageblock-flags.h"
#include "model/kernels.h"
#include "model/memmap_strategies.h"

/* How a struct page gets into the memmap: one per strategy. */
#define MEMMAP_COPY_ENUM(name, COPY, ...) MEMMAP_##COPY,
enum memmap_copy {
	MEMMAP_STRATEGIES(MEMMAP_COPY_ENUM)
	NR_MEMMAP_COPIES
};
#undef MEMMAP_COPY_ENUM

struct memmap_strategy {
	const char *name;
	const char *desc;
	enum memmap_copy copy;
	/*
	 * The copy registry entry this copy is (copy_variant.h); a "%u" in
	 * it is the struct page size. NULL for the slow path.
	 */
	const char *variant;
	bool nt;	/* weakly ordered stores: the drains apply */
	unsigned int layouts;		/* MEMMAP_L_*: compiled for these */
	enum memmap_origin origin;
};

extern const struct memmap_strategy memmap_strategies[];
/* The i-th strategy's name, NULL past the last (kunit's strategy list). */
const char *memmap_strategy_name_at(unsigned int i);
extern const unsigned int memmap_nr_strategies;

#define for_each_memmap_strategy(s)                                          \
	for ((s) = memmap_strategies;                                         \
	     (s) < memmap_strategies + memmap_nr_strategies; (s)++)

const struct memmap_strategy *memmap_strategy_find(const char *name);

/*
 * Can @s fill a memmap of layout @l on this CPU? False, with the reason
 * in @why, when the CPU lacks an instruction, the registry lacks the
 * variant, or the layout does not fit it (an 80-byte page for a
 * 32-byte-wide fill, ...).
 */
bool memmap_strategy_usable(const struct memmap_strategy *s,
			    const struct page_layout *l, char *why,
			    size_t len);

/*
 * Can the kernel (v7.2-rc1 with the series, x86_64) run @s on layout @l?
 * NULL when it can; else the reason in @buf, for the benchmarks' line per
 * configuration and reason (bench_unreachable_print(): "# unreachable:
 * page_size=... layout=... strategies=a,b: <reason>"). The model runs
 * every pair all the same: the series claims figures for the 80- and
 * 96-byte layouts.
 *
 * - 80 bytes, last_cpupid out of page->flags, and 96 bytes (with KMSAN
 *   as well): ZONE_DEVICE on x86_64 needs SPARSEMEM_VMEMMAP, which keeps
 *   no section number in page->flags and leaves room there for
 *   last_cpupid, so LAST_CPUPID_NOT_IN_PAGE_FLAGS is never set;
 * - the template strategies on a KMSAN layout: the series keeps KASAN and
 *   KMSAN builds on the slow path;
 * - the project's own strategies: beyond the kernel and the series.
 */
const char *memmap_unreachable(const struct memmap_strategy *s,
			       const struct page_layout *l, char *buf,
			       size_t len);

/* The points where the template path drains its non-temporal stores. */
enum memmap_drain_point {
	MEMMAP_DRAIN_BEFORE_COMPOUND,	/* before memmap_init_compound() */
	MEMMAP_DRAIN_BEFORE_PREP_HEAD,	/* before prep_compound_head() */
	MEMMAP_DRAIN_BEFORE_RETURN,	/* before returning */
	NR_MEMMAP_DRAINS
};

/* Folio orders of the namespace modes. */
#define MEMMAP_ORDER_FSDAX 0	/* fsdax: order-0 pages */
#define MEMMAP_ORDER_DEVDAX_2M 9
#define MEMMAP_ORDER_DEVDAX_1G 18

/*
 * The folio order of a namespace mode bit of the options (MODE_FSDAX,
 * MODE_DEVDAX2M, MODE_DEVDAX1G of lib/options.h), or -1; and the mode's
 * name for an order ("fsdax", "devdax2m", "devdax1g").
 */
int memmap_mode_order(u32 mode);
const char *memmap_mode_name(unsigned int order);

/* A pfn the model uses as the start of a namespace: 64 GiB. */
#define MEMMAP_DEFAULT_START_PFN (1UL << (36 - PAGE_SHIFT))

struct memmap_config {
	enum page_layout_id layout;
	unsigned int order;		/* pgmap->vmemmap_shift */
	enum memory_type type;
	/*
	 * Which kernel the model is (model/kernels.h): the series' base
	 * (the default, 0) or 6.12, whose loop and expected pages follow
	 * the table of differences. 6.12 has the slow path and the series'
	 * strategies on the 64-byte layout alone, and no mask form of
	 * compound_head (memmap_kernel_refuses()).
	 */
	enum model_kernel kernel;
	unsigned long start_pfn;	/* the namespace: pfns start_pfn.. */
	unsigned long nr_pages;		/* ..start_pfn + nr_pages - 1 */
	int nid;
	/*
	 * An altmap with base_pfn = start_pfn: @altmap_reserve pfns of info
	 * block, then @altmap_free pfns of memmap. Device pages start after
	 * them.
	 */
	bool altmap;
	unsigned long altmap_reserve;
	unsigned long altmap_free;
	/* ndctl's --map of the namespace (memmap_config_namespace()) */
	enum nd_pfn_mode map;
	/*
	 * Bytes nd_pfn_init() cut off the namespace's end to its alignment
	 * (memmap_config_namespace()); @nr_pages counts the pfns before it.
	 */
	u64 end_trunc;
	const char *strategy;		/* NULL: "slow" */
	bool drain;			/* false: no SFENCE at all (research) */
	/*
	 * compound_nr_pages() as the kernel computes it: with a 64-byte
	 * struct page and no altmap only the struct pages of the first
	 * VMEMMAP_RESERVE_NR vmemmap pages of a folio are written. False:
	 * every struct page of every folio.
	 */
	bool vmemmap_optimize;
	/*
	 * CONFIG_HUGETLB_PAGE_OPTIMIZE_VMEMMAP of 7.1 kernels: a tail page's
	 * compound_head holds a mask (the same for every tail of every
	 * folio of one order) instead of the head's address, when the
	 * struct page size is a power of two. False: head + 1.
	 */
	bool compound_info_mask;
	/*
	 * The kernel build and state that the series' gate reads
	 * (zone_device_page_init_optimization_enabled()): CONFIG_KASAN,
	 * CONFIG_KMSAN, and the page_ref_set tracepoint switched on. Any of
	 * them sends the kernel to the slow path whatever the strategy.
	 * memmap_config_init() sets @kmsan for a layout that carries KMSAN's
	 * metadata pointers: only a KMSAN build has them.
	 */
	bool kasan;
	bool kmsan;
	bool page_ref_tracepoint;
	/*
	 * Run the strategy's own path where the gate would send the kernel
	 * to the slow path: how the benchmarks time the series' claims for
	 * the KMSAN layouts, saying so (memmap_unreachable()), and how the
	 * correctness suites reach every strategy's copy on every layout.
	 * False (the default): the gate decides, as in the kernel.
	 */
	bool ungated;
};

/*
 * Defaults: node 0, no altmap, "slow", drains on, vmemmap_optimize on, a
 * KMSAN build exactly for the layouts with KMSAN's metadata, no KASAN, the
 * tracepoint off, the gate in force.
 */
void memmap_config_init(struct memmap_config *cfg, enum page_layout_id layout,
			unsigned int order, enum memory_type type,
			unsigned long start_pfn, unsigned long nr_pages);

/*
 * A namespace of @bytes in mode @order as ndctl creates it with
 * --map=@map: fsdax uses MEMORY_DEVICE_FS_DAX, devdax
 * MEMORY_DEVICE_GENERIC, as nd_pmem and dax_pmem do. map=dev (ndctl's
 * default, the postings'): the altmap nd_pfn_init() lays out (data
 * aligned to 2 MiB, 1 GiB for devdax1g), the memmap in the namespace,
 * device pages from vmem_altmap_offset() on, no vmemmap deduplication
 * (vmemmap_can_optimize() is false with an altmap). map=mem: the memmap
 * in system memory, every pfn a device page, devdax's vmemmap
 * deduplicated. Both: the namespace's end is cut down to the alignment
 * as nd_pfn_init() cuts it (@cfg->end_trunc), and @cfg->nr_pages counts
 * the pfns before the cut. Where the kernel refuses the namespace only
 * for a struct page over 64 bytes with map=dev and no
 * CONFIG_NVDIMM_KMSAN, @unreachable gets its reason and the model lays
 * it out as CONFIG_NVDIMM_KMSAN would; else it is "". Returns -1 (the
 * reason, with the size and alignment, in @unreachable) where the kernel
 * refuses it in any build (no data left after the info block and memmap
 * at the cut end).
 */
int memmap_config_namespace(struct memmap_config *cfg,
			    enum page_layout_id layout, unsigned int order,
			    u64 bytes, enum nd_pfn_mode map, char *unreachable,
			    size_t len);

/*
 * Does kernel @k lack strategy @s on layout @l (either may be NULL: not
 * asked)? The reason in @why when it does: 6.12 runs the slow path and
 * the series backported to it (the strategies of origin series:
 * patches/6.12/series/) on the 64-byte struct page only; the project's
 * own copies and fills are not the series, and 6.12 has none of them.
 */
bool memmap_kernel_refuses(enum model_kernel k, const struct memmap_strategy *s,
			   const struct page_layout *l, char *why, size_t len);

/* 0, or -1 with the reason in @why. */
int memmap_config_check(const struct memmap_config *cfg, char *why,
			size_t len);

/*
 * Where the struct page of start_pfn sits inside its cache line in the
 * kernel's vmemmap (struct page of pfn at vmemmap + pfn * size, the
 * vmemmap line aligned): the model places its struct pages the same, so a
 * struct page shares lines with exactly the neighbours it shares them
 * with in the kernel (a pageblock-aligned one starts a line).
 */
size_t memmap_line_offset(const struct memmap_config *cfg);

/*
 * Bytes of memmap the namespace needs, and that a caller's buffer needs:
 * memmap_line_offset() bytes, then the struct pages.
 */
size_t memmap_bytes(const struct memmap_config *cfg);

struct memmap;
typedef void (*memmap_init_fn)(struct memmap *m, unsigned long start_pfn,
			       unsigned long nr_pages,
			       struct dev_pagemap *pgmap);

/*
 * The modelled memmap. It stands for the kernel's struct zone of
 * ZONE_DEVICE (node id, pageblock flags) and its vmemmap (pages).
 */
struct memmap {
	struct memmap_config cfg;
	const struct page_layout *layout;
	const struct memmap_strategy *strategy;
	memmap_init_fn init;		/* the plain loop (timed) */
	struct page *pages;		/* the struct page of base_pfn */
	unsigned long base_pfn;
	unsigned long nr_pfns;
	size_t bytes;			/* of struct pages, from @pages */
	void *alloc;			/* what memmap_create() allocated */
	size_t alloc_bytes;
	bool own_pages;
	struct dev_pagemap pgmap;
	struct pageblock_flags pageblocks;
	int poison;			/* byte stored before the run, or -1 */
	/* What memmap_init_zone_device() did in the last run. */
	unsigned long nr_initialised;	/* the count its pr_debug() prints */
	unsigned long drains[NR_MEMMAP_DRAINS];
	/* false: the gate (or the strategy) chose the slow path */
	bool template_path;
	memmap_init_fn init_checked;	/* @init with the checker's hooks */
};

/*
 * Set up @m for @cfg. @buf (@buf_bytes, at least memmap_bytes(), 64-byte
 * aligned) is used for the struct pages when given; else they are
 * allocated. Returns 0, or -1 with the reason in @why.
 */
int memmap_create(struct memmap *m, const struct memmap_config *cfg,
		  void *buf, size_t buf_bytes, char *why, size_t len);
void memmap_destroy(struct memmap *m);

/* Switch strategy (and drains) without touching the memory. */
int memmap_set_strategy(struct memmap *m, const char *name, char *why,
			size_t len);

/*
 * Store @byte in every struct page and clear the pageblock flags, so
 * that memmap_verify() can also prove which struct pages were left alone.
 */
void memmap_poison(struct memmap *m, u8 byte);
/* The same, the struct pages written by @fill (NULL: memset()). */
void memmap_poison_with(struct memmap *m, u8 byte,
			void (*fill)(void *dst, u8 byte, size_t n));

/*
 * memmap_init_zone_device() over the whole namespace with the chosen
 * strategy: what one driver bind does. Clears the drain counters first.
 */
void memmap_run(struct memmap *m);
/*
 * The same, always the plain loop the kernel compiles (the one the
 * benchmarks time), also inside a case where the checker records: what a
 * test that watches another CPU for the effect of the stores must run,
 * the checker's hooks being far slower than the stores they follow.
 */
void memmap_run_plain(struct memmap *m);

/*
 * Struct pages a run writes (heads and the tails it does not leave to the
 * shared vmemmap page): times the layout size, the bytes a benchmark
 * counts.
 */
unsigned long memmap_pages_written(const struct memmap *m);

/* Folios (heads) the run initialises; order-0 pages count one each. */
unsigned long memmap_nr_heads(const struct memmap *m);

/* What the model says the struct page of a pfn is. */
enum memmap_role {
	MEMMAP_ROLE_SKIPPED,	/* altmap reserve/free: not a device page */
	MEMMAP_ROLE_HEAD,	/* order-0 page or folio head */
	MEMMAP_ROLE_TAIL,	/* a tail that gets written */
	MEMMAP_ROLE_SHARED,	/* a tail left to the shared vmemmap page */
};

/*
 * The model: the bytes the struct page of @pfn must hold after a run,
 * written to @out (layout size). Returns the role; for SKIPPED and
 * SHARED @out is left alone (nothing is written there). @head_pfn and
 * @idx (may be NULL) receive the folio head and the index in the folio.
 */
enum memmap_role memmap_expected_page(const struct memmap *m,
				      unsigned long pfn, void *out,
				      unsigned long *head_pfn,
				      unsigned long *idx);

/* The first difference memmap_verify() found. */
struct memmap_report {
	bool ok;
	bool pageblock;		/* in the pageblock flags, not a page */
	unsigned long pfn;
	unsigned int byte;	/* first byte of the struct page that differs */
	unsigned int offset;	/* where its field starts; bit for flags */
	unsigned int width;	/* bytes compared as one value */
	const char *field;	/* kernel name of the field */
	const char *role;	/* "head", "tail 1", ... */
	u64 expected;
	u64 found;
	unsigned long pages_checked;
	/* memmap_compare_kernel(): expected is the kernel's, found ours */
	bool against_kernel;
};

/*
 * Check the whole memmap and the pageblock flags against the model.
 * True when everything matches; else @r has the first difference in pfn
 * order (pages before pageblock flags).
 */
bool memmap_verify(const struct memmap *m, struct memmap_report *r);

/*
 * A sample of the memmap, for checking every run of a benchmark cheaply.
 * memmap_sample_pfns() draws @nr pfns from the xorshift sequence in
 * *@state: the first and last pfn of the memmap, then alternately any pfn
 * and one of the struct pages a run writes (a head or a written tail).
 * memmap_poison_pfns() stores the poison byte of memmap_poison() (or
 * MEMMAP_POISON_DEFAULT) in those struct pages and clears the pageblock
 * flags; memmap_verify_pfns() then checks them against the model (the
 * ones a run must leave alone against the poison) and all the pageblock
 * flags. The report is memmap_verify()'s.
 */
#define MEMMAP_POISON_DEFAULT 0x5a
void memmap_sample_pfns(const struct memmap *m, unsigned long *pfns,
			unsigned int nr, u64 *state);
void memmap_poison_pfns(struct memmap *m, const unsigned long *pfns,
			unsigned int nr);
bool memmap_verify_pfns(const struct memmap *m, const unsigned long *pfns,
			unsigned int nr, struct memmap_report *r);

/* One line: "pfn 0x... (tail 1) _nr_pages @56: expected 0x200 found 0x0". */
/*
 * The same namespace's memmap as the kernel's own compiled
 * memmap_init_zone_device() wrote it elsewhere (the hosted runner's
 * strategy=kernel, tools/kernel-memmap/), for memmap_compare_kernel().
 */
struct memmap_kernel_run {
	const u8 *pages; /* its struct page of m->base_pfn, here */
	u64 pages_addr;	 /* ... where it was when written */
	u64 pgmap_addr;	 /* the kernel's dev_pagemap there */
	/* memmap_nr_pageblocks() bytes from memmap_pageblocks_pfn() */
	const u8 *pageblock_bits;
};

/* The pageblocks the model keeps bits for: the namespace's sections. */
unsigned long memmap_pageblocks_pfn(const struct memmap *m);
unsigned long memmap_nr_pageblocks(const struct memmap *m);

/*
 * Compare the model's memmap of @m (after a run) with the kernel's @k,
 * byte for byte over every pfn of the window (untouched ones included:
 * both poisoned alike), then the pageblock bits. The kernel's pointers
 * are translated, not its bytes: a word equal to its pgmap's address
 * reads as &m->pgmap, a word that points into its memmap (bit 0 aside,
 * the tail's compound_head) as the same offset into the model's. On a
 * difference @r names the pfn, its role and field, the kernel's value
 * (expected) and the model's (found).
 */
bool memmap_compare_kernel(const struct memmap *m,
			   const struct memmap_kernel_run *k,
			   struct memmap_report *r);

/*
 * memmap_compare_kernel() over the @nr pfns @pfns of the window only (a
 * run's sample; the whole window where @pfns is NULL), then every
 * pageblock.
 */
bool memmap_compare_kernel_pfns(const struct memmap *m,
				const struct memmap_kernel_run *k,
				const unsigned long *pfns, unsigned int nr,
				struct memmap_report *r);

int memmap_report_format(const struct memmap_report *r, char *buf,
			 size_t len);

#endif
