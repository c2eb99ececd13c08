/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel memmap runner's text, patched as the kernel patches its own
 * at boot on the CPU it finds (patch.c): alternatives, return thunks,
 * static calls and ftrace's call sites. docs/kernel-memmap.md says which
 * choice each takes and why.
 */
#ifndef NTBOOT_KERNEL_MEMMAP_PATCH_H
#define NTBOOT_KERNEL_MEMMAP_PATCH_H

#include "freestanding.h"
#include "request.h"

/*
 * The sites a kernel build lists with objtool and these objects do not:
 * filled in the linked program by tools/kernel-memmap/sites from its
 * relocations (the layout is that tool's too).
 */
#define KMEMMAP_SITES_EMPTY 0x7974706d65746973ULL  /* "sitempty" */
#define KMEMMAP_SITES_FILLED 0x64656c6c69666973ULL /* "sifilled" */
#define KMEMMAP_MAX_SITES 2048

enum kmemmap_site_kind {
	KMEMMAP_SITE_FENTRY = 1,      /* call __fentry__ */
	KMEMMAP_SITE_RETURN = 2,      /* jmp __x86_return_thunk */
	KMEMMAP_SITE_STATIC_CALL = 3, /* call or jmp __SCT__<key> */
};

struct kmemmap_site {
	unsigned long long addr;   /* the call or jump */
	unsigned long long target; /* what it calls or jumps to */
	unsigned int kind, pad;
};

struct kmemmap_sites {
	unsigned long long magic, nr;
	struct kmemmap_site site[KMEMMAP_MAX_SITES];
};

/* What was patched, for the run's header line. */
struct kmemmap_patched {
	/*
	 * Asked: every return site as RET, whatever thunk the CPU's kernel
	 * returns through (a build's plain_returns: twin).
	 */
	bool plain_returns;
	unsigned int fentry, return_sites, alternatives, jump_labels;
	unsigned int static_calls;
	const char *return_thunk; /* "ret", or the thunk the sites keep */
	/* the lines of the running kernel */
	char return_why[KMEMMAP_RETURN_FROM_LEN];
};

/* The longest NOP of each length 1..8, as the kernel pads with them. */
extern const unsigned char kmemmap_nops[9][8];

/* A CALL (@op E8) or JMP (E9) rel32 at @p to @target, into @insn (5). */
void kmemmap_rel32_insn(unsigned char *insn, unsigned char op, unsigned long p,
			unsigned long target);

/* 6.12's struct alt_instr (patch.c) */
struct alt_instr;

/*
 * The text patch.c and jump_labels.c patch, at the addresses it runs at,
 * and where their inputs come from: the hosted runner's own program
 * (patch_host.c) or the image's kernel blob (kernel/kernel_blob_run.c).
 */
struct kmemmap_text {
	const struct alt_instr *alt_start, *alt_end;	/* .altinstructions */
	const unsigned long *mcount_start, *mcount_end; /* __mcount_loc */
	const void *jump_start, *jump_end;		/* __jump_table */
	const struct kmemmap_sites *sites;
	unsigned long fentry; /* __fentry__ (a stub) */
	/* the static calls' trampolines, 0 where no object calls one */
	unsigned long sct_cond_resched, sct_might_resched;
	unsigned long sct_preempt_schedule, sct_preempt_schedule_notrace;
	/* __cond_resched() with nothing to yield to: "return 0" */
	unsigned long cond_resched;
	/* the thunks a kept return site jumps to; 0: this text has none */
	unsigned long safe_ret_thunk, ret_thunk;
	/*
	 * 1 or 0: does the CPU's kernel have X86_FEATURE_ @feature (word *
	 * 32 + bit); -1 with why in @why where the caller cannot say.
	 */
	int (*has_feature)(unsigned int feature, char *why, size_t len);
	/*
	 * What the return sites hold ("ret", "safe_ret", "jmp_ret"), why
	 * in @p->return_why; NULL with why in @why where it cannot say.
	 */
	const char *(*return_thunk)(struct kmemmap_patched *p, char *why,
				    size_t len);
	/* The variable stub at @addr's name, or NULL (jump_labels.c). */
	const char *(*stub_variable)(unsigned long addr);
	/* Write @n bytes of text at @addr: 0, or -1 with why in @why. */
	int (*poke)(unsigned long addr, const void *bytes, unsigned int n,
		    char *why, size_t len);
};

/*
 * The X86_FEATURE_ numbers (6.12's cpufeatures.h) the alternatives of
 * the linked objects test, and the name /proc/cpuinfo gives each.
 */
struct kmemmap_feature {
	unsigned int feature;
	const char *name, *flag; /* flag NULL: always set */
};
extern const struct kmemmap_feature kmemmap_features[];
extern const unsigned int kmemmap_nr_features;

/*
 * Patch the alternatives, return sites, static calls and ftrace's sites
 * of @t, then check that every site of the table holds what it should;
 * @t->return_thunk() chooses what the return sites hold. Returns 0, -1
 * with the reason in @why, or KMEMMAP_SAME_CODE where @p->plain_returns
 * asks for what the CPU's kernel does already (its return sites are RET):
 * the reason in @why.
 */
#define KMEMMAP_SAME_CODE 1
int kmemmap_patch_code(const struct kmemmap_text *t, struct kmemmap_patched *p,
		       char *why, size_t len);

/*
 * The hosted runner's (patch_host.c): its own program's text patched as
 * the running kernel patched its own, from /proc/cpuinfo's flags and
 * /sys/devices/system/cpu/vulnerabilities (or NTB_KERNEL_RETURN_THUNK).
 */
int kmemmap_patch_text(struct kmemmap_patched *p, char *why, size_t len);

#endif
