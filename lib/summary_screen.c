// SPDX-License-Identifier: GPL-2.0-only
#include "lib/bench.h"
#include "lib/bench_summary.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/summary_screen.h"
#include "lib/verdict.h"

/* The lines of one section, built before the layout decides how many fit. */
#define SECTION_MAX (2 * VERDICT_MAX + 8)

struct section {
	char line[SECTION_MAX][SUMMARY_MAX_COLS + 1];
	u8 kind[SECTION_MAX];
	unsigned int n;	    /* lines built */
	unsigned int head;  /* leading lines always kept with the rest */
	unsigned int items; /* items behind the lines after the head */
	unsigned int more;  /* items not even built (over the caps) */
	const char *what;   /* "failed cases", in the "... N more" line */
	/* Items per line after the head: 1, or a subject line in between. */
	u8 item[SECTION_MAX]; /* 1 where a line is an item */
};

static struct section failed_sec, verdict_sec, table_sec;

static void add(struct section *s, u8 kind, bool item, const char *fmt, ...)
	__printf(4, 5);

static void add(struct section *s, u8 kind, bool item, const char *fmt, ...)
{
	va_list ap;

	if (s->n == SECTION_MAX) {
		s->more += item;
		return;
	}
	va_start(ap, fmt);
	ntb_vsnprintf(s->line[s->n], sizeof(s->line[0]), fmt, ap);
	va_end(ap);
	s->kind[s->n] = kind;
	s->item[s->n] = item;
	s->items += item;
	s->n++;
}

static void reset(struct section *s, const char *what)
{
	s->n = s->head = s->items = s->more = 0;
	s->what = what;
}

static void build_failed(const struct summary_screen_in *in)
{
	struct section *s = &failed_sec;

	reset(s, "failed");
	for (unsigned int i = 0; i < in->nr_failed_names; i++)
		add(s, SUMMARY_FAIL, true, "  not ok  %s", in->failed_names[i]);
	/* Failures past the runner's list of names. */
	if (in->failed > in->nr_failed_names)
		s->more += in->failed - in->nr_failed_names;
}

static u8 verdict_kind(const struct verdict *v)
{
	/* One process or boot cannot say what the next one would. */
	bool replicated = v->scope == VERDICT_SCOPE_PROCESSES;

	switch (v->word) {
	case VERDICT_CONFIRMED:
	case VERDICT_BEYOND:
	case VERDICT_FASTER:
		return replicated ? SUMMARY_PASS : SUMMARY_SKIP;
	case VERDICT_REVERSED:
		return replicated ? SUMMARY_FAIL : SUMMARY_SKIP;
	/* A speed-up, but not the posted one. */
	case VERDICT_SHORT:
	case VERDICT_NOT_CONFIRMED:
	case VERDICT_SPLIT:
		return SUMMARY_SKIP;
	default:
		return SUMMARY_DIM;
	}
}

static void build_verdicts(const struct summary_screen_in *in)
{
	struct section *s = &verdict_sec;
	const char *subject = NULL;
	char row[SUMMARY_MAX_COLS + 1];

	reset(s, "verdicts");
	if (!in->nr_verdicts)
		return;
	add(s, SUMMARY_TEXT, false,
	    "  Verdicts on the postings' claims on "
	    "this CPU (speed-up, 95%% CI, U test):");
	s->head = 1;
	for (unsigned int i = 0; i < in->nr_verdicts; i++) {
		const struct verdict *v = &in->verdicts[i];

		if (!subject || strcmp(subject, v->claim->subject)) {
			subject = v->claim->subject;
			add(s, SUMMARY_DIM, false, "  \"%s\"", subject);
		}
		verdict_format_short(row, sizeof(row), v);
		add(s, verdict_kind(v), true, "   %s", row);
	}
	s->more += in->dropped_verdicts;
}

static void build_table(const struct summary_screen_in *in)
{
	struct section *s = &table_sec;

	reset(s, "rows");
	if (!in->nr_rows)
		return;
	add(s, SUMMARY_TEXT, false,
	    "  bench_memmap_init (median of runs "
	    "2..N; limit: the fastest fill):");
	add(s, SUMMARY_DIM, false, "    %-16s %4s %-8s %10s %7s %8s",
	    "strategy", "size", "mode", "median_ms", "vs_slow", "of_limit");
	s->head = 2;
	for (unsigned int i = 0; i < in->nr_rows; i++) {
		const struct bench_summary_row *t = &in->rows[i];
		/*
		 * Faster than every fill of the same bytes: the limit is no
		 * ceiling on this machine, which the reader must not miss.
		 */
		bool beats = t->limit_ns && t->median_ns < t->limit_ns;

		add(s, beats ? SUMMARY_SKIP : SUMMARY_TEXT, true,
		    "    %-16s %4u %-8s %10s %6sx %7s%%%s", t->strategy,
		    t->page_size, t->mode,
		    bench_fixed(t->median_ns, 1000000, 2),
		    t->slow_ns ? bench_fixed(t->slow_ns, t->median_ns, 2) : "-",
		    t->limit_ns
			    ? bench_fixed(t->limit_ns * 100, t->median_ns, 1)
			    : "-",
		    beats ? " beats limit" : "");
	}
	s->more += in->dropped_rows;
}

/* Lines the whole section needs. */
static unsigned int need(const struct section *s)
{
	return s->n + (s->more ? 1 : 0);
}

struct out {
	char *text;
	u8 *kind;
	unsigned int cols, rows, used;
};

static void put(struct out *o, u8 kind, const char *s)
{
	char *dst;
	unsigned int i;

	if (o->used >= o->rows)
		return;
	dst = o->text + (size_t)o->used * (o->cols + 1);
	for (i = 0; i < o->cols && s[i]; i++)
		dst[i] = s[i];
	dst[i] = 0;
	o->kind[o->used++] = kind;
}

/*
 * The section in at most @room lines: all of it, or its head, as many
 * lines as fit and "... N more" for the items left out.
 */
static void emit(struct out *o, const struct section *s, unsigned int room)
{
	unsigned int shown = 0, i;
	char more[64];

	if (!need(s) || !room)
		return;
	if (need(s) <= room) {
		for (i = 0; i < s->n; i++)
			put(o, s->kind[i], s->line[i]);
		shown = s->items;
	} else {
		/* Keep one line for "... N more". */
		unsigned int keep = room - 1;

		for (i = 0; i < s->n && i < keep; i++) {
			/* A heading with nothing under it is no use. */
			if (!s->item[i] && i + 1 == keep && i >= s->head)
				break;
			put(o, s->kind[i], s->line[i]);
			shown += s->item[i];
		}
	}
	if (s->items + s->more > shown) {
		ntb_snprintf(more, sizeof(more), "    ... %u more %s",
			     s->items + s->more - shown, s->what);
		put(o, SUMMARY_DIM, more);
	}
}

unsigned int summary_screen_compose(const struct summary_screen_in *in,
				    unsigned int cols, unsigned int rows,
				    char *text, u8 *kind)
{
	struct out o = {.text = text,
			.kind = kind,
			.rows = rows,
			.cols = cols < SUMMARY_MAX_COLS ? cols
							: SUMMARY_MAX_COLS};
	struct section *sec[3] = {&failed_sec, &verdict_sec, &table_sec};
	unsigned int room[3], want[3], left, fixed;
	char line[SUMMARY_MAX_COLS + 1];
	const char *cpu = in->cpu && in->cpu[0] ? in->cpu : "unknown";

	while (*cpu == ' ') /* CPUID pads the brand string */
		cpu++;
	build_failed(in);
	build_verdicts(in);
	build_table(in);

	ntb_snprintf(line, sizeof(line), "  ntboot %s: run finished",
		     in->version);
	put(&o, SUMMARY_TEXT, line);
	ntb_snprintf(line, sizeof(line), "  CPU: %s", cpu);
	put(&o, SUMMARY_TEXT, line);
	ntb_snprintf(line, sizeof(line),
		     "  %s   %u passed, %u failed, "
		     "%u skipped",
		     in->failed ? "FAIL" : "PASS", in->passed, in->failed,
		     in->skipped);
	put(&o, in->failed ? SUMMARY_FAIL : SUMMARY_PASS, line);
	if (in->relax && (in->relax->allowed || in->relax->forbidden)) {
		const struct relaxation_totals *r = in->relax;

		/* How much of the ordering table this CPU backed. */
		ntb_snprintf(line, sizeof(line),
			     "  ordering: %u of %u allowed relaxations "
			     "observed, %u forbidden observed",
			     r->allowed_observed, r->allowed,
			     r->forbidden_observed);
		put(&o, r->forbidden_observed ? SUMMARY_FAIL : SUMMARY_TEXT,
		    line);
	}

	/*
	 * The rest: a blank line before each section that has lines and
	 * before the footer. Each section first gets a few lines (the
	 * failures and the verdicts are the answer), then what is left
	 * goes to them in order.
	 */
	fixed = o.used + (in->footer ? 2 : 0);
	left = rows > fixed ? rows - fixed : 0;
	for (int i = 0; i < 3; i++) {
		want[i] = need(sec[i]) ? need(sec[i]) + 1 : 0;
		room[i] = 0;
	}
	for (int i = 0; i < 3; i++) {
		unsigned int first = min(want[i], i == 2 ? 4u : 5u);

		first = min(first, left);
		room[i] = first;
		left -= first;
	}
	for (int i = 0; i < 3; i++) {
		unsigned int more = min(want[i] - room[i], left);

		room[i] += more;
		left -= more;
	}
	for (int i = 0; i < 3; i++) {
		if (room[i] < 2)
			continue; /* a blank line and nothing under it */
		put(&o, SUMMARY_TEXT, "");
		emit(&o, sec[i], room[i] - 1);
	}
	if (in->footer && o.used + 2 <= rows) {
		put(&o, SUMMARY_TEXT, "");
		put(&o, SUMMARY_DIM, in->footer);
	}
	return o.used;
}
