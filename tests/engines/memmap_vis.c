// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memmap visibility engine (tests/engines/memmap_vis.h): the rounds
 * of one strategy on one pair of CPUs, the recency order of the struct
 * pages, and the noise CPUs. on_cpus() starts and joins the threads.
 */
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/ntcheck.h"
#include "lib/on_cpus.h"
#include "lib/prandom.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/timing.h"
#include "tests/engines/memmap_vis.h"

#define VIS_POISON 0x5a
/* Each memmap of place=random starts up to this many lines into its slot. */
#define VIS_SLACK_LINES 256u
/* The noise CPUs' buffer each: larger than a core's L2. */
#define VIS_NOISE_BYTES (4u << 20)
/* Full memmap_verify() runs: the first round, then one in this many. */
#define VIS_VERIFY_EVERY 64u

/* Where a thread waited when it gave up. */
enum vis_step {
	VIS_STEP_GO,
	VIS_STEP_WARM,
	VIS_STEP_FLAG,
	VIS_STEP_SNAPPED,
	VIS_STEP_RESTORED,
	VIS_STEP_DONE,
};

static const char *const vis_step_names[] = {
	[VIS_STEP_GO] = "poisoned memmap",
	[VIS_STEP_WARM] = "reader's warm-up",
	[VIS_STEP_FLAG] = "hand-off flag",
	[VIS_STEP_SNAPPED] = "reader's copy",
	[VIS_STEP_RESTORED] = "late pages",
	[VIS_STEP_DONE] = "end of round",
};

struct vis_flag {
	u64 v;
} __aligned(64);

struct vis_ctx {
	const struct memmap_vis_config *c;
	struct memmap *m; /* @c->instances of them */
	u8 *buf;
	size_t buf_bytes;
	unsigned int nr_check;
	unsigned long check_pfn[MEMMAP_VIS_MAX_CHECK];
	u8 *expected; /* per instance, nr_check struct pages */
	u8 *snap;     /* the reader's copy */
	u8 *noise_buf;
	u64 hang_cycles;
	unsigned int cpus[2 + MEMMAP_VIS_MAX_NOISE];
	struct on_cpus oc;

	struct vis_flag go, warm, published, snapped, restored, done;
	/* The writer's pick for the round, written before @go. */
	u32 inst __aligned(64);
	u32 abort __aligned(64);
	u32 finished;
	struct {
		u32 who; /* 0 writer, 1 reader */
		u32 step;
		u64 round;
	} err;

	/* The reader's counts. */
	struct memmap_vis_result *r;
	u64 write_cycles;
	u64 round_cycles;
};

static size_t page_size_of(const struct vis_ctx *x)
{
	return x->m[0].layout->size;
}

static void *page_at(const struct memmap *m, unsigned long pfn)
{
	return (char *)m->pages + (pfn - m->base_pfn) * m->layout->size;
}

static u8 *expected_of(const struct vis_ctx *x, unsigned int inst,
		       unsigned int i)
{
	return x->expected + ((size_t)inst * x->nr_check + i) * page_size_of(x);
}

unsigned int memmap_vis_recent_pfns(const struct memmap *m, unsigned long *pfns,
				    unsigned int max)
{
	unsigned long end = m->base_pfn + m->nr_pfns, pfn = end;
	unsigned int n = 0;
	u8 scratch[MAX_STRUCT_PAGE_SIZE];

	while (pfn > m->base_pfn && n < max) {
		unsigned long head, idx, p;
		enum memmap_role role;

		role = memmap_expected_page(m, pfn - 1, scratch, &head, &idx);
		if (role == MEMMAP_ROLE_SKIPPED)
			break; /* the altmap's pfns and below: not written */
		if (!m->cfg.order) {
			pfns[n++] = --pfn;
			continue;
		}
		/* prep_compound_head(): the first two tails, last */
		for (p = head + 1; p <= head + 2 && p < pfn && n < max; p++)
			if (memmap_expected_page(m, p, scratch, NULL, NULL) ==
			    MEMMAP_ROLE_TAIL)
				pfns[n++] = p;
		/* the tails the copy loop wrote, the last one first */
		for (p = pfn - 1; p > head + 2 && n < max; p--)
			if (memmap_expected_page(m, p, scratch, NULL, NULL) ==
			    MEMMAP_ROLE_TAIL)
				pfns[n++] = p;
		if (n < max)
			pfns[n++] = head;
		pfn = head;
	}
	return n;
}

static void vis_give_up(struct vis_ctx *x, u32 who, enum vis_step step,
			u64 round)
{
	if (__atomic_exchange_n(&x->abort, 1, __ATOMIC_SEQ_CST))
		return;
	x->err.who = who;
	x->err.step = step;
	x->err.round = round;
}

/*
 * Wait until @f holds @round. The hand-off wait spins without PAUSE: a
 * reader that reacts late only lets the stores it looks for land first.
 */
static bool vis_wait(struct vis_ctx *x, struct vis_flag *f, u64 round, u32 who,
		     enum vis_step step, bool tight)
{
	u64 start = rdtsc();
	unsigned int spins = 0;

	while (__atomic_load_n(&f->v, __ATOMIC_ACQUIRE) != round) {
		if (!(++spins & 255)) {
			if (READ_ONCE(x->abort))
				return false;
			if (rdtsc() - start > x->hang_cycles) {
				vis_give_up(x, who, step, round);
				return false;
			}
		}
		if (!tight)
			asm volatile("pause");
	}
	return true;
}

static void vis_set(struct vis_flag *f, u64 round)
{
	/* A plain MOV on x86: only the stores before it order it. */
	__atomic_store_n(&f->v, round, __ATOMIC_RELEASE);
}

static void vis_writer(struct vis_ctx *x)
{
	const struct memmap_vis_config *c = x->c;
	size_t size = page_size_of(x);
	u64 state = c->seed | 1;
	u64 round_sum = 0, write_sum = 0;

	for (u64 k = 1; k <= c->rounds; k++) {
		unsigned int inst = 0;
		struct memmap *m;
		u64 r0 = rdtsc_ordered(), t0, t1;

		if (c->instances > 1)
			inst = (unsigned int)(prandom_u64(&state) %
					      c->instances);
		m = &x->m[inst];
		memmap_poison(m, VIS_POISON);
		WRITE_ONCE(x->inst, inst);
		vis_set(&x->go, k);
		if (!vis_wait(x, &x->warm, k, 0, VIS_STEP_WARM, false))
			return;
		t0 = rdtsc_ordered();
		/*
		 * The first round runs the loop the checker follows where it
		 * records (the ordering proven); the others the plain loop
		 * the kernel compiles (the ordering observed).
		 */
		if (k == 1)
			memmap_run(m);
		else
			memmap_run_plain(m);
		for (unsigned int i = 0; i < c->late_pages; i++)
			memset(page_at(m, x->check_pfn[i]), VIS_POISON, size);
		ntcheck_publish("the hand-off to the reader CPU");
		vis_set(&x->published, k);
		/*
		 * Read after the flag: a TSC read between the last store and
		 * the flag would give the stores time to land. The checked
		 * first round is not the kernel's loop: not timed.
		 */
		t1 = rdtsc();
		if (k > 1)
			write_sum += t1 - t0;
		if (c->late_pages) {
			if (!vis_wait(x, &x->snapped, k, 0, VIS_STEP_SNAPPED,
				      false))
				return;
			for (unsigned int i = 0; i < c->late_pages; i++)
				memcpy(page_at(m, x->check_pfn[i]),
				       expected_of(x, inst, i), size);
			vis_set(&x->restored, k);
		}
		if (!vis_wait(x, &x->done, k, 0, VIS_STEP_DONE, false))
			return;
		round_sum += rdtsc_ordered() - r0;
	}
	x->write_cycles = write_sum;
	x->round_cycles = round_sum;
	WRITE_ONCE(x->finished, 1);
}

/* The copy at the flag: the newest struct page first, each from its end. */
static __always_inline void vis_snapshot(const struct memmap *m,
					 const unsigned long *pfns,
					 unsigned int nr, size_t size, u8 *snap)
{
	for (unsigned int i = 0; i < nr; i++) {
		const u64 *src = page_at(m, pfns[i]);
		u64 *dst = (u64 *)(snap + i * size);

		for (size_t w = size / 8; w-- > 0;)
			dst[w] = READ_ONCE(src[w]);
	}
}

static void vis_reader(struct vis_ctx *x)
{
	const struct memmap_vis_config *c = x->c;
	struct memmap_vis_result *r = x->r;
	size_t size = page_size_of(x);
	u64 sum = 0;

	for (u64 k = 1; k <= c->rounds; k++) {
		const struct memmap *m;
		unsigned int inst, stale = 0;

		if (!vis_wait(x, &x->go, k, 1, VIS_STEP_GO, false))
			return;
		inst = READ_ONCE(x->inst);
		m = &x->m[inst];
		/* The poisoned lines into this CPU's cache. */
		for (unsigned int i = 0; i < x->nr_check; i++) {
			const u64 *p = page_at(m, x->check_pfn[i]);

			for (size_t w = 0; w < size / 8; w++)
				sum += READ_ONCE(p[w]);
		}
		vis_set(&x->warm, k);
		if (!vis_wait(x, &x->published, k, 1, VIS_STEP_FLAG, true))
			return;
		vis_snapshot(m, x->check_pfn, x->nr_check, size, x->snap);
		vis_set(&x->snapped, k);

		for (unsigned int i = 0; i < x->nr_check; i++) {
			if (!memcmp(x->snap + i * size, expected_of(x, inst, i),
				    size))
				continue;
			if (!r->stale_pages && !stale) {
				r->first_stale_pfn = x->check_pfn[i];
				r->first_stale_rank = i;
			}
			stale++;
		}
		r->stale_pages += stale;
		r->stale_rounds += stale != 0;
		r->max_stale = max(r->max_stale, stale);
		if (c->late_pages &&
		    !vis_wait(x, &x->restored, k, 1, VIS_STEP_RESTORED, false))
			return;
		if (k == 1 || stale || !(k % VIS_VERIFY_EVERY) ||
		    k == c->rounds) {
			struct memmap_report rep;

			r->verifies++;
			if (!memmap_verify(m, &rep)) {
				if (!r->verify_fails)
					r->first_bad = rep;
				r->verify_fails++;
			}
		}
		r->rounds = k;
		vis_set(&x->done, k);
	}
	/* Keep the warming loads: the compiler must not drop them. */
	asm volatile("" : : "r"(sum));
}

/* Stores and loads over a buffer larger than L2 until the pair is done. */
static void vis_noise(struct vis_ctx *x, unsigned int index)
{
	u64 *p = (u64 *)(x->noise_buf + (size_t)(index - 2) * VIS_NOISE_BYTES);
	size_t words = VIS_NOISE_BYTES / 8;
	u64 start = rdtsc(), last = 0, v = 0;

	while (!READ_ONCE(x->finished) && !READ_ONCE(x->abort)) {
		u64 now = READ_ONCE(x->done.v);

		for (size_t w = 0; w < words; w += 8)
			p[w] += ++v;
		/* No round ended for a whole wait: the pair is gone. */
		if (now != last) {
			last = now;
			start = rdtsc();
		} else if (rdtsc() - start > x->hang_cycles) {
			return;
		}
	}
}

static void vis_thread(void *arg, unsigned int index)
{
	struct vis_ctx *x = arg;

	if (index == 0)
		vis_writer(x);
	else if (index == 1)
		vis_reader(x);
	else
		vis_noise(x, index);
}

static u64 vis_progress(void *arg)
{
	return READ_ONCE(((struct vis_ctx *)arg)->done.v);
}

static void vis_stop(void *arg)
{
	WRITE_ONCE(((struct vis_ctx *)arg)->abort, 1);
}

static int vis_setup(struct vis_ctx *x, char *why, size_t len)
{
	const struct memmap_vis_config *c = x->c;
	size_t bytes = memmap_bytes(&c->cfg);
	size_t slot = ALIGN_UP(bytes + VIS_SLACK_LINES * 64, 4096);
	u64 state = (c->seed ^ 0x9e3779b97f4a7c15ull) | 1;
	size_t size;

	x->m = plat_alloc_aligned(c->instances * sizeof(*x->m), 64);
	x->buf_bytes = slot * c->instances;
	x->buf = plat_alloc_aligned(x->buf_bytes, 4096);
	if (!x->m || !x->buf) {
		ntb_snprintf(why, len, "no memory for %u memmaps of %zu bytes",
			     c->instances, bytes);
		return -1;
	}
	memset(x->m, 0, c->instances * sizeof(*x->m));
	for (unsigned int i = 0; i < c->instances; i++) {
		size_t off = 0;
		struct memmap_config cfg = c->cfg;

		cfg.strategy = c->strategy;
		if (c->instances > 1)
			off = (prandom_u64(&state) % VIS_SLACK_LINES) * 64;
		if (memmap_create(&x->m[i], &cfg, x->buf + i * slot + off,
				  slot - off, why, len))
			return -1;
	}
	x->nr_check =
		memmap_vis_recent_pfns(&x->m[0], x->check_pfn, c->check_pages);
	if (c->late_pages > x->nr_check) {
		ntb_snprintf(why, len,
			     "late_pages=%u but only %u struct pages checked",
			     c->late_pages, x->nr_check);
		return -1;
	}
	size = page_size_of(x);
	x->expected = plat_alloc_aligned(
		(size_t)c->instances * x->nr_check * size + 64, 64);
	x->snap = plat_alloc_aligned((size_t)x->nr_check * size + 64, 64);
	if (!x->expected || !x->snap) {
		ntb_snprintf(why, len, "no memory for the expected pages");
		return -1;
	}
	for (unsigned int i = 0; i < c->instances; i++)
		for (unsigned int j = 0; j < x->nr_check; j++)
			memmap_expected_page(&x->m[i], x->check_pfn[j],
					     expected_of(x, i, j), NULL, NULL);
	if (c->nr_noise) {
		x->noise_buf = plat_alloc_aligned(
			(size_t)c->nr_noise * VIS_NOISE_BYTES, 4096);
		if (!x->noise_buf) {
			ntb_snprintf(why, len, "no memory for the noise CPUs");
			return -1;
		}
		memset(x->noise_buf, 0, (size_t)c->nr_noise * VIS_NOISE_BYTES);
	}
	return 0;
}

static void vis_teardown(struct vis_ctx *x)
{
	const struct memmap_vis_config *c = x->c;
	size_t size = x->m && x->nr_check ? page_size_of(x) : 0;

	if (x->m)
		for (unsigned int i = 0; i < c->instances; i++)
			memmap_destroy(&x->m[i]);
	if (x->noise_buf)
		plat_free(x->noise_buf, (size_t)c->nr_noise * VIS_NOISE_BYTES);
	if (x->snap)
		plat_free(x->snap, (size_t)x->nr_check * size + 64);
	if (x->expected)
		plat_free(x->expected,
			  (size_t)c->instances * x->nr_check * size + 64);
	if (x->buf)
		plat_free(x->buf, x->buf_bytes);
	if (x->m)
		plat_free(x->m, c->instances * sizeof(*x->m));
}

int memmap_vis_run(const struct memmap_vis_config *c,
		   struct memmap_vis_result *r)
{
	struct vis_ctx *x;
	unsigned int n = 2 + c->nr_noise;

	memset(r, 0, sizeof(*r));
	if (!c->rounds || !c->instances ||
	    c->instances > MEMMAP_VIS_MAX_INSTANCES || !c->check_pages ||
	    c->check_pages > MEMMAP_VIS_MAX_CHECK ||
	    c->nr_noise > MEMMAP_VIS_MAX_NOISE || c->writer == c->reader) {
		ntb_snprintf(r->why, sizeof(r->why),
			     "bad configuration (rounds %llu, %u memmaps, %u "
			     "pages checked, %u noise CPUs, CPUs %u,%u)",
			     c->rounds, c->instances, c->check_pages,
			     c->nr_noise, c->writer, c->reader);
		return -1;
	}
	x = plat_alloc_aligned(sizeof(*x), 64);
	if (!x) {
		ntb_snprintf(r->why, sizeof(r->why), "out of memory");
		return -1;
	}
	memset(x, 0, sizeof(*x));
	x->c = c;
	x->r = r;
	x->hang_cycles = c->hang_ms * tsc_khz_for_deadlines();
	if (vis_setup(x, r->why, sizeof(r->why))) {
		vis_teardown(x);
		plat_free(x, sizeof(*x));
		return -1;
	}
	r->nr_check = x->nr_check;
	x->cpus[0] = c->writer;
	x->cpus[1] = c->reader;
	for (unsigned int i = 0; i < c->nr_noise; i++)
		x->cpus[2 + i] = c->noise[i];
	on_cpus_init(&x->oc, n, vis_thread, x);
	x->oc.cpus = x->cpus;
	x->oc.start_timeout_us = c->hang_ms * 1000;
	x->oc.timeout_us = 2 * c->hang_ms * 1000;
	x->oc.progress = vis_progress;
	x->oc.stop = vis_stop;
	if (on_cpus(&x->oc))
		ntb_snprintf(r->why, sizeof(r->why), "CPUs %u,%u: %s",
			     c->writer, c->reader, x->oc.why);
	else if (x->abort)
		ntb_snprintf(r->why, sizeof(r->why),
			     "%s CPU %u waited %llu ms for the %s in round "
			     "%llu: CPU %u did not get there",
			     x->err.who ? "reader" : "writer",
			     x->err.who ? c->reader : c->writer, c->hang_ms,
			     vis_step_names[x->err.step], x->err.round,
			     x->err.who ? c->writer : c->reader);
	if (r->rounds > 1)
		r->write_ns = cycles_to_ns(x->write_cycles) / (r->rounds - 1);
	if (r->rounds) {
		r->round_ns = cycles_to_ns(x->round_cycles) / r->rounds;
	}
	if (x->oc.stuck) {
		/* A CPU may still write: the memory stays where it is. */
		r->stuck = true;
		return -1;
	}
	vis_teardown(x);
	plat_free(x, sizeof(*x));
	return r->why[0] ? -1 : 0;
}
