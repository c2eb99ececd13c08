/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memmap visibility engine behind suite=memmap_smp: can another CPU
 * see a struct page that memmap_init_zone_device() wrote with
 * non-temporal stores still holding its old bytes, once the writer has
 * handed the range on with a plain store?
 *
 * One round, on a pair of CPUs (the litmus pairs: SMT siblings, two
 * cores, two packages):
 *
 *   1. the writer poisons the memmap with plain stores;
 *   2. the reader loads the struct pages it will check, so that its cache
 *      holds their poisoned lines (the stale copy an undrained NT store
 *      leaves visible until it lands);
 *   3. the writer runs memmap_init_zone_device() over the range and at
 *      once sets the hand-off flag with a plain store, as a caller that
 *      hands the range on;
 *   4. the reader, spinning on the flag, copies the most recently written
 *      struct pages first (memmap_vis_recent_pfns()) and only then
 *      compares them with the model. A page that differs is stale.
 *
 * With the drains (the default) the template path's last SFENCE orders
 * every NT store before the flag: a stale page is a failure. With
 * drain=off x86 allows it for the NT strategies; the count is the
 * observation, reported in the litmus "Observation" form.
 *
 * Every wait is bounded; a partner that does not show up ends the run
 * naming the CPU and the step it did not reach.
 */
#ifndef NTBOOT_TESTS_ENGINES_MEMMAP_VIS_H
#define NTBOOT_TESTS_ENGINES_MEMMAP_VIS_H

#include "include/types.h"
#include "model/memmap.h"

/* Struct pages a reader copies at the flag, at most. */
#define MEMMAP_VIS_MAX_CHECK 64
/* Memmaps a run spreads its rounds over (place=random), at most. */
#define MEMMAP_VIS_MAX_INSTANCES 16
/* Noise CPUs, at most. */
#define MEMMAP_VIS_MAX_NOISE 14

struct memmap_vis_config {
	/* The memmap of one round: layout, mode, pfns, drain. */
	struct memmap_config cfg;
	const char *strategy;
	unsigned int writer, reader; /* platform CPU numbers */
	/* CPUs that stream stores through their caches meanwhile. */
	unsigned int nr_noise;
	unsigned int noise[MEMMAP_VIS_MAX_NOISE];
	u64 rounds;
	/*
	 * 1: one memmap, the same lines every round. More: that many
	 * memmaps at random cache-line offsets, a random one per round.
	 */
	unsigned int instances;
	unsigned int check_pages; /* 1..MEMMAP_VIS_MAX_CHECK */
	/*
	 * The test of the test: the writer stores the first @late_pages of
	 * the recency order (poison) again after the run, sets the flag, and
	 * writes them right only once the reader has copied them. A reader
	 * that looks at the last pages written sees every one of them stale
	 * in every round; one that skips them sees nothing.
	 */
	unsigned int late_pages;
	u64 seed;
	u64 hang_ms; /* the longest wait for the partner */
};

struct memmap_vis_result {
	u64 rounds;	  /* completed */
	u64 stale_rounds; /* rounds with at least one stale page */
	u64 stale_pages;  /* summed over rounds */
	/* The first stale page: its pfn and its place in the recency order. */
	unsigned long first_stale_pfn;
	unsigned int first_stale_rank;
	/* Most stale pages in one round. */
	unsigned int max_stale;
	u64 verify_fails; /* full memmap_verify() runs that failed */
	u64 verifies;
	struct memmap_report first_bad;
	u64 write_ns;	       /* mean of memmap_init_zone_device() per round */
	u64 round_ns;	       /* mean of a whole round */
	unsigned int nr_check; /* struct pages copied at the flag */
	bool stuck;	       /* a CPU may still touch the memory */
	char why[256];	       /* why the run did not complete, or "" */
};

/*
 * Up to @max pfns of @m in the order the model's memmap_init_zone_device()
 * wrote them last first: for order-0 pages the last pfns downwards; for a
 * folio the first two tails (prep_compound_head() stores to them after
 * all the tails), then the tails from the last one down, then the head,
 * then the folio before it. Tails the run leaves to the shared vmemmap
 * page are not written and not listed. Returns how many.
 */
unsigned int memmap_vis_recent_pfns(const struct memmap *m, unsigned long *pfns,
				    unsigned int max);

/*
 * Run @c. Returns 0 when every round completed (@r holds the counts), -1
 * with @r->why otherwise. Never frees memory a stuck CPU may write.
 */
int memmap_vis_run(const struct memmap_vis_config *c,
		   struct memmap_vis_result *r);

#endif
