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

/* One process (or boot): the Mann-Whitney test on the runs, at @alpha. */
static void judge_runs(struct verdict *v, u64 *b, u32 nb, u64 *a, u32 na,
		       u64 alpha)
{
	struct mw_test t;

	if (!mw_testable(nb, na, alpha))
		return;
	/* The test of after against before, as tools/report runs it. */
	mw_test(b, nb, a, na, alpha, &t);
	v->tested = true;
	v->p_ppb = t.p_ppb;
	v->exact = t.exact;
	/* The speed-up's pairwise ratios before_i / after_j. */
	v->has_ci = mw_ratio_interval(b, nb, a, na, alpha, t.exact,
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
			    const u8 *which, u32 state, u64 alpha)
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
	ci = sr_interval(ratio, np, VERDICT_SCALE, alpha, &v->speedup, &ci_lo,
			 &ci_hi);
	sr_test(ratio, np, VERDICT_SCALE, alpha, &t);
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
			      .alpha_ppb = VERDICT_ALPHA_PPB,
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
		judge_processes(v, before, after, NULL, 0, VERDICT_ALPHA_PPB);
		return;
	}
	judge_runs(v, b, nb, a, na, VERDICT_ALPHA_PPB);
}

const char *verdict_chosen_name(enum verdict_chosen c)
{
	switch (c) {
	case VERDICT_CHOSEN_PROBE:
		return "probe";
	case VERDICT_CHOSEN_MAJORITY:
		return "majority";
	default:
		return "compared";
	}
}

void verdict_judge_state(const struct verdict_claim *claim,
			 const struct verdict_config *where,
			 const struct verdict_samples *before,
			 const struct verdict_samples *after,
			 const struct verdict_rounds *r, u32 state,
			 u64 alpha_ppb, struct verdict *v)
{
	static u64 b[MW_MAX_SAMPLES], a[MW_MAX_SAMPLES];
	u32 n = before->n, np = max(before->processes, 1u), per = n / np;
	const u8 *which = r->which;
	u32 rounds = 0, in = 0;

	verdict_start(v, claim, where, before, after);
	v->by = r->by;
	v->chosen = r->chosen;
	v->state = state + 1;
	v->nr_states = r->nr_states;
	v->alpha_ppb = alpha_ppb;
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
	/* None where the others tied on every round of the state: too few. */
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
	/* A compared side's rounds: "seen" at most, from the rounds. */
	if (by_processes(before, after) && in >= SR_MIN_N &&
	    r->chosen != VERDICT_CHOSEN_COMPARED) {
		v->scope = VERDICT_SCOPE_PROCESSES;
		judge_processes(v, before, after, which, state, alpha_ppb);
		return;
	}
	judge_runs(v, b, rounds, a, rounds, alpha_ppb);
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

/* A level in parts per 10^9 as a decimal, no trailing zeros: "0.025". */
static const char *alpha_words(u64 alpha_ppb)
{
	static char buf[24];
	size_t end;

	ntb_snprintf(buf, sizeof(buf), "%s", bench_fixed(alpha_ppb, MW_PPB, 6));
	end = strlen(buf);
	while (end > 1 && buf[end - 1] == '0' && buf[end - 2] != '.')
		buf[--end] = 0;
	return buf;
}

int verdict_format(char *buf, size_t len, const struct verdict *v)
{
	const struct verdict_claim *cl = v->claim;
	char where[64], posted[16], ci[48], p[24], state[160] = "";

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
			     " by=%s chosen=%s state=%u/%u rounds=%u alpha=%s",
			     v->by, verdict_chosen_name(v->chosen), v->state,
			     v->nr_states, v->rounds,
			     alpha_words(v->alpha_ppb));
	return ntb_snprintf(
		buf, len,
		"# %s claim=\"%s\" what=\"%s\" before=%s "
		"after=%s source=%s %s%s posted=%s before_ns=%llu "
		"after_ns=%llu speedup=%s %s measured_over_posted=%s "
		"vs_posted=%s p=%s scope=%s processes=%u n=%u+%u test=%s "
		"verdict=\"%s\"",
		v->state ? "state-verdict" : "verdict", cl->subject, cl->what,
		v->before, v->after, cl->source, where, state, posted,
		v->before_ns, v->after_ns, v->after_ns ? x3(v->speedup) : "-",
		ci, over_posted(v, 3), verdict_vs_posted_name(v->vs_posted), p,
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

/*
 * "# state ..." lines: each state of @c's runs, where it has several, and
 * in how many processes both were seen (seen_in=).
 */
static void print_states(const char *where, const struct verdict_samples *c,
			 const struct states *st)
{
	for (u32 s = 0; s < st->nr; s++)
		kunit_diag("# state strategy=%s %s runs=%u state=%u/%u "
			   "state_runs=%u median_ns=%llu low_ns=%llu "
			   "high_ns=%llu apart=%s seen_in=%u\n",
			   c->name, where, st->n, s + 1, st->nr, st->s[s].runs,
			   st->s[s].median_ns, st->s[s].low_ns,
			   st->s[s].high_ns, x3(states_apart(st)), st->seen_in);
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
 * Whether @x, of a configuration's contenders, may vote on the states of
 * rounds where @side ran in the states @st: it is neither side of the
 * claim (@b, @a) nor the probe, ran in the same rounds, and its own runs
 * fall into as many states (@sx) seen inside a process.
 */
static bool votes_on_rounds(const struct verdict_samples *x,
			    const struct states *sx,
			    const struct verdict_samples *side,
			    const struct states *st,
			    const struct verdict_samples *b,
			    const struct verdict_samples *a)
{
	return x != b && x != a && x->kind != VERDICT_SAMPLES_PROBE &&
	       paired(x, side) && sx->nr == st->nr;
}

/*
 * The rounds of a claim's states (@r, @which), where @side, one of its
 * sides (@b, @a), ran in the states @st (@side_which: each round's): the
 * probe's own states, where it follows @side's and has as many; else each
 * round's state by the majority of the contenders that may vote
 * (votes_on_rounds(); a tie: the round is in no state); else @side's own,
 * a compared side's.
 */
static void choose_rounds(const struct verdict_samples *side,
			  const struct states *st, const u8 *side_which,
			  const struct verdict_samples *b,
			  const struct verdict_samples *a,
			  const struct verdict_samples *c,
			  const struct states *sts, u32 n, u8 *which,
			  struct verdict_rounds *r)
{
	/* The contenders that may vote: at most BENCH_MAX_ENTRIES. */
	u32 voter[BENCH_MAX_ENTRIES], nv = 0;
	struct verdict_follow f;

	*r = (struct verdict_rounds){.by = side->name,
				     .chosen = VERDICT_CHOSEN_COMPARED,
				     .which = which,
				     .nr_states = st->nr};
	for (u32 j = 0; j < n; j++) {
		if (c[j].kind != VERDICT_SAMPLES_PROBE || sts[j].nr != st->nr ||
		    !verdict_follows(side, &c[j], side_which, st, &f) ||
		    !f.follows)
			continue;
		for (u32 i = 0; i < side->n; i++)
			which[i] = states_of(&sts[j], c[j].ns[i]);
		r->by = c[j].name;
		r->chosen = VERDICT_CHOSEN_PROBE;
		return;
	}
	for (u32 j = 0; j < n && nv < ARRAY_SIZE(voter); j++)
		if (votes_on_rounds(&c[j], &sts[j], side, st, b, a))
			voter[nv++] = j;
	if (!nv) {
		memcpy(which, side_which, side->n);
		return;
	}
	r->voters = nv;
	r->by = nv == 1 ? c[voter[0]].name : "majority";
	r->chosen = VERDICT_CHOSEN_MAJORITY;
	for (u32 i = 0; i < side->n; i++) {
		u32 votes[STATES_MAX] = {0}, best = 0;
		bool tie = false;

		for (u32 v = 0; v < nv; v++)
			votes[states_of(&sts[voter[v]], c[voter[v]].ns[i])]++;
		for (u32 s = 1; s < st->nr; s++) {
			if (votes[s] == votes[best])
				tie = true;
			if (votes[s] > votes[best]) {
				best = s;
				tie = false;
			}
		}
		which[i] = tie ? STATES_NONE : best;
	}
}

/* @v's p in millionths, rounded half up as its line prints it. */
static u64 p_micro(const struct verdict *v)
{
	return (v->p_ppb + 500) / 1000;
}

/* Whether @v's test found a difference, either way. */
static bool verdict_significant(const struct verdict *v)
{
	return v->tested && v->word <= VERDICT_REVERSED;
}

/*
 * The claim of @v judged in each of @r's states (@sv[0..r->nr_states)),
 * held to Holm's steps: the states tested, by p, the first at alpha / m,
 * the next at alpha / (m - 1), ..., and each after one that found nothing
 * at that one's level.
 */
static void judge_states(const struct verdict *v,
			 const struct verdict_samples *b,
			 const struct verdict_samples *a,
			 const struct verdict_rounds *r, struct verdict *sv)
{
	u32 order[STATES_MAX], m = 0;
	u64 level = VERDICT_ALPHA_PPB;
	bool held = true;

	for (u32 s = 0; s < r->nr_states; s++) {
		u32 k = m;

		verdict_judge_state(v->claim, &v->where, b, a, r, s,
				    VERDICT_ALPHA_PPB, &sv[s]);
		if (!sv[s].tested)
			continue;
		/*
		 * By p in millionths (as printed: tools/report's p is a float
		 * that agrees with p_ppb to the millionth, not to the ppb),
		 * then by state: an insertion.
		 */
		for (m++; k && p_micro(&sv[order[k - 1]]) > p_micro(&sv[s]);
		     k--)
			order[k] = order[k - 1];
		order[k] = s;
	}
	for (u32 k = 0; m > 1 && k < m; k++) {
		u32 s = order[k];

		if (held)
			level = VERDICT_ALPHA_PPB / (m - k);
		verdict_judge_state(v->claim, &v->where, b, a, r, s, level,
				    &sv[s]);
		held = held && verdict_significant(&sv[s]);
	}
}

/* The words of what chose the rounds, for the "# states:" sentence. */
static const char *chosen_words(const struct verdict_rounds *r)
{
	static char buf[96];

	if (r->chosen == VERDICT_CHOSEN_PROBE)
		ntb_snprintf(buf, sizeof(buf), "%s, the probe", r->by);
	else if (r->chosen == VERDICT_CHOSEN_MAJORITY)
		ntb_snprintf(buf, sizeof(buf), "the majority of %u other %s",
			     r->voters,
			     r->voters == 1 ? "contender" : "contenders");
	else
		ntb_snprintf(buf, sizeof(buf),
			     "%s, a compared side: seen at most", r->by);
	return buf;
}

/*
 * @v judged again in each state, where one of its sides' runs have
 * several (@sts: the states of each of @c; the before side's taken
 * first), over rounds chosen by choose_rounds(): "# state-verdict ..."
 * lines, then a "# states: ..." sentence, then, once for each side in
 * states (@done, @nr_done), whether each fill and probe among @c follows
 * its states, and the strategies' vs_slow in each.
 */
static void publish_in_states(const struct verdict *v,
			      const struct verdict_samples *c,
			      const struct states *sts, u32 n,
			      const char *where,
			      const struct verdict_samples **done, u32 *nr_done)
{
	static u8 side_which[MW_MAX_SAMPLES], which[MW_MAX_SAMPLES];
	static struct verdict sv[STATES_MAX];
	const struct verdict_samples *b = verdict_find_samples(c, n, v->before);
	const struct verdict_samples *a = verdict_find_samples(c, n, v->after);
	const struct verdict_samples *side;
	const struct states *st;
	static char line[VERDICT_LINE_MAX], say[VERDICT_LINE_MAX];
	struct verdict_rounds r;
	int len;

	/* Rounds pair up only where both sides ran in the same ones. */
	if (!b || !a || !paired(b, a))
		return;
	side = sts[b - c].nr > 1 ? b : a;
	st = &sts[side - c];
	if (st->nr < 2)
		return;
	for (u32 i = 0; i < side->n; i++)
		side_which[i] = states_of(st, side->ns[i]);
	choose_rounds(side, st, side_which, b, a, c, sts, n, which, &r);
	judge_states(v, b, a, &r, sv);
	len = ntb_snprintf(say, sizeof(say),
			   "# states: %s ran in %u states, %sx apart (%s); "
			   "rounds by %s; %s -> %s:",
			   side->name, st->nr,
			   bench_fixed(states_apart(st), VERDICT_SCALE, 2),
			   where, chosen_words(&r), v->before, v->after);
	for (u32 s = 0; s < st->nr; s++) {
		verdict_format(line, sizeof(line), &sv[s]);
		kunit_diag("%s\n", line);
		if (len > 0 && (size_t)len < sizeof(say))
			len += ntb_snprintf(
				say + len, sizeof(say) - len,
				"%s in %s (%u rounds) %sx, %s", s ? ";" : "",
				state_words(s, st->nr), sv[s].rounds,
				bench_fixed(sv[s].speedup, VERDICT_SCALE, 2),
				verdict_word_name(&sv[s]));
	}
	kunit_diag("%s\n", say);
	for (u32 i = 0; i < *nr_done; i++)
		if (done[i] == side)
			return;
	if (*nr_done < VERDICT_MAX_PER_CONFIG)
		done[(*nr_done)++] = side;
	for (u32 j = 0; j < n; j++)
		if (c[j].kind != VERDICT_SAMPLES_STRATEGY)
			print_follows(where, side, &c[j], side_which, st);
	print_vs_slow(where, side,
		      verdict_find_samples(c, n, v->where.baseline), c, n,
		      side_which, st);
}

/*
 * "# states: ..." of a contender whose runs fell into groups that are
 * whole processes: the processes differ, which is no machine state.
 */
static void print_processes_differ(const char *where,
				   const struct verdict_samples *c,
				   const struct states *st)
{
	kunit_diag("# states: %s's runs fall into %u groups, %sx apart (%s): "
		   "the processes differ (no process saw both)\n",
		   c->name, st->groups,
		   bench_fixed(st->groups_apart, VERDICT_SCALE, 2), where);
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
		states_find_in_processes(c[i].ns, c[i].n, c[i].processes,
					 &sts[i], NULL);
		if (sts[i].nr > 1)
			print_states(at, &c[i], &sts[i]);
		else if (sts[i].groups > 1)
			print_processes_differ(at, &c[i], &sts[i]);
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
