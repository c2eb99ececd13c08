// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's text as the kernel's boot leaves its own (patch.h), on
 * the CPU it runs on, before the first call: the hosted runner's program
 * (its inputs from patch_host.c: /proc/cpuinfo, /sys) and the image's
 * kernel blob (kernel/kernel_blob_run.c: CPUID) both patch with this
 * code, each describing its text in a struct kmemmap_text:
 *
 * - alternatives (.altinstructions): an entry whose feature this CPU's
 *   kernel has replaces its instruction (X86_FEATURE_ALWAYS always);
 * - return sites: "ret; int3" where the CPU's kernel uses no return
 *   thunk; kept, jumping to the thunk it uses, where it uses one;
 * - static calls at their boot targets with Debian's preemption model
 *   (voluntary: cond_resched() and might_resched() call __cond_resched(),
 *   preempt_schedule*() are off);
 * - ftrace's call sites (__mcount_loc): NOPs, as ftrace_init() leaves
 *   them with nothing traced.
 *
 * The jump labels are jump_labels.c's. Every site is checked before it is
 * written, and every site of the table after all are.
 */
#include "freestanding.h"
#include "patch.h"
#include "arch/x86/kernel_features.h"

/* 6.12's struct alt_instr (arch/x86/include/asm/alternative.h) */
struct alt_instr {
	int32_t instr_offset, repl_offset;
	uint32_t ft_flags; /* feature in bits 0-15, ALT_FLAG_* above */
	uint8_t instrlen, replacementlen;
} __attribute__((packed));

#define ALT_FLAG_NOT (1u << 0)
#define ALT_FLAG_DIRECT_CALL (1u << 1)

const unsigned char kmemmap_nops[9][8] = {
	{0},
	{0x90},
	{0x66, 0x90},
	{0x0f, 0x1f, 0x00},
	{0x0f, 0x1f, 0x40, 0x00},
	{0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	{0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};
static const unsigned char ret_int3[5] = {0xc3, 0xcc, 0xcc, 0xcc, 0xcc};

/* @n bytes of the longest NOPs (the kernel jumps over more than 8). */
static void fill_nops(unsigned char *p, unsigned int n)
{
	while (n) {
		unsigned int k = n < 8 ? n : 8;

		memcpy(p, kmemmap_nops[k], k);
		p += k;
		n -= k;
	}
}

void kmemmap_rel32_insn(unsigned char *insn, unsigned char op, unsigned long p,
			unsigned long target)
{
	int32_t rel = (int32_t)(target - (p + 5));

	insn[0] = op;
	memcpy(insn + 1, &rel, 4);
}

/* Where the CALL or JMP rel32 at @p goes. */
static unsigned long rel32_target(const unsigned char *p)
{
	int32_t rel;

	memcpy(&rel, p + 1, 4);
	return (unsigned long)p + 5 + rel;
}

/*
 * The features an alternative of the linked objects names, and the flag
 * by which /proc/cpuinfo says the running kernel set it (NULL: always;
 * "": a feature /proc/cpuinfo does not name).
 */
const struct kmemmap_feature kmemmap_features[] = {
	{KFEAT_ALWAYS, "ALWAYS", NULL},
	{KFEAT_REP_GOOD, "REP_GOOD", "rep_good"},
	{KFEAT_ERMS, "ERMS", "erms"},
	/* arch/x86/lib/usercopy_64.o's cache flushes and user access */
	{KFEAT_SMAP, "SMAP", "smap"},
	{KFEAT_CLFLUSHOPT, "CLFLUSHOPT", "clflushopt"},
	{KFEAT_CLWB, "CLWB", "clwb"},
	/* the image's: memset_64.o's and memcpy_64.o's fast short REPs */
	{KFEAT_FSRS, "FSRS", ""},
	{KFEAT_LA57, "LA57", "la57"},
	{KFEAT_FSRM, "FSRM", "fsrm"},
};
const unsigned int kmemmap_nr_features =
	sizeof(kmemmap_features) / sizeof(kmemmap_features[0]);

/*
 * A replacement that is placed as it is: an instruction with no address
 * in it, so that it means the same wherever it lies. STAC and CLAC, and
 * CLFLUSHOPT and CLWB through a register with no displacement (ModRM mod
 * 0, neither SIB nor RIP-relative): what arch/x86/lib/usercopy_64.o's
 * alternatives put in place of a NOP or of CLFLUSH.
 */
static bool verbatim_insn(const unsigned char *r, unsigned int n)
{
	if (n == 3)
		return r[0] == 0x0f && r[1] == 0x01 &&
		       (r[2] == 0xca || r[2] == 0xcb);
	if (n == 4 && r[0] == 0x66 && r[1] == 0x0f && r[2] == 0xae) {
		unsigned int mod = r[3] >> 6, reg = (r[3] >> 3) & 7,
			     rm = r[3] & 7;

		return mod == 0 && (reg == 6 || reg == 7) && rm != 4 && rm != 5;
	}
	return false;
}

static int apply_alternatives(const struct kmemmap_text *t,
			      struct kmemmap_patched *p, char *why, size_t len)
{
	const struct alt_instr *a;

	for (a = t->alt_start; a < t->alt_end; a++) {
		unsigned long instr =
			(unsigned long)&a->instr_offset + a->instr_offset;
		const unsigned char *repl =
			(const unsigned char *)&a->repl_offset + a->repl_offset;
		unsigned int feature = a->ft_flags & 0xffff;
		unsigned int flags = a->ft_flags >> 16;
		char how[160];
		int has = t->has_feature(feature, how, sizeof(how));
		unsigned char insn[256];

		if (has < 0) {
			snprintf(why, len,
				 "the alternative at %#lx tests feature word "
				 "%u bit %u: %s",
				 instr, feature / 32, feature % 32, how);
			return -1;
		}
		if (flags & ALT_FLAG_NOT)
			has = !has;
		if (!has)
			continue;
		bool verbatim = verbatim_insn(repl, a->replacementlen);

		if ((flags & ALT_FLAG_DIRECT_CALL) ||
		    a->replacementlen > a->instrlen ||
		    (a->replacementlen && !verbatim &&
		     (a->replacementlen != 5 ||
		      (repl[0] != 0xe8 && repl[0] != 0xe9)))) {
			snprintf(why, len,
				 "the alternative at %#lx has a replacement "
				 "of %u bytes (%02x, flags %#x) the runner "
				 "cannot place: only a CALL or JMP rel32, an "
				 "instruction with no address in it "
				 "(verbatim_insn()), or nothing",
				 instr, a->replacementlen,
				 a->replacementlen ? repl[0] : 0, flags);
			return -1;
		}
		if (verbatim)
			memcpy(insn, repl, a->replacementlen);
		/* the replacement's rel32 was linked for where it lies */
		else if (a->replacementlen)
			kmemmap_rel32_insn(insn, repl[0], instr,
					   rel32_target(repl));
		fill_nops(insn + a->replacementlen,
			  a->instrlen - a->replacementlen);
		if (t->poke(instr, insn, a->instrlen, why, len))
			return -1;
		p->alternatives++;
	}
	return 0;
}

/* What a kept return site jumps to, or 0 (patched to RET). */
static unsigned long kept_thunk(const struct kmemmap_text *t,
				const struct kmemmap_patched *p)
{
	if (!strcmp(p->return_thunk, "safe_ret"))
		return t->safe_ret_thunk;
	if (!strcmp(p->return_thunk, "jmp_ret"))
		return t->ret_thunk;
	return 0;
}

/*
 * The boot target of the static call whose trampoline is @tramp:
 * 1 with *@target (0: off, the site becomes a NOP or RET), or 0 where the
 * runner keeps the site calling its trampoline (a stub that stops the
 * run naming it: the tracepoints', behind their static keys).
 */
static int static_call_target(const struct kmemmap_text *t, unsigned long tramp,
			      unsigned long *target)
{
	if (!tramp)
		return 0;
	if (tramp == t->sct_cond_resched || tramp == t->sct_might_resched) {
		*target = t->cond_resched;
		return 1;
	}
	if (tramp == t->sct_preempt_schedule ||
	    tramp == t->sct_preempt_schedule_notrace) {
		*target = 0;
		return 1;
	}
	return 0;
}

/* The bytes @s should hold once patched, in @insn (5): 0 when unknown. */
static int patched_bytes(const struct kmemmap_text *t,
			 const struct kmemmap_site *s,
			 const struct kmemmap_patched *p, unsigned char *insn,
			 unsigned char op)
{
	unsigned long target;

	switch (s->kind) {
	case KMEMMAP_SITE_FENTRY:
		memcpy(insn, kmemmap_nops[5], 5);
		return 1;
	case KMEMMAP_SITE_RETURN:
		if (kept_thunk(t, p))
			kmemmap_rel32_insn(insn, 0xe9, s->addr,
					   kept_thunk(t, p));
		else
			memcpy(insn, ret_int3, 5);
		return 1;
	case KMEMMAP_SITE_STATIC_CALL:
		if (!static_call_target(t, s->target, &target))
			return 0;
		if (target)
			kmemmap_rel32_insn(insn, op, s->addr, target);
		else if (op == 0xe8)
			memcpy(insn, kmemmap_nops[5], 5);
		else if (kept_thunk(t,
				    p)) /* a tail call of nothing: a return */
			kmemmap_rel32_insn(insn, 0xe9, s->addr,
					   kept_thunk(t, p));
		else
			memcpy(insn, ret_int3, 5);
		return 1;
	}
	return 0;
}

static const char *kind_name(unsigned int kind)
{
	return kind == KMEMMAP_SITE_FENTRY   ? "ftrace"
	       : kind == KMEMMAP_SITE_RETURN ? "return"
					     : "static call";
}

/* The return sites and static calls of the table. */
static int patch_sites(const struct kmemmap_text *t, struct kmemmap_patched *p,
		       char *why, size_t len)
{
	for (unsigned long long i = 0; i < t->sites->nr; i++) {
		const struct kmemmap_site *s = &t->sites->site[i];
		const unsigned char *code = (const unsigned char *)s->addr;
		unsigned char insn[5];

		if (s->kind == KMEMMAP_SITE_FENTRY)
			continue; /* from __mcount_loc, below */
		if ((code[0] != 0xe8 && code[0] != 0xe9) ||
		    rel32_target(code) != s->target) {
			snprintf(why, len,
				 "the %s site at %#llx does not call or jump "
				 "to %#llx (%02x): the site table is not this "
				 "program's",
				 kind_name(s->kind), s->addr, s->target,
				 code[0]);
			return -1;
		}
		if (!patched_bytes(t, s, p, insn, code[0]))
			continue;
		if (t->poke(s->addr, insn, 5, why, len))
			return -1;
		if (s->kind == KMEMMAP_SITE_RETURN)
			p->return_sites++;
		else
			p->static_calls++;
	}
	return 0;
}

static int patch_fentry(const struct kmemmap_text *t, struct kmemmap_patched *p,
			char *why, size_t len)
{
	for (const unsigned long *a = t->mcount_start; a < t->mcount_end; a++) {
		const unsigned char *code = (const unsigned char *)*a;

		if (code[0] != 0xe8 || rel32_target(code) != t->fentry) {
			snprintf(why, len,
				 "the __mcount_loc site at %#lx is no call "
				 "of __fentry__ (%02x)",
				 *a, code[0]);
			return -1;
		}
		if (t->poke(*a, kmemmap_nops[5], 5, why, len))
			return -1;
		p->fentry++;
	}
	return 0;
}

/* Does @code jump or call (E8 or E9 rel32) to @target? */
static bool goes_to(const unsigned char *code, unsigned long target)
{
	return (code[0] == 0xe8 || code[0] == 0xe9) &&
	       rel32_target(code) == target;
}

/*
 * What the bytes at site @s do once patched, read back from them (not
 * from what patched_bytes() would write): 1 as they should, 0 not, -1
 * a site the patching leaves alone.
 */
static int site_holds(const struct kmemmap_text *t,
		      const struct kmemmap_site *s,
		      const struct kmemmap_patched *p)
{
	const unsigned char *code = (const unsigned char *)s->addr;
	unsigned long target;
	bool nop = !memcmp(code, kmemmap_nops[5], 5);
	bool ret = !memcmp(code, ret_int3, 5);

	switch (s->kind) {
	case KMEMMAP_SITE_FENTRY:
		return nop;
	case KMEMMAP_SITE_RETURN:
		return kept_thunk(t, p)
			       ? code[0] == 0xe9 &&
					 goes_to(code, kept_thunk(t, p))
			       : ret;
	case KMEMMAP_SITE_STATIC_CALL:
		if (!static_call_target(t, s->target, &target))
			return goes_to(code, s->target) ? -1 : 0;
		if (target)
			return goes_to(code, target);
		return nop || ret ||
		       (kept_thunk(t, p) && code[0] == 0xe9 &&
			goes_to(code, kept_thunk(t, p)));
	}
	return 0;
}

/*
 * Every site of the table, from the relocations and not from the lists
 * the patching walked, does what it should, and the counts are the
 * table's.
 */
static int check_sites(const struct kmemmap_text *t,
		       const struct kmemmap_patched *p, char *why, size_t len)
{
	unsigned int n[4] = {0};

	for (unsigned long long i = 0; i < t->sites->nr; i++) {
		const struct kmemmap_site *s = &t->sites->site[i];
		const unsigned char *code = (const unsigned char *)s->addr;
		int holds = site_holds(t, s, p);

		if (holds < 0)
			continue;
		if (!holds) {
			snprintf(why, len,
				 "the %s site at %#llx holds %02x %02x %02x "
				 "%02x %02x after patching (return_thunk=%s)",
				 kind_name(s->kind), s->addr, code[0], code[1],
				 code[2], code[3], code[4], p->return_thunk);
			return -1;
		}
		n[s->kind]++;
	}
	if (n[KMEMMAP_SITE_FENTRY] != p->fentry ||
	    n[KMEMMAP_SITE_RETURN] != p->return_sites ||
	    n[KMEMMAP_SITE_STATIC_CALL] != p->static_calls) {
		snprintf(why, len,
			 "patched fentry=%u return_sites=%u static_calls=%u, "
			 "but the relocations hold %u, %u and %u such sites",
			 p->fentry, p->return_sites, p->static_calls,
			 n[KMEMMAP_SITE_FENTRY], n[KMEMMAP_SITE_RETURN],
			 n[KMEMMAP_SITE_STATIC_CALL]);
		return -1;
	}
	return 0;
}

/*
 * The return sites as RET where the kernel's boot keeps them on a thunk,
 * the thunk named in @p->return_why; KMEMMAP_SAME_CODE with why in @why
 * where its boot makes them RET already: the same code as its build's.
 */
static int plain_returns(struct kmemmap_patched *p, char *why, size_t len)
{
	char booted[sizeof(p->return_why)];

	if (!strcmp(p->return_thunk, "ret")) {
		snprintf(
			why, len,
			"the CPU's kernel returns with plain RET here (%.170s): "
			"the same code as its build's",
			p->return_why);
		return KMEMMAP_SAME_CODE;
	}
	memcpy(booted, p->return_why, sizeof(booted));
	snprintf(p->return_why, sizeof(p->return_why),
		 "plain returns asked, in place of the boot's %s (%.120s)",
		 p->return_thunk, booted);
	p->return_thunk = "ret";
	return 0;
}

int kmemmap_patch_code(const struct kmemmap_text *t, struct kmemmap_patched *p,
		       char *why, size_t len)
{
	if (t->sites->magic != KMEMMAP_SITES_FILLED) {
		snprintf(why, len,
			 "the site table is empty: tools/kernel-memmap/sites "
			 "did not run on the linked objects");
		return -1;
	}
	p->return_thunk = t->return_thunk(p, why, len);
	if (!p->return_thunk)
		return -1;
	if (strcmp(p->return_thunk, "ret") && !kept_thunk(t, p)) {
		snprintf(why, len,
			 "return_thunk=%s: this text has no such thunk to "
			 "keep its return sites on",
			 p->return_thunk);
		return -1;
	}
	if (p->plain_returns) {
		int r = plain_returns(p, why, len);

		if (r)
			return r;
	}
	if (apply_alternatives(t, p, why, len) || patch_sites(t, p, why, len) ||
	    patch_fentry(t, p, why, len))
		return -1;
	return check_sites(t, p, why, len);
}
