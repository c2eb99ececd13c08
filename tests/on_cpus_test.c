// SPDX-License-Identifier: GPL-2.0-only
/*
 * on_cpus() (lib/on_cpus.h): every worker runs once, on its own CPU, with
 * its own index; none before all of them reached the start; the join
 * returns only when all of them did, and names the CPU that did not; a
 * CPU that does not take work stops the whole set before any fn runs; a
 * fault is reported by CPU; a stalled set is asked to stop.
 */
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/on_cpus.h"
#include "lib/printf.h"
#include "lib/scale.h"
#include "lib/string.h"
#include "lib/timing.h"

#define WORK_TIMEOUT_US 5000000ull
/* A wait that is meant to run out. */
#define SHORT_TIMEOUT_US 50000ull
/* The longest any worker here spins, so that every one of them ends. */
#define SPIN_LIMIT_MS 10000ull

struct oc_slot {
	u32 runs;
	unsigned int cpu;
	u32 done;
} __aligned(64);

struct oc_job {
	struct oc_slot *slot;
	unsigned int nr;
	unsigned int hold; /* the worker that waits for @release */
	u32 release;
	u32 self_done; /* the caller's worker has returned */
	u32 stop_calls;
	bool fault;
};

static bool spin_until(const u32 *flag, u64 limit_ms)
{
	u64 deadline = tsc_deadline_us(limit_ms * 1000);

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (tsc_deadline_passed(deadline))
			return false;
		asm volatile("pause");
	}
	return true;
}

static void record(void *arg, unsigned int index)
{
	struct oc_job *j = arg;

	__atomic_add_fetch(&j->slot[index].runs, 1, __ATOMIC_SEQ_CST);
	j->slot[index].cpu = plat_this_cpu();
}

static struct oc_job *job_alloc(struct kunit *test, unsigned int nr)
{
	struct oc_job *j = kunit_kzalloc(test, sizeof(*j));

	KUNIT_ASSERT_NOT_NULL(test, j);
	j->slot = kunit_kzalloc(test, nr * sizeof(*j->slot));
	KUNIT_ASSERT_NOT_NULL(test, j->slot);
	j->nr = nr;
	return j;
}

/* A job for every CPU and @oc set up to run @fn on all of them. */
static struct oc_job *job_on_all(struct kunit *test, struct on_cpus *oc,
				 void (*fn)(void *arg, unsigned int index))
{
	unsigned int n = plat_cpu_count();
	struct oc_job *j;

	if (n < 2)
		kunit_skip(test, "one CPU");
	j = job_alloc(test, n);
	on_cpus_init(oc, n, fn, j);
	return j;
}

/* Each worker once, on the CPU it was given, knowing its own index. */
static void on_cpus_every_worker_once(struct kunit *test)
{
	unsigned int n = plat_cpu_count();
	struct oc_job *j = job_alloc(test, n);
	unsigned int *cpus = kunit_kzalloc(test, n * sizeof(*cpus));
	struct on_cpus oc;

	KUNIT_ASSERT_NOT_NULL(test, cpus);
	on_cpus_init(&oc, n, record, j);
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), 0);
	KUNIT_EXPECT_EQ(test, oc.nr_failed, 0);
	for (unsigned int i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, j->slot[i].runs, 1);
		KUNIT_EXPECT_EQ(test, j->slot[i].cpu, i);
	}

	/* A CPU list, backwards: worker i on CPU n-1-i. */
	memset(j->slot, 0, n * sizeof(*j->slot));
	for (unsigned int i = 0; i < n; i++)
		cpus[i] = n - 1 - i;
	on_cpus_init(&oc, n, record, j);
	oc.cpus = cpus;
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), 0);
	for (unsigned int i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, j->slot[i].runs, 1);
		KUNIT_EXPECT_EQ(test, j->slot[i].cpu, n - 1 - i);
	}
}

/*
 * In three steps: after on_cpus_start() every other worker waits at the
 * start and none has run fn; the caller's on_cpus_enter() lets them go.
 */
static void on_cpus_start_holds_everyone(struct kunit *test)
{
	struct on_cpus oc;
	struct oc_job *j = job_on_all(test, &oc, record);

	KUNIT_ASSERT_EQ(test, on_cpus_start(&oc), 0);
	for (unsigned int i = 0; i < oc.nr; i++)
		KUNIT_EXPECT_EQ(
			test,
			__atomic_load_n(&j->slot[i].runs, __ATOMIC_SEQ_CST), 0);
	on_cpus_enter(&oc);
	KUNIT_EXPECT_EQ(test, j->slot[0].runs, 1);
	KUNIT_EXPECT_EQ(test, on_cpus_join(&oc), 0);
	for (unsigned int i = 0; i < oc.nr; i++)
		KUNIT_EXPECT_EQ(test, j->slot[i].runs, 1);
	/* A second join waits for nothing and says the same. */
	KUNIT_EXPECT_EQ(test, on_cpus_join(&oc), 0);
}

/*
 * The others finish well after the caller's worker: the join must still
 * wait for every one of them before it returns.
 */
static void late_finish(void *arg, unsigned int index)
{
	struct oc_job *j = arg;

	if (index == 0) {
		__atomic_store_n(&j->self_done, 1, __ATOMIC_RELEASE);
	} else {
		u64 end;

		spin_until(&j->self_done, SPIN_LIMIT_MS);
		end = tsc_deadline_us(2000 * index);
		while (!tsc_deadline_passed(end))
			asm volatile("pause");
	}
	__atomic_store_n(&j->slot[index].done, 1, __ATOMIC_RELEASE);
}

static void on_cpus_join_waits_for_all(struct kunit *test)
{
	struct on_cpus oc;
	struct oc_job *j = job_on_all(test, &oc, late_finish);

	KUNIT_EXPECT_EQ(test, on_cpus(&oc), 0);
	for (unsigned int i = 0; i < oc.nr; i++)
		if (!__atomic_load_n(&j->slot[i].done, __ATOMIC_ACQUIRE))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "on_cpus() returned while the worker "
				      "on CPU %u was still running",
				      i);
}

/* Worker @hold keeps going until the test releases it. */
static void hold_one(void *arg, unsigned int index)
{
	struct oc_job *j = arg;

	if (index == j->hold)
		spin_until(&j->release, SPIN_LIMIT_MS);
	__atomic_store_n(&j->slot[index].done, 1, __ATOMIC_RELEASE);
}

/*
 * A worker that does not return within the deadline is named, the set is
 * reported stuck, and on_cpus() does not pretend it is done: tried with
 * each of the first and the last few workers held.
 */
static void on_cpus_names_the_late_cpu(struct kunit *test)
{
	struct on_cpus oc;
	struct oc_job *j = job_on_all(test, &oc, hold_one);
	char want[32];

	for (unsigned int hold = 1; hold < oc.nr; hold++) {
		if (hold > 3 && hold < oc.nr - 2)
			continue;
		memset(j->slot, 0, oc.nr * sizeof(*j->slot));
		j->hold = hold;
		__atomic_store_n(&j->release, 0, __ATOMIC_RELEASE);
		on_cpus_init(&oc, oc.nr, hold_one, j);
		/*
		 * Where vCPUs are host threads a worker that is not held
		 * can miss the join too: the deadline is longer there
		 * (lib/scale.c), and such a worker must still have
		 * returned once collected.
		 */
		oc.timeout_us = platform_scaled(SCALE_ON_CPUS_SHORT_US,
						SHORT_TIMEOUT_US, NULL);
		KUNIT_EXPECT_EQ(test, on_cpus(&oc), ON_CPUS_TIMEOUT);
		KUNIT_EXPECT_TRUE(test, oc.stuck);
		KUNIT_EXPECT_GE(test, oc.nr_failed, 1);
		if (!cpu_is_emulated())
			KUNIT_EXPECT_EQ(test, oc.nr_failed, 1);
		ntb_snprintf(want, sizeof(want), "CPU %u did not return", hold);
		if (!strstr(oc.why, want))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "worker %u held: \"%s\" does not say "
				      "\"%s\"",
				      hold, oc.why, want);
		/* Let it go, and collect it: the CPU takes work again. */
		__atomic_store_n(&j->release, 1, __ATOMIC_RELEASE);
		for (unsigned int i = 1; i < oc.nr; i++) {
			KUNIT_EXPECT_EQ(test, plat_wait_cpu(i, WORK_TIMEOUT_US),
					0);
			KUNIT_EXPECT_EQ(test, j->slot[i].done, 1);
		}
	}
}

/* A CPU that takes no work: nobody runs fn, nobody is left behind. */
static void on_cpus_bad_cpu_stops_all(struct kunit *test)
{
	unsigned int n = plat_cpu_count();
	struct oc_job *j = job_alloc(test, n + 1);
	unsigned int *cpus = kunit_kzalloc(test, (n + 1) * sizeof(*cpus));
	struct on_cpus oc;
	char want[48];

	KUNIT_ASSERT_NOT_NULL(test, cpus);
	for (unsigned int i = 0; i < n; i++)
		cpus[i] = i;
	cpus[n] = n; /* no such CPU */
	on_cpus_init(&oc, n + 1, record, j);
	oc.cpus = cpus;
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), ON_CPUS_NO_CPU);
	KUNIT_EXPECT_TRUE(test, !oc.stuck);
	ntb_snprintf(want, sizeof(want), "CPU %u does not take work", n);
	if (!strstr(oc.why, want))
		kunit_fail_at(test, __FILE__, __LINE__,
			      "\"%s\" does not say \"%s\"", oc.why, want);
	for (unsigned int i = 0; i <= n; i++)
		KUNIT_EXPECT_EQ(test, j->slot[i].runs, 0);
	/* Every CPU is free again. */
	on_cpus_init(&oc, n, record, j);
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), 0);
}

static void fault_on_last(void *arg, unsigned int index)
{
	struct oc_job *j = arg;

	if (index == j->nr - 1)
		asm volatile("ud2");
	record(arg, index);
}

static void on_cpus_fault_by_cpu(struct kunit *test)
{
	struct on_cpus oc;
	char want[32];
	struct oc_job *j;

	if (!plat_can_catch_faults())
		kunit_skip(test, "this platform cannot catch faults");
	j = job_on_all(test, &oc, fault_on_last);
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), ON_CPUS_FAULT);
	ntb_snprintf(want, sizeof(want), "CPU %u faulted", oc.nr - 1);
	if (!strstr(oc.why, want))
		kunit_fail_at(test, __FILE__, __LINE__,
			      "\"%s\" does not say \"%s\"", oc.why, want);
	for (unsigned int i = 0; i + 1 < oc.nr; i++)
		KUNIT_EXPECT_EQ(test, j->slot[i].runs, 1);
}

static void ask_to_stop(void *arg)
{
	struct oc_job *j = arg;

	__atomic_add_fetch(&j->stop_calls, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&j->release, 1, __ATOMIC_RELEASE);
}

/* A set that makes no progress is asked to stop, once, and then ends. */
static void on_cpus_stalled_set_is_stopped(struct kunit *test)
{
	struct on_cpus oc;
	struct oc_job *j = job_on_all(test, &oc, hold_one);

	j->hold = oc.nr - 1;
	/*
	 * The second period (after the stop) must not run out: where vCPUs
	 * are host threads on a busy host a released worker can wait longer
	 * than 50 ms for its thread to run, so the deadline is the scaled
	 * one (lib/scale.c), as in on_cpus_names_the_late_cpu.
	 */
	oc.timeout_us =
		platform_scaled(SCALE_ON_CPUS_SHORT_US, SHORT_TIMEOUT_US, NULL);
	oc.stop = ask_to_stop;
	KUNIT_EXPECT_EQ(test, on_cpus(&oc), 0);
	KUNIT_EXPECT_EQ(test, j->stop_calls, 1);
	KUNIT_EXPECT_EQ(test, j->slot[oc.nr - 1].done, 1);
}

static const struct kunit_case on_cpus_cases[] = {
	KUNIT_CASE(on_cpus_every_worker_once),
	KUNIT_CASE(on_cpus_start_holds_everyone),
	KUNIT_CASE(on_cpus_join_waits_for_all),
	KUNIT_CASE(on_cpus_names_the_late_cpu),
	KUNIT_CASE(on_cpus_bad_cpu_stops_all),
	KUNIT_CASE(on_cpus_fault_by_cpu),
	KUNIT_CASE(on_cpus_stalled_set_is_stopped),
};

KUNIT_SUITE_DEFINE(on_cpus_suite, "on_cpus", on_cpus_cases);
