/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A litmus7-style engine for two-thread memory-ordering tests on real CPUs.
 *
 * A test is a shape (the code each of the two threads runs and how the
 * results are classified) plus its parameters (which stores are
 * non-temporal, which fence sits between the accesses, where the shared
 * variables live). The engine runs it many times on a pair of CPUs:
 *
 *   - every iteration works on its own variables (an array of instances),
 *     so nothing has to be reset and re-published between iterations;
 *   - the two threads are released together for every iteration by a
 *     sense-reversing barrier on a shared counter;
 *   - every wait is bounded: a partner CPU that does not arrive within the
 *     deadline aborts the run and the test fails naming that CPU;
 *   - after each batch one thread counts the outcomes of the batch into a
 *     histogram and clears the variables for the next batch.
 *
 * Results are printed as "# litmus" histogram lines and a litmus7-style
 * "# Observation NAME Never|Sometimes|Always N M" line per run.
 */
#ifndef NTBOOT_TESTS_ENGINES_LITMUS_H
#define NTBOOT_TESTS_ENGINES_LITMUS_H

#include "include/compiler.h"
#include "include/types.h"

struct kunit;
struct litmus_test;

/* What a store or a fence in a test is made of. */
enum litmus_store {
	LITMUS_PLAIN, /* MOV */
	LITMUS_NT,    /* MOVNTI */
};

enum litmus_fence {
	LITMUS_NOFENCE,
	LITMUS_SFENCE,
	LITMUS_MFENCE,
	LITMUS_LOCK, /* LOCK ADD of 0 to the thread's own stack */
};

/* Where the variables of one instance live. */
enum litmus_layout {
	LITMUS_SEP,  /* x and y on different cache lines (and sectors) */
	LITMUS_SAME, /* x and y in one cache line */
	LITMUS_ONE,  /* one variable (coherence tests) */
};

/* How an outcome is read: a thread's register or a final memory value. */
enum litmus_src {
	LITMUS_SRC_P0,
	LITMUS_SRC_P1,
	LITMUS_SRC_FINAL, /* reg 0: x, reg 1: y, read after the batch */
};

#define LITMUS_MAX_SLOTS 4
#define LITMUS_MAX_REGS 2
/* Outcome values are stored in two bits; 3 means "3 or more". */
#define LITMUS_VAL_MAX 3
#define LITMUS_NR_KEYS (1u << (2 * LITMUS_MAX_SLOTS))

typedef void (*litmus_body_fn)(const struct litmus_test *t, u32 *x, u32 *y,
			       u32 *regs);

struct litmus_slot {
	u8 src; /* enum litmus_src */
	u8 reg;
	const char *label; /* "1:x", "x" */
};

struct litmus_shape {
	const char *name;
	litmus_body_fn body[2];
	unsigned int nr_slots;
	struct litmus_slot slot[LITMUS_MAX_SLOTS];
	/*
	 * The relaxed outcome, the reordering the shape is about: the table
	 * says whether it is allowed, and it is always printed, seen or not.
	 */
	u32 target[LITMUS_MAX_SLOTS];
};

/* A set of outcomes: bit KEY, KEY = slot s's value at bits 2s..2s+1. */
#define LITMUS_SET_WORDS (LITMUS_NR_KEYS / 32)

struct litmus_test {
	const char *name;  /* the case name: "MP+nt+sfence.sep" */
	const char *label; /* the test without layout: "MP+nt+sfence" */
	const struct litmus_shape *shape;
	u8 store[2];	      /* litmus_store: 1st, 2nd store of a thread */
	u8 fence;	      /* litmus_fence between a thread's accesses */
	u8 layout;	      /* enum litmus_layout */
	bool relaxed_allowed; /* does the architecture allow it? */
	/*
	 * Outcomes some interleaving of the threads without any reordering
	 * reaches, and every outcome the suite accepts: those and, where the
	 * table allows it, the relaxed one. tools/tso-enum writes both and
	 * fails the build unless @allowed is what its x86-TSO model reaches.
	 */
	u32 sc[LITMUS_SET_WORDS];
	u32 allowed[LITMUS_SET_WORDS];
};

/* Two CPUs (platform numbers) and what separates them. */
struct litmus_pair {
	unsigned int cpu[2];
	u32 apic[2];
	const char *kind; /* "smt", "core" or "package" */
};

#define LITMUS_MAX_PAIRS 3

/* How long the runs are, decided once per suite. */
struct litmus_config {
	u64 iters;  /* iterations per run (a cap when timed) */
	bool timed; /* stop a run early at run_ms */
	u64 run_ms;
	u64 hang_ms; /* longest wait for the partner thread */
};

/*
 * Fill @cfg from the options: litmus.iters other than the built-in default
 * is run exactly; the default is "up to that many, about a second per
 * run", scaled down on the slow platforms of lib/scale.c so that the
 * whole suite (@nr_runs runs) stays short. Prints what it chose.
 */
void litmus_config_init(struct litmus_config *cfg, unsigned int nr_runs);

/*
 * Read every CPU's x2APIC ID and topology shifts on that CPU and pick up
 * to LITMUS_MAX_PAIRS pairs: SMT siblings, two cores of one package, two
 * packages, where they exist. Prints the pairs. Returns how many.
 */
unsigned int litmus_pick_pairs(struct litmus_pair *pairs, unsigned int max);

/* What litmus_run() found. */
enum litmus_verdict {
	LITMUS_RUN_FAILED = -1, /* the run could not complete */
	LITMUS_OK = 0,		/* only outcomes in @t->allowed */
	LITMUS_FORBIDDEN = 1,	/* an outcome outside @t->allowed was seen */
};

/*
 * Run @t on @pair, print its histogram and observation, and fail @test if
 * an outcome outside @t->allowed was seen or the run could not complete.
 * An allowed relaxed outcome that never showed up is reported, not failed.
 */
enum litmus_verdict litmus_run(struct kunit *test, const struct litmus_test *t,
			       const struct litmus_pair *pair,
			       const struct litmus_config *cfg);

/*
 * The building blocks of the thread bodies: one instruction each, with a
 * "memory" clobber so the compiler keeps them in program order.
 */
static __always_inline u32 litmus_load(const u32 *p)
{
	u32 v;

	asm volatile("movl %1, %0" : "=r"(v) : "m"(*p) : "memory");
	return v;
}

static __always_inline void litmus_store(u8 kind, u32 *p, u32 v)
{
	if (kind == LITMUS_NT)
		asm volatile("movntil %1, %0" : "=m"(*p) : "r"(v) : "memory");
	else
		asm volatile("movl %1, %0" : "=m"(*p) : "r"(v) : "memory");
}

static __always_inline void litmus_fence(u8 kind)
{
	switch (kind) {
	case LITMUS_SFENCE:
		asm volatile("sfence" ::: "memory");
		break;
	case LITMUS_MFENCE:
		asm volatile("mfence" ::: "memory");
		break;
	case LITMUS_LOCK:
		/*
		 * A locked read-modify-write of a word only this thread
		 * touches, as the kernel's smp_mb(): adding 0 changes
		 * nothing, the LOCK prefix is the fence.
		 */
		asm volatile("lock addl $0, (%%rsp)" ::: "memory", "cc");
		break;
	default:
		break;
	}
}

#endif
