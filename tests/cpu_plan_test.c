// SPDX-License-Identifier: GPL-2.0-only
/*
 * suite=cpu_plan: today's largest servers through the MADT and SRAT
 * readers, the CPU start plan and the work split, with synthetic tables
 * (QEMU's TCG has no x2APIC, so nothing this large boots here).
 *
 * The tables are laid out as firmware does: local APIC entries for the
 * IDs below 255, x2APIC entries (type 9) for the rest, IDs with the gaps
 * of a socket/core/thread numbering; SRAT x2APIC affinity entries and one
 * memory range per node.
 */
#include "include/platform.h"
#include "lib/acpi.h"
#include "lib/cpu_plan.h"
#include "lib/kunit.h"
#include "lib/machine_options.h"
#include "lib/string.h"
#include "lib/work_split.h"
#include "tests/engines/acpi_synth.h"

#define MADT_LAPIC_LEN 8
#define MADT_X2APIC_LEN 16
#define SRAT_X2APIC_LEN 24

/* APIC ID of logical CPU @i: 2 threads, then 64-ID blocks per 48 cores. */
static u32 synth_apic_id(u32 i)
{
	u32 thread = i & 1, core = (i >> 1) % 48, block = (i >> 1) / 48;

	return block * 128 + core * 2 + thread;
}

struct synth {
	u8 *buf;
	size_t cap, len;
};

static void *synth_grow(struct kunit *test, struct synth *t, size_t n)
{
	void *p;

	if (t->len + n > t->cap) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "synthetic table larger than %zu bytes", t->cap);
		return NULL;
	}
	p = t->buf + t->len;
	memset(p, 0, n);
	t->len += n;
	return p;
}

static void synth_header(struct synth *t, const char *sig, size_t extra)
{
	struct acpi_table_header *h = (struct acpi_table_header *)t->buf;

	memset(t->buf, 0, sizeof(*h) + extra);
	memcpy(h->signature, sig, 4);
	h->revision = 5;
	t->len = sizeof(*h) + extra;
}

static void synth_done(struct synth *t)
{
	((struct acpi_table_header *)t->buf)->length = (u32)t->len;
}

/* A MADT of @nr CPUs, enabled, the first @nr_lapic as local APIC entries. */
static bool build_madt(struct kunit *test, struct synth *t, u32 nr)
{
	synth_header(t, "APIC", 8);
	memcpy(t->buf + sizeof(struct acpi_table_header), "\0\0\xe0\xfe", 4);
	for (u32 i = 0; i < nr; i++) {
		u32 id = synth_apic_id(i), flags = 1;
		u8 *e;

		if (id < 255) {
			e = synth_grow(test, t, MADT_LAPIC_LEN);
			if (!e)
				return false;
			e[0] = 0;
			e[1] = MADT_LAPIC_LEN;
			e[2] = (u8)i;
			e[3] = (u8)id;
			memcpy(e + 4, &flags, 4);
		} else {
			e = synth_grow(test, t, MADT_X2APIC_LEN);
			if (!e)
				return false;
			e[0] = 9;
			e[1] = MADT_X2APIC_LEN;
			memcpy(e + 4, &id, 4);
			memcpy(e + 8, &flags, 4);
			memcpy(e + 12, &i, 4);
		}
	}
	synth_done(t);
	return true;
}

/* An SRAT of @nr CPUs over @nodes nodes (blocks of nr/nodes), 1 GiB each. */
static bool build_srat(struct kunit *test, struct synth *t, u32 nr, u32 nodes)
{
	synth_header(t, "SRAT", 12);
	for (u32 i = 0; i < nr; i++) {
		u32 node = i / (nr / nodes), id = synth_apic_id(i), flags = 1;
		u8 *e = synth_grow(test, t, SRAT_X2APIC_LEN);

		if (!e)
			return false;
		e[0] = 2;
		e[1] = SRAT_X2APIC_LEN;
		memcpy(e + 4, &node, 4);
		memcpy(e + 8, &id, 4);
		memcpy(e + 12, &flags, 4);
	}
	for (u32 n = 0; n < nodes; n++) {
		u8 *e = synth_grow(test, t, SRAT_MEM_LEN);

		if (!e)
			return false;
		synth_srat_mem(e, n, (u64)n << 30, 1ull << 30,
			       SRAT_MEM_ENABLED);
	}
	synth_done(t);
	return true;
}

struct big {
	struct synth t;
	struct acpi_madt_info madt;
	struct acpi_srat_info srat;
	struct cpu_plan plan;
};

static struct big *big_alloc(struct kunit *test)
{
	struct big *b = kunit_kzalloc(test, sizeof(*b));

	if (!b)
		return NULL;
	b->t.cap = 64 * 1024;
	b->t.buf = kunit_kzalloc(test, b->t.cap);
	return b->t.buf ? b : NULL;
}

static void one_server(struct kunit *test, u32 nr, u32 nodes)
{
	struct big *b = big_alloc(test);
	u32 x2apic = 0;

	KUNIT_ASSERT_TRUE(test, b != NULL);
	for (u32 i = 0; i < nr; i++)
		x2apic += synth_apic_id(i) >= 255;
	KUNIT_ASSERT_TRUE(test, build_madt(test, &b->t, nr));
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)b->t.buf, &b->madt), 0);
	KUNIT_EXPECT_EQ(test, b->madt.nr_cpus, nr);
	KUNIT_EXPECT_EQ(test, b->madt.nr_ids, nr);
	KUNIT_EXPECT_EQ(test, b->madt.nr_ids_dropped, 0u);
	KUNIT_EXPECT_EQ(test, b->madt.nr_x2apic, x2apic);
	KUNIT_EXPECT_FALSE(test, b->madt.truncated);
	/* Read whole, in table order, the 32-bit IDs unchanged. */
	for (u32 i = 0; i < nr; i++)
		if (b->madt.apic_ids[i] != synth_apic_id(i)) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%u CPUs: apic_ids[%u] = %u, expected %u",
				      nr, i, b->madt.apic_ids[i],
				      synth_apic_id(i));
			break;
		}
	KUNIT_EXPECT_GT(test, b->madt.apic_ids[nr - 1], 255u);

	/* Every CPU planned, the boot CPU (table entry 0) not again. */
	cpu_plan_make(&b->plan, &b->madt, synth_apic_id(0), SMP_ALL,
		      NR_CPUS_MAX);
	KUNIT_EXPECT_EQ(test, b->plan.present, nr);
	KUNIT_EXPECT_EQ(test, b->plan.nr_aps, nr - 1);
	KUNIT_EXPECT_EQ(test, b->plan.ap_ids[0], synth_apic_id(1));
	KUNIT_EXPECT_EQ(test, b->plan.ap_ids[nr - 2], synth_apic_id(nr - 1));
	KUNIT_EXPECT_STREQ(test, b->plan.why, "");
	/* A boot CPU in the middle of the table is skipped there. */
	cpu_plan_make(&b->plan, &b->madt, synth_apic_id(nr / 2), SMP_ALL,
		      NR_CPUS_MAX);
	KUNIT_EXPECT_EQ(test, b->plan.nr_aps, nr - 1);
	KUNIT_EXPECT_EQ(test, b->plan.ap_ids[nr / 2],
			synth_apic_id(nr / 2 + 1));
	/* smp=100: 100 wanted, every AP a candidate (a failed one replaced). */
	cpu_plan_make(&b->plan, &b->madt, synth_apic_id(0), 100, NR_CPUS_MAX);
	KUNIT_EXPECT_EQ(test, b->plan.wanted, 100u);
	KUNIT_EXPECT_EQ(test, b->plan.nr_aps, nr - 1);
	KUNIT_EXPECT_STREQ(test, b->plan.why, "");

	KUNIT_ASSERT_TRUE(test, build_srat(test, &b->t, nr, nodes));
	KUNIT_ASSERT_EQ(test, acpi_parse_srat((void *)b->t.buf, &b->srat), 0);
	KUNIT_EXPECT_EQ(test, b->srat.nr_nodes, nodes);
	KUNIT_EXPECT_FALSE(test, b->srat.truncated);
	for (u32 n = 0; n < nodes && n < b->srat.nr_nodes; n++) {
		KUNIT_EXPECT_EQ(test, b->srat.node_cpus[n], nr / nodes);
		KUNIT_EXPECT_EQ(test, b->srat.node_mem[n], 1ull << 30);
	}
	KUNIT_EXPECT_EQ(test,
			acpi_srat_node_of(&b->srat, (u64)(nodes - 1) << 30),
			(int)(nodes - 1));
}

static void cpu_plan_granite_rapids_512(struct kunit *test)
{
	one_server(test, 512, 2);
	one_server(test, 512, 8);
}

static void cpu_plan_turin_768(struct kunit *test)
{
	one_server(test, 768, 2);
	one_server(test, 768, 8);
}

/* More than the table holds: counted, and the plan says why. */
static void cpu_plan_beyond_the_table(struct kunit *test)
{
	struct big *b = big_alloc(test);

	KUNIT_ASSERT_TRUE(test, b != NULL);
	KUNIT_ASSERT_TRUE(test, build_madt(test, &b->t, 1500));
	KUNIT_ASSERT_EQ(test, acpi_parse_madt((void *)b->t.buf, &b->madt), 0);
	KUNIT_EXPECT_EQ(test, b->madt.nr_cpus, 1500u);
	KUNIT_EXPECT_EQ(test, b->madt.nr_ids, (u32)ACPI_MADT_MAX_IDS);
	KUNIT_EXPECT_EQ(test, b->madt.nr_ids_dropped,
			1500u - ACPI_MADT_MAX_IDS);
	cpu_plan_make(&b->plan, &b->madt, synth_apic_id(0), SMP_ALL,
		      NR_CPUS_MAX);
	KUNIT_EXPECT_EQ(test, b->plan.present, 1500u);
	KUNIT_EXPECT_EQ(test, b->plan.nr_aps, (u32)NR_CPUS_MAX - 1);
	KUNIT_EXPECT_STREQ(test, b->plan.why,
			   "started at most 1024 of 1500: the CPU table holds "
			   "1024 (NR_CPUS_MAX)");
	/* A smaller table (room=) is named the same way. */
	cpu_plan_make(&b->plan, &b->madt, synth_apic_id(0), 600, 256);
	KUNIT_EXPECT_EQ(test, b->plan.nr_aps, 255u);
	KUNIT_EXPECT_STREQ(test, b->plan.why,
			   "started at most 256 of 600: the CPU table holds "
			   "256 (NR_CPUS_MAX)");
}

/* The shares on_cpus() workers get: the whole range once, aligned. */
static void cpu_plan_work_split(struct kunit *test)
{
	static const u32 ks[] = {1, 2, 160, 512, 768, 1024};
	const u64 start = 1ull << 24, nr = 25804288, align = 512;

	for (unsigned int j = 0; j < ARRAY_SIZE(ks); j++) {
		u64 next = start, busy = 0;
		bool bad = false;

		for (u32 i = 0; i < ks[j] && !bad; i++) {
			u64 s, e;

			work_split(start, nr, ks[j], align, i, &s, &e);
			if (s != next || e < s ||
			    (e != start + nr && (e - start) % align)) {
				kunit_fail_at(
					test, __FILE__, __LINE__,
					"k=%u share %u: [%llu, %llu) after "
					"%llu",
					ks[j], i, s, e, next);
				bad = true;
			}
			busy += e > s;
			next = e;
		}
		KUNIT_EXPECT_EQ(test, next, start + nr);
		KUNIT_EXPECT_GT(test, busy, (u64)ks[j] * 9 / 10);
	}
}

static const struct kunit_case cpu_plan_cases[] = {
	KUNIT_CASE(cpu_plan_granite_rapids_512),
	KUNIT_CASE(cpu_plan_turin_768),
	KUNIT_CASE(cpu_plan_beyond_the_table),
	KUNIT_CASE(cpu_plan_work_split),
};

KUNIT_SUITE_DEFINE(cpu_plan_suite, "cpu_plan", cpu_plan_cases);
