/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * on_cpus(): one function on several CPUs at once, for the suites and
 * engines that need CPUs working together (the litmus engine, memmap_smp,
 * bench_memmap_parallel).
 *
 * Worker i (0 .. nr - 1) runs fn(arg, i) on CPU cpus[i], or on CPU i
 * without a list. The worker whose CPU is the caller's runs on the caller,
 * the others through plat_run_on_cpu_async(). No worker calls fn before
 * every worker has reached a start barrier (lib/cpu_barrier.h); a CPU that
 * does not take work, or does not reach the barrier within
 * @start_timeout_us, breaks it, and then no worker calls fn at all.
 *
 * Every wait has a deadline. The join waits for each started worker until
 * @timeout_us pass without progress: without a @progress hook that is
 * @timeout_us from the start of the join; with one, every move of the
 * value it returns starts the period again. When a period runs out,
 * @stop(arg) (where given) asks the workers to give up, and they get one
 * more period. A worker still running after that is given up for lost:
 * @stuck is set and the memory it works on must never be handed back.
 * Otherwise every worker has returned when the join does, so workers
 * never outlive the buffers the caller gave them.
 *
 * Failures are reported by CPU in @why ("CPU 3 faulted; ...").
 *
 * The helper starts and joins the CPUs; a caller with a tight loop of its
 * own (the litmus engine's per-iteration barrier) keeps it inside fn.
 */
#ifndef NTBOOT_LIB_ON_CPUS_H
#define NTBOOT_LIB_ON_CPUS_H

#include "include/compiler.h"
#include "include/types.h"
#include "lib/cpu_barrier.h"

/* How a worker failed, the worst first reported in on_cpus.rc. */
enum {
	ON_CPUS_FAULT = -1,    /* a CPU exception in fn */
	ON_CPUS_TIMEOUT = -2,  /* still running after its deadline */
	ON_CPUS_NO_CPU = -3,   /* the CPU does not take work */
	ON_CPUS_NO_START = -4, /* the start barrier was broken */
};

#define ON_CPUS_WHY_LEN 192

struct on_cpus {
	/* Set by the caller; on_cpus_init() gives the defaults. */
	unsigned int nr;
	const unsigned int *cpus; /* NULL: worker i on CPU i */
	void (*fn)(void *arg, unsigned int index);
	void *arg;
	u64 start_timeout_us;
	u64 timeout_us;
	u64 (*progress)(void *arg); /* may be NULL */
	void (*stop)(void *arg);    /* may be NULL */

	/* The outcome, valid once on_cpus() or on_cpus_join() returned. */
	int rc;			   /* 0 or the first failure */
	unsigned int nr_failed;	   /* workers that failed */
	bool stuck;		   /* a worker may still be running */
	char why[ON_CPUS_WHY_LEN]; /* the failures by CPU, or "" */

	/* Private. */
	struct cpu_barrier start;
	u32 ready __aligned(64); /* workers at the start barrier */
	u32 no_start;		 /* workers that saw it broken */
	int self;		 /* the caller's worker, or -1 */
	unsigned int launched;	 /* workers below it were handed out */
	bool started;
	bool entered;
	bool joined;
};

/* Workers 0..@nr-1 on CPUs 0..@nr-1, deadlines of 20 s. */
void on_cpus_init(struct on_cpus *oc, unsigned int nr,
		  void (*fn)(void *arg, unsigned int index), void *arg);

/*
 * Start, take the caller's part, join: 0 when every worker ran fn and
 * returned, else the first failure (@why says which CPUs).
 */
int on_cpus(struct on_cpus *oc);

/*
 * The same in three steps, for a caller that times its part alone (a
 * benchmark): on_cpus_start() hands every other worker to its CPU and
 * returns once all of them wait at the start barrier (on a failure it
 * joins them itself and returns it); on_cpus_enter() is the caller's
 * worker, which releases the barrier and runs fn (nothing when the
 * caller's CPU is not in the set); on_cpus_join() waits for the others
 * and returns the outcome. on_cpus_join() may be called again; it waits
 * only once.
 */
int on_cpus_start(struct on_cpus *oc);
void on_cpus_enter(struct on_cpus *oc);
int on_cpus_join(struct on_cpus *oc);

#endif
