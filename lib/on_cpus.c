// SPDX-License-Identifier: GPL-2.0-only
/*
 * on_cpus() (lib/on_cpus.h), and plat_run_on_cpu(), the one-CPU form
 * every platform shares: the platforms provide only the asynchronous
 * start and the wait.
 */
#include "include/platform.h"
#include "lib/on_cpus.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/timing.h"

/* How often the join looks at the progress hook and the deadline. */
#define ON_CPUS_SLICE_US 20000ull
#define ON_CPUS_DEFAULT_TIMEOUT_US 20000000ull

int plat_run_on_cpu(unsigned int cpu, void (*fn)(void *), void *arg,
		    u64 timeout_us)
{
	int rc;

	if (cpu == plat_this_cpu()) {
		fn(arg);
		return 0;
	}
	rc = plat_run_on_cpu_async(cpu, fn, arg);
	return rc ? rc : plat_wait_cpu(cpu, timeout_us);
}

void on_cpus_init(struct on_cpus *oc, unsigned int nr,
		  void (*fn)(void *arg, unsigned int index), void *arg)
{
	*oc = (struct on_cpus){
		.nr = nr,
		.fn = fn,
		.arg = arg,
		.start_timeout_us = ON_CPUS_DEFAULT_TIMEOUT_US,
		.timeout_us = ON_CPUS_DEFAULT_TIMEOUT_US,
		.self = -1,
	};
}

static unsigned int cpu_of(const struct on_cpus *oc, unsigned int index)
{
	return oc->cpus ? oc->cpus[index] : index;
}

/* The worker index of @cpu; @oc->nr when it has none. */
static unsigned int index_of(const struct on_cpus *oc, unsigned int cpu)
{
	unsigned int i;

	if (!oc->cpus)
		return cpu < oc->nr ? cpu : oc->nr;
	for (i = 0; i < oc->nr; i++)
		if (oc->cpus[i] == cpu)
			break;
	return i;
}

/* Record a failure, by CPU: the first one is the result. */
static void __printf(3, 4)
	on_cpus_fail(struct on_cpus *oc, int rc, const char *fmt, ...)
{
	size_t len = strlen(oc->why);
	va_list ap;

	if (!oc->rc)
		oc->rc = rc;
	oc->nr_failed++;
	if (rc == ON_CPUS_TIMEOUT)
		oc->stuck = true;
	if (len + 3 >= sizeof(oc->why))
		return;
	if (len) {
		memcpy(oc->why + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	ntb_vsnprintf(oc->why + len, sizeof(oc->why) - len, fmt, ap);
	va_end(ap);
}

/* One worker: through the start barrier, then fn, unless it is broken. */
static void on_cpus_run(struct on_cpus *oc, unsigned int index)
{
	struct cpu_barrier_waiter w = {0};

	__atomic_add_fetch(&oc->ready, 1, __ATOMIC_SEQ_CST);
	if (index >= oc->nr ||
	    cpu_barrier_wait(&oc->start, &w, oc->start_timeout_us)) {
		__atomic_add_fetch(&oc->no_start, 1, __ATOMIC_SEQ_CST);
		return;
	}
	oc->fn(oc->arg, index);
}

/* What another CPU runs: it finds its index by its own CPU number. */
static void on_cpus_worker(void *arg)
{
	struct on_cpus *oc = arg;

	on_cpus_run(oc, index_of(oc, plat_this_cpu()));
}

int on_cpus_start(struct on_cpus *oc)
{
	unsigned int me = plat_this_cpu(), remote, i;
	u64 deadline;

	oc->rc = 0;
	oc->nr_failed = 0;
	oc->stuck = false;
	oc->why[0] = '\0';
	oc->ready = 0;
	oc->no_start = 0;
	oc->entered = false;
	oc->joined = false;
	oc->started = true;
	oc->self = -1;
	cpu_barrier_init(&oc->start, oc->nr);
	for (i = 0; i < oc->nr; i++)
		if (cpu_of(oc, i) == me)
			oc->self = (int)i;
	remote = oc->nr - (oc->self >= 0);

	for (i = 0; i < oc->nr; i++) {
		int rc;

		if ((int)i == oc->self)
			continue;
		rc = plat_run_on_cpu_async(cpu_of(oc, i), on_cpus_worker, oc);
		if (rc) {
			on_cpus_fail(oc, ON_CPUS_NO_CPU, "CPU %u %s (%d)",
				     cpu_of(oc, i),
				     rc == -2
					     ? "is still busy with earlier work"
					     : "does not take work",
				     rc);
			break;
		}
	}
	oc->launched = i;
	if (oc->rc)
		goto fail;
	/* Everyone at the barrier: the caller's release starts them all. */
	deadline = tsc_deadline_us(oc->start_timeout_us);
	while (__atomic_load_n(&oc->ready, __ATOMIC_ACQUIRE) < remote) {
		if (tsc_deadline_passed(deadline)) {
			on_cpus_fail(
				oc, ON_CPUS_NO_START,
				"only %u of %u CPUs reached the start "
				"within %llu ms",
				__atomic_load_n(&oc->ready, __ATOMIC_ACQUIRE),
				remote, oc->start_timeout_us / 1000);
			goto fail;
		}
		asm volatile("pause" ::: "memory");
	}
	return 0;
fail:
	/* Those already waiting leave without running fn. */
	cpu_barrier_break(&oc->start);
	return on_cpus_join(oc);
}

void on_cpus_enter(struct on_cpus *oc)
{
	if (!oc->started || oc->joined || oc->entered || oc->self < 0)
		return;
	oc->entered = true;
	on_cpus_run(oc, (unsigned int)oc->self);
}

/* Wait for worker @i's CPU while the deadline (and progress) allow. */
static int on_cpus_wait(struct on_cpus *oc, unsigned int i, u64 *since,
			u64 *last, bool *stopped)
{
	u64 period = oc->timeout_us * tsc_khz_for_deadlines() / 1000;
	u64 slice = min(oc->timeout_us, ON_CPUS_SLICE_US);

	for (;;) {
		int rc = plat_wait_cpu(cpu_of(oc, i), slice ? slice : 1);
		u64 now;

		if (rc != -2)
			return rc;
		now = rdtsc();
		if (oc->progress) {
			u64 v = oc->progress(oc->arg);

			if (v != *last) {
				*last = v;
				*since = now;
				continue;
			}
		}
		if (now - *since < period)
			continue;
		if (*stopped || !oc->stop)
			return ON_CPUS_TIMEOUT;
		/* Ask them to give up, and give them one more period. */
		*stopped = true;
		oc->stop(oc->arg);
		*since = now;
	}
}

int on_cpus_join(struct on_cpus *oc)
{
	u64 since = rdtsc(), last = 0;
	bool stopped = false;

	if (!oc->started || oc->joined)
		return oc->rc;
	oc->joined = true;
	if (oc->progress)
		last = oc->progress(oc->arg);
	for (unsigned int i = 0; i < oc->launched; i++) {
		int rc;

		if ((int)i == oc->self)
			continue;
		rc = on_cpus_wait(oc, i, &since, &last, &stopped);
		if (rc == -1)
			on_cpus_fail(oc, ON_CPUS_FAULT, "CPU %u faulted",
				     cpu_of(oc, i));
		else if (rc == ON_CPUS_TIMEOUT)
			on_cpus_fail(
				oc, rc, "CPU %u did not return (%llu ms %s%s)",
				cpu_of(oc, i), oc->timeout_us / 1000,
				oc->progress ? "without progress" : "passed",
				stopped ? ", twice: asked to stop" : "");
		else if (rc)
			on_cpus_fail(oc, ON_CPUS_NO_CPU, "CPU %u lost (%d)",
				     cpu_of(oc, i), rc);
	}
	/* Every worker is back: did the start barrier let them all in? */
	if (!oc->rc && oc->no_start)
		on_cpus_fail(oc, ON_CPUS_NO_START,
			     "%u of %u workers gave up at the start barrier "
			     "after %llu ms",
			     oc->no_start, oc->nr, oc->start_timeout_us / 1000);
	return oc->rc;
}

int on_cpus(struct on_cpus *oc)
{
	if (on_cpus_start(oc))
		return oc->rc;
	on_cpus_enter(oc);
	return on_cpus_join(oc);
}
