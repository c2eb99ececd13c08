// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel contenders: the kernel's own memmap_init_zone_device(), one
 * build each, timed beside the model, each run checked against the
 * model's slow path at kernel=6.12 (kernel_memmap.h).
 */
#include "tests/engines/kernel_memmap.h"
#include "arch/x86/lib/clean_cache.h"
#include "tests/engines/bench_util.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "model/kernels.h"

#define KERNEL_MEMMAP_BUILD(n, r, mdl, l, p, sha, plain) \
	{.name = n,                                      \
	 .runner = r,                                    \
	 .model = mdl,                                   \
	 .layouts = l,                              \
	 .patches = p,                              \
	 .patches_sha256 = sha,                     \
	 .plain_returns = plain},

struct kernel_memmap_build kernel_memmap_builds[KERNEL_MEMMAP_MAX_BUILDS] = {
	KERNEL_MEMMAP_STRATEGIES(KERNEL_MEMMAP_BUILD)};

unsigned int kernel_memmap_nr_builds(void)
{
	struct kernel_patch_list *l = kernel_patches();

	for (unsigned int i = 0; i < l->n; i++) {
		struct kernel_patch *p = &l->v[i];

		kernel_memmap_builds[KERNEL_MEMMAP_NR_BUILDS + i] =
			(struct kernel_memmap_build){
				.name = p->name,
				.runner = p->build.runner,
				/* Debian's 6.12, as the stock kernel */
				.layouts = kernel_memmap_builds[0].layouts,
				.patches = p->file,
				.patches_sha256 = p->build.sha256,
				.patch = p,
			};
	}
	return KERNEL_MEMMAP_NR_BUILDS + l->n;
}

bool kernel_memmap_refuses(const struct kernel_memmap_build *b,
			   const struct page_layout *l, char *why, size_t len)
{
	/* manifest/strategies.yaml's layouts of the build */
	if (b->layouts & (1u << l->id))
		return false;
	ntb_snprintf(why, len,
		     "the kernel's object is Debian's 6.12, whose struct "
		     "page is 64 bytes: it needs layout=64");
	return true;
}

/* What the runner wrote, as memmap_compare_kernel() reads it. */
static struct memmap_kernel_run kernel_run(const struct kernel_memmap *k)
{
	return (struct memmap_kernel_run){
		.pages = k->call.pages,
		.pages_addr = k->call.pages_addr,
		.pgmap_addr = k->call.pgmap_addr,
		.pageblock_bits = k->call.pageblock_bits,
	};
}

int kernel_memmap_ref_make(struct kernel_memmap_ref *ref,
			   const struct memmap_config *cfg, char *why,
			   size_t len)
{
	struct memmap_config at_6_12 = *cfg;

	at_6_12.kernel = MODEL_KERNEL_6_12;
	if (memmap_create(&ref->m, &at_6_12, NULL, 0, why, len))
		return -1;
	if (memmap_set_strategy(&ref->m, "slow", why, len)) {
		memmap_destroy(&ref->m);
		return -1;
	}
	/* the poison byte the runners' windows get too (before the run) */
	memmap_poison_with(&ref->m, MEMMAP_POISON_DEFAULT,
			   bench_poison_streaming);
	ref->made = true;
	return 0;
}

void kernel_memmap_ref_write(struct kernel_memmap_ref *ref)
{
	memmap_run(&ref->m);
	clean_cache_range(ref->m.pages, ref->m.bytes);
}

void kernel_memmap_ref_free(struct kernel_memmap_ref *ref)
{
	if (ref->made)
		memmap_destroy(&ref->m);
	ref->made = false;
}

/*
 * A build from a patch file: its object line names the file and the
 * first 16 hex of its SHA-256 where the manifest's builds give the
 * SHA-256 of their series' files, and one line says whether its objects
 * are the stock ones (an A/A run of the kernel's code) or which differ.
 */
static void patch_object_said(const struct kernel_memmap_build *b,
			      const char *object)
{
	const struct kernel_patch *p = b->patch;
	const char *sha = strstr(object, " patches_sha256=");
	const char *rest = sha ? strchr(sha + 1, ' ') : NULL;

	if (sha && rest)
		kunit_diag("# kernel-object strategy=%s %.*s file=%s "
			   "sha256=%.16s%s\n",
			   b->name, (int)(sha - object), object, p->file,
			   p->build.sha256, rest);
	else
		kunit_diag("# kernel-object strategy=%s %s file=%s "
			   "sha256=%.16s\n",
			   b->name, object, p->file, p->build.sha256);
	if (p->build.same_objects)
		kunit_diag("# kernel-patch strategy=%s file=%s sha256=%.16s "
			   "objects=same: its objects are the stock kernel's "
			   "(debug information aside): an A/A run of the "
			   "kernel's code\n",
			   b->name, p->file, p->build.sha256);
	else
		kunit_diag("# kernel-patch strategy=%s file=%s sha256=%.16s "
			   "objects=differ differ=%s\n",
			   b->name, p->file, p->build.sha256,
			   p->build.differ);
}

/* "# kernel-object" said for each build: once a process */
static bool object_said[KERNEL_MEMMAP_MAX_BUILDS];

/*
 * A patch file's build that cannot be made here (0, the reason in @skip,
 * as a runner not built is) or failed: the case fails once a process in
 * patch's or the compiler's words, its first line the reason and each
 * further one a line of its own (-1).
 */
static int patch_not_built(struct kunit *test,
			   const struct kernel_memmap_build *b, char *skip,
			   size_t len)
{
	static bool failure_said[KERNEL_MEMMAP_MAX_BUILDS];
	const char *why = b->patch->build.why, *nl = strchr(why, '\n');

	if (b->patch->status > 0) {
		ntb_snprintf(skip, len, "%s", why);
		return 0;
	}
	if (failure_said[b - kernel_memmap_builds])
		return -1;
	failure_said[b - kernel_memmap_builds] = true;
	for (const char *l = nl; l && l[1]; l = strchr(l + 1, '\n')) {
		const char *end = strchr(l + 1, '\n');

		kunit_diag("# %s: %.*s\n", b->name,
			   end ? (int)(end - l - 1) : (int)strlen(l + 1),
			   l + 1);
	}
	kunit_fail_at(test, __FILE__, __LINE__, "%s: %.*s", b->name,
		      nl ? (int)(nl - why) : (int)strlen(why), why);
	return -1;
}

int kernel_memmap_start(struct kunit *test, struct kernel_memmap *k,
			const struct kernel_memmap_build *b,
			struct kernel_memmap_ref *ref, const char *config,
			char *skip, size_t len)
{
	const struct memmap *m = &ref->m;
	char why[300];
	int r;

	if (b->patch && b->patch->status)
		return patch_not_built(test, b, skip, len);
	k->ref = ref;
	k->call = (struct kernel_memmap_call){
		.runner = b->runner,
		.patches = b->patches,
		.patches_sha256 = b->patches_sha256,
		/* the stock kernel's runner alone may be named another */
		.env = kernel_memmap_is_stock(kernel_memmap_object_of(b))
			       ? "NTB_KERNEL_MEMMAP"
			       : NULL,
		.plain_returns = b->plain_returns,
		.start_pfn = m->cfg.start_pfn,
		.nr_pages = m->cfg.nr_pages,
		.order = m->cfg.order,
		.type = m->cfg.type,
		.nid = m->cfg.nid,
		.altmap = m->cfg.altmap,
		.altmap_reserve = m->cfg.altmap_reserve,
		.altmap_free = m->cfg.altmap_free,
		.base_pfn = m->base_pfn,
		.nr_pfns = m->nr_pfns,
		.page_size = m->layout->size,
		.line_offset = memmap_line_offset(&m->cfg),
		.pageblock_pages = pageblock_nr_pages,
		.pageblocks_pfn = memmap_pageblocks_pfn(m),
		.nr_pageblocks = memmap_nr_pageblocks(m),
	};
	r = plat_kernel_memmap_start(&k->call, why, sizeof(why));
	if (r == 1) {
		ntb_snprintf(skip, len, "%s", why);
		return 0;
	}
	if (r) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: the kernel's code did not "
			      "start: %s",
			      b->name, config, why);
		return -1;
	}
	/* a twin's runner must have done what its name says */
	if (b->plain_returns && strcmp(k->call.return_thunk, "ret")) {
		kunit_fail_at(test, __FILE__, __LINE__,
			      "strategy=%s %s: its runner left the return "
			      "sites on %s (%s), not the plain returns of %s's "
			      "object its name says",
			      b->name, config, k->call.return_thunk,
			      k->call.return_thunk_from,
			      kernel_memmap_object_of(b)->name);
		plat_kernel_memmap_stop(&k->call);
		return -1;
	}
	/* what runs, once: the same object and patching for every start */
	if (!object_said[b - kernel_memmap_builds]) {
		if (b->patch)
			patch_object_said(b, k->call.object);
		else
			kunit_diag("# kernel-object strategy=%s %s\n", b->name,
				   k->call.object);
		object_said[b - kernel_memmap_builds] = true;
	}
	k->started = true;
	return 1;
}

void kernel_memmap_poison(struct kernel_memmap *k, const unsigned long *pfns,
			  unsigned int nr,
			  void (*fill)(void *dst, u8 byte, size_t n))
{
	unsigned int size = k->call.page_size;
	/* the reference's byte: the two are compared after the run */
	u8 byte = (u8)k->ref->m.poison;

	/*
	 * The window always: where the kernel's code writes a memmap of its
	 * own, poisoned there too, the window's poison proves the runner
	 * copied back every struct page the run is checked on.
	 */
	plat_kernel_memmap_poison(&k->call, pfns, nr, byte);
	if (!pfns)
		fill(k->call.pages, byte, (size_t)k->call.nr_pfns * size);
	for (unsigned int i = 0; pfns && i < nr; i++)
		memset(k->call.pages + (pfns[i] - k->call.base_pfn) * size,
		       byte, size);
	/* no pageblock has all its bits set: 0xff is no value it reads */
	memset(k->call.pageblock_bits, 0xff, k->call.nr_pageblocks);
}

u64 kernel_memmap_run(struct kernel_memmap *k, char *why, size_t len)
{
	u64 cycles;

	plat_kernel_memmap_run(&k->call, &cycles, why, len);
	return cycles;
}

bool kernel_memmap_check(const struct kernel_memmap *k,
			 const unsigned long *pfns, unsigned int nr,
			 struct memmap_report *r)
{
	struct memmap_kernel_run run = kernel_run(k);

	return memmap_compare_kernel_pfns(&k->ref->m, &run, pfns, nr, r);
}

void kernel_memmap_stop(struct kernel_memmap *k)
{
	if (!k->started)
		return;
	plat_kernel_memmap_stop(&k->call);
	k->started = false;
}
