// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every CPU the platform offers really runs work: each reports its own
 * APIC ID, all of them distinct; a fault on another CPU fails that work
 * item and leaves the CPU usable; a timeout is reported, not waited out.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/cpu_barrier.h"
#include "lib/kunit.h"
#include "lib/on_cpus.h"
#include "lib/timing.h"

#define WORK_TIMEOUT_US 2000000

struct id_slot {
	u32 apic_id;
	volatile u32 ran;
};

static u32 cpuid_apic_id(void)
{
	u32 a, b, c, d;

	/* Leaf 0xB gives the full x2APIC ID where it exists. */
	if (boot_cpu_data.max_leaf >= 0xb) {
		cpuid_count(0xb, 0, &a, &b, &c, &d);
		if (b)
			return d;
	}
	cpuid_count(1, 0, &a, &b, &c, &d);
	return b >> 24;
}

static void record_id(void *arg)
{
	struct id_slot *s = arg;

	s->apic_id = cpuid_apic_id();
	s->ran = 1;
}

static void smp_every_cpu_runs(struct kunit *test)
{
	unsigned int n = plat_cpu_count();
	struct id_slot *slots = kunit_kzalloc(test, n * sizeof(*slots));

	KUNIT_ASSERT_NOT_NULL(test, slots);
	kunit_info(test, "%u CPUs", n);
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		int rc = plat_run_on_cpu(cpu, record_id, &slots[cpu],
					 WORK_TIMEOUT_US);

		KUNIT_EXPECT_EQ(test, rc, 0);
		KUNIT_EXPECT_EQ(test, slots[cpu].ran, 1);
	}
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = i + 1; j < n; j++)
			if (slots[i].apic_id == slots[j].apic_id)
				kunit_fail_at(test, __FILE__, __LINE__,
					      "CPUs %u and %u both report APIC ID %u",
					      i, j, slots[i].apic_id);
}

static void smp_all_at_once(struct kunit *test)
{
	unsigned int n = plat_cpu_count();
	struct id_slot *slots = kunit_kzalloc(test, n * sizeof(*slots));

	KUNIT_ASSERT_NOT_NULL(test, slots);
	if (n < 2)
		kunit_skip(test, "one CPU");
	for (unsigned int cpu = 1; cpu < n; cpu++)
		KUNIT_EXPECT_EQ(test, plat_run_on_cpu_async(cpu, record_id,
							    &slots[cpu]),
				0);
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		KUNIT_EXPECT_EQ(test, plat_wait_cpu(cpu, WORK_TIMEOUT_US), 0);
		KUNIT_EXPECT_EQ(test, slots[cpu].ran, 1);
	}
}

static void provoke_ud(void *arg)
{
	asm volatile("ud2");
}

static void smp_fault_on_other_cpu(struct kunit *test)
{
	unsigned int cpu = plat_cpu_count() - 1;
	struct id_slot slot = { 0 };

	if (cpu == 0)
		kunit_skip(test, "one CPU");
	if (!plat_can_catch_faults())
		kunit_skip(test, "this platform cannot catch faults");
	KUNIT_EXPECT_EQ(test, plat_run_on_cpu(cpu, provoke_ud, NULL,
					      WORK_TIMEOUT_US),
			-1);
	/* The CPU is still usable afterwards. */
	KUNIT_EXPECT_EQ(test, plat_run_on_cpu(cpu, record_id, &slot,
					      WORK_TIMEOUT_US),
			0);
	KUNIT_EXPECT_EQ(test, slot.ran, 1);
}

static volatile int spin_release;

/* Spins until the test releases it (or 2 s pass, so it always ends). */
static void spin_until_released(void *arg)
{
	u64 end = rdtsc() + plat_tsc_khz() * 2000;

	while (!READ_ONCE(spin_release) && rdtsc() < end)
		asm volatile("pause");
}

static void smp_timeout_reported(struct kunit *test)
{
	unsigned int cpu = plat_cpu_count() - 1;

	if (cpu == 0)
		kunit_skip(test, "one CPU");
	/* Work that cannot end before the wait does: the wait times out. */
	WRITE_ONCE(spin_release, 0);
	KUNIT_EXPECT_EQ(test, plat_run_on_cpu(cpu, spin_until_released, NULL,
					      1000),
			-2);
	/* Once it finishes, the CPU takes work again. */
	WRITE_ONCE(spin_release, 1);
	KUNIT_EXPECT_EQ(test, plat_wait_cpu(cpu, WORK_TIMEOUT_US), 0);
	KUNIT_EXPECT_EQ(test, plat_run_on_cpu(cpu, spin_until_released, NULL,
					      WORK_TIMEOUT_US),
			0);
}

#define BARRIER_ROUNDS 200

struct barrier_job {
	struct cpu_barrier bar;
	u32 round_seen[64];	/* per CPU: rounds passed */
	u32 arrived[BARRIER_ROUNDS];
	volatile int errors;
	unsigned int cpus;
};

/*
 * Each round every CPU counts itself in, passes the barrier, and checks
 * that everybody counted in before anybody got through.
 */
static void barrier_rounds(struct barrier_job *j, unsigned int me)
{
	struct cpu_barrier_waiter w = { 0 };

	for (u32 r = 0; r < BARRIER_ROUNDS; r++) {
		__atomic_add_fetch(&j->arrived[r], 1, __ATOMIC_SEQ_CST);
		if (cpu_barrier_wait(&j->bar, &w, WORK_TIMEOUT_US)) {
			j->errors++;
			return;
		}
		if (__atomic_load_n(&j->arrived[r], __ATOMIC_SEQ_CST) !=
		    j->cpus)
			j->errors++;
		j->round_seen[me] = r + 1;
	}
}

static void barrier_worker(void *arg, unsigned int index)
{
	barrier_rounds(arg, index);
}

static void smp_barrier_rounds(struct kunit *test)
{
	unsigned int n = min(plat_cpu_count(), 64u);
	struct barrier_job *j = kunit_kzalloc(test, sizeof(*j));
	struct on_cpus oc;

	KUNIT_ASSERT_NOT_NULL(test, j);
	if (n < 2)
		kunit_skip(test, "one CPU");
	j->cpus = n;
	cpu_barrier_init(&j->bar, n);
	on_cpus_init(&oc, n, barrier_worker, j);
	oc.timeout_us = WORK_TIMEOUT_US;
	if (on_cpus(&oc))
		kunit_fail_at(test, __FILE__, __LINE__, "%s", oc.why);
	KUNIT_EXPECT_EQ(test, j->errors, 0);
	for (unsigned int cpu = 0; cpu < n; cpu++)
		KUNIT_EXPECT_EQ(test, j->round_seen[cpu], BARRIER_ROUNDS);
}

static void smp_barrier_times_out(struct kunit *test)
{
	struct cpu_barrier bar;
	struct cpu_barrier_waiter w = { 0 };

	/* A partner that never comes: the wait ends, and stays broken. */
	cpu_barrier_init(&bar, 2);
	KUNIT_EXPECT_EQ(test, cpu_barrier_wait(&bar, &w, 1000), -1);
	KUNIT_EXPECT_EQ(test, cpu_barrier_wait(&bar, &w, 1000), -1);
	/* One party never waits. */
	cpu_barrier_init(&bar, 1);
	KUNIT_EXPECT_EQ(test, cpu_barrier_wait(&bar, &w, 1000), 0);
	KUNIT_EXPECT_EQ(test, cpu_barrier_wait(&bar, &w, 1000), 0);
}

#define X86_CR0_NW (1ull << 29)
#define X86_CR0_CD (1ull << 30)

static void read_cr0(void *arg)
{
	u64 v;

	asm volatile("mov %%cr0, %0" : "=r"(v));
	*(u64 *)arg = v;
}

/*
 * Every CPU runs with its caches on: an AP leaves INIT with CR0.CD and
 * NW set, and a bring-up that forgets them makes everything it runs
 * uncached (an emulator does not show it; this test does).
 */
static void smp_caches_enabled(struct kunit *test)
{
	unsigned int n = plat_cpu_count();

	if (!plat_can_catch_faults())
		kunit_skip(test, "reading CR0 needs ring 0 (the image)");
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		u64 cr0 = ~0ull;

		KUNIT_EXPECT_EQ(test, plat_run_on_cpu(cpu, read_cr0, &cr0,
						      WORK_TIMEOUT_US),
				0);
		if (cr0 & (X86_CR0_CD | X86_CR0_NW))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "CPU %u: CR0 0x%llx has caching disabled",
				      cpu, cr0);
	}
}

static void smp_bad_cpu_number(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, plat_run_on_cpu(plat_cpu_count(), record_id,
					      NULL, 1000),
			-3);
}

static const struct kunit_case smp_cases[] = {
	KUNIT_CASE(smp_every_cpu_runs),
	KUNIT_CASE(smp_all_at_once),
	KUNIT_CASE(smp_fault_on_other_cpu),
	KUNIT_CASE(smp_timeout_reported),
	KUNIT_CASE(smp_barrier_rounds),
	KUNIT_CASE(smp_barrier_times_out),
	KUNIT_CASE(smp_caches_enabled),
	KUNIT_CASE(smp_bad_cpu_number),
};

KUNIT_SUITE_DEFINE(smp_suite, "smp", smp_cases);
