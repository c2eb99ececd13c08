// SPDX-License-Identifier: GPL-2.0-only
/*
 * The litmus engine (tests/engines/litmus.h): CPU pair selection from the
 * CPUID topology, the per-iteration release barrier, the batch loop,
 * counting and the litmus7-style report; on_cpus() starts and joins the
 * two threads.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/special_insns.h"
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/on_cpus.h"
#include "lib/timing.h"
#include "lib/printf.h"
#include "lib/relaxations.h"
#include "lib/options.h"
#include "lib/scale.h"
#include "lib/string.h"
#include "tests/engines/litmus.h"

/* The built-in default of litmus.iters. */
#define LITMUS_DEFAULT_ITERS 1000000ull
DEFINE_OPTION_U64_NAMED(litmus_iters, "litmus.iters", LITMUS_DEFAULT_ITERS, 1,
			1000000000000ull, "iterations per litmus test");

/*
 * Batches grow from MIN to MAX instances while one batch takes less than
 * BATCH_TARGET_US: large enough that counting is a small share of a run,
 * small enough that a slow machine (TCG) still checks its clock often.
 */
#define LITMUS_MIN_BATCH 16u
#define LITMUS_MAX_BATCH 2048u
#define LITMUS_BATCH_TARGET_US 2000

/*
 * One instance: x at offset 0; y 128 bytes further for LITMUS_SEP, so the
 * two are neither in one line nor in one 128-byte prefetch pair, or 32
 * bytes further for LITMUS_SAME. Instances are 256 bytes apart, so no two
 * instances share a line either.
 */
#define LITMUS_STRIDE 256u
#define LITMUS_SEP_Y 128u
#define LITMUS_SAME_Y 32u

/* Budgets of a default (timed) run. */
#define LITMUS_RUN_MS 1000u
#define LITMUS_MIN_RUN_MS 20u

/* How long a thread waits for its partner before it gives up. */
#define LITMUS_HANG_MS 1000u
#define LITMUS_HANG_MS_VIRT 5000u

enum litmus_wait {
	WAIT_START,
	WAIT_ITER,
	WAIT_BATCH,
	WAIT_COUNT,
};

static const char *const wait_names[] = {
	[WAIT_START] = "start",
	[WAIT_ITER] = "iteration",
	[WAIT_BATCH] = "end-of-batch",
	[WAIT_COUNT] = "after-count",
};

/* Who abandoned a run, besides thread 0 or 1: the coordinator. */
#define GAVE_UP_WATCHDOG 2

struct litmus_ctx {
	/* Read-only while the threads run. */
	const struct litmus_test *t;
	u8 *vars;
	size_t off_y;
	u32 *regs[2];
	u64 hang_cycles;
	/* Starts and joins the two threads; kept with the buffers. */
	struct on_cpus oc;
	unsigned int cpus[2];

	/* The release barrier: both threads write it every iteration. */
	struct {
		u32 count;
		u32 sense;
	} bar __aligned(64);

	/*
	 * Set by thread 0, read by thread 1: the next batch's size and
	 * whether there is one (between batches), and the iteration at which
	 * the current batch is cut short because the run is out of time.
	 */
	struct {
		u32 batch_n;
		u32 stop;
		u32 cut_at;
	} ctl __aligned(64);

	/* Who gave up, where and when; written once. */
	struct {
		u32 abort;
		u32 thread;
		u32 where;
		u64 iter;
	} err __aligned(64);

	/* Thread 0's bookkeeping; the coordinator only reads progress. */
	u64 batches __aligned(64);
	u64 iters_done;
	u64 target;
	bool timed;
	u64 t_start;
	u64 t_batch;
	u64 cap_cycles;
	u64 batch_cycles;
	u64 hist[LITMUS_NR_KEYS];
};

static u64 ms_to_cycles(u64 ms)
{
	return ms * tsc_khz_for_deadlines();
}

void litmus_config_init(struct litmus_config *cfg, unsigned int nr_runs)
{
	bool virt = boot_cpu_has(X86_FEATURE_HYPERVISOR) ||
		    !strcmp(plat_name(), "host");
	u64 suite_ms;
	const char *why = NULL;

	if (!nr_runs)
		nr_runs = 1;
	/*
	 * Virtual CPUs and host threads can be descheduled for whole time
	 * slices; bare-metal CPUs with interrupts off cannot.
	 */
	cfg->hang_ms = virt ? LITMUS_HANG_MS_VIRT : LITMUS_HANG_MS;
	cfg->iters = opt_litmus_iters;
	/* litmus.iters= given: exactly that many; else a time-capped run. */
	cfg->timed = !option_is_set(litmus_iters);
	cfg->run_ms = LITMUS_RUN_MS;
	if (!cfg->timed) {
		kprintf("  # litmus: litmus.iters=%llu: every run does exactly "
			"that many iterations\n",
			cfg->iters);
		return;
	}
	/* A slow platform's budget is the whole suite's (lib/scale.c). */
	suite_ms = platform_scaled(SCALE_LITMUS_SUITE_MS, 0, &why);
	if (why) {
		cfg->run_ms = max(suite_ms / nr_runs, (u64)LITMUS_MIN_RUN_MS);
		cfg->run_ms = min(cfg->run_ms, (u64)LITMUS_RUN_MS);
		kprintf("  # litmus: %s: default runs scaled down to %llu ms "
			"each (%u runs) to keep the suite under %llu s\n",
			why, cfg->run_ms, nr_runs, suite_ms / 1000);
	}
	if (cpu_is_emulated())
		kprintf("  # litmus: TCG executes MOVNTI as a plain store and "
			"runs vCPUs as host threads: NT reorderings cannot "
			"appear there, a forbidden outcome is still a bug\n");
	kprintf("  # litmus: default: up to %llu iterations or %llu ms per "
		"run, whichever comes first (litmus.iters=N runs exactly N)\n",
		cfg->iters, cfg->run_ms);
}

/*
 * CPU topology from CPUID leaf 0x1F (or 0xB): the x2APIC ID and the shifts
 * that turn it into a core and a package number. Runs on the CPU asked
 * about, as the leaves describe the CPU executing them.
 */
struct litmus_topo {
	u32 apic;
	u32 smt_shift;
	u32 pkg_shift;
	bool ok;
};

static void read_topology(void *arg)
{
	struct litmus_topo *tp = arg;
	u32 a, b, c, d, leaf = 0;

	if (boot_cpu_data.max_leaf >= 0x1f) {
		cpuid_count(0x1f, 0, &a, &b, &c, &d);
		if (b)
			leaf = 0x1f;
	}
	if (!leaf && boot_cpu_data.max_leaf >= 0xb) {
		cpuid_count(0xb, 0, &a, &b, &c, &d);
		if (b)
			leaf = 0xb;
	}
	if (!leaf) {
		/* Only the 8-bit initial APIC ID: every CPU its own core. */
		cpuid_count(1, 0, &a, &b, &c, &d);
		tp->apic = b >> 24;
		tp->smt_shift = 0;
		tp->pkg_shift = 8;
		tp->ok = true;
		return;
	}
	tp->smt_shift = 0;
	tp->pkg_shift = 0;
	for (u32 sub = 0; sub < 8; sub++) {
		u32 type;

		cpuid_count(leaf, sub, &a, &b, &c, &d);
		type = (c >> 8) & 0xff;
		if (!type)
			break;
		if (type == 1)
			tp->smt_shift = a & 0x1f;
		/* The last level's shift is the package's. */
		tp->pkg_shift = a & 0x1f;
		tp->apic = d;
	}
	tp->ok = true;
}

static const char *pair_kind(const struct litmus_topo *a,
			     const struct litmus_topo *b)
{
	if ((a->apic >> a->pkg_shift) != (b->apic >> b->pkg_shift))
		return "package";
	if ((a->apic >> a->smt_shift) != (b->apic >> b->smt_shift))
		return "core";
	return "smt";
}

static bool find_pair(const struct litmus_topo *topo, unsigned int n,
		      const char *kind, struct litmus_pair *p)
{
	/*
	 * Prefer two CPUs other than CPU 0, which runs the suites and
	 * coordinates; fall back to CPU 0 when there is nothing else.
	 */
	for (unsigned int first = n > 2 ? 1 : 0;; first = 0) {
		for (unsigned int a = first; a < n; a++) {
			for (unsigned int b = a + 1; b < n; b++) {
				if (!topo[a].ok || !topo[b].ok ||
				    strcmp(pair_kind(&topo[a], &topo[b]), kind))
					continue;
				p->cpu[0] = a;
				p->cpu[1] = b;
				p->apic[0] = topo[a].apic;
				p->apic[1] = topo[b].apic;
				p->kind = kind;
				return true;
			}
		}
		if (first == 0)
			return false;
	}
}

unsigned int litmus_pick_pairs(struct litmus_pair *pairs, unsigned int max)
{
	static const char *const kinds[] = {"smt", "core", "package"};
	unsigned int n = plat_cpu_count(), nr = 0;
	struct litmus_topo *topo;

	if (n < 2)
		return 0;
	topo = plat_alloc_aligned(n * sizeof(*topo), 64);
	if (!topo)
		return 0;
	memset(topo, 0, n * sizeof(*topo));
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		int rc = plat_run_on_cpu(cpu, read_topology, &topo[cpu],
					 1000000);

		if (rc) {
			/* A CPU that does not answer is left out. */
			topo[cpu].ok = false;
			kprintf("  # litmus: CPU %u does not run work (%d); "
				"left out\n",
				cpu, rc);
		}
	}
	for (unsigned int k = 0; k < ARRAY_SIZE(kinds) && nr < max; k++) {
		if (find_pair(topo, n, kinds[k], &pairs[nr])) {
			kprintf("  # litmus: pair kind=%s cpus=%u,%u "
				"x2apic=%u,%u\n",
				kinds[k], pairs[nr].cpu[0], pairs[nr].cpu[1],
				pairs[nr].apic[0], pairs[nr].apic[1]);
			nr++;
		} else {
			kprintf("  # litmus: pair kind=%s none\n", kinds[k]);
		}
	}
	plat_free(topo, n * sizeof(*topo));
	return nr;
}

static void litmus_give_up(struct litmus_ctx *c, unsigned int t,
			   enum litmus_wait where, u64 iter)
{
	if (__atomic_exchange_n(&c->err.abort, 1, __ATOMIC_SEQ_CST))
		return;
	c->err.thread = t;
	c->err.where = where;
	c->err.iter = iter;
}

/*
 * Sense-reversing barrier for the two threads. The second to arrive
 * resets the counter and flips the sense, which releases the first. The
 * counter reset is ordered before the flip (x86 stores are not reordered
 * with each other, and the release store keeps the compiler honest), so
 * the next round always starts from zero. Returns -1 when the run is
 * abandoned: the partner did not arrive in time, or gave up itself.
 */
static int litmus_barrier(struct litmus_ctx *c, unsigned int t, u32 *sense,
			  enum litmus_wait where, u64 iter)
{
	u32 s = *sense ^ 1;
	u64 start;

	*sense = s;
	if (__atomic_add_fetch(&c->bar.count, 1, __ATOMIC_ACQ_REL) == 2) {
		__atomic_store_n(&c->bar.count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&c->bar.sense, s, __ATOMIC_RELEASE);
		return 0;
	}
	/*
	 * No PAUSE in this loop: the sooner the waiter sees the flip, the
	 * closer together the two threads start the iteration.
	 */
	start = rdtsc();
	while (__atomic_load_n(&c->bar.sense, __ATOMIC_ACQUIRE) != s) {
		if (READ_ONCE(c->err.abort))
			return -1;
		if (rdtsc() - start > c->hang_cycles) {
			litmus_give_up(c, t, where, iter);
			return -1;
		}
	}
	return 0;
}

static unsigned int outcome_key(const u32 *v, unsigned int nr)
{
	unsigned int key = 0;

	for (unsigned int s = 0; s < nr; s++)
		key |= min(v[s], (u32)LITMUS_VAL_MAX) << (2 * s);
	return key;
}

static void outcome_values(unsigned int key, unsigned int nr, u32 *v)
{
	for (unsigned int s = 0; s < nr; s++)
		v[s] = (key >> (2 * s)) & 3;
}

/* Thread 0, between batches: count, clear, decide what comes next. */
static void litmus_count_batch(struct litmus_ctx *c, u32 n)
{
	const struct litmus_shape *sh = c->t->shape;
	u8 *inst = c->vars;
	u32 next = n;
	bool stop;
	u64 now;

	for (u32 i = 0; i < n; i++, inst += LITMUS_STRIDE) {
		u32 v[LITMUS_MAX_SLOTS];

		for (unsigned int s = 0; s < sh->nr_slots; s++) {
			const struct litmus_slot *sl = &sh->slot[s];

			size_t off = sl->reg ? c->off_y : 0;

			if (sl->src == LITMUS_SRC_FINAL)
				v[s] = *(u32 *)(inst + off);
			else
				v[s] = c->regs[sl->src]
					      [i * LITMUS_MAX_REGS + sl->reg];
		}
		c->hist[outcome_key(v, sh->nr_slots)]++;
	}
	/* Fresh zeroes for the next batch, published by the next barrier. */
	memset(c->vars, 0, (size_t)n * LITMUS_STRIDE);
	c->iters_done += n;
	WRITE_ONCE(c->batches, c->batches + 1);

	now = rdtsc();
	stop = c->iters_done >= c->target;
	if (c->timed && now - c->t_start >= c->cap_cycles)
		stop = true;
	if (!stop) {
		bool quick = now - c->t_batch < c->batch_cycles;

		if (quick && next < LITMUS_MAX_BATCH)
			next *= 2;
		next = (u32)min((u64)next, c->target - c->iters_done);
	}
	if (c->ctl.cut_at != ~0u)
		stop = true;
	c->t_batch = now;
	WRITE_ONCE(c->ctl.batch_n, next);
	WRITE_ONCE(c->ctl.stop, stop);
	WRITE_ONCE(c->ctl.cut_at, ~0u);
}

/* Thread @me (0 or 1) of a run, on its CPU of the pair. */
static void litmus_thread(void *arg, unsigned int me)
{
	struct litmus_ctx *c = arg;
	const struct litmus_test *t = c->t;
	litmus_body_fn body = t->shape->body[me];
	u32 *regs = c->regs[me];
	u32 sense = 0;
	u64 iter = 0;

	if (litmus_barrier(c, me, &sense, WAIT_START, 0))
		return;
	/*
	 * Thread 0 times the run with its own TSC: CPUs' TSCs need not
	 * agree, so no value read on another CPU is compared with it.
	 */
	if (me == 0)
		c->t_start = c->t_batch = rdtsc();
	for (;;) {
		u32 n = READ_ONCE(c->ctl.batch_n);
		u8 *inst = c->vars;

		for (u32 i = 0; i < n; i++, inst += LITMUS_STRIDE) {
			/*
			 * A batch can take long when a virtual CPU is
			 * descheduled: thread 0 watches the clock and names
			 * the first iteration not to run. It does so before
			 * the barrier of that iteration, so both threads see
			 * the same value after it and stop at the same place.
			 */
			if (me == 0 && c->timed && c->ctl.cut_at == ~0u &&
			    c->iters_done + i >= LITMUS_MIN_BATCH &&
			    rdtsc() - c->t_start >= c->cap_cycles)
				WRITE_ONCE(c->ctl.cut_at, i);
			if (litmus_barrier(c, me, &sense, WAIT_ITER, iter + i))
				return;
			if (i >= READ_ONCE(c->ctl.cut_at)) {
				n = i;
				break;
			}
			body(t, (u32 *)inst, (u32 *)(inst + c->off_y),
			     regs + i * LITMUS_MAX_REGS);
		}
		iter += n;
		/* This thread's NT stores land before the batch is read. */
		mfence();
		if (litmus_barrier(c, me, &sense, WAIT_BATCH, iter))
			return;
		if (me == 0)
			litmus_count_batch(c, n);
		if (litmus_barrier(c, me, &sense, WAIT_COUNT, iter))
			return;
		if (READ_ONCE(c->ctl.stop))
			return;
	}
}

/*
 * The join's watch over a run: batches counted are progress; a run that
 * makes none for twice the hang time is abandoned (both threads look at
 * err.abort while they wait), and then given that long again to return.
 */
static u64 litmus_progress(void *arg)
{
	return READ_ONCE(((struct litmus_ctx *)arg)->batches);
}

static void litmus_stop(void *arg)
{
	struct litmus_ctx *c = arg;

	litmus_give_up(c, GAVE_UP_WATCHDOG, WAIT_ITER, c->iters_done);
}

static void format_outcome(char *buf, size_t len, const struct litmus_shape *sh,
			   const u32 *v)
{
	size_t pos = 0;

	buf[0] = 0;
	for (unsigned int s = 0; s < sh->nr_slots && pos < len; s++)
		pos += ntb_snprintf(buf + pos, len - pos, "%s%s=%u",
				    s ? "," : "", sh->slot[s].label, v[s]);
}

static const char *layout_name(u8 layout)
{
	switch (layout) {
	case LITMUS_SEP:
		return "sep";
	case LITMUS_SAME:
		return "same";
	default:
		return "one";
	}
}

static bool in_set(const u32 *set, unsigned int key)
{
	return set[key / 32] & (1u << (key % 32));
}

static enum litmus_verdict litmus_report(struct kunit *test,
					 const struct litmus_ctx *c,
					 const struct litmus_pair *pair)
{
	const struct litmus_test *t = c->t;
	const struct litmus_shape *sh = t->shape;
	unsigned int nr_keys = 1u << (2 * sh->nr_slots);
	unsigned int target = outcome_key(sh->target, sh->nr_slots);
	u64 relaxed = 0, forbidden = 0, first_bad_count = 0;
	char first_bad[64] = "", buf[64];
	const char *obs;

	for (unsigned int key = 0; key < nr_keys; key++) {
		u64 count = c->hist[key];
		u32 v[LITMUS_MAX_SLOTS];
		const char *word;

		if (!count && key != target)
			continue;
		outcome_values(key, sh->nr_slots, v);
		if (in_set(t->sc, key))
			word = "sc";
		else if (in_set(t->allowed, key))
			word = "allowed";
		else
			word = "forbidden";
		format_outcome(buf, sizeof(buf), sh, v);
		kprintf("    # litmus test=%s layout=%s cpus=%u,%u pair=%s "
			"iters=%llu outcome=%s count=%llu %s\n",
			t->label, layout_name(t->layout), pair->cpu[0],
			pair->cpu[1], pair->kind, c->iters_done, buf, count,
			word);
		/* Everything not sequentially consistent is a reordering. */
		if (!in_set(t->sc, key))
			relaxed += count;
		if (count && word[0] == 'f') {
			forbidden += count;
			if (!first_bad[0]) {
				memcpy(first_bad, buf, sizeof(first_bad));
				first_bad_count = count;
			}
		}
	}
	if (!relaxed)
		obs = "Never";
	else if (relaxed == c->iters_done)
		obs = "Always";
	else
		obs = "Sometimes";
	kprintf("    # Observation %s@%u,%u %s %llu %llu\n", t->name,
		pair->cpu[0], pair->cpu[1], obs, relaxed,
		c->iters_done - relaxed);

	format_outcome(buf, sizeof(buf), sh, sh->target);
	/* The engine's self-tests (quiet scratch cases) are no evidence. */
	if (!test->quiet)
		relaxation_record(t->relaxed_allowed, t->relaxed_allowed ?
							      c->hist[target] :
							      forbidden);
	if (forbidden) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "%s on CPUs %u,%u (%s): forbidden outcomes seen "
			      "%llu times in %llu iterations, first %s "
			      "(%llu times)",
			      t->name, pair->cpu[0], pair->cpu[1], pair->kind,
			      forbidden, c->iters_done, first_bad,
			      first_bad_count);
		return LITMUS_FORBIDDEN;
	}
	if (t->relaxed_allowed && !relaxed && !test->quiet)
		kunit_info(test,
			   "%s on CPUs %u,%u (%s): allowed outcome %s "
			   "never observed in %llu iterations",
			   t->name, pair->cpu[0], pair->cpu[1], pair->kind, buf,
			   c->iters_done);
	return LITMUS_OK;
}

enum litmus_verdict litmus_run(struct kunit *test, const struct litmus_test *t,
			       const struct litmus_pair *pair,
			       const struct litmus_config *cfg)
{
	enum litmus_verdict verdict = LITMUS_RUN_FAILED;
	size_t vars_size = (size_t)LITMUS_MAX_BATCH * LITMUS_STRIDE;
	size_t regs_size =
		(size_t)LITMUS_MAX_BATCH * LITMUS_MAX_REGS * sizeof(u32);
	struct litmus_ctx *c;
	bool leak = false;

	c = plat_alloc_aligned(sizeof(*c), 64);
	if (!c) {
		kunit_fail_at(test, __FILE__, __LINE__, "no memory for %s",
			      t->name);
		return LITMUS_RUN_FAILED;
	}
	memset(c, 0, sizeof(*c));
	c->vars = plat_alloc_aligned(vars_size, 4096);
	c->regs[0] = plat_alloc_aligned(regs_size, 64);
	c->regs[1] = plat_alloc_aligned(regs_size, 64);
	if (!c->vars || !c->regs[0] || !c->regs[1]) {
		kunit_fail_at(test, __FILE__, __LINE__, "no memory for %s",
			      t->name);
		goto out;
	}
	memset(c->vars, 0, vars_size);
	c->t = t;
	c->off_y = t->layout == LITMUS_SAME ? LITMUS_SAME_Y : LITMUS_SEP_Y;
	c->hang_cycles = ms_to_cycles(cfg->hang_ms);
	c->target = cfg->iters;
	c->timed = cfg->timed;
	c->cap_cycles = ms_to_cycles(cfg->run_ms);
	c->batch_cycles =
		LITMUS_BATCH_TARGET_US * tsc_khz_for_deadlines() / 1000;
	c->ctl.batch_n = (u32)min((u64)LITMUS_MIN_BATCH, c->target);
	c->ctl.cut_at = ~0u;
	c->cpus[0] = pair->cpu[0];
	c->cpus[1] = pair->cpu[1];
	/*
	 * Thread 0 runs right here when CPU 0 is part of the pair; on_cpus()
	 * starts the other(s) and waits for both while batches get counted.
	 */
	on_cpus_init(&c->oc, 2, litmus_thread, c);
	c->oc.cpus = c->cpus;
	c->oc.start_timeout_us = cfg->hang_ms * 1000;
	c->oc.timeout_us = 2 * cfg->hang_ms * 1000;
	c->oc.progress = litmus_progress;
	c->oc.stop = litmus_stop;
	if (on_cpus(&c->oc))
		kunit_fail_at(test, __FILE__, __LINE__, "%s on CPUs %u,%u: %s",
			      t->name, pair->cpu[0], pair->cpu[1], c->oc.why);
	if (c->err.abort) {
		unsigned int who = c->err.thread;

		if (who < 2)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: CPU %u waited %llu ms for CPU %u at "
				      "the %s barrier (iteration %llu): the "
				      "partner did not show up",
				      t->name, pair->cpu[who], cfg->hang_ms,
				      pair->cpu[who ^ 1],
				      wait_names[c->err.where], c->err.iter);
		else if (who == GAVE_UP_WATCHDOG)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%s: CPUs %u,%u made no progress for "
				      "%llu ms; run abandoned",
				      t->name, pair->cpu[0], pair->cpu[1],
				      2 * cfg->hang_ms);
	}
	if (c->oc.stuck)
		/* A CPU may still touch the buffers: never hand them back. */
		leak = true;
	else if (!c->err.abort && !c->oc.rc)
		verdict = litmus_report(test, c, pair);
out:
	if (leak)
		return verdict;
	plat_free(c->regs[1], regs_size);
	plat_free(c->regs[0], regs_size);
	plat_free(c->vars, vars_size);
	plat_free(c, sizeof(*c));
	return verdict;
}
