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
 * Without NTB_NTCHECK every hook below is an empty inline: the image, the
 * benchmark runner and their timed loops carry nothing of it. In a
 * checking build the benchmark suites (KUNIT_SUITE_TIMED) run with the
 * checker off, which leaves one predictable branch per primitive.
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

#ifdef NTB_NTCHECK

void __ntcheck_op(const void *p, size_t n, enum ntcheck_op op);
void __ntcheck_fence(enum ntcheck_fence f);
void __ntcheck_cached_store(const void *p, size_t n, const char *point,
			    const char *file, int line);
void __ntcheck_publish(const char *point, const char *file, int line);

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

/* Was this program built with the checker? */
bool ntcheck_built(void);
/* Is it recording now (checking build, inside a case that wants it)? */
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
