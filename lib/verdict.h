/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Verdicts on the patch postings' claims, made where the figures are
 * measured, so a person at the console sees them without tools/report.
 * Each claim is a speed-up, time before / time after, of two strategies
 * (or copy methods) measured in the same rounds. The benchmarks feed the
 * samples of runs 2..N of every contender of one configuration; each
 * claim both of whose sides are among them is judged by the rules of
 * tools/report's verdict section (docs/statistics.md). What a verdict
 * may say depends on what it stands on (its scope):
 *
 *   processes: several processes measured (the hosted runner's
 *     processes=), and the process is the unit: one speed-up per process
 *     from its two medians, Wilcoxon's signed-rank test on them
 *     (lib/signed_rank.h):
 *       faster (the words below)   significant (p < 0.05), the
 *                                  claimed way
 *       reversed on this CPU       significant, the other way
 *       split between processes    not significant, and the processes'
 *                                  speed-ups lie on both sides of 1
 *       not confirmed              not significant otherwise
 *       untested                   fewer than 6 processes
 *   rounds: the rounds of one machine state (below) from too few
 *     processes for the test above, or chosen by a compared side's own
 *     states: the Mann-Whitney test on the runs, and at most "seen ...
 *     in one state's rounds";
 *   one-process, one-boot: the runs of one process or boot, which cannot
 *     show how far the next process or boot would differ; the
 *     Mann-Whitney test of lib/mannwhitney.h on the runs, and at most
 *     "seen ... in one process" (or boot).
 *
 * Where the after side is significantly faster, the word judges the
 * claim's size: where the posted speed-up R lies against the interval
 * [lo, hi] measured here. confirmed (lo <= R <= hi), beyond the posted
 * (R < lo), faster, short of the posted (hi < R), or faster where
 * nothing was posted or there is no interval; in one process "seen in
 * one process", "seen beyond the posted in one process", and so on.
 * manifest/verdicts.yaml lists every word of every scope.
 *
 * Each verdict is printed as a "# verdict ..." line (vs_posted= says
 * where R lies against the interval, whatever the word); the verdicts are
 * kept for the end-of-run screen.
 *
 * Where a contender's runs fall into separate states (lib/states.h: some
 * process saw two), a "# state ..." line names each; where its groups
 * are whole processes, a "# states: ..." line says the processes differ,
 * and nothing is judged in them. A claim with a side in states is judged
 * again in each state ("# state-verdict ..."), over the rounds in that
 * state: both sides' runs of such a round, as they were measured
 * together. What the claim does not compare chooses which rounds are in
 * which state: the probe where it follows the side's states, else the
 * majority of the other contenders in as many states; only where neither
 * can, the side's own states, and then the words say "seen" at most (a
 * side's slow rounds are partly where its own noise ran slow, and its
 * speed-up there larger by that alone). The states' tests are held to
 * Holm's steps for their number (alpha= on each line). A state of fewer
 * than VERDICT_STATE_MIN_ROUNDS rounds is said to have too few rather
 * than judged. A "# states: ..." line says in words what was seen.
 * Each fill and probe among the contenders is tested against each
 * strategy's states ("# follows ..."): are its runs in the slower
 * state's rounds slower, by the runs' U test? That says whether it can
 * tell the states apart where the strategy cannot be run. "# vs_slow ..."
 * lines give each strategy's speed-up over `slow` in each of those
 * states.
 */
#ifndef NTBOOT_LIB_VERDICT_H
#define NTBOOT_LIB_VERDICT_H

#include "include/types.h"
#include "lib/states.h"

/* The tests' level, parts per 10^9: 0.05. */
#define VERDICT_ALPHA_PPB 50000000ull
/* Ratios in millionths. */
#define VERDICT_SCALE 1000000ull
/* Verdicts kept for the screen. */
#define VERDICT_MAX 32
/*
 * Room for one "# verdict" or "# state-verdict" line: the longest claim
 * with the longest word in the longest scope comes to about 600 bytes.
 */
#define VERDICT_LINE_MAX 1024
/* The fewest rounds a state is judged on (5 a side: the runs' test). */
#define VERDICT_STATE_MIN_ROUNDS 6

/*
 * What a verdict found; its word in each scope is manifest/verdicts.yaml's
 * (verdict_word_name()), in this order. Where the after side is found
 * faster, the word says where the posted speed-up R lies against the
 * measured interval [lo, hi] (enum verdict_vs_posted).
 */
enum verdict_word {
	VERDICT_CONFIRMED,     /* faster, lo <= R <= hi */
	VERDICT_BEYOND,	       /* faster, R < lo: faster than posted */
	VERDICT_SHORT,	       /* faster, hi < R: short of the posted */
	VERDICT_FASTER,	       /* faster, no R or no interval: no size */
	VERDICT_REVERSED,      /* slower */
	VERDICT_SPLIT,	       /* processes disagree on the direction */
	VERDICT_NOT_CONFIRMED, /* not significant */
	VERDICT_UNTESTED,
	VERDICT_TOO_FEW, /* a state of too few rounds to judge */
	VERDICT_NR_WORDS
};

/* Where the posted speed-up R lies against the measured interval. */
enum verdict_vs_posted {
	VERDICT_VS_POSTED_NONE,	  /* no R, or no interval: "-" */
	VERDICT_VS_POSTED_WITHIN, /* lo <= R <= hi */
	VERDICT_VS_POSTED_BEYOND, /* R < lo: measured beyond the posted */
	VERDICT_VS_POSTED_SHORT,  /* hi < R: measured short of it */
};

enum verdict_scope {
	VERDICT_SCOPE_PROCESSES,
	VERDICT_SCOPE_ONE_PROCESS,
	VERDICT_SCOPE_ONE_BOOT,
	VERDICT_SCOPE_ROUNDS, /* one state's rounds, too few processes */
	VERDICT_NR_SCOPES
};

struct verdict_claim {
	const char *subject; /* the posting */
	const char *what;
	const char *suite;
	const char *mode; /* bench_memmap_init: the namespace mode */
	u64 chunk;	  /* bench_nocache_copy: the chunk size */
	/*
	 * What the pair is: "model", the model's strategies (or the
	 * project's copy methods), or "kernel", builds of the kernel's own
	 * compiled code (manifest/strategies.yaml's kernels:).
	 */
	const char *source;
	/* NULL: the copy-then-clean method the kernel would use here. */
	const char *before;
	const char *after;
	const char *posted; /* "244.28 ms -> 96.79 ms" */
	/* The posted speed-up, num / den; den 0: no figure of its own. */
	u64 posted_num, posted_den;
};

/*
 * One contender of a configuration: its name and runs 2..N of each
 * process, process after process (n / processes each).
 */
enum verdict_samples_kind {
	VERDICT_SAMPLES_STRATEGY,
	VERDICT_SAMPLES_FILL,  /* a full-line fill: the limit */
	VERDICT_SAMPLES_PROBE, /* the state probe */
};

struct verdict_samples {
	const char *name;
	const u64 *ns;
	u32 n;
	u32 processes; /* 0 or 1: one process (or boot) */
	enum verdict_samples_kind kind;
};

/* Where a configuration was measured. */
struct verdict_config {
	const char *suite;
	unsigned int page_size; /* bench_memmap_init */
	const char *mode;	/* bench_memmap_init */
	const char *map;	/* bench_memmap_init: "dev" or "mem", or NULL */
	u64 chunk;		/* bench_nocache_copy */
	const char *copy_clean; /* bench_nocache_copy: the kernel's method */
	/* bench_memmap_init: the strategy vs_slow is taken against */
	const char *baseline;
};

/*
 * What chose the rounds of a claim's states: what the claim does not
 * compare, where it can (the rounds of one side's slow state are rounds
 * where that side ran slowly, by its own noise as well as the machine's,
 * and its speed-up there is larger by that selection alone).
 */
enum verdict_chosen {
	VERDICT_CHOSEN_PROBE,	 /* the probe, which follows the states */
	VERDICT_CHOSEN_MAJORITY, /* the majority of the other contenders */
	VERDICT_CHOSEN_COMPARED, /* a compared side: at most "seen" */
};

/* The rounds of a claim's states: each round's (STATES_NONE: none). */
struct verdict_rounds {
	const char *by; /* the probe's or a side's name, or "majority" */
	enum verdict_chosen chosen;
	const u8 *which;
	u32 nr_states;
	u32 voters; /* a majority's: how many voted */
};

struct verdict {
	const struct verdict_claim *claim;
	struct verdict_config where;
	const char *before, *after;
	enum verdict_scope scope;
	u32 processes;
	u32 n_before, n_after;	 /* runs, all processes together */
	u64 before_ns, after_ns; /* medians of all runs */
	/*
	 * before / after, VERDICT_SCALE: with several processes the
	 * Hodges-Lehmann centre of their speed-ups (lib/signed_rank.h), else
	 * the ratio of the medians.
	 */
	u64 speedup;
	bool has_ci;
	u64 ci_lo, ci_hi; /* the speed-up's 95% CI */
	bool tested;
	u64 p_ppb;
	bool exact;
	enum verdict_vs_posted vs_posted;
	enum verdict_word word;
	/*
	 * In one state: state 1..nr_states (fastest first), over @rounds
	 * rounds, chosen by @by (@chosen says what it is); the test held to
	 * @alpha_ppb (Holm's step for the states judged); state 0: every
	 * round.
	 */
	const char *by;
	enum verdict_chosen chosen;
	u32 state, nr_states, rounds;
	u64 alpha_ppb;
};

extern const struct verdict_claim verdict_claims[];
extern const unsigned int verdict_nr_claims;

/* The samples named @name among @n (NULL: none, or @name NULL). */
const struct verdict_samples *
verdict_find_samples(const struct verdict_samples *c, u32 n, const char *name);

/*
 * @cl is about @where's suite and configuration (mode, chunk); a memmap
 * claim about map=dev alone (or a run without map=): the postings'
 * namespaces, as tools/report judges them.
 */
bool verdict_claim_covers(const struct verdict_claim *cl,
			  const struct verdict_config *where);

/* The verdict's word, as its line prints it. */
const char *verdict_word_name(const struct verdict *v);
const char *verdict_scope_name(enum verdict_scope s);
/* within, beyond, short or "-" */
const char *verdict_vs_posted_name(enum verdict_vs_posted p);

/*
 * Where @claim's posted speed-up lies against the interval [@lo, @hi]
 * (VERDICT_SCALE); VERDICT_VS_POSTED_NONE where it posts none or @has_ci
 * is false.
 */
enum verdict_vs_posted verdict_vs_posted(const struct verdict_claim *claim,
					 bool has_ci, u64 lo, u64 hi);

/*
 * Whether a ratio lies in a band [@band_lo, @band_hi] (VERDICT_SCALE),
 * judged from its interval only: yes (the interval inside the band), no
 * (wholly outside), unsure (across an edge), untested (no interval: an
 * estimate alone says nothing of where the ratio lies).
 */
enum verdict_band {
	VERDICT_BAND_UNTESTED,
	VERDICT_BAND_YES,
	VERDICT_BAND_NO,
	VERDICT_BAND_UNSURE,
};

enum verdict_band verdict_in_band(const struct verdict *v, u64 band_lo,
				  u64 band_hi);
const char *verdict_band_name(enum verdict_band b);

/*
 * Why @v has no interval, as a line's reason= says it ("processes=3",
 * "runs=3+3"), into @buf.
 */
int verdict_no_interval_reason(char *buf, size_t len, const struct verdict *v);

/*
 * Judge @before against @after (runs 2..N of each process) for @claim at
 * @where; the two must come from the same processes. The samples are
 * copied; the caller's stay as they are.
 */
void verdict_judge(const struct verdict_claim *claim,
		   const struct verdict_config *where,
		   const struct verdict_samples *before,
		   const struct verdict_samples *after, struct verdict *v);

/*
 * verdict_judge() over the rounds i whose @r->which[i] is @state
 * (0-based), at the level @alpha_ppb; @before and @after are measured in
 * the same rounds (the same n and processes). Rounds a compared side
 * chose are judged on the rounds' U test alone, whose words say "seen".
 */
void verdict_judge_state(const struct verdict_claim *claim,
			 const struct verdict_config *where,
			 const struct verdict_samples *before,
			 const struct verdict_samples *after,
			 const struct verdict_rounds *r, u32 state,
			 u64 alpha_ppb, struct verdict *v);

/* chosen=: probe, majority or compared. */
const char *verdict_chosen_name(enum verdict_chosen c);

/*
 * Every claim whose two sides are among @n contenders of @where, judged
 * into @out (at most @max). Returns how many.
 */
unsigned int verdict_feed(const struct verdict_config *where,
			  const struct verdict_samples *c, u32 n,
			  struct verdict *out, unsigned int max);

/* How a fill's or the probe's runs went in a strategy's states. */
struct verdict_follow {
	u32 n_fast, n_slow;   /* its runs in the fastest and slowest states */
	u64 fast_ns, slow_ns; /* their medians */
	bool tested;	      /* 5 runs a side or more */
	u64 p_ppb;	      /* the U test's, two-sided */
	bool follows;	      /* significantly slower in the slowest */
};

/*
 * Whether @y, measured in the same rounds as @x, follows @x's states
 * @st (@which: each run's state). False where they cannot be compared.
 */
bool verdict_follows(const struct verdict_samples *x,
		     const struct verdict_samples *y, const u8 *which,
		     const struct states *st, struct verdict_follow *f);

/*
 * `slow`'s median over @x's, both over the rounds of @state in @which,
 * in millionths (the summary table's vs_slow, in one state); 0 where
 * they were not measured in the same rounds. @rounds: how many.
 */
u64 verdict_state_vs_slow(const struct verdict_samples *slow,
			  const struct verdict_samples *x, const u8 *which,
			  u32 state, u32 *rounds);

/*
 * The "# verdict ..." line of @v (no newline) into @buf; of a verdict in
 * one state, "# state-verdict ..." with by=, state= and rounds=.
 */
int verdict_format(char *buf, size_t len, const struct verdict *v);
/*
 * "ci_low=L ci_high=H" of @v's interval, each "-" where it has none,
 * into @buf (every line that prints a judged ratio).
 */
const char *verdict_format_ci(char *buf, size_t len, const struct verdict *v);

/* A short row for the screen: word, lines, speed-up, interval, posted. */
int verdict_format_short(char *buf, size_t len, const struct verdict *v);

/*
 * verdict_feed() for the benchmarks: prints each verdict as a KTAP
 * diagnostic and keeps it for the end-of-run screen.
 */
void verdict_publish(const struct verdict_config *where,
		     const struct verdict_samples *c, u32 n);

/* The verdicts published so far; those past VERDICT_MAX are counted. */
unsigned int verdict_count(void);
const struct verdict *verdict_get(unsigned int i);
unsigned int verdict_dropped(void);

#endif
