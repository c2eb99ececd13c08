/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ntcheck: an ordering checker for non-temporal stores, in the spirit of
 * PMDK's pmemcheck (which follows each store until it is flushed and
 * fenced), for the weakly ordered stores of this project. docs/ntcheck.md
 * has the design and its limits.
 *
 * In a checking build (NTB_NTCHECK: the host test program and
 * build/ntcheck/BOOTX64.EFI) every weakly ordered store primitive records
 * the cache lines it wrote in a pending set of the CPU that ran it:
 *
 *   MOVNTI, MOVNTDQ, VMOVNTDQ (ymm, zmm), MOVDIR64B   pending data
 *   CLWB, CLFLUSHOPT                                 pending write-back
 *
 * and the fences (SFENCE, MFENCE; a locked operation where the code says
 * so) empty it. Points declared in the code check it:
 *
 *   ntcheck_cached_store(p, n, point)   a cached store to [p, p + n) is
 *       about to happen: a line of it with pending non-temporal data on
 *       this CPU is a hazard;
 *   ntcheck_publish(point)              the data is handed on (returned,
 *       built upon, given to another CPU): anything pending on this CPU
 *       is a missing drain.
 *
 * The end of every test case is a publish point for every CPU. A finding
 * fails the running case with the point, the line address and the store
 * (primitive and instruction address) that left it pending.
 *
 * Without NTB_NTCHECK the primitives' hooks are empty inlines: the image,
 * the benchmark runner and their timed loops carry nothing of them. The
 * checker itself (lib/ntcheck.c) is there in every build: the memmap
 * model's checked loops feed it from the model's level (the
 * ntcheck_model_*() hooks below). The benchmark suites (KUNIT_SUITE_TIMED)
 * run with the checker off, which leaves one predictable branch per
 * primitive in a checking build.
 */
#ifndef NTBOOT_LIB_NTCHECK_H
#define NTBOOT_LIB_NTCHECK_H

#include "include/compiler.h"
#include "include/types.h"

/* The instructions the checker knows, as recorded and reported. */
enum ntcheck_op {
	NTCHECK_MOVNTI,
	NTCHECK_MOVNTDQ,
	NTCHECK_VMOVNTDQ_YMM,
	NTCHECK_VMOVNTDQ_ZMM,
	NTCHECK_MOVDIR64B,
	NTCHECK_CLWB,		/* weakly ordered write-back */
	NTCHECK_CLFLUSHOPT,	/* weakly ordered write-back */
	NTCHECK_CLFLUSH,	/* ordered: traced, never pending */
	NR_NTCHECK_OPS
};

enum ntcheck_fence {
	NTCHECK_SFENCE,
	NTCHECK_MFENCE,
	NTCHECK_LOCKED,		/* a locked read-modify-write */
};

/*
 * The recorder and the points, real in every build. The primitives' hooks
 * below call __ntcheck_op() and __ntcheck_fence() only in a checking
 * build; the model-level hooks further down serve the other builds.
 */
void __ntcheck_op(const void *p, size_t n, enum ntcheck_op op);
void __ntcheck_fence(enum ntcheck_fence f);
void __ntcheck_cached_store(const void *p, size_t n, const char *point,
			    const char *file, int line);
void __ntcheck_publish(const char *point, const char *file, int line);
/*
 * Model level: [p, p + n) now holds non-temporal data written by @store
 * (a strategy's name); and the model's drain has retired everything
 * pending on this CPU.
 */
void __ntcheck_model_store(const void *p, size_t n, const char *store);
void __ntcheck_model_drained(void);

#ifdef NTB_NTCHECK

#define NTCHECK_PRIMITIVES true

/*
 * The recorder takes the store's site from its return address: the empty
 * asm after the call keeps it out of tail position, so that address is
 * in the code that stored, never in that code's caller.
 */
static __always_inline void ntcheck_op(const void *p, size_t n,
				       enum ntcheck_op op)
{
	__ntcheck_op(p, n, op);
	asm volatile("");
}

#define ntcheck_fence(f) __ntcheck_fence(f)
#define ntcheck_cached_store(p, n, point)                                     \
	__ntcheck_cached_store(p, n, point, __FILE__, __LINE__)
#define ntcheck_publish(point) __ntcheck_publish(point, __FILE__, __LINE__)

#else

#define NTCHECK_PRIMITIVES false

static __always_inline void ntcheck_op(const void *p, size_t n,
				       enum ntcheck_op op)
{
}

static __always_inline void ntcheck_fence(enum ntcheck_fence f)
{
}

static __always_inline void ntcheck_cached_store(const void *p, size_t n,
						 const char *point)
{
}

static __always_inline void ntcheck_publish(const char *point)
{
}

#endif

/*
 * The hooks of the memmap model's checked instantiation (@checked, a
 * compile-time constant: docs/ntcheck.md). Its hazard and publish points
 * are active in a checking build, where every loop has them, and in the
 * checked loops of any build. Its record of non-temporal stores (after
 * each page copy or fill, under the strategy's name) and its retirement
 * (after memcpy_nt_drain()) serve only the builds without primitive hooks:
 * in a checking build the primitives record precisely, and a model-level
 * retirement would hide a memcpy_nt_drain() that lost its SFENCE.
 */
#define ntcheck_model_cached_store(checked, p, n, point)                     \
	do {                                                                  \
		if (NTCHECK_PRIMITIVES || (checked))                          \
			__ntcheck_cached_store(p, n, point, __FILE__,         \
					       __LINE__);                     \
	} while (0)
#define ntcheck_model_publish(checked, point)                                \
	do {                                                                  \
		if (NTCHECK_PRIMITIVES || (checked))                          \
			__ntcheck_publish(point, __FILE__, __LINE__);         \
	} while (0)
#define ntcheck_model_store(checked, p, n, store)                            \
	do {                                                                  \
		if (!NTCHECK_PRIMITIVES && (checked))                         \
			__ntcheck_model_store(p, n, store);                   \
	} while (0)
#define ntcheck_model_drained(checked)                                       \
	do {                                                                  \
		if (!NTCHECK_PRIMITIVES && (checked))                         \
			__ntcheck_model_drained();                            \
	} while (0)

/* Was this program built with the checker? */
bool ntcheck_built(void);
/*
 * Is it recording now (inside a case that wants it: every suite but the
 * timed ones)? In a build without NTB_NTCHECK only the model-level hooks
 * feed it.
 */
bool ntcheck_active(void);

/* "movnti", "clwb", ... */
const char *ntcheck_op_name(enum ntcheck_op op);

/*
 * The runner: set up the per-CPU sets once (before the first case), and
 * bracket every case. @on: record in this case (false for timed suites).
 * ntcheck_case_end() checks every CPU's set (the end of a case is a
 * publish point), prints a summary line when there were findings, empties
 * the sets and returns the number of findings.
 */
void ntcheck_init(void);
void ntcheck_case_begin(bool on);
unsigned int ntcheck_case_end(void);

/*
 * Tests of the checker: findings between ntcheck_expect_begin() and
 * ntcheck_expect_end() are counted instead of failing the case; the text
 * of the first one is copied into @first (@len bytes). Returns the count.
 */
void ntcheck_expect_begin(void);
unsigned int ntcheck_expect_end(char *first, size_t len);
/* After ntcheck_expect_end(): did a finding name @point? */
bool ntcheck_expect_named(const char *point);

/* Lines pending on the calling CPU now (all kinds). */
unsigned long ntcheck_pending_lines(void);

/*
 * A trace of the cache-maintenance and non-temporal operations of the
 * calling CPU, in program order, one entry per line per operation: what
 * clean_cache_range() really executed.
 */
struct ntcheck_trace_entry {
	uptr line;
	enum ntcheck_op op;
};

struct ntcheck_trace {
	struct ntcheck_trace_entry *e;
	unsigned int cap;
	unsigned int nr;
	bool overflow;		/* more entries came than @cap */
};

void ntcheck_trace_start(struct ntcheck_trace *t);
void ntcheck_trace_stop(void);

#endif
