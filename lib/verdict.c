// SPDX-License-Identifier: GPL-2.0-only
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/mannwhitney.h"
#include "lib/printf.h"
#include "lib/signed_rank.h"
#include "lib/states.h"
#include "lib/string.h"
#include "lib/verdict.h"

/*
 * The posted claims, in the order they are judged and printed: generated
 * from manifest/claims.yaml (tools/manifest), as tools/reportlib's CLAIMS
 * are.
 */
const struct verdict_claim verdict_claims[] = {
#include "verdict_claims.h"
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

/* Each word in each scope: generated from manifest/verdicts.yaml. */
static const char *const verdict_words[VERDICT_NR_WORDS][VERDICT_NR_SCOPES] = {
#include "verdict_words.h"
};

const char *verdict_word_name(const struct verdict *v)
{
	const char *w = NULL;

	if (v->word < VERDICT_NR_WORDS && v->scope < VERDICT_NR_SCOPES)
		w = verdict_words[v->word][v->scope];
	return w ? w : "untested";
}

const char *verdict_vs_posted_name(enum verdict_vs_posted p)
{
	switch (p) {
	case VERDICT_VS_POSTED_WITHIN:
		return "within";
	case VERDICT_VS_POSTED_BEYOND:
		return "beyond";
	case VERDICT_VS_POSTED_SHORT:
		return "short";
	default:
		return "-";
	}
}

enum verdict_vs_posted verdict_vs_posted(const struct verdict_claim *claim,
					 bool has_ci, u64 lo, u64 hi)
{
	u64 r;

	if (!has_ci || !claim->posted_num || !claim->posted_den)
		return VERDICT_VS_POSTED_NONE;
	/*
	 * R against the interval exactly, in whole numbers: lo <= R is
	 * lo * den <= num * VERDICT_SCALE (the posted figures are a few
	 * digits each; the products stay far below 2^64).
	 */
	r = claim->posted_num * VERDICT_SCALE;
	if (lo * claim->posted_den > r)
		return VERDICT_VS_POSTED_BEYOND;
	if (hi * claim->posted_den < r)
		return VERDICT_VS_POSTED_SHORT;
	return VERDICT_VS_POSTED_WITHIN;
}

/* Where the claim's posted speed-up lies against @v's interval. */
static void judge_size(struct verdict *v)
{
	v->vs_posted =
		verdict_vs_posted(v->claim, v->has_ci, v->ci_lo, v->ci_hi);
}

/* The word of a significant speed-up: its size against the posted one. */
static enum verdict_word faster_word(const struct verdict *v)
{
	switch (v->vs_posted) {
	case VERDICT_VS_POSTED_WITHIN:
		return VERDICT_CONFIRMED;
	case VERDICT_VS_POSTED_BEYOND:
		return VERDICT_BEYOND;
	case VERDICT_VS_POSTED_SHORT:
		return VERDICT_SHORT;
	default:
		return VERDICT_FASTER;
	}
}

enum verdict_band verdict_in_band(const struct verdict *v, u64 band_lo,
				  u64 band_hi)
{
	if (!v->has_ci)
		return VERDICT_BAND_UNTESTED;
	if (v->ci_lo >= band_lo && v->ci_hi <= band_hi)
		return VERDICT_BAND_YES;
	if (v->ci_hi < band_lo || v->ci_lo > band_hi)
		return VERDICT_BAND_NO;
	return VERDICT_BAND_UNSURE;
}

const char *verdict_band_name(enum verdict_band b)
{
	switch (b) {
	case VERDICT_BAND_YES:
		return "yes";
	case VERDICT_BAND_NO:
		return "no";
	case VERDICT_BAND_UNSURE:
		return "unsure";
	default:
		return "untested";
	}
}

int verdict_no_interval_reason(char *buf, size_t len, const struct verdict *v)
{
	if (v->scope == VERDICT_SCOPE_PROCESSES)
		return ntb_snprintf(buf, len, "processes=%u", v->processes);
	return ntb_snprintf(buf, len, "runs=%u+%u", v->n_before, v->n_after);
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
	judge_size(v);
	if (!t.significant) {
		v->word = VERDICT_NOT_CONFIRMED;
		return;
	}
	/* Every claim is of a speed-up: the after side is faster. */
	v->word =
		v->after_ns < v->before_ns ? faster_word(v) : VERDICT_REVERSED;
}

/*
 * The runs @ns[from..to) in state @state of @which (every run where
 * @which is NULL) into @dst (where not NULL). Returns how many.
 */
static u32 runs_in(u64 *dst, const u64 *ns, const u8 *which, u32 state,
		   u32 from, u32 to)
{
	u32 got = 0;

	for (u32 i = from; i < to; i++) {
		if (which && which[i] != state)
			continue;
		if (dst)
			dst[got] = ns[i];
		got++;
	}
	return got;
}

/*
 * Whether @x and @y were measured in the same rounds (the same runs of
 * the same processes), no more than the tests take: run i of one and of
 * the other were timed together.
 */
static bool paired(const struct verdict_samples *x,
		   const struct verdict_samples *y)
{
	return x->n == y->n && x->processes == y->processes &&
	       x->n <= MW_MAX_SAMPLES;
}

/* Whether paired runs split into several processes, one unit each. */
static bool by_processes(const struct verdict_samples *before,
			 const struct verdict_samples *after)
{
	u32 np = before->processes;

	return np > 1 && np <= SR_MAX && paired(before, after) &&
	       before->n % np == 0 && before->n >= np;
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
		u32 from = p * per, to = from + per;
		u32 got = runs_in(block, before->ns, which, state, from, to);
		u64 mb, ma;

		/* A process none of whose rounds were in this state. */
		if (!got)
			continue;
		mb = bench_median(block, got);
		ma = bench_median(block, runs_in(block, after->ns, which, state,
						 from, to));
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
	judge_size(v);
	/* The direction the test found, not a median's. */
	if (t.significant)
		v->word = t.up ? faster_word(v) : VERDICT_REVERSED;
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
	if (by_processes(before, after)) {
		v->scope = VERDICT_SCOPE_PROCESSES;
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
	u32 n = before->n, np = max(before->processes, 1u), per = n / np;
	u32 rounds = 0, in = 0;

	verdict_start(v, claim, where, before, after);
	v->by = by;
	v->state = state + 1;
	v->nr_states = nr_states;
	if (!paired(before, after))
		return;
	rounds = runs_in(b, before->ns, which, state, 0, n);
	runs_in(a, after->ns, which, state, 0, n);
	/* The processes with a round in this state. */
	for (u32 p = 0; np > 1 && p < np; p++)
		in += !!runs_in(NULL, before->ns, which, state, p * per,
				(p + 1) * per);
	v->processes = np > 1 ? in : 1;
	v->n_before = v->n_after = v->rounds = rounds;
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
	if (by_processes(before, after) && in >= SR_MIN_N) {
		v->scope = VERDICT_SCOPE_PROCESSES;
		judge_processes(v, before, after, which, state);
		return;
	}
	judge_runs(v, b, rounds, a, rounds);
}

const struct verdict_samples *
verdict_find_samples(const struct verdict_samples *c, u32 n, const char *name)
{
	for (u32 i = 0; name && i < n; i++)
		if (c[i].name && !strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

bool verdict_claim_covers(const struct verdict_claim *cl,
			  const struct verdict_config *where)
{
	return !strcmp(cl->suite, where->suite) &&
	       (!cl->mode || (where->mode && !strcmp(cl->mode, where->mode))) &&
	       /* the postings' namespaces had their memmap on the device */
	       (!cl->mode || !where->map || !strcmp(where->map, "dev")) &&
	       (!cl->chunk || cl->chunk == where->chunk);
}

unsigned int verdict_feed(const struct verdict_config *where,
			  const struct verdict_samples *c, u32 n,
			  struct verdict *out, unsigned int max)
{
	unsigned int done = 0;

	for (unsigned int i = 0; i < verdict_nr_claims && done < max; i++) {
		const struct verdict_claim *cl = &verdict_claims[i];
		const struct verdict_samples *b, *a;

		if (!verdict_claim_covers(cl, where))
			continue;
		b = verdict_find_samples(
			c, n, cl->before ? cl->before : where->copy_clean);
		a = verdict_find_samples(c, n, cl->after);
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

const char *verdict_format_ci(char *buf, size_t len, const struct verdict *v)
{
	if (v->has_ci)
		ntb_snprintf(buf, len, "ci_low=%s ci_high=%s", x3(v->ci_lo),
			     x3(v->ci_hi));
	else
		ntb_snprintf(buf, len, "ci_low=- ci_high=-");
	return buf;
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
	verdict_format_ci(ci, sizeof(ci), v);
	ntb_snprintf(p, sizeof(p), "%s",
		     v->tested ? bench_fixed(v->p_ppb, MW_PPB, 6) : "-");
	if (v->state)
		ntb_snprintf(state, sizeof(state),
			     " by=%s state=%u/%u rounds=%u", v->by, v->state,
			     v->nr_states, v->rounds);
	return ntb_snprintf(
		buf, len,
		"# %s claim=\"%s\" what=\"%s\" before=%s "
		"after=%s source=%s %s%s posted=%s before_ns=%llu "
		"after_ns=%llu speedup=%s %s measured_over_posted=%s "
		"vs_posted=%s p=%s scope=%s processes=%u n=%u+%u test=%s "
		"verdict=\"%s\"",
		v->state ? "state-verdict" : "verdict", cl->subject, cl->what,
		v->before, v->after, cl->source, where, state, posted,
		v->before_ns, v->after_ns, x3(v->speedup), ci,
		over_posted(v, 3), verdict_vs_posted_name(v->vs_posted), p,
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
	if (!paired(x, y) || st->nr < 2)
		return false;
	f->n_fast = runs_in(fast, y->ns, which, 0, 0, y->n);
	f->n_slow = runs_in(slow, y->ns, which, st->nr - 1, 0, y->n);
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
	u64 ms, mx;

	*rounds = 0;
	if (!paired(slow, x))
		return 0;
	*rounds = runs_in(a, slow->ns, which, state, 0, x->n);
	runs_in(b, x->ns, which, state, 0, x->n);
	ms = bench_median(a, *rounds);
	mx = bench_median(b, *rounds);
	return mx ? ms * VERDICT_SCALE / mx : 0;
}

/*
 * "# vs_slow ..." lines: each strategy's speed-up over `slow` in each
 * state of @by (@which, @st), over that state's rounds, as the summary
 * table's vs_slow column gives it over every round.
 */
static void print_vs_slow(const char *where, const struct verdict_samples *by,
			  const struct verdict_samples *slow,
			  const struct verdict_samples *c, u32 n,
			  const u8 *which, const struct states *st)
{
	char line[512];

	if (!slow || !paired(slow, by))
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
 * @v judged again in each state of its side's runs that has several
 * (@sts: the states of each of @c): "# state-verdict ..." lines, then a
 * "# states: ..." sentence, then, once for each side judged in states
 * (@done, @nr_done), whether each fill and probe among @c follows its
 * states, and the strategies' vs_slow in each.
 */
static void publish_in_states(const struct verdict *v,
			      const struct verdict_samples *c,
			      const struct states *sts, u32 n,
			      const char *where,
			      const struct verdict_samples **done, u32 *nr_done)
{
	static u8 which[MW_MAX_SAMPLES];
	const struct verdict_samples *b = verdict_find_samples(c, n, v->before);
	const struct verdict_samples *a = verdict_find_samples(c, n, v->after);
	const struct verdict_samples *by;
	const struct states *st;
	static char line[VERDICT_LINE_MAX], say[VERDICT_LINE_MAX];
	int len;

	/* Rounds pair up only where both sides ran in the same ones. */
	if (!b || !a || !paired(b, a))
		return;
	by = sts[b - c].nr > 1 ? b : a;
	st = &sts[by - c];
	if (st->nr < 2)
		return;
	for (u32 i = 0; i < by->n; i++)
		which[i] = states_of(st, by->ns[i]);
	len = ntb_snprintf(say, sizeof(say),
			   "# states: %s ran in %u states, %sx apart (%s); "
			   "%s -> %s:",
			   by->name, st->nr,
			   bench_fixed(states_apart(st), VERDICT_SCALE, 2),
			   where, v->before, v->after);
	for (u32 s = 0; s < st->nr; s++) {
		struct verdict sv;

		verdict_judge_state(v->claim, &v->where, b, a, by->name, which,
				    s, st->nr, &sv);
		verdict_format(line, sizeof(line), &sv);
		kunit_diag("%s\n", line);
		if (len > 0 && (size_t)len < sizeof(say))
			len += ntb_snprintf(
				say + len, sizeof(say) - len,
				"%s in %s (%u rounds) %sx, %s", s ? ";" : "",
				state_words(s, st->nr), sv.rounds,
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
			print_follows(where, by, &c[j], which, st);
	print_vs_slow(where, by, verdict_find_samples(c, n, v->where.baseline),
		      c, n, which, st);
}

void verdict_publish(const struct verdict_config *where,
		     const struct verdict_samples *c, u32 n)
{
	static struct states sts[BENCH_MAX_ENTRIES];
	struct verdict v[VERDICT_MAX_PER_CONFIG];
	const struct verdict_samples *followed[VERDICT_MAX_PER_CONFIG];
	unsigned int got;
	static char line[VERDICT_LINE_MAX];
	char at[64];
	u32 nr_followed = 0;

	/* One benchmark's contenders: at most BENCH_MAX_ENTRIES. */
	n = min(n, (u32)BENCH_MAX_ENTRIES);
	got = verdict_feed(where, c, n, v, ARRAY_SIZE(v));
	format_where(at, sizeof(at), where);
	for (u32 i = 0; i < n; i++) {
		states_find(c[i].ns, c[i].n, &sts[i], NULL);
		if (sts[i].nr > 1)
			print_states(at, &c[i], &sts[i]);
	}
	for (unsigned int i = 0; i < got; i++) {
		verdict_format(line, sizeof(line), &v[i]);
		kunit_diag("%s\n", line);
		if (nr_kept < VERDICT_MAX)
			kept[nr_kept++] = v[i];
		else
			nr_dropped++;
		publish_in_states(&v[i], c, sts, n, at, followed, &nr_followed);
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
