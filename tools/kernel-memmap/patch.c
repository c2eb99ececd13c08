// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner's text as the kernel's boot leaves its own (patch.h), on
 * this CPU, before the first call:
 *
 * - alternatives (.altinstructions, gathered by tools/kernel-memmap/
 *   alternatives.ld): an entry whose feature this CPU's kernel has
 *   replaces its instruction, by the features the running kernel lists in
 *   /proc/cpuinfo (X86_FEATURE_ALWAYS always);
 * - return sites: "ret; int3" where the running kernel uses no return
 *   thunk; kept, jumping to the thunk it uses, where its
 *   /sys/devices/system/cpu/vulnerabilities say it uses one;
 * - static calls at their boot targets with Debian's preemption model
 *   (voluntary: cond_resched() and might_resched() call __cond_resched(),
 *   preempt_schedule*() are off);
 * - ftrace's call sites (__mcount_loc): NOPs, as ftrace_init() leaves
 *   them with nothing traced.
 *
 * The jump labels are jump_labels.c's. Every site is checked before it is
 * written, and every site of the table after all are.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "patch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct kmemmap_sites kmemmap_sites
	__attribute__((section("ntb_kmemmap_sites"), used)) = {
		.magic = KMEMMAP_SITES_EMPTY,
};

/* 6.12's struct alt_instr (arch/x86/include/asm/alternative.h) */
struct alt_instr {
	int32_t instr_offset, repl_offset;
	uint32_t ft_flags; /* feature in bits 0-15, ALT_FLAG_* above */
	uint8_t instrlen, replacementlen;
} __attribute__((packed));

#define ALT_FLAG_NOT (1u << 0)
#define ALT_FLAG_DIRECT_CALL (1u << 1)

extern const struct alt_instr __ntb_alt_start[], __ntb_alt_end[];
extern const unsigned long __start___mcount_loc[], __stop___mcount_loc[];
extern char __fentry__[], __x86_return_thunk[];
/* Static call trampolines: the stubs, where some object calls them. */
extern char __SCT__cond_resched[] __attribute__((weak));
extern char __SCT__might_resched[] __attribute__((weak));
extern char __SCT__preempt_schedule[] __attribute__((weak));
extern char __SCT__preempt_schedule_notrace[] __attribute__((weak));

/* The thunks a kept return site jumps to (see return_thunk()). */
extern char kmemmap_safe_ret_thunk[], kmemmap_ret_thunk[];
__asm__(".pushsection .text\n"
	/*
	 * SRSO's "Safe RET": a call whose return address is dropped, so
	 * that the RET returns to the caller's caller through a stack slot
	 * the CPU did not predict (the cost the kernel pays on every
	 * return).
	 */
	".balign 64, 0xcc\n"
	".globl kmemmap_safe_ret_thunk\n"
	".type kmemmap_safe_ret_thunk, @function\n"
	"kmemmap_safe_ret_thunk:\n"
	"\tcall 1f\n"
	"\tud2\n"
	"1:\tlea 8(%rsp), %rsp\n"
	"\tret\n"
	"\tint3\n"
	".size kmemmap_safe_ret_thunk, . - kmemmap_safe_ret_thunk\n"
	/*
	 * A RET in the upper half of a cache line, where the kernel puts
	 * ITS's its_return_thunk.
	 */
	".balign 64, 0xcc\n"
	".skip 32, 0xcc\n"
	".globl kmemmap_ret_thunk\n"
	".type kmemmap_ret_thunk, @function\n"
	"kmemmap_ret_thunk:\n"
	"\tret\n"
	"\tint3\n"
	".size kmemmap_ret_thunk, . - kmemmap_ret_thunk\n"
	".popsection\n");

/* __cond_resched() of a program with one thread: nothing to yield to. */
int kmemmap_cond_resched(void)
{
	return 0;
}

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

int kmemmap_text_poke(unsigned long addr, const void *bytes, unsigned int n,
		      char *why, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long start = addr & ~(page - 1);

	if (mprotect((void *)start, addr + n - start,
		     PROT_READ | PROT_WRITE | PROT_EXEC)) {
		snprintf(why, len, "cannot make the text at %#lx writable",
			 addr);
		return -1;
	}
	memcpy((void *)addr, bytes, n);
	mprotect((void *)start, addr + n - start, PROT_READ | PROT_EXEC);
	return 0;
}

/*
 * The features an alternative of these objects names, and the flag by
 * which /proc/cpuinfo says the running kernel set it (NULL: always).
 */
static const struct {
	unsigned int feature;
	const char *name, *flag;
} features[] = {
	{3 * 32 + 21, "ALWAYS", NULL},
	{3 * 32 + 16, "REP_GOOD", "rep_good"},
	{9 * 32 + 9, "ERMS", "erms"},
	/* arch/x86/lib/usercopy_64.o's cache flushes and user access */
	{9 * 32 + 20, "SMAP", "smap"},
	{9 * 32 + 23, "CLFLUSHOPT", "clflushopt"},
	{9 * 32 + 24, "CLWB", "clwb"},
	{16 * 32 + 16, "LA57", "la57"},
};

static char cpu_flags[4096];

static int read_cpu_flags(char *why, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "flags", 5) && strchr(line, ':')) {
			snprintf(cpu_flags, sizeof(cpu_flags), " %s",
				 strchr(line, ':') + 1);
			cpu_flags[strcspn(cpu_flags, "\n")] = ' ';
			fclose(f);
			return 0;
		}
	}
	if (f)
		fclose(f);
	snprintf(why, len,
		 "/proc/cpuinfo has no flags line: the alternatives "
		 "follow the running kernel's CPU features");
	return -1;
}

/* 1 or 0: does this CPU's kernel have @feature; -1 unknown. */
static int has_feature(unsigned int feature)
{
	char word[40];

	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		if (features[i].feature != feature)
			continue;
		if (!features[i].flag)
			return 1;
		snprintf(word, sizeof(word), " %s ", features[i].flag);
		return strstr(cpu_flags, word) != NULL;
	}
	return -1;
}

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

static int apply_alternatives(struct kmemmap_patched *p, char *why, size_t len)
{
	const struct alt_instr *a;

	if (read_cpu_flags(why, len))
		return -1;
	for (a = __ntb_alt_start; a < __ntb_alt_end; a++) {
		unsigned long instr =
			(unsigned long)&a->instr_offset + a->instr_offset;
		const unsigned char *repl =
			(const unsigned char *)&a->repl_offset + a->repl_offset;
		unsigned int feature = a->ft_flags & 0xffff;
		unsigned int flags = a->ft_flags >> 16;
		int has = has_feature(feature);
		unsigned char insn[256];

		if (has < 0) {
			snprintf(why, len,
				 "the alternative at %#lx tests feature word "
				 "%u bit %u, which the runner does not know "
				 "(tools/kernel-memmap/patch.c)",
				 instr, feature / 32, feature % 32);
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
		if (kmemmap_text_poke(instr, insn, a->instrlen, why, len))
			return -1;
		p->alternatives++;
	}
	return 0;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, len, f);

	if (f)
		fclose(f);
	buf[ok ? strcspn(buf, "\n") : 0] = 0;
	return ok ? 0 : -1;
}

#define VULNS "/sys/devices/system/cpu/vulnerabilities"
/*
 * Another directory of the same files: the return sites patched as the
 * kernel of the CPU whose files they are (copied from a server) would
 * patch them.
 */
#define VULNS_ENV "NTB_KERNEL_VULNERABILITIES"

/* @name's line of directory @dir, or "" unread. */
static void read_vulnerability(const char *dir, const char *name, char *buf,
			       size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	read_line(path, buf, len);
}

/*
 * The thunk the three vulnerabilities files choose, their words in
 * @p->return_why, after NTB_KERNEL_VULNERABILITIES=DIR where they are
 * another CPU's (a run as that CPU's kernel, not this one's).
 */
static const char *thunk_of_vulnerabilities(struct kmemmap_patched *p)
{
	const char *dir = getenv(VULNS_ENV);
	char srso[80] = "", retbleed[80] = "", its[80] = "";
	char *why = p->return_why;
	size_t len = sizeof(p->return_why);
	int n = dir ? snprintf(why, len, "%s=%.40s: ", VULNS_ENV, dir) : 0;

	why += n;
	len -= n;
	dir = dir ? dir : VULNS;
	read_vulnerability(dir, "spec_rstack_overflow", srso, sizeof(srso));
	read_vulnerability(dir, "retbleed", retbleed, sizeof(retbleed));
	read_vulnerability(dir, "indirect_target_selection", its, sizeof(its));
	if (strstr(srso, "Safe RET")) {
		snprintf(why, len, "spec_rstack_overflow: %s", srso);
		return "safe_ret";
	}
	if (strstr(retbleed, "untrained return thunk") ||
	    strstr(retbleed, "Stuffing")) {
		snprintf(why, len, "retbleed: %s", retbleed);
		return "jmp_ret";
	}
	if (strstr(its, "Aligned branch/return thunks") ||
	    strstr(its, "Stuffing")) {
		snprintf(why, len, "indirect_target_selection: %s", its);
		return "jmp_ret";
	}
	snprintf(why, len,
		 "spec_rstack_overflow: %s; retbleed: %s; "
		 "indirect_target_selection: %s",
		 srso[0] ? srso : "(unread)",
		 retbleed[0] ? retbleed : "(unread)",
		 its[0] ? its : "(unread)");
	return "ret";
}

/*
 * What the return sites become: "ret" where the running kernel patches
 * them to RET (X86_FEATURE_RETHUNK clear), else kept on its thunk:
 * "safe_ret" for SRSO's Safe RET (AMD Zen 3 and 4 by default), "jmp_ret"
 * for ITS's aligned return thunk (Intel Cascade Lake, Ice Lake, Tiger
 * Lake: a RET in the upper half of a cache line, which kmemmap_ret_thunk
 * is), and for retbleed's untrained return thunk (Zen 1 and 2) or call
 * depth stuffing (Intel Skylake), kept as a jump to that RET: the runner
 * does not reproduce their work. $NTB_KERNEL_RETURN_THUNK (one of the
 * three) overrides the choice, to measure what the thunk costs; NULL with
 * why in @why for any other value.
 */
static const char *return_thunk(struct kmemmap_patched *p, char *why,
				size_t len)
{
	static const char *const modes[] = {"ret", "safe_ret", "jmp_ret"};
	const char *env = getenv(KMEMMAP_RETURN_THUNK_ENV);

	if (env) {
		for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
			if (strcmp(env, modes[i]))
				continue;
			snprintf(p->return_why, sizeof(p->return_why), "%s=%s",
				 KMEMMAP_RETURN_THUNK_ENV, env);
			return modes[i];
		}
		snprintf(why, len,
			 "%s=\"%.40s\" is none of ret, safe_ret, jmp_ret",
			 KMEMMAP_RETURN_THUNK_ENV, env);
		return NULL;
	}

	return thunk_of_vulnerabilities(p);
}

/* What a kept return site jumps to, or 0 (patched to RET). */
static unsigned long kept_thunk(const struct kmemmap_patched *p)
{
	if (!strcmp(p->return_thunk, "safe_ret"))
		return (unsigned long)kmemmap_safe_ret_thunk;
	if (!strcmp(p->return_thunk, "jmp_ret"))
		return (unsigned long)kmemmap_ret_thunk;
	return 0;
}

/*
 * The boot target of the static call whose trampoline is @tramp:
 * 1 with *@target (0: off, the site becomes a NOP or RET), or 0 where the
 * runner keeps the site calling its trampoline (a stub that stops the
 * run naming it: the tracepoints', behind their static keys).
 */
static int static_call_target(unsigned long tramp, unsigned long *target)
{
	if (!tramp)
		return 0;
	if (tramp == (unsigned long)__SCT__cond_resched ||
	    tramp == (unsigned long)__SCT__might_resched) {
		*target = (unsigned long)kmemmap_cond_resched;
		return 1;
	}
	if (tramp == (unsigned long)__SCT__preempt_schedule ||
	    tramp == (unsigned long)__SCT__preempt_schedule_notrace) {
		*target = 0;
		return 1;
	}
	return 0;
}

/* The bytes @s should hold once patched, in @insn (5): 0 when unknown. */
static int patched_bytes(const struct kmemmap_site *s,
			 const struct kmemmap_patched *p, unsigned char *insn,
			 unsigned char op)
{
	unsigned long target;

	switch (s->kind) {
	case KMEMMAP_SITE_FENTRY:
		memcpy(insn, kmemmap_nops[5], 5);
		return 1;
	case KMEMMAP_SITE_RETURN:
		if (kept_thunk(p))
			kmemmap_rel32_insn(insn, 0xe9, s->addr, kept_thunk(p));
		else
			memcpy(insn, ret_int3, 5);
		return 1;
	case KMEMMAP_SITE_STATIC_CALL:
		if (!static_call_target(s->target, &target))
			return 0;
		if (target)
			kmemmap_rel32_insn(insn, op, s->addr, target);
		else if (op == 0xe8)
			memcpy(insn, kmemmap_nops[5], 5);
		else if (kept_thunk(p)) /* a tail call of nothing: a return */
			kmemmap_rel32_insn(insn, 0xe9, s->addr, kept_thunk(p));
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
static int patch_sites(struct kmemmap_patched *p, char *why, size_t len)
{
	for (unsigned long long i = 0; i < kmemmap_sites.nr; i++) {
		const struct kmemmap_site *s = &kmemmap_sites.site[i];
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
		if (!patched_bytes(s, p, insn, code[0]))
			continue;
		if (kmemmap_text_poke(s->addr, insn, 5, why, len))
			return -1;
		if (s->kind == KMEMMAP_SITE_RETURN)
			p->return_sites++;
		else
			p->static_calls++;
	}
	return 0;
}

static int patch_fentry(struct kmemmap_patched *p, char *why, size_t len)
{
	for (const unsigned long *a = __start___mcount_loc;
	     a < __stop___mcount_loc; a++) {
		const unsigned char *code = (const unsigned char *)*a;

		if (code[0] != 0xe8 ||
		    rel32_target(code) != (unsigned long)__fentry__) {
			snprintf(why, len,
				 "the __mcount_loc site at %#lx is no call "
				 "of __fentry__ (%02x)",
				 *a, code[0]);
			return -1;
		}
		if (kmemmap_text_poke(*a, kmemmap_nops[5], 5, why, len))
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
static int site_holds(const struct kmemmap_site *s,
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
		return kept_thunk(p)
			       ? code[0] == 0xe9 && goes_to(code, kept_thunk(p))
			       : ret;
	case KMEMMAP_SITE_STATIC_CALL:
		if (!static_call_target(s->target, &target))
			return goes_to(code, s->target) ? -1 : 0;
		if (target)
			return goes_to(code, target);
		return nop || ret ||
		       (kept_thunk(p) && code[0] == 0xe9 &&
			goes_to(code, kept_thunk(p)));
	}
	return 0;
}

/*
 * Every site of the table, from the relocations and not from the lists
 * the patching walked, does what it should, and the counts are the
 * table's.
 */
static int check_sites(const struct kmemmap_patched *p, char *why, size_t len)
{
	unsigned int n[4] = {0};

	for (unsigned long long i = 0; i < kmemmap_sites.nr; i++) {
		const struct kmemmap_site *s = &kmemmap_sites.site[i];
		const unsigned char *code = (const unsigned char *)s->addr;
		int holds = site_holds(s, p);

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

int kmemmap_patch_text(struct kmemmap_patched *p, char *why, size_t len)
{
	if (kmemmap_sites.magic != KMEMMAP_SITES_FILLED) {
		snprintf(why, len,
			 "the program's site table is empty: "
			 "tools/kernel-memmap/sites did not run on it");
		return -1;
	}
	p->return_thunk = return_thunk(p, why, len);
	if (!p->return_thunk)
		return -1;
	if (p->plain_returns) {
		int r = plain_returns(p, why, len);

		if (r)
			return r;
	}
	if (apply_alternatives(p, why, len) || patch_sites(p, why, len) ||
	    patch_fentry(p, why, len))
		return -1;
	return check_sites(p, why, len);
}
