/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The platform interface: the only services that the portable code,
 * lib/, arch/x86/ (and arch/x86/lib/), mm/, model/ and tests/, may use.
 * kernel/ implements it on bare metal after ExitBootServices; host/
 * implements it on Linux in user space. Which folder may include which:
 * docs/layout.md, "Floors".
 */
#ifndef NTBOOT_PLATFORM_H
#define NTBOOT_PLATFORM_H

#include "include/types.h"

/* Write raw bytes to every console (serial, debug port, stdout). */
void plat_console_write(const char *s, size_t len);

/* Calibrated TSC frequency in kHz; 0 if unknown. */
u64 plat_tsc_khz(void);

/*
 * Measure the TSC frequency again against another hardware clock than the
 * one it was calibrated with (HPET or PM timer in the image) over
 * @window_ms. Returns kHz, and names the clock in @ref; 0 where there is
 * no such clock (then @ref says why).
 */
u64 plat_remeasure_tsc_khz(unsigned int window_ms, const char **ref);

/*
 * The operating system's clock that does not follow NTP
 * (CLOCK_MONOTONIC_RAW on Linux), in ns: a reference the TSC in use is
 * compared with. 0, or -1 with the reason in @why where there is none
 * (bare metal).
 */
int plat_os_clock_ns(u64 *ns, const char **why);

/*
 * Whether plat_os_clock_ns() runs from an oscillator of its own: 1 (its
 * name in @what), 0 where the operating system derives it from the TSC
 * itself (then comparing the two checks nothing; @what says which clock
 * and why), -1 where there is no such clock or it cannot be told.
 */
int plat_os_clock_independent(const char **what);

/* Memory for test and benchmark buffers; NULL when there is not enough. */
void *plat_alloc_aligned(size_t size, size_t align);
void plat_free(void *p, size_t size);
/* Largest single allocation that is likely to succeed, in bytes. */
u64 plat_mem_available(void);

/*
 * The machine's persistent memory, mapped write-back, for a benchmark to
 * place its memmap in (memmap_in=): the largest range, where it was
 * found (@source: "nfit", "efi") or, when there is none, why not. 0 or
 * -1. One user at a time: the range is handed out whole.
 */
int plat_pmem_region(u64 *base, u64 *size, const char **source);

/*
 * The effective-frequency clock of the calling CPU: @cycles it ran at its
 * actual frequency and the @ns of reference time they took, both counted
 * only while it ran. Over an interval, cycles per ns is the effective
 * frequency: APERF over MPERF (which ticks at the TSC's rate) on bare
 * metal; on Linux a perf_event cycles counter of the calling thread over
 * its running time, else APERF/MPERF through the msr device. 0, or -1
 * where nothing measures it: then no effective frequency is reported.
 * @how (may be NULL) names the source ("aperf_mperf", "perf_cycles",
 * "perf_cycles_user", "msr").
 */
int plat_read_active_clock(u64 *cycles, u64 *ns, const char **how);

/*
 * A sign of life for the hang watchdog: the runner calls it at every case,
 * long benchmarks at every progress point. A no-op where there is none.
 */
void plat_watchdog_pet(void);

/*
 * Set the hang watchdog's timeout to @seconds (> 0) and return the one it
 * had, or 0, changing nothing, where no watchdog runs (one CPU,
 * watchdog=off, the hosted runner). Lets a test prove the watchdog in
 * seconds without a short watchdog= for the whole run.
 */
u32 plat_watchdog_set_timeout(u32 seconds);

/* NUMA node of the memory at @p: 0 on one-node machines, -1 unknown. */
int plat_numa_node_of(const void *p);

/* Number of CPUs usable by run-on-CPU; CPU 0 is the one running now. */
unsigned int plat_cpu_count(void);

/*
 * Run fn(arg) on CPU @cpu (0 .. plat_cpu_count() - 1) and wait up to
 * @timeout_us. 0 on success, -1 if it faulted, -2 on timeout, -3 if the
 * CPU is not usable. The async form starts it (-2: the CPU is still busy
 * with earlier work); plat_wait_cpu() collects. A platform implements the
 * async form and the wait; plat_run_on_cpu() itself is common code
 * (lib/on_cpus.c, with on_cpus(), the form for several CPUs at once).
 */
int plat_run_on_cpu(unsigned int cpu, void (*fn)(void *), void *arg,
		    u64 timeout_us);
int plat_run_on_cpu_async(unsigned int cpu, void (*fn)(void *), void *arg);
int plat_wait_cpu(unsigned int cpu, u64 timeout_us);

/*
 * The run-on-CPU number (0 .. plat_cpu_count() - 1) of the caller: on the
 * host, of the worker thread that stands for that CPU (0 elsewhere).
 */
unsigned int plat_this_cpu(void);

/*
 * Name the code at instruction address @ip (a return address) for a
 * report: "function file:line" where the platform can tell, else an offset
 * that addr2line resolves against the program or ntboot.so.
 */
void plat_symbolize(uptr ip, char *buf, size_t len);

/* "image" or "host": where this code runs. */
const char *plat_name(void);

/*
 * Fault catching for tests that provoke CPU exceptions on purpose.
 * Returns false when the platform cannot catch faults (hosted builds).
 */
bool plat_can_catch_faults(void);

/*
 * The kernel's own compiled memmap_init_zone_device() on one namespace:
 * the hosted runner runs it in the kernel memmap runner
 * (tools/kernel-memmap/, Debian's 6.12 objects, patched as the kernel's
 * boot patches them), on a memmap window of its own, shared with this
 * process and poisoned by it before each run as the model's is, as often
 * as it is asked. The request is the model's namespace; the
 * answer says where the runner's memmap is and what it holds.
 */
struct kernel_memmap_call {
	/*
	 * Which build of the kernel's code: the runner's file beside the
	 * program (or its absolute path: a patch file's build, where
	 * plat_kernel_patch_build() put it), the series or patch file it
	 * must be built from (NULL: none) and
	 * the SHA-256 of its patch files in hex, which the runner must
	 * report; @env names a variable that may name another runner
	 * instead (run whatever it was built from), or is NULL.
	 */
	const char *runner, *patches, *patches_sha256, *env;
	/*
	 * Every return site as RET where the CPU's kernel returns through a
	 * thunk; where it returns plainly already, the start is a skip (the
	 * same code as the build's).
	 */
	bool plain_returns;
	/* memmap_init_zone_device(zone, start_pfn, nr_pages, pgmap) */
	unsigned long start_pfn, nr_pages;
	unsigned int order; /* pgmap->vmemmap_shift */
	int type;	    /* enum memory_type */
	int nid;
	bool altmap;
	unsigned long altmap_reserve, altmap_free;
	/* the window: pfns base_pfn.., its first page at @line_offset */
	unsigned long base_pfn, nr_pfns;
	unsigned int page_size;
	size_t line_offset;
	/* one byte per pageblock of @pageblock_pages pfns */
	unsigned long pageblock_pages, pageblocks_pfn, nr_pageblocks;
	/*
	 * The answer, valid until plat_kernel_memmap_stop(); the window and
	 * the pageblock bytes may be poisoned between runs.
	 */
	u8 *pages;	    /* the struct page of base_pfn */
	u64 pages_addr;	    /* where the kernel's code has it */
	u64 pgmap_addr;	    /* the kernel's dev_pagemap there */
	u8 *pageblock_bits; /* one byte per pageblock */
	/* the object and how the runner patched it: "mm_init.o 6.12..." */
	char object[512];
	/* what its return sites hold ("ret", "safe_ret", ...) and why */
	char return_thunk[16], return_thunk_from[192];
	/* the platform's */
	void *map;
	size_t map_bytes;
	int fd, pid;
};

/*
 * Start the runner for @c and wait until it is ready. Returns 0, 1 where
 * this platform or build cannot run the kernel's code (why, with what to
 * install or build, in @why: a skip) or @c->plain_returns asks for the
 * code the CPU's kernel runs anyway (why in @why: a skip), or -1 where
 * it failed (why in @why).
 */
int plat_kernel_memmap_start(struct kernel_memmap_call *c, char *why,
			     size_t len);
/*
 * True where the run sets every kernel contender's return sites itself
 * (NTB_KERNEL_RETURN_THUNK on the hosted runner: what it says in @why),
 * so that a build's twin with plain returns would measure nothing of
 * its own.
 */
bool plat_kernel_returns_set(char *why, size_t len);
/*
 * One call in the started runner: 0 with the TSC cycles of the call
 * alone (timed in the runner, around the call) in *@cycles, or -1 with
 * why in @why (the runner is gone then).
 */
int plat_kernel_memmap_run(struct kernel_memmap_call *c, u64 *cycles, char *why,
			   size_t len);
/*
 * Before the next run of @c: the @nr struct pages of @pfns (NULL: every
 * one of the window, by streaming stores; at most KERNEL_MEMMAP_POISON_MAX
 * else) poisoned with @byte where the kernel's code writes them, if that
 * is not the window: the hosted runner's kernel writes a memmap of the
 * runner's own (on the huge pages the model's has), which it poisons
 * before the call, copying those struct pages into the window after it.
 * Nothing where the window is what the kernel's code writes (the image).
 * The caller poisons the window either way.
 */
void plat_kernel_memmap_poison(struct kernel_memmap_call *c,
			       const unsigned long *pfns, unsigned int nr,
			       u8 byte);
/* The most struct pages plat_kernel_memmap_poison() takes by name. */
#define KERNEL_MEMMAP_POISON_MAX 1024
/* Stop the runner; the window is gone. Harmless on one not started. */
void plat_kernel_memmap_stop(struct kernel_memmap_call *c);

/*
 * A build of the kernel's code from a patch file named at run time
 * (kernel_patch=, tests/engines/kernel_patch.h): the hosted runner's
 * tools/kernel-memmap/patch-runner, in the tree the program was built
 * from (found from its own path, or NTB_ROOT).
 */
struct kernel_patch_build {
	char runner[512];   /* its runner's path */
	char sha256[65];    /* the file's SHA-256 in hex, as it reports */
	/* its objects are the stock ones but for debug information */
	bool same_objects;
	char differ[128];   /* else those that differ: "mm_init.o" */
	/* a skip's or a failure's reason: a line, then the compiler's */
	char why[1536];
};

/* Can this run read @path? The reason, naming it, in @why when not. */
bool plat_file_readable(const char *path, char *why, size_t len);

/*
 * Build @file's runner, or find it built (said on stderr while it
 * builds): 0, 1 where it cannot be built here (what to install in
 * @b->why: a skip), -1 where @file does not apply or does not build, or
 * the build failed (why in @b->why).
 */
int plat_kernel_patch_build(const char *file, struct kernel_patch_build *b);

#endif
