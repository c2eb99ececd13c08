// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_patch=FILE[,FILE...]: the option, its names and its builds
 * (kernel_patch.h). Everything the option can be refused for is found
 * while it is parsed: a run with a bad one stops before anything runs.
 */
#include "tests/engines/kernel_patch.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/memmap.h"
#include "kernel_memmap_list.h"

/* The suffixes a stem leaves out. */
static const char *const patch_suffixes[] = {".patch", ".diff", ".mbox"};

/*
 * kp_<stem> of @file (its @len bytes) into @name: the name after the
 * last '/', without its suffix, lower case, every character but letters
 * and digits as '_'. 0, or -1 with why.
 */
static int patch_name(const char *file, size_t len, char *name, size_t size,
		      char *why, size_t whylen)
{
	const char *base = file;
	size_t n, out = 3;

	for (size_t i = 0; i < len; i++)
		if (file[i] == '/')
			base = file + i + 1;
	n = len - (size_t)(base - file);
	if (!n) {
		ntb_snprintf(why, whylen, "'%.*s' names no file", (int)len,
			     file);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(patch_suffixes); i++) {
		size_t sl = strlen(patch_suffixes[i]);

		if (n >= sl && !strncmp(base + n - sl, patch_suffixes[i], sl)) {
			n -= sl;
			break;
		}
	}
	if (!n) {
		ntb_snprintf(why, whylen,
			     "'%.*s' has no name before its suffix", (int)len,
			     file);
		return -1;
	}
	if (n + 4 > size) {
		ntb_snprintf(why, whylen,
			     "'%.*s': its name makes a contender of more than "
			     "%zu characters",
			     (int)len, file, size - 1);
		return -1;
	}
	memcpy(name, "kp_", 3);
	for (size_t i = 0; i < n; i++) {
		char c = base[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		name[out++] = c;
	}
	name[out] = 0;
	return 0;
}

#define KERNEL_MEMMAP_NAME(n, ...) n,
static const char *const manifest_kernels[] = {
	KERNEL_MEMMAP_STRATEGIES(KERNEL_MEMMAP_NAME)};

/* The manifest's contender called @name (the model's or a kernel build). */
static const char *manifest_contender(const char *name)
{
	for (unsigned int i = 0; i < memmap_nr_strategies; i++)
		if (!strcmp(memmap_strategy_name_at(i), name))
			return "the model's strategy";
	for (size_t i = 0; i < ARRAY_SIZE(manifest_kernels); i++)
		if (!strcmp(manifest_kernels[i], name))
			return "manifest/strategies.yaml's kernel build";
	return NULL;
}

/*
 * @len bytes of @v, the option's value, as the list of its files into
 * @l, each checked readable where @check_files: 0, or -1 with why (the
 * file that is refused, and why).
 */
static int patch_list(const char *v, size_t len, struct kernel_patch_list *l,
		      bool check_files, char *why, size_t whylen)
{
	size_t start = 0;
	const char *what;

	*l = (struct kernel_patch_list){0};
	while (start <= len) {
		size_t end = start;
		struct kernel_patch *p = &l->v[l->n];

		while (end < len && v[end] != ',')
			end++;
		if (l->n == KERNEL_PATCH_MAX) {
			ntb_snprintf(why, whylen, "at most %u files",
				     KERNEL_PATCH_MAX);
			return -1;
		}
		if (end - start >= sizeof(p->file)) {
			ntb_snprintf(why, whylen,
				     "'%.40s...': a file name of more than "
				     "%zu characters",
				     v + start, sizeof(p->file) - 1);
			return -1;
		}
		if (patch_name(v + start, end - start, p->name, sizeof(p->name),
			       why, whylen))
			return -1;
		memcpy(p->file, v + start, end - start);
		p->file[end - start] = 0;
		/* file= of the run's lines is one word */
		for (const char *c = p->file; *c; c++)
			if (*c == ' ' || *c == '"' || *c == '\t') {
				ntb_snprintf(why, whylen,
					     "'%s': a blank or a quote in a file "
					     "name breaks the lines that name it",
					     p->file);
				return -1;
			}
		if (check_files && !plat_file_readable(p->file, why, whylen))
			return -1;
		for (unsigned int i = 0; i < l->n; i++)
			if (!strcmp(l->v[i].name, p->name)) {
				ntb_snprintf(why, whylen,
					     "%s and %s are both %s: rename "
					     "one",
					     l->v[i].file, p->file, p->name);
				return -1;
			}
		/*
		 * kp_<stem> beside a manifest contender called <stem> (or
		 * kp_<stem>) would be told apart by its prefix alone
		 */
		what = manifest_contender(p->name + 3);
		if (!what)
			what = manifest_contender(p->name);
		if (what) {
			ntb_snprintf(why, whylen,
				     "%s is %s, and %s is %s of that name: "
				     "rename the file",
				     p->file, p->name,
				     manifest_contender(p->name + 3)
					     ? p->name + 3
					     : p->name,
				     what);
			return -1;
		}
		l->n++;
		start = end + 1;
	}
	return 0;
}

/*
 * The option holds its text alone (the options set aside and put back
 * by the suites that parse options are a few bytes each); its files are
 * derived from it, and kept with their builds while it is the same.
 */
struct kernel_patch_text {
	char s[KERNEL_PATCH_TEXT_MAX];
};

static int parse_kernel_patch(void *var, const char *v, size_t len, char *why,
			      size_t whylen)
{
#ifdef NTB_HOSTED
	static struct kernel_patch_list l;
	struct kernel_patch_text *t = var;

	if (len >= sizeof(t->s)) {
		ntb_snprintf(why, whylen, "more than %zu characters",
			     sizeof(t->s) - 1);
		return -1;
	}
	if (patch_list(v, len, &l, true, why, whylen))
		return -1;
	memcpy(t->s, v, len);
	t->s[len] = 0;
	return 0;
#else
	ntb_snprintf(why, whylen,
		     "the image builds no kernel code: kernel_patch= runs "
		     "in the hosted runner (build/host/ntbench)");
	return -1;
#endif
}

DEFINE_OPTION_CUSTOM(struct kernel_patch_text, kernel_patch, parse_kernel_patch,
		     "hosted runner, bench_memmap_init: FILE[,FILE...], each "
		     "a patch (or a series in one file) to Debian's 6.12, "
		     "built with the kernel's build and run as the contender "
		     "kp_<stem> beside the others (docs/kernel-memmap.md)",
		     {""});

struct kernel_patch_list *kernel_patches(void)
{
	static struct kernel_patch_list l;
	static char from[KERNEL_PATCH_TEXT_MAX];
	char why[320];

	if (strcmp(from, opt_kernel_patch.s)) {
		memcpy(from, opt_kernel_patch.s, sizeof(from));
		/*
		 * as parsed, but for the files: one gone since fails its
		 * build by name (plat_kernel_patch_build())
		 */
		if (patch_list(from, strlen(from), &l, false, why, sizeof(why)))
			l.n = 0; /* parsed once already: not reached */
	}
	return &l;
}

void kernel_patch_build_all(void)
{
	struct kernel_patch_list *l = kernel_patches();

	for (unsigned int i = 0; i < l->n; i++) {
		struct kernel_patch *p = &l->v[i];

		if (p->built)
			continue;
		p->status = plat_kernel_patch_build(p->file, &p->build);
		p->built = true;
	}
}
