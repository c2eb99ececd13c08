/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hosted runner's worker processes (docs/statistics.md, "Processes"):
 * with processes=N every timed suite is measured in N processes, one
 * after another. N - 1 workers (this binary run again with the same
 * options, a seed of its own and fresh buffers) measure first; this
 * process measures last, takes the workers' samples at each
 * bench_interleave() and prints the one KTAP stream, whose metric lines
 * and verdicts stand on all N.
 */
#ifndef NTBOOT_HOST_PROCESSES_H
#define NTBOOT_HOST_PROCESSES_H

#include <sched.h>

#include "include/types.h"

/* processes=: the processes that measure, this one included. */
extern u32 opt_processes;

/* The argument that makes a run a worker: its channel's descriptor. */
#define PROCESSES_WORKER_ARG "--worker-channel="

/*
 * @arg is a worker's argument: become a worker writing its measurements
 * to the descriptor it names (only timed suites run). 1 when it was one,
 * 0 when not, -1 when it names no descriptor.
 */
int processes_worker_arg(const char *arg);

/*
 * The parent's plan, checked before anything runs: runs= per process
 * (6 unless given, when several processes measure), runs >= 2 and
 * runs x processes within the timing core's pool. 0, or -1 with @why.
 */
int processes_plan(char *why, size_t len);

/*
 * Run the N - 1 workers one after another with @argv's options (@mask:
 * the CPUs the run was given, before it pinned itself), printing what each
 * did, then hand their samples to the timing core. Returns how many
 * workers failed.
 */
unsigned int processes_run_workers(int argc, char **argv,
				   const cpu_set_t *mask);

#endif
