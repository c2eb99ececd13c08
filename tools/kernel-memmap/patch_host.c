// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hosted runner's inputs to patch.c and jump_labels.c: its own
 * program's text (the sections alternatives.ld and the linker bound, the
 * site table tools/kernel-memmap/sites fills), the features the running
 * kernel lists in /proc/cpuinfo, the return thunk its
 * /sys/devices/system/cpu/vulnerabilities say it uses, and text pokes
 * through mprotect(). The image has its own (kernel/kernel_blob_run.c).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jump_labels.h"
#include "patch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct kmemmap_sites kmemmap_sites
	__attribute__((section("ntb_kmemmap_sites"), used)) = {
		.magic = KMEMMAP_SITES_EMPTY,
};

extern const char __ntb_alt_start[], __ntb_alt_end[];
extern const unsigned long __start___mcount_loc[], __stop___mcount_loc[];
extern const char __start___jump_table[], __stop___jump_table[];
extern char __fentry__[];
/* Static call trampolines: the stubs, where some object calls them. */
extern char __SCT__cond_resched[] __attribute__((weak));
extern char __SCT__might_resched[] __attribute__((weak));
extern char __SCT__preempt_schedule[] __attribute__((weak));
extern char __SCT__preempt_schedule_notrace[] __attribute__((weak));

/* The stubs (stubs): the name of the variable stub at @addr, or NULL. */
const char *kmemmap_stub_variable(unsigned long addr);

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

/*
 * Write @n bytes of the program's text at @addr (its pages writable
 * for the time): 0, or -1 with the reason in @why.
 */
static int text_poke(unsigned long addr, const void *bytes, unsigned int n,
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

/*
 * 1 or 0: does this CPU's kernel have @feature; -1 unknown, why in
 * @why. /proc/cpuinfo is read at the first question.
 */
static int has_feature(unsigned int feature, char *why, size_t len)
{
	char word[40];

	if (!cpu_flags[0] && read_cpu_flags(why, len))
		return -1;

	for (size_t i = 0; i < kmemmap_nr_features; i++) {
		const struct kmemmap_feature *f = &kmemmap_features[i];

		if (f->feature != feature)
			continue;
		if (!f->flag)
			return 1;
		if (!f->flag[0]) {
			snprintf(why, len,
				 "%s, which /proc/cpuinfo does not name",
				 f->name);
			return -1;
		}
		snprintf(word, sizeof(word), " %s ", f->flag);
		return strstr(cpu_flags, word) != NULL;
	}
	snprintf(why, len,
		 "a feature the runner does not know "
		 "(tools/kernel-memmap/patch.c)");
	return -1;
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

static const struct kmemmap_text host_text = {
	.alt_start = (const struct alt_instr *)__ntb_alt_start,
	.alt_end = (const struct alt_instr *)__ntb_alt_end,
	.mcount_start = __start___mcount_loc,
	.mcount_end = __stop___mcount_loc,
	.jump_start = __start___jump_table,
	.jump_end = __stop___jump_table,
	.sites = &kmemmap_sites,
	.fentry = (unsigned long)__fentry__,
	.sct_cond_resched = (unsigned long)__SCT__cond_resched,
	.sct_might_resched = (unsigned long)__SCT__might_resched,
	.sct_preempt_schedule = (unsigned long)__SCT__preempt_schedule,
	.sct_preempt_schedule_notrace =
		(unsigned long)__SCT__preempt_schedule_notrace,
	.cond_resched = (unsigned long)kmemmap_cond_resched,
	.safe_ret_thunk = (unsigned long)kmemmap_safe_ret_thunk,
	.ret_thunk = (unsigned long)kmemmap_ret_thunk,
	.has_feature = has_feature,
	.return_thunk = return_thunk,
	.stub_variable = kmemmap_stub_variable,
	.poke = text_poke,
};

int kmemmap_patch_text(struct kmemmap_patched *p, char *why, size_t len)
{
	return kmemmap_patch_code(&host_text, p, why, len);
}

int kmemmap_jump_labels_init(unsigned int *sites, char *why, size_t len)
{
	return kmemmap_jump_labels_patch(&host_text, sites, why, len);
}
