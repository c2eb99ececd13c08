/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel memmap runner's text, patched as the kernel patches its own
 * at boot on the CPU it finds (patch.c): alternatives, return thunks,
 * static calls and ftrace's call sites. docs/kernel-memmap.md says which
 * choice each takes and why.
 */
#ifndef NTBOOT_KERNEL_MEMMAP_PATCH_H
#define NTBOOT_KERNEL_MEMMAP_PATCH_H

#include <stdbool.h>
#include <stddef.h>

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

/*
 * Write @n bytes of text at @addr (its pages writable for the time):
 * 0, or -1 with the reason in @why.
 */
int kmemmap_text_poke(unsigned long addr, const void *bytes, unsigned int n,
		      char *why, size_t len);

/*
 * Patch alternatives, return sites, static calls and ftrace's sites, then
 * check every site of the table holds what it should. Returns 0, -1 with
 * the reason in @why, or KMEMMAP_SAME_CODE where @p->plain_returns asks
 * for what the CPU's kernel does already (its return sites are RET):
 * the reason in @why.
 */
#define KMEMMAP_SAME_CODE 1
int kmemmap_patch_text(struct kmemmap_patched *p, char *why, size_t len);

#endif
