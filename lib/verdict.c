// SPDX-License-Identifier: GPL-2.0-only
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/mannwhitney.h"
#include "lib/printf.h"
#include "lib/signed_rank.h"
#include "lib/states.h"
#include "lib/string.h"
#include "lib/verdict.h"

#define MEMCPY_NT "mm: use memcpy_nt() in zone-device template copies"
#define FASTPATHS "x86/string: extend memcpy_flushcache() fixed-size fastpaths"
#define NOCACHE "use nocache copy in copy_from_iter_nocache()"

/* The same claims, in the same order, as CLAIMS in
 * tools/reportlib/verdicts.py. */
const struct verdict_claim verdict_claims[] = {
	{MEMCPY_NT, "memmap init on rebind, fsdax (nd_pmem)",
	 "bench_memmap_init", "fsdax", 0, "slow", "tmpl_nt_fixed",
	 "244.28 ms -> 96.79 ms", 24428, 9679},
	{MEMCPY_NT, "memmap init on rebind, devdax 2 MiB (dax_pmem)",
	 "bench_memmap_init", "devdax2m", 0, "slow", "tmpl_nt_fixed",
	 "273.31 ms -> 119.04 ms", 27331, 11904},
	{MEMCPY_NT,
	 "its own step: the template copied with non-temporal "
	 "stores rather than memcpy(), fsdax",
	 "bench_memmap_init", "fsdax", 0, "tmpl_memcpy", "tmpl_nt_fixed",
	 "faster (no figure of its own)", 0, 0},
	{FASTPATHS,
	 "generic __memcpy_flushcache() -> inline fixed-size "
	 "MOVNTI, fsdax (nd_pmem)",
	 "bench_memmap_init", "fsdax", 0, "tmpl_nt_generic", "tmpl_nt_fixed",
	 "150.83 ms -> 96.79 ms", 15083, 9679},
	{FASTPATHS,
	 "generic __memcpy_flushcache() -> inline fixed-size "
	 "MOVNTI, devdax 2 MiB (dax_pmem)",
	 "bench_memmap_init", "devdax2m", 0, "tmpl_nt_generic", "tmpl_nt_fixed",
	 "153.55 ms -> 119.04 ms", 15355, 11904},
	{NOCACHE, "copy-then-flush -> nocache copy, 4 KiB chunks",
	 "bench_nocache_copy", NULL, 4096, NULL, "nocache",
	 "641 MB/s -> 2134 MB/s", 2134, 641},
};

const unsigned int verdict_nr_claims = ARRAY_SIZE(verdict_claims);

/* The claims one configuration can judge, at most. */
#define VERDICT_MAX_PER_CONFIG 8

static struct verdict kept[VERDICT_MAX];
static unsigned int nr_kept, nr_dropped;

const char *verdict_scope_name(enum verdict_scope s)
{
	switch (s) {
	case VERDICT_SCOPE_PROCESSES:
		return "processes";
	case VERDICT_SCOPE_ONE_PROCESS:
		return "one-process";
	case VERDICT_SCOPE_ROUNDS:
		return "rounds";
	default:
		return "one-boot";
	}
}

const char *verdict_word_name(const struct verdict *v)
{
	bool boot = v->scope == VERDICT_SCOPE_ONE_BOOT;
	bool rounds = v->scope == VERDICT_SCOPE_ROUNDS;

	switch (v->word) {
	case VERDICT_CONFIRMED:
		return "confirmed";
	case VERDICT_NOT_CONFIRMED:
		return "not confirmed";
	case VERDICT_REVERSED:
		return "reversed on this CPU";
	case VERDICT_SPLIT:
		return "split between processes";
	case VERDICT_SEEN:
		return rounds ? "seen in one state's rounds"
		       : boot ? "seen in one boot"
			      : "seen in one process";
	case VERDICT_SEEN_REVERSED:
		return rounds ? "seen reversed in one state's rounds"
		       : boot ? "seen reversed in one boot"
			      : "seen reversed in one process";
	case VERDICT_TOO_FEW:
		return "too few rounds in this state";
	default:
		return "untested";
	}
}

static u32 copy_sorted(u64 *dst, const u64 *src, u32 n)
{
	n = n < MW_MAX_SAMPLES ? n : MW_MAX_SAMPLES;
	memcpy(dst, src, n * sizeof(*dst));
	bench_median(dst, n); /* sorts */
	return n;
}

/* One process (or boot): the Mann-Whitney test on the runs. */
static void judge_runs(struct verdict *v, u64 *b, u32 nb, u64 *a, u32 na)
{
	struct mw_test t;

	if (!mw_testable(nb, na, VERDICT_ALPHA_PPB))
		return;
	/* The test of after against before, as tools/report runs it. */
	mw_test(b, nb, a, na, VERDICT_ALPHA_PPB, &t);
	v->tested = true;
	v->p_ppb = t.p_ppb;
	v->exact = t.exact;
	/* The speed-up's pairwise ratios before_i / after_j. */
	v->has_ci = mw_ratio_interval(b, nb, a, na, VERDICT_ALPHA_PPB, t.exact,
				      VERDICT_SCALE, &v->ci_lo, &v->ci_hi);
	if (!t.significant) {
		v->word = VERDICT_NOT_CONFIRMED;
		return;
	}
	/* Every claim is of a speed-up: the after side is faster. */
	v->word = v->after_ns < v->before_ns ? VERDICT_SEEN
					     : VERDICT_SEEN_REVERSED;
}

/*
 * The runs of process @p (of @per each) in state @state of @which (NULL:
 * every run) into @block. Returns how many.
 */
static u32 process_runs(u64 *block, const struct verdict_samples *c, u32 p,
			u32 per, const u8 *which, u32 state)
{
	u32 got = 0;

	for (u32 r = p * per; r < (p + 1) * per; r++)
		if (!which || which[r] == state)
			block[got++] = c->ns[r];
	return got;
}

/*
 * Several processes: one speed-up per process, the ratio of its two
 * medians (paired: the same process timed both), and the signed-rank
 * test of those; the speed-up printed is their Hodges-Lehmann centre. Runs of
 * one process agree with each other more than with the next process's, so
 * pooling them would take a difference between processes for one between
 * strategies.
 */
static void judge_processes(struct verdict *v,
			    const struct verdict_samples *before,
			    const struct verdict_samples *after,
			    const u8 *which, u32 state)
{
	static u64 block[MW_MAX_SAMPLES];
	u64 ratio[SR_MAX], lo = ~0ull, hi = 0, ci_lo, ci_hi;
	u32 np = 0, per = before->n / before->processes;
	struct sr_test t;
	bool ci;

	for (u32 p = 0; p < before->processes; p++) {
		u32 got = process_runs(block, before, p, per, which, state);
		u64 mb, ma;

		/* A process none of whose rounds were in this state. */
		if (!got)
			continue;
		mb = bench_median(block, got);
		ma = bench_median(block, process_runs(block, after, p, per,
						      which, state));
		/* A median of 0 ns timed nothing: no ratio to judge. */
		if (!ma || !mb) {
			v->speedup = 0;
			return;
		}
		ratio[np] = mb * VERDICT_SCALE / ma;
		lo = min(lo, ratio[np]);
		hi = max(hi, ratio[np]);
		np++;
	}
	v->processes = np;
	ci = sr_interval(ratio, np, VERDICT_SCALE, VERDICT_ALPHA_PPB,
			 &v->speedup, &ci_lo, &ci_hi);
	sr_test(ratio, np, VERDICT_SCALE, VERDICT_ALPHA_PPB, &t);
	if (!t.testable)
		return;
	v->tested = true;
	v->exact = true;
	v->p_ppb = t.p_ppb;
	v->has_ci = ci;
	v->ci_lo = ci ? ci_lo : 0;
	v->ci_hi = ci ? ci_hi : 0;
	/* The direction the test found, not a median's. */
	if (t.significant)
		v->word = t.up ? VERDICT_CONFIRMED : VERDICT_REVERSED;
	else if (lo < VERDICT_SCALE && hi > VERDICT_SCALE)
		v->word = VERDICT_SPLIT;
	else
		v->word = VERDICT_NOT_CONFIRMED;
}

/* @v untested, of one process (or boot), before anything is judged. */
static void verdict_start(struct verdict *v, const struct verdict_claim *claim,
			  const struct verdict_config *where,
			  const struct verdict_samples *before,
			  const struct verdict_samples *after)
{
	*v = (struct verdict){.claim = claim,
			      .where = *where,
			      .before = before->name,
			      .after = after->name,
#ifdef NTB_HOSTED
			      .scope = VERDICT_SCOPE_ONE_PROCESS,
#else
			      .scope = VERDICT_SCOPE_ONE_BOOT,
#endif
			      .processes = 1,
			      .word = VERDICT_UNTESTED};
}

void verdict_judge(const struct verdict_claim *claim,
		   const struct verdict_config *where,
		   const struct verdict_samples *before,
		   const struct verdict_samples *after, struct verdict *v)
{
	static u64 b[MW_MAX_SAMPLES], a[MW_MAX_SAMPLES];
	u32 nb = copy_sorted(b, before->ns, before->n);
	u32 na = copy_sorted(a, after->ns, after->n);
	u32 np = before->processes > 1 ? before->processes : 1;

	verdict_start(v, claim, where, before, after);
	v->n_before = nb;
	v->n_after = na;
	if (!nb || !na)
		return;
	v->before_ns = bench_median(b, nb);
	v->after_ns = bench_median(a, na);
	if (v->after_ns)
		v->speedup = v->before_ns * VERDICT_SCALE / v->after_ns;
	/* Samples that do not split into the same processes: one each. */
	if (np > 1 && np <= SR_MAX && after->processes == np &&
	    nb == before->n && na == after->n && nb == na && nb % np == 0 &&
	    nb / np) {
		v->scope = VERDICT_SCOPE_PROCESSES;
		v->processes = np;
		judge_processes(v, before, after, NULL, 0);
		return;
	}
	judge_runs(v, b, nb, a, na);
}

void verdict_judge_state(const struct verdict_claim *claim,
			 const struct verdict_config *where,
			 const struct verdict_samples *before,
			 const struct verdict_samples *after, const char *by,
			 const u8 *which, u32 state, u32 nr_states,
			 struct verdict *v)
{
	static u64 b[MW_MAX_SAMPLES], a[MW_MAX_SAMPLES];
	u32 n = min(before->n, (u32)MW_MAX_SAMPLES), rounds = 0, in = 0;
	u32 np = max(before->processes, 1u), per = n / np;

	for (u32 i = 0; i < n; i++)
		if (which[i] == state) {
			b[rounds] = before->ns[i];
			a[rounds++] = after->ns[i];
		}
	/* The processes with a round in this state. */
	for (u32 p = 0; np > 1 && p < np; p++)
		for (u32 r = p * per; r < (p + 1) * per; r++)
			if (which[r] == state) {
				in++;
				break;
			}
	verdict_start(v, claim, where, before, after);
	v->processes = np > 1 ? in : 1;
	v->n_before = v->n_after = v->rounds = rounds;
	v->by = by;
	v->state = state + 1;
	v->nr_states = nr_states;
	if (!rounds)
		return;
	v->before_ns = bench_median(b, rounds);
	v->after_ns = bench_median(a, rounds);
	if (v->after_ns)
		v->speedup = v->before_ns * VERDICT_SCALE / v->after_ns;
	if (np > 1)
		v->scope = VERDICT_SCOPE_ROUNDS;
	if (rounds < VERDICT_STATE_MIN_ROUNDS) {
		v->word = VERDICT_TOO_FEW;
		return;
	}
	if (np > 1 && np <= SR_MAX && per && in >= SR_MIN_N) {
		v->scope = VERDICT_SCOPE_PROCESSES;
		judge_processes(v, before, after, which, state);
		return;
	}
	judge_runs(v, b, rounds, a, rounds);
}

static const struct verdict_samples *find(const struct verdict_samples *c,
					  u32 n, const char *name)
{
	for (u32 i = 0; name && i < n; i++)
		if (c[i].name && !strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

unsigned int verdict_feed(const struct verdict_config *where,
			  const struct verdict_samples *c, u32 n,
			  struct verdict *out, unsigned int max)
{
	unsigned int done = 0;

	for (unsigned int i = 0; i < verdict_nr_claims && done < max; i++) {
		const struct verdict_claim *cl = &verdict_claims[i];
		const struct verdict_samples *b, *a;

		if (strcmp(cl->suite, where->suite))
			continue;
		if (cl->mode && (!where->mode || strcmp(cl->mode, where->mode)))
			continue;
		if (cl->chunk && cl->chunk != where->chunk)
			continue;
		b = find(c, n, cl->before ? cl->before : where->copy_clean);
		a = find(c, n, cl->after);
		if (!b || !a)
			continue;
		verdict_judge(cl, where, b, a, &out[done++]);
	}
	return done;
}

static const char *x3(u64 v)
{
	return bench_fixed(v, VERDICT_SCALE, 3);
}

/* measured / posted, 3 decimals, or "-" where nothing was posted. */
static const char *over_posted(const struct verdict *v, unsigned int dec)
{
	const struct verdict_claim *cl = v->claim;

	if (!cl->posted_den || !cl->posted_num || !v->speedup)
		return "-";
	return bench_fixed(v->speedup * cl->posted_den,
			   VERDICT_SCALE * cl->posted_num, dec);
}

/* The configuration's keys: page_size= mode= [map=], or chunk=. */
static void format_where(char *buf, size_t len,
			 const struct verdict_config *where)
{
	if (where->mode)
		ntb_snprintf(buf, len, "page_size=%u mode=%s%s%s",
			     where->page_size, where->mode,
			     where->map ? " map=" : "",
			     where->map ? where->map : "");
	else
		ntb_snprintf(buf, len, "chunk=%llu", where->chunk);
}

int verdict_format(char *buf, size_t len, const struct verdict *v)
{
	const struct verdict_claim *cl = v->claim;
	char where[64], posted[16], ci[48], p[24], state[96] = "";

	format_where(where, sizeof(where), &v->where);
	ntb_snprintf(posted, sizeof(posted), "%s",
		     cl->posted_den
			     ? bench_fixed(cl->posted_num, cl->posted_den, 3)
			     : "-");
	if (v->has_ci)
		ntb_snprintf(ci, sizeof(ci), "ci_low=%s ci_high=%s",
			     x3(v->ci_lo), x3(v->ci_hi));
	else
		ntb_snprintf(ci, sizeof(ci), "ci_low=- ci_high=-");
	ntb_snprintf(p, sizeof(p), "%s",
		     v->tested ? bench_fixed(v->p_ppb, MW_PPB, 6) : "-");
	if (v->state)
		ntb_snprintf(state, sizeof(state),
			     " by=%s state=%u/%u rounds=%u", v->by, v->state,
			     v->nr_states, v->rounds);
	return ntb_snprintf(
		buf, len,
		"# %s claim=\"%s\" what=\"%s\" before=%s "
		"after=%s %s%s posted=%s before_ns=%llu "
		"after_ns=%llu speedup=%s %s measured_over_posted=%s "
		"p=%s scope=%s processes=%u n=%u+%u test=%s verdict=\"%s\"",
		v->state ? "state-verdict" : "verdict", cl->subject, cl->what,
		v->before, v->after, where, state, posted, v->before_ns,
		v->after_ns, x3(v->speedup), ci, over_posted(v, 3), p,
		verdict_scope_name(v->scope), v->processes, v->n_before,
		v->n_after,
		!v->tested			      ? "-"
		: v->scope == VERDICT_SCOPE_PROCESSES ? "signed-rank"
		: v->exact			      ? "exact"
						      : "normal",
		verdict_word_name(v));
}

int verdict_format_short(char *buf, size_t len, const struct verdict *v)
{
	const struct verdict_claim *cl = v->claim;
	char where[32], ci[40], p[24], posted[40];

	if (v->where.mode)
		ntb_snprintf(where, sizeof(where), "%u %s", v->where.page_size,
			     v->where.mode);
	else
		ntb_snprintf(where, sizeof(where), "%lluB chunks",
			     v->where.chunk);
	if (v->has_ci)
		ntb_snprintf(ci, sizeof(ci), " [%s-%s]",
			     bench_fixed(v->ci_lo, VERDICT_SCALE, 2),
			     bench_fixed(v->ci_hi, VERDICT_SCALE, 2));
	else
		ci[0] = 0;
	if (v->tested)
		ntb_snprintf(p, sizeof(p), " p=%s",
			     bench_fixed(v->p_ppb, MW_PPB, 4));
	else
		ntb_snprintf(p, sizeof(p), " n=%u+%u", v->n_before, v->n_after);
	if (cl->posted_den)
		ntb_snprintf(posted, sizeof(posted), " (posted %sx, %s of it)",
			     bench_fixed(cl->posted_num, cl->posted_den, 2),
			     over_posted(v, 2));
	else
		posted[0] = 0;
	/* What matters first, so a narrow screen cuts the details. */
	return ntb_snprintf(buf, len, "%-13s %s->%s %s %sx%s%s%s",
			    verdict_word_name(v), v->before, v->after, where,
			    bench_fixed(v->speedup, VERDICT_SCALE, 2), posted,
			    ci, p);
}

/* "# state ..." lines: each state of @c's runs, where it has several. */
static void print_states(const char *where, const struct verdict_samples *c,
			 const struct states *st)
{
	for (u32 s = 0; s < st->nr; s++)
		kunit_diag("# state strategy=%s %s runs=%u state=%u/%u "
			   "state_runs=%u median_ns=%llu low_ns=%llu "
			   "high_ns=%llu apart=%s\n",
			   c->name, where, st->n, s + 1, st->nr, st->s[s].runs,
			   st->s[s].median_ns, st->s[s].low_ns,
			   st->s[s].high_ns, x3(states_apart(st)));
}

/* How state @s of @nr reads in a sentence. */
static const char *state_words(u32 s, u32 nr)
{
	static char buf[24];

	if (nr == 2)
		return s ? "the slower" : "the faster";
	ntb_snprintf(buf, sizeof(buf), "state %u/%u", s + 1, nr);
	return buf;
}

bool verdict_follows(const struct verdict_samples *x,
		     const struct verdict_samples *y, const u8 *which,
		     const struct states *st, struct verdict_follow *f)
{
	static u64 fast[MW_MAX_SAMPLES], slow[MW_MAX_SAMPLES];
	struct mw_test t;

	*f = (struct verdict_follow){0};
	if (y->n != x->n || y->processes != x->processes || st->nr < 2)
		return false;
	for (u32 i = 0; i < y->n && i < MW_MAX_SAMPLES; i++) {
		if (which[i] == 0)
			fast[f->n_fast++] = y->ns[i];
		else if (which[i] == st->nr - 1)
			slow[f->n_slow++] = y->ns[i];
	}
	f->fast_ns = bench_median(fast, f->n_fast); /* sorts */
	f->slow_ns = bench_median(slow, f->n_slow);
	f->tested = mw_testable(f->n_fast, f->n_slow, VERDICT_ALPHA_PPB);
	if (!f->tested)
		return true;
	mw_test(fast, f->n_fast, slow, f->n_slow, VERDICT_ALPHA_PPB, &t);
	f->p_ppb = t.p_ppb;
	f->follows = t.significant && f->slow_ns > f->fast_ns;
	return true;
}

/* The "# follows ..." line of @y against @x's states. */
static void print_follows(const char *where, const struct verdict_samples *x,
			  const struct verdict_samples *y, const u8 *which,
			  const struct states *st)
{
	struct verdict_follow f;

	if (!verdict_follows(x, y, which, st, &f))
		return;
	kunit_diag("# follows %s=%s states_of=%s %s rounds=%u+%u "
		   "fast_median_ns=%llu slow_median_ns=%llu ratio=%s p=%s "
		   "follows=%s\n",
		   y->kind == VERDICT_SAMPLES_PROBE ? "probe" : "fill", y->name,
		   x->name, where, f.n_fast, f.n_slow, f.fast_ns, f.slow_ns,
		   f.fast_ns ? x3(f.slow_ns * VERDICT_SCALE / f.fast_ns) : "-",
		   f.tested ? bench_fixed(f.p_ppb, MW_PPB, 6) : "-",
		   !f.tested   ? "untested"
		   : f.follows ? "yes"
			       : "no");
}

u64 verdict_state_vs_slow(const struct verdict_samples *slow,
			  const struct verdict_samples *x, const u8 *which,
			  u32 state, u32 *rounds)
{
	static u64 a[MW_MAX_SAMPLES], b[MW_MAX_SAMPLES];
	u32 got = 0;
	u64 ms, mx;

	*rounds = 0;
	if (slow->n != x->n || slow->processes != x->processes)
		return 0;
	for (u32 i = 0; i < x->n && i < MW_MAX_SAMPLES; i++) {
		if (which[i] != state)
			continue;
		a[got] = slow->ns[i];
		b[got++] = x->ns[i];
	}
	*rounds = got;
	ms = bench_median(a, got);
	mx = bench_median(b, got);
	return mx ? ms * VERDICT_SCALE / mx : 0;
}

/*
 * "# vs_slow ..." lines: each strategy's speed-up over `slow` in each
 * state of @by (@which, @st), over that state's rounds, as the summary
 * table's vs_slow column gives it over every round.
 */
static void print_vs_slow(const char *where, const struct verdict_samples *by,
			  const struct verdict_samples *c, u32 n,
			  const u8 *which, const struct states *st)
{
	const struct verdict_samples *slow = find(c, n, "slow");
	char line[512];

	if (!slow)
		return;
	for (u32 s = 0; s < st->nr; s++) {
		u32 rounds = 0;
		int len = ntb_snprintf(line, sizeof(line),
				       "# vs_slow by=%s %s state=%u/%u",
				       by->name, where, s + 1, st->nr);

		for (u32 j = 0; j < n; j++) {
			u64 r;

			if (c[j].kind != VERDICT_SAMPLES_STRATEGY ||
			    &c[j] == slow)
				continue;
			r = verdict_state_vs_slow(slow, &c[j], which, s,
						  &rounds);
			if (len > 0 && (size_t)len < sizeof(line))
				len += ntb_snprintf(
					line + len, sizeof(line) - len,
					" %s=%s", c[j].name, r ? x3(r) : "-");
		}
		kunit_diag("%s rounds=%u\n", line, rounds);
	}
}

/*
 * @v judged again in each state of its side's runs that has several:
 * "# state-verdict ..." lines, then a "# states: ..." sentence, then,
 * once for each side judged in states (@done, @nr_done), whether each
 * fill and probe among @c follows its states.
 */
static void publish_in_states(const struct verdict *v,
			      const struct verdict_samples *c, u32 n,
			      const char *where,
			      const struct verdict_samples **done, u32 *nr_done)
{
	static u8 which[MW_MAX_SAMPLES];
	const struct verdict_samples *b = find(c, n, v->before);
	const struct verdict_samples *a = find(c, n, v->after);
	const struct verdict_samples *by = b;
	struct states st;
	char line[512], say[512];
	int len;

	/* Rounds pair up only where both sides ran in the same ones. */
	if (!b || !a || b->n != a->n || b->processes != a->processes ||
	    b->n > MW_MAX_SAMPLES)
		return;
	states_find(b->ns, b->n, &st, which);
	if (st.nr < 2) {
		by = a;
		states_find(a->ns, a->n, &st, which);
	}
	if (st.nr < 2)
		return;
	len = ntb_snprintf(say, sizeof(say),
			   "# states: %s ran in %u states, %sx apart (%s); "
			   "%s -> %s:",
			   by->name, st.nr,
			   bench_fixed(states_apart(&st), VERDICT_SCALE, 2),
			   where, v->before, v->after);
	for (u32 s = 0; s < st.nr; s++) {
		struct verdict sv;

		verdict_judge_state(v->claim, &v->where, b, a, by->name, which,
				    s, st.nr, &sv);
		verdict_format(line, sizeof(line), &sv);
		kunit_diag("%s\n", line);
		if (len > 0 && (size_t)len < sizeof(say))
			len += ntb_snprintf(
				say + len, sizeof(say) - len,
				"%s in %s (%u rounds) %sx, %s", s ? ";" : "",
				state_words(s, st.nr), sv.rounds,
				bench_fixed(sv.speedup, VERDICT_SCALE, 2),
				verdict_word_name(&sv));
	}
	kunit_diag("%s\n", say);
	for (u32 i = 0; i < *nr_done; i++)
		if (done[i] == by)
			return;
	if (*nr_done < VERDICT_MAX_PER_CONFIG)
		done[(*nr_done)++] = by;
	for (u32 j = 0; j < n; j++)
		if (c[j].kind != VERDICT_SAMPLES_STRATEGY)
			print_follows(where, by, &c[j], which, &st);
	print_vs_slow(where, by, c, n, which, &st);
}

void verdict_publish(const struct verdict_config *where,
		     const struct verdict_samples *c, u32 n)
{
	struct verdict v[VERDICT_MAX_PER_CONFIG];
	const struct verdict_samples *followed[VERDICT_MAX_PER_CONFIG];
	unsigned int got = verdict_feed(where, c, n, v, ARRAY_SIZE(v));
	char line[512], at[64];
	u32 nr_followed = 0;

	format_where(at, sizeof(at), where);
	for (u32 i = 0; i < n; i++) {
		struct states st;

		states_find(c[i].ns, c[i].n, &st, NULL);
		if (st.nr > 1)
			print_states(at, &c[i], &st);
	}
	for (unsigned int i = 0; i < got; i++) {
		verdict_format(line, sizeof(line), &v[i]);
		kunit_diag("%s\n", line);
		if (nr_kept < VERDICT_MAX)
			kept[nr_kept++] = v[i];
		else
			nr_dropped++;
		publish_in_states(&v[i], c, n, at, followed, &nr_followed);
	}
}

unsigned int verdict_count(void)
{
	return nr_kept;
}

const struct verdict *verdict_get(unsigned int i)
{
	return i < nr_kept ? &kept[i] : NULL;
}

unsigned int verdict_dropped(void)
{
	return nr_dropped;
}
