// SPDX-License-Identifier: GPL-2.0-only
/*
 * The non-temporal store ordering checker; see ntcheck.h and
 * docs/ntcheck.md.
 *
 * A CPU's pending set is a small table of runs of cache lines: a store
 * that touches or extends a run of the same kind grows it, so the
 * thousands of struct page copies of one memmap run stay one entry per
 * stretch between cached copies. Each run keeps the first and the last
 * store that grew it (instruction and address). A store that fits no run
 * and finds the table full is a finding of its own: nothing is dropped
 * silently.
 *
 * The recorder is real in every build. In a checking build (NTB_NTCHECK)
 * the primitives feed it; elsewhere only the memmap model's checked loops
 * do, a copy or fill at a time, under the strategy's name.
 */
#include "lib/ntcheck.h"
#include "include/platform.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"

static const char *const op_names[NR_NTCHECK_OPS] = {
	[NTCHECK_MOVNTI] = "movnti",
	[NTCHECK_MOVNTDQ] = "movntdq",
	[NTCHECK_VMOVNTDQ_YMM] = "vmovntdq(ymm)",
	[NTCHECK_VMOVNTDQ_ZMM] = "vmovntdq(zmm)",
	[NTCHECK_MOVDIR64B] = "movdir64b",
	[NTCHECK_CLWB] = "clwb",
	[NTCHECK_CLFLUSHOPT] = "clflushopt",
	[NTCHECK_CLFLUSH] = "clflush",
};

const char *ntcheck_op_name(enum ntcheck_op op)
{
	return (unsigned int)op < NR_NTCHECK_OPS ? op_names[op] : "?";
}

bool ntcheck_built(void)
{
#ifdef NTB_NTCHECK
	return true;
#else
	return false;
#endif
}

#define NT_LINE 64UL
#define NT_RUNS 1024		/* runs per CPU */
#define NT_SHOWN_POINTS 8	/* distinct points printed per case */

enum nt_kind {
	NT_DATA,		/* non-temporal data not yet ordered */
	NT_WRITEBACK,		/* CLWB/CLFLUSHOPT not yet ordered */
};

struct nt_run {
	uptr start, end;	/* line-aligned, [start, end) */
	uptr ip_first, ip_last;
	u16 ops;		/* bit per enum ntcheck_op that stored here */
	u8 kind;
	const char *store;	/* model-level store (a strategy), or NULL */
};

struct nt_cpu {
	unsigned int nr;
	unsigned int last;	/* the run grown last: tried first */
	bool overflowed;	/* reported once per fence epoch */
	struct nt_run run[NT_RUNS];
	struct ntcheck_trace *trace;
};

static struct nt_cpu *nt_cpus;
static unsigned int nt_nr_cpus;
static bool nt_on;

/* Findings of the current case. */
static unsigned int nt_findings;
static unsigned int nt_shown;
static const char *nt_shown_points[NT_SHOWN_POINTS];
static bool nt_expecting;
static unsigned int nt_expected;
static char nt_first[800];
static const char *nt_exp_points[NT_SHOWN_POINTS];
static unsigned int nt_exp_nr_points;

bool ntcheck_active(void)
{
	return READ_ONCE(nt_on);
}

void ntcheck_init(void)
{
	unsigned int n = plat_cpu_count();
	size_t bytes = ALIGN_UP(n * sizeof(struct nt_cpu), 4096);

	if (nt_cpus)
		return;
	nt_cpus = plat_alloc_aligned(bytes, 4096);
	if (!nt_cpus) {
		kprintf("# ntcheck: no memory for %u pending sets: checker "
			"off\n", n);
		return;
	}
	memset(nt_cpus, 0, bytes);
	nt_nr_cpus = n;
}

static void clear_cpu(struct nt_cpu *c)
{
	c->nr = 0;
	c->last = 0;
	c->overflowed = false;
}

void ntcheck_case_begin(bool on)
{
	for (unsigned int i = 0; i < nt_nr_cpus; i++)
		clear_cpu(&nt_cpus[i]);
	nt_findings = 0;
	nt_shown = 0;
	nt_expecting = false;
	WRITE_ONCE(nt_on, on && nt_cpus);
}

/* ------------------------------------------------------------------ */

static void run_where(const struct nt_run *r, char *buf, size_t len)
{
	char first[240], last[240];
	char ops[64] = "";
	size_t o = 0;

	if (r->store) {
		ntb_snprintf(ops, sizeof(ops), "the stores of %s", r->store);
	} else {
		for (int i = 0; i < NR_NTCHECK_OPS; i++)
			if (r->ops & (1u << i))
				o += ntb_snprintf(ops + o, sizeof(ops) - o,
						  "%s%s", o ? "+" : "",
						  op_names[i]);
	}
	plat_symbolize(r->ip_first, first, sizeof(first));
	plat_symbolize(r->ip_last, last, sizeof(last));
	if (r->ip_first == r->ip_last || !strcmp(first, last))
		ntb_snprintf(buf, len, "%s at %s", ops, first);
	else
		ntb_snprintf(buf, len, "%s, first at %s, last at %s", ops,
			     first, last);
}

/*
 * One finding: counted, printed as a failed expectation of the running
 * case the first time its point shows up in the case, counted only after.
 */
static void __printf(4, 5) finding(const char *point, const char *file,
				   int line, const char *fmt, ...)
{
	struct kunit *test = kunit_current();
	char msg[800];
	bool show = true;
	va_list ap;

	va_start(ap, fmt);
	ntb_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	if (READ_ONCE(nt_expecting)) {
		if (!__atomic_fetch_add(&nt_expected, 1, __ATOMIC_RELAXED))
			ntb_snprintf(nt_first, sizeof(nt_first), "%s", msg);
		for (unsigned int i = 0; i < nt_exp_nr_points; i++)
			if (!strcmp(nt_exp_points[i], point))
				return;
		if (nt_exp_nr_points < NT_SHOWN_POINTS)
			nt_exp_points[nt_exp_nr_points++] = point;
		return;
	}
	__atomic_fetch_add(&nt_findings, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < READ_ONCE(nt_shown); i++)
		if (nt_shown_points[i] == point)
			show = false;
	if (show && nt_shown < NT_SHOWN_POINTS)
		nt_shown_points[nt_shown++] = point;
	else
		show = false;
	if (!test) {
		kprintf("# %s\n", msg);
		return;
	}
	if (!show) {
		test->status = KUNIT_FAILURE;
		return;
	}
	kunit_fail_at(test, file, line, "%s", msg);
}

static struct nt_cpu *this_set(const char *what)
{
	unsigned int cpu = plat_this_cpu();

	if (cpu < nt_nr_cpus)
		return &nt_cpus[cpu];
	finding("untracked CPU", __FILE__, __LINE__,
		"ntcheck: %s on CPU %u, which has no pending set (%u sets)",
		what, cpu, nt_nr_cpus);
	return NULL;
}

static void trace_op(struct nt_cpu *c, uptr start, uptr end,
		     enum ntcheck_op op)
{
	struct ntcheck_trace *t = c->trace;

	for (uptr l = start; l < end; l += NT_LINE) {
		if (t->nr >= t->cap) {
			t->overflow = true;
			return;
		}
		t->e[t->nr].line = l;
		t->e[t->nr].op = op;
		t->nr++;
	}
}

static bool run_grows(struct nt_run *r, uptr start, uptr end, u8 kind,
		      const char *store)
{
	return r->kind == kind && r->store == store && start <= r->end &&
	       end >= r->start;
}

/* Add [p, p + n) to this CPU's set, stored by @op or by @store. */
static void record(const void *p, size_t n, enum ntcheck_op op,
		   const char *store, uptr ip)
{
	uptr start = ALIGN_DOWN((uptr)p, NT_LINE);
	uptr end = ALIGN_UP((uptr)p + n, NT_LINE);
	u8 kind = op == NTCHECK_CLWB || op == NTCHECK_CLFLUSHOPT ?
			  NT_WRITEBACK :
			  NT_DATA;
	struct nt_cpu *c;
	struct nt_run *r = NULL;

	if (!READ_ONCE(nt_on) || !n)
		return;
	c = this_set(store ? store : ntcheck_op_name(op));
	if (!c)
		return;
	if (c->trace && !store)
		trace_op(c, start, end, op);
	/* CLFLUSH is ordered with the stores around it: nothing pending. */
	if (op == NTCHECK_CLFLUSH)
		return;

	if (c->nr && run_grows(&c->run[c->last], start, end, kind, store)) {
		r = &c->run[c->last];
	} else {
		for (unsigned int i = 0; i < c->nr; i++) {
			if (run_grows(&c->run[i], start, end, kind, store)) {
				r = &c->run[i];
				c->last = i;
				break;
			}
		}
	}
	if (r) {
		r->start = min(r->start, start);
		r->end = max(r->end, end);
		r->ip_last = ip;
		r->ops |= 1u << op;
		return;
	}
	if (c->nr == NT_RUNS) {
		char where[240];

		if (c->overflowed)
			return;
		c->overflowed = true;
		plat_symbolize(ip, where, sizeof(where));
		finding("pending-set overflow", __FILE__, __LINE__,
			"ntcheck: pending set full (%u runs) on CPU %u: "
			"%s of line 0x%lx at %s is not tracked",
			NT_RUNS, plat_this_cpu(),
			store ? store : op_names[op],
			(unsigned long)start, where);
		return;
	}
	c->last = c->nr++;
	r = &c->run[c->last];
	*r = (struct nt_run){ .start = start, .end = end, .ip_first = ip,
			      .ip_last = ip, .ops = (u16)(1u << op),
			      .kind = kind, .store = store };
}

void __ntcheck_op(const void *p, size_t n, enum ntcheck_op op)
{
	record(p, n, op, NULL, (uptr)__builtin_return_address(0));
}

/*
 * The model's record: the strategy's copy or fill wrote [p, p + n) with
 * non-temporal stores (which ones, the primitives would say in a checking
 * build). The return address is in the checked loop that stored.
 */
void __ntcheck_model_store(const void *p, size_t n, const char *store)
{
	record(p, n, NTCHECK_MOVNTI, store,
	       (uptr)__builtin_return_address(0));
}

void __ntcheck_model_drained(void)
{
	__ntcheck_fence(NTCHECK_SFENCE);
}

void __ntcheck_fence(enum ntcheck_fence f)
{
	struct nt_cpu *c;

	if (!READ_ONCE(nt_on))
		return;
	c = this_set("fence");
	if (c)
		clear_cpu(c);
}

void __ntcheck_cached_store(const void *p, size_t n, const char *point,
			    const char *file, int line)
{
	uptr start = ALIGN_DOWN((uptr)p, NT_LINE);
	uptr end = ALIGN_UP((uptr)p + n, NT_LINE);
	struct nt_cpu *c;

	if (!READ_ONCE(nt_on) || !n)
		return;
	c = this_set(point);
	if (!c)
		return;
	for (unsigned int i = 0; i < c->nr; i++) {
		struct nt_run *r = &c->run[i];
		char where[520];

		if (r->kind != NT_DATA || r->end <= start || r->start >= end)
			continue;
		run_where(r, where, sizeof(where));
		finding(point, file, line,
			"ntcheck: hazard at %s: cached store to line 0x%lx "
			"while non-temporal data is pending there on CPU %u "
			"(left by %s; no SFENCE since)",
			point, (unsigned long)max(start, r->start),
			plat_this_cpu(), where);
		return;
	}
}

static unsigned long run_lines(const struct nt_run *r)
{
	return (r->end - r->start) / NT_LINE;
}

/* Report what @c still holds at @point, then forget it. */
static void publish_cpu(struct nt_cpu *c, unsigned int cpu, const char *point,
			const char *file, int line)
{
	const struct nt_run *r = &c->run[0];
	unsigned long lines = 0;
	char where[520];

	if (!c->nr)
		return;
	for (unsigned int i = 0; i < c->nr; i++)
		lines += run_lines(&c->run[i]);
	run_where(r, where, sizeof(where));
	finding(point, file, line,
		"ntcheck: missing drain at %s: %lu line(s) in %u run(s) "
		"pending on CPU %u; first line 0x%lx (%s%s)",
		point, lines, c->nr, cpu, (unsigned long)r->start,
		r->kind == NT_WRITEBACK ? "write-back by " : "left by ", where);
	clear_cpu(c);
}

void __ntcheck_publish(const char *point, const char *file, int line)
{
	struct nt_cpu *c;

	if (!READ_ONCE(nt_on))
		return;
	c = this_set(point);
	if (c)
		publish_cpu(c, plat_this_cpu(), point, file, line);
}

unsigned int ntcheck_case_end(void)
{
	unsigned int n;

	if (READ_ONCE(nt_on)) {
		for (unsigned int i = 0; i < nt_nr_cpus; i++)
			publish_cpu(&nt_cpus[i], i, "the end of the case",
				    __FILE__, __LINE__);
	}
	WRITE_ONCE(nt_on, false);
	n = nt_findings;
	if (n > nt_shown)
		kunit_diag("# ntcheck: %u finding(s) in this case, %u shown "
			   "(the first at each point)\n", n, nt_shown);
	for (unsigned int i = 0; i < nt_nr_cpus; i++) {
		clear_cpu(&nt_cpus[i]);
		nt_cpus[i].trace = NULL;
	}
	nt_findings = 0;
	nt_shown = 0;
	return n;
}

void ntcheck_expect_begin(void)
{
	nt_expected = 0;
	nt_first[0] = '\0';
	nt_exp_nr_points = 0;
	WRITE_ONCE(nt_expecting, true);
}

unsigned int ntcheck_expect_end(char *first, size_t len)
{
	WRITE_ONCE(nt_expecting, false);
	if (len)
		ntb_snprintf(first, len, "%s", nt_first);
	return nt_expected;
}

bool ntcheck_expect_named(const char *point)
{
	for (unsigned int i = 0; i < nt_exp_nr_points; i++)
		if (!strcmp(nt_exp_points[i], point))
			return true;
	return false;
}

unsigned long ntcheck_pending_lines(void)
{
	unsigned int cpu = plat_this_cpu();
	unsigned long lines = 0;

	if (cpu >= nt_nr_cpus)
		return 0;
	for (unsigned int i = 0; i < nt_cpus[cpu].nr; i++)
		lines += run_lines(&nt_cpus[cpu].run[i]);
	return lines;
}

void ntcheck_trace_start(struct ntcheck_trace *t)
{
	unsigned int cpu = plat_this_cpu();

	t->nr = 0;
	t->overflow = false;
	if (cpu < nt_nr_cpus)
		nt_cpus[cpu].trace = t;
}

void ntcheck_trace_stop(void)
{
	unsigned int cpu = plat_this_cpu();

	if (cpu < nt_nr_cpus)
		nt_cpus[cpu].trace = NULL;
}

