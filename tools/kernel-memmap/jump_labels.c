// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's static branches, set as the kernel's boot sets them for
 * the keys' values as built (no boot parameter applied).
 *
 * The kernel's objects come out of the build with a JMP at every static
 * branch: the build of vmlinux (objtool) and then jump_label_init() at
 * boot turn each into the NOP or the JMP that its key's state asks for.
 * Without that pass every branch would take its rare side (pr_debug()
 * printing, tracepoints firing), so the runner makes it itself, by the
 * kernel's rule: a site jumps when its key is enabled XOR the entry's
 * branch bit (static_branch_likely()) is set.
 *
 * A key the linked objects define is read where it is (its value as the
 * build initialised it, before any boot parameter). A key of the rest of
 * the kernel (a variable stub, stubs.S) has no state to read: its sites
 * become UD2, so that the run stops naming the key if the path ever
 * reaches one.
 */
#include "freestanding.h"
#include "jump_labels.h"
#include "patch.h"

/* The kernel's struct jump_entry with relative references (x86-64). */
struct jump_entry {
	int32_t code;
	int32_t target;
	long key; /* bit 0: the branch is likely; bit 1: in init text */
};

static const unsigned char ud2[] = {0x0f, 0x0b};

#define MAX_UNKNOWN_SITES 1024
static struct {
	unsigned long code;
	const char *key;
} unknown_sites[MAX_UNKNOWN_SITES];
static unsigned int nr_unknown_sites;

static unsigned long entry_code(const struct jump_entry *e)
{
	return (unsigned long)&e->code + e->code;
}

static unsigned long entry_target(const struct jump_entry *e)
{
	return (unsigned long)&e->target + e->target;
}

static unsigned long entry_key(const struct jump_entry *e)
{
	return (unsigned long)&e->key + (e->key & ~3L);
}

/* The site's length: a JMP or NOP of 2 or 5 bytes, or 0. */
static unsigned int site_size(const unsigned char *p)
{
	if (p[0] == 0xe9 || !memcmp(p, kmemmap_nops[5], 5))
		return 5;
	if (p[0] == 0xeb || !memcmp(p, kmemmap_nops[2], 2))
		return 2;
	return 0;
}

static int patch_site(const struct kmemmap_text *t, const struct jump_entry *e,
		      char *why, size_t len)
{
	unsigned char *p = (unsigned char *)entry_code(e);
	unsigned long key = entry_key(e);
	const char *stub = t->stub_variable(key);
	unsigned int size = site_size(p);
	unsigned char insn[5];
	long rel = (long)entry_target(e) - (long)(entry_code(e) + size);
	int jump;

	if (!size) {
		snprintf(why, len,
			 "static branch at %p: %02x %02x is no JMP "
			 "or NOP",
			 p, p[0], p[1]);
		return -1;
	}
	if (stub) {
		if (nr_unknown_sites == MAX_UNKNOWN_SITES) {
			snprintf(why, len,
				 "more than %d static branches on "
				 "keys the runner lacks",
				 MAX_UNKNOWN_SITES);
			return -1;
		}
		unknown_sites[nr_unknown_sites].code = (unsigned long)p;
		unknown_sites[nr_unknown_sites++].key = stub;
		memcpy(insn, ud2, sizeof(ud2));
		memcpy(insn + sizeof(ud2), kmemmap_nops[size],
		       size - sizeof(ud2));
	} else {
		/* static_key_enabled(): the key's atomic_t enabled > 0 */
		jump = (*(const volatile int *)key > 0) ^ (int)(e->key & 1);
		if (!jump)
			memcpy(insn, kmemmap_nops[size], size);
		else if (size == 5)
			kmemmap_rel32_insn(insn, 0xe9, entry_code(e),
					   entry_target(e));
		else if (rel >= -128 && rel < 128)
			insn[0] = 0xeb, insn[1] = (unsigned char)rel;
		else {
			snprintf(why, len,
				 "static branch at %p: a 2-byte "
				 "JMP cannot reach %+ld",
				 p, rel);
			return -1;
		}
	}
	return t->poke((unsigned long)p, insn, size, why, len);
}

int kmemmap_jump_labels_patch(const struct kmemmap_text *t, unsigned int *sites,
			      char *why, size_t len)
{
	const struct jump_entry *e;

	nr_unknown_sites = 0;
	for (e = t->jump_start; e < (const struct jump_entry *)t->jump_end;
	     e++) {
		if (patch_site(t, e, why, len))
			return -1;
		(*sites)++;
	}
	return 0;
}

const char *kmemmap_jump_label_key_at(unsigned long ip)
{
	for (unsigned int i = 0; i < nr_unknown_sites; i++)
		if (unknown_sites[i].code == ip)
			return unknown_sites[i].key;
	return NULL;
}
