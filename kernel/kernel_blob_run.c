// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image runs the kernel blob (kernel/kernel_blob.h): Debian 6.12's
 * compiled memmap_init_zone_device() and the glue, for bench_memmap_init's
 * kernel contender, as the hosted runner's kernel-memmap program runs the
 * same objects (docs/kernel-memmap.md, "In the image").
 *
 * - Loaded once, before the first start: the blob copied into frames of
 *   the image's own and mapped at its link address in the image's page
 *   tables (the last top-level entry, as the kernel's text), its text
 *   patched as the kernel's boot patches its own on this CPU (patch.c and
 *   jump_labels.c, shared with the hosted runner; the features from CPUID
 *   by 6.12's rules, arch/x86/kernel_features.c), every site checked.
 * - Each start copies the blob's data back as built and zeroes its bss,
 *   so that no earlier contender's state (nor a fault's) is left in it.
 * - Every call into the blob, from the first at load, runs with the GS
 *   base on a per-CPU page of the blob's own in the top half: the
 *   kernel's stack protector reads its canary at %gs:40, and any other
 *   per-CPU read (%gs plus a link address) lands on nothing mapped and
 *   faults. The page's first word is this CPU's own per-CPU pointer, so
 *   that the image's this_cpu() (%gs:0) still works in an exception taken
 *   inside the blob; the GS base to go back to is kept here, out of the
 *   blob's reach.
 * - Every call has its jump point set first: a function stub reached
 *   (blob_support.c's hook), a fault inside the call or the watchdog's
 *   NMI on a hang ends the call, not the case. The GS base goes back, the
 *   contender is dead (no further run enters what the call left), and
 *   the start or run returns -1 naming the stub, or the address and the
 *   blob's symbol, as the hosted runner's does when its program dies.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/kernel_features.h"
#include "arch/x86/tsc.h"
#include "include/compiler.h"
#include "include/platform.h"
#include "kernel/kernel_blob.h"
#include "kernel/memory.h"
#include "kernel/msr.h"
#include "kernel/percpu.h"
#include "kernel/traps.h"
#include "lib/jump.h"
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tools/kernel-memmap/jump_labels.h"
#include "tools/kernel-memmap/patch.h"

/* lib/kernel_blob.c reads the site table by these offsets. */
_Static_assert(sizeof(struct kmemmap_sites) == KERNEL_BLOB_SITES_SIZE &&
		       KMEMMAP_MAX_SITES == KERNEL_BLOB_MAX_SITES &&
		       __builtin_offsetof(struct kmemmap_sites, nr) ==
			       KERNEL_BLOB_SITES_NR_OFF &&
		       __builtin_offsetof(struct kmemmap_sites, site) ==
			       KERNEL_BLOB_SITES_SITE_OFF &&
		       sizeof(struct kmemmap_site) == KERNEL_BLOB_SITE_SIZE &&
		       __builtin_offsetof(struct kmemmap_site, addr) == 0,
	       "lib/kernel_blob.c's reading of the site table");

/*
 * The glue's functions (tools/kernel-memmap/glue.h), from the header's
 * entry points, once at load.
 */
struct glue {
	int (*setup)(unsigned long start_pfn, unsigned long nr_pages,
		     unsigned long order, int type, int nid, int altmap,
		     unsigned long reserve, unsigned long free, void *arena,
		     unsigned long arena_bytes, char *why, unsigned long len);
	void (*call)(void);
	void (*pageblocks_reset)(void);
	unsigned long (*arena_bytes)(unsigned long start_pfn,
				     unsigned long nr_pages);
	void *(*pgmap)(void);
	unsigned long (*page_size)(void);
	unsigned long (*pageblock_pages)(void);
	long (*stack_canary_offset)(void);
	unsigned long (*pageblock_bits)(unsigned long pfn);
};

static struct {
	const struct kernel_blob *b;
	struct glue fn;
	bool tried;
	int load_rc; /* 0 loaded, 1 no blob (a skip), -1 failed */
	char why[256];
	u64 *percpu; /* the per-CPU page, by its identity address */
	struct kernel_cpu_inputs cpu;
	struct kmemmap_patched patched;
	char object[KMEMMAP_OBJECT_LEN];
	const struct kernel_memmap_call *active;
	/*
	 * A run of the active contender ended inside the blob: no more
	 * runs (why in stop_why).
	 */
	bool dead;
	/* a call that ended inside the blob: where to, and why */
	ntb_jmp_buf stopped;
	volatile bool in_call;
	u64 saved_gs; /* the GS base to go back to */
	char stop_why[256];
} kb;

static void glue_of(const struct kernel_blob_header *h, struct glue *g)
{
	const u64 *e = h->entry;

	g->setup = (void *)(uptr)e[KERNEL_BLOB_SETUP];
	g->call = (void *)(uptr)e[KERNEL_BLOB_CALL];
	g->pageblocks_reset = (void *)(uptr)e[KERNEL_BLOB_PAGEBLOCKS_RESET];
	g->arena_bytes = (void *)(uptr)e[KERNEL_BLOB_ARENA_BYTES];
	g->pgmap = (void *)(uptr)e[KERNEL_BLOB_PGMAP];
	g->page_size = (void *)(uptr)e[KERNEL_BLOB_PAGE_SIZE];
	g->pageblock_pages = (void *)(uptr)e[KERNEL_BLOB_PAGEBLOCK_PAGES];
	g->stack_canary_offset =
		(void *)(uptr)e[KERNEL_BLOB_STACK_CANARY_OFFSET];
	g->pageblock_bits = (void *)(uptr)e[KERNEL_BLOB_PAGEBLOCK_BITS];
}

/* Into the blob's per-CPU page, keeping this CPU's own at %gs:0. */
static void blob_enter(void)
{
	kb.saved_gs = (u64)(uptr)this_cpu();
	kb.percpu[0] = kb.saved_gs;
	write_gs_base(KERNEL_BLOB_PERCPU_ADDR);
	kb.in_call = true;
}

static void blob_leave(void)
{
	kb.in_call = false;
	write_gs_base(kb.saved_gs);
}

/*
 * The call ends here, from a hook or the exception handler, once it has
 * left the call (blob_leave()): back to the jump point its caller set, the
 * reason in kb.stop_why.
 */
static void __noreturn end_call(void)
{
	ntb_longjmp(kb.stopped, 1);
}

/* "name+0x12", or the bare address where the blob has no symbol there. */
static void name_addr(u64 addr, char *buf, size_t len)
{
	u64 off = 0;
	const char *name = kernel_blob_symbol_at(kb.b, addr, &off);

	if (name)
		ntb_snprintf(buf, len, "%s+%#llx", name, off);
	else
		ntb_snprintf(buf, len, "%#llx", addr);
}

/*
 * blob_support.c's hook for a function stub: the call ends here. (Not in
 * a call, it returns: the stub's UD2 then faults as any other fault.)
 */
static void stub_reached(const char *name, u64 from)
{
	char at[96];

	if (!kb.in_call)
		return;
	/* Out of the call first, as blob_fault(): the naming is the image's. */
	blob_leave();
	name_addr(from, at, sizeof(at));
	ntb_snprintf(kb.stop_why, sizeof(kb.stop_why),
		     "the kernel's code called %s() (returning to %s), "
		     "which the image does not provide "
		     "(tools/kernel-memmap/stubs)",
		     name, at);
	end_call();
}

/*
 * The exception handler's hook (trap_fault_hook, set at load): an
 * exception on the boot CPU inside a call ends the call, naming it.
 */
static void blob_fault(int vector, const char *trap, u64 ip, u64 cr2)
{
	char at[96], what[112] = "";
	u64 off = 0;
	const char *var, *key;

	if (!kb.in_call)
		return;
	/* Out of the call first: a fault while naming it is the image's. */
	blob_leave();
	name_addr(ip, at, sizeof(at));
	key = vector == 6 ? kmemmap_jump_label_key_at(ip) : NULL;
	if (key)
		ntb_snprintf(what, sizeof(what),
			     ", a static branch on %s, a key the image does "
			     "not provide (tools/kernel-memmap/stubs)",
			     key);
	if (vector == 14) {
		/* a read of a variable stub, plain or as a per-CPU one */
		var = kernel_blob_symbol_at(kb.b, cr2, &off);
		if (!var) {
			var = kernel_blob_symbol_at(
				kb.b, cr2 - KERNEL_BLOB_PERCPU_ADDR, &off);
			if (var)
				ntb_snprintf(
					what, sizeof(what),
					", a per-CPU read of %%gs:%s+%#llx",
					var, off);
		} else {
			ntb_snprintf(what, sizeof(what), ", a read of %s+%#llx",
				     var, off);
		}
		if (!what[0])
			ntb_snprintf(what, sizeof(what), " at address %#llx",
				     cr2);
	}
	if (ip - kb.b->h->link_addr < kb.b->h->text_size)
		ntb_snprintf(kb.stop_why, sizeof(kb.stop_why),
			     "%s (vector %d) inside the kernel's code at %s%s",
			     trap, vector, at, what);
	else
		ntb_snprintf(kb.stop_why, sizeof(kb.stop_why),
			     "%s (vector %d) during a call into the kernel's "
			     "code, at %#llx outside its text%s",
			     trap, vector, ip, what);
	end_call();
}

static int has_feature(unsigned int feature, char *why, size_t len)
{
	return kernel_cpu_feature(&kb.cpu, feature, why, len);
}

/* The image picks no return thunk yet. */
static const char *return_thunk(struct kmemmap_patched *p, char *why,
				size_t len)
{
	(void)why;
	(void)len;
	ntb_snprintf(p->return_why, sizeof(p->return_why),
		     "the image picks no return thunk yet: every return site "
		     "is RET");
	return "ret";
}

/* The variable stub @addr lies in (a key may sit inside a struct). */
static const char *stub_variable(unsigned long addr)
{
	const struct kernel_blob_header *h = kb.b->h;
	u64 off = 0;

	if (addr - h->stub_variables.addr >= h->stub_variables.size)
		return NULL;
	return kernel_blob_symbol_at(kb.b, addr, &off);
}

static int poke(unsigned long addr, const void *bytes, unsigned int n,
		char *why, size_t len)
{
	const struct kernel_blob_header *h = kb.b->h;

	if (addr < h->link_addr || addr + n > h->link_addr + h->text_size) {
		ntb_snprintf(why, len, "a patch at %#lx outside the text",
			     addr);
		return -1;
	}
	memcpy((void *)addr, bytes, n);
	return 0;
}

/* The features the alternatives test, and how each was derived. */
static void features_line(void)
{
	char line[600], how[96];
	int n = ntb_snprintf(line, sizeof(line), "# kernel-features");

	for (unsigned int i = 0;
	     i < kmemmap_nr_features && n > 0 && (size_t)n < sizeof(line);
	     i++) {
		const struct kmemmap_feature *f = &kmemmap_features[i];
		int has = kernel_cpu_feature(&kb.cpu, f->feature, how,
					     sizeof(how));

		n += ntb_snprintf(line + n, sizeof(line) - n, " %s=%s(%s)",
				  f->name,
				  has < 0 ? "?"
				  : has	  ? "1"
					  : "0",
				  how);
	}
	kunit_diag("%s\n", line);
}

static int patch_blob(char *why, size_t len)
{
	const struct kernel_blob_header *h = kb.b->h;
	const struct kmemmap_text t = {
		.alt_start = (const void *)(uptr)h->altinstructions.addr,
		.alt_end = (const void *)(uptr)(h->altinstructions.addr +
						h->altinstructions.size),
		.mcount_start = (const void *)(uptr)h->mcount_loc.addr,
		.mcount_end = (const void *)(uptr)(h->mcount_loc.addr +
						   h->mcount_loc.size),
		.jump_start = (const void *)(uptr)h->jump_table.addr,
		.jump_end = (const void *)(uptr)(h->jump_table.addr +
						 h->jump_table.size),
		.sites = (const void *)(uptr)h->sites.addr,
		.fentry = kernel_blob_symbol_addr(kb.b, "__fentry__"),
		.sct_cond_resched =
			kernel_blob_symbol_addr(kb.b, "__SCT__cond_resched"),
		.sct_might_resched =
			kernel_blob_symbol_addr(kb.b, "__SCT__might_resched"),
		.sct_preempt_schedule = kernel_blob_symbol_addr(
			kb.b, "__SCT__preempt_schedule"),
		.sct_preempt_schedule_notrace = kernel_blob_symbol_addr(
			kb.b, "__SCT__preempt_schedule_notrace"),
		.cond_resched =
			kernel_blob_symbol_addr(kb.b, "kmemmap_cond_resched"),
		.has_feature = has_feature,
		.return_thunk = return_thunk,
		.stub_variable = stub_variable,
		.poke = poke,
	};

	if (!t.cond_resched || !t.fentry) {
		ntb_snprintf(why, len,
			     "the blob has no kmemmap_cond_resched or "
			     "__fentry__");
		return -1;
	}
	if (kmemmap_patch_code(&t, &kb.patched, why, len) ||
	    kmemmap_jump_labels_patch(&t, &kb.patched.jump_labels, why, len))
		return -1;
	ntb_snprintf(kb.object, sizeof(kb.object),
		     "%s %s patches=%llu patches_sha256=%s fentry=%u "
		     "return_sites=%u alternatives=%u jump_labels=%u "
		     "static_calls=%u return_thunk=%s return_thunk_from=\"%s\"",
		     h->object, h->release, h->patches, h->patches_sha256,
		     kb.patched.fentry, kb.patched.return_sites,
		     kb.patched.alternatives, kb.patched.jump_labels,
		     kb.patched.static_calls, kb.patched.return_thunk,
		     kb.patched.return_why);
	return 0;
}

/* The blob's data as built, its bss zeroed, the image's hooks in it. */
static void reset_data(void)
{
	const struct kernel_blob_header *h = kb.b->h;
	u8 *data = (u8 *)(uptr)(h->link_addr + h->text_size);
	struct kernel_blob_hooks *hooks = (void *)(uptr)h->hooks;

	memcpy(data, kb.b->image + h->text_size, h->data_size);
	memset(data + h->data_size, 0, h->bss_size);
	hooks->stop = stub_reached;
	hooks->vsnprintf = ntb_vsnprintf;
}

/* The self-test's stubs, as tools/kernel-memmap/stubs names them. */
static struct {
	void (*function)(void);
	const volatile long *variable;
	const char *function_name, *variable_name;
	u64 object_variable; /* one of the blob's own: its hooks */
	long canary;	     /* what the glue says, read at load */
} st;

/* A call of a function stub in the blob: must end naming it. */
static void call_function_stub(void)
{
	st.function();
}

/* A read of a variable stub, plain and per-CPU: must fault naming it. */
static void read_variable_stub(void)
{
	(void)*st.variable;
}

static void read_percpu_variable_stub(void)
{
	unsigned long v;

	asm volatile("movq %%gs:(%1), %0" : "=r"(v) : "r"(st.variable));
}

/* A per-CPU read of the blob's own variable (%gs plus its address). */
static void read_percpu_object_variable(void)
{
	unsigned long v;

	asm volatile("movq %%gs:(%1), %0" : "=r"(v) : "r"(st.object_variable));
}

static void read_canary_offset(void)
{
	st.canary = kb.fn.stack_canary_offset();
}

/*
 * Run @body as a call into the blob: 0 where it returned, 1 where it
 * ended inside the blob (why in kb.stop_why), the GS base back either
 * way: -1 where it is not (the image's own then says so).
 */
static int guarded_call(void (*body)(void))
{
	u64 gs;

	if (ntb_setjmp(kb.stopped))
		goto stopped;
	blob_enter();
	body();
	blob_leave();
	return 0;
stopped:
	if (rdmsr_safe(MSR_GS_BASE, &gs) || gs != kb.saved_gs) {
		ntb_snprintf(kb.stop_why, sizeof(kb.stop_why),
			     "the GS base is %#llx after the call ended, not "
			     "the image's %#llx",
			     gs, kb.saved_gs);
		return -1;
	}
	return 1;
}

/* Is @addr a symbol of the blob's, inside [@lo, @lo + @n)? */
static u64 symbol_in(const char *name, u64 lo, u64 n)
{
	u64 addr = kernel_blob_symbol_addr(kb.b, name);

	return addr >= lo && addr - lo < n ? addr : 0;
}

/* The self-test's stubs found, each where it must lie. */
static int selftest_stubs(char *why, size_t len)
{
	const struct kernel_blob_header *h = kb.b->h;
	const u64 text = h->link_addr, data = text + h->text_size;
	const u64 span = kernel_blob_span(kb.b);
	u64 fn = symbol_in("kmemmap_selftest_function", data, span),
	    var = symbol_in("kmemmap_selftest_variable", data, span);
	u64 fname = symbol_in("kmemmap_selftest_function_name", text, span),
	    vname = symbol_in("kmemmap_selftest_variable_name", text, span);

	if (!fn || !var || !fname || !vname) {
		ntb_snprintf(why, len, "the blob has no self-test stubs");
		return -1;
	}
	st.function = (void (*)(void))(uptr) * (const u64 *)(uptr)fn;
	st.variable = (const volatile long *)(uptr) * (const u64 *)(uptr)var;
	st.function_name = (const char *)(uptr)fname;
	st.variable_name = (const char *)(uptr)vname;
	st.object_variable = h->hooks;
	if ((u64)(uptr)st.function - text >= h->text_size ||
	    (u64)(uptr)st.variable - h->stub_variables.addr >=
		    h->stub_variables.size) {
		ntb_snprintf(why, len,
			     "the blob's self-test stubs are not a function "
			     "stub and a variable stub");
		return -1;
	}
	return 0;
}

/*
 * As the hosted runner's --selftest: a call of a function stub, a read
 * of a variable stub, plain and per-CPU, and a per-CPU read of one of the
 * blob's own variables each end the call by name, the GS base back.
 */
static int selftest(char *why, size_t len)
{
	char own[96];
	u64 off = 0;
	const char *name =
		kernel_blob_symbol_at(kb.b, st.object_variable, &off);
	const struct {
		const char *what;
		void (*body)(void);
		const char *name;
	} tries[] = {
		{"a call of the function stub", call_function_stub,
		 st.function_name},
		{"a read of the variable stub", read_variable_stub,
		 st.variable_name},
		{"a per-CPU read of the variable stub",
		 read_percpu_variable_stub, st.variable_name},
		{"a per-CPU read of the blob's own variable",
		 read_percpu_object_variable, own},
	};

	ntb_snprintf(own, sizeof(own), "%%gs:%s+", name ? name : "?");

	for (unsigned int i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		int r = guarded_call(tries[i].body);

		if (r != 1 || !strstr(kb.stop_why, tries[i].name)) {
			ntb_snprintf(why, len,
				     "self-test: %s (%s) did not end the call "
				     "naming it: %s",
				     tries[i].what, tries[i].name,
				     r ? kb.stop_why : "it returned instead");
			return -1;
		}
	}
	kunit_diag("# kernel-blob selftest: a call of %s() and a read of %s, "
		   "plain and per-CPU, and a per-CPU read of the blob's own "
		   "variable end the call naming them\n",
		   st.function_name, st.variable_name);
	return 0;
}

static int load(char *why, size_t len)
{
	const struct kernel_blob_header *h;
	u64 span, phys, percpu;

	kb.b = image_kernel_blob();
	if (!kb.b) {
		ntb_snprintf(why, len,
			     "the image carries no kernel blob: %s; the hosted "
			     "runner runs the kernel's objects "
			     "(build/host/ntbench)",
			     image_kernel_blob_why());
		return 1;
	}
	h = kb.b->h;
	span = ALIGN_UP(kernel_blob_span(kb.b), SZ_4K);
	phys = frame_alloc(&kmem.fa, span, SZ_4K);
	percpu = frame_alloc(&kmem.fa, SZ_4K, SZ_4K);
	if (!phys || !percpu || memory_map_pages(h->link_addr, phys, span) ||
	    memory_map_pages(KERNEL_BLOB_PERCPU_ADDR, percpu, SZ_4K)) {
		ntb_snprintf(why, len,
			     "cannot map the kernel blob's %llu bytes at %#llx",
			     span, h->link_addr);
		return -1;
	}
	memcpy((void *)(uptr)h->link_addr, kb.b->image, h->text_size);
	kb.percpu = (u64 *)(uptr)percpu;
	memset(kb.percpu, 0, SZ_4K);
	glue_of(h, &kb.fn);
	reset_data();
	trap_fault_hook = blob_fault;
	kernel_cpu_inputs_from(&boot_cpu_data, &kb.cpu);
	/* IA32_MISC_ENABLE exists on Intel alone: early_init_intel() reads it
	 */
	if (!strcmp(boot_cpu_data.vendor, "GenuineIntel"))
		kb.cpu.misc_enable_read =
			!rdmsr_safe(MSR_IA32_MISC_ENABLE, &kb.cpu.misc_enable);
	features_line();
	if (patch_blob(why, len) || selftest_stubs(why, len))
		return -1;
	/* the stack protector's canary where the page holds it */
	if (guarded_call(read_canary_offset)) {
		ntb_snprintf(why, len, "the glue's canary offset: %s",
			     kb.stop_why);
		return -1;
	}
	if (st.canary >= 0 && (st.canary < 8 || st.canary > (long)SZ_4K - 8)) {
		ntb_snprintf(why, len,
			     "the kernel's canary is at %%gs:%ld, outside the "
			     "blob's per-CPU page",
			     st.canary);
		return -1;
	}
	if (st.canary >= 0)
		kb.percpu[st.canary / 8] = 0x6e74626f6f7400ULL;
	return selftest(why, len);
}

/* The request's pfns inside its window, as the hosted runner checks. */
static int check_request(const struct kernel_memmap_call *c, char *why,
			 size_t len)
{
	if (!c->nr_pages || c->start_pfn < c->base_pfn ||
	    c->start_pfn - c->base_pfn > c->nr_pfns ||
	    c->nr_pages > c->nr_pfns - (c->start_pfn - c->base_pfn) ||
	    c->pageblocks_pfn < c->base_pfn) {
		ntb_snprintf(why, len,
			     "the request's window does not hold pfns "
			     "%#lx+%lu",
			     c->start_pfn, c->nr_pages);
		return -1;
	}
	return 0;
}

int plat_kernel_memmap_start(struct kernel_memmap_call *c, char *why,
			     size_t len)
{
	const struct kernel_blob_header *h;
	u64 window, bits, arena_bytes;
	int setup;

	/* (the same code as kernel's whether or not the blob loads) */
	if (c->plain_returns) {
		ntb_snprintf(why, len,
			     "the image patches every return site to RET (it "
			     "picks no return thunk yet): the same code as "
			     "its build's");
		return 1;
	}
	if (!kb.tried) {
		kb.tried = true;
		kb.load_rc = load(kb.why, sizeof(kb.why));
	}
	if (kb.load_rc) {
		ntb_snprintf(why, len, "%s", kb.why);
		return kb.load_rc;
	}
	h = kb.b->h;
	if (c->patches || strcmp(c->patches_sha256, h->patches_sha256)) {
		ntb_snprintf(why, len,
			     "the image's blob is built from %llu patch files "
			     "(%.16s...), not from this contender's (%s)",
			     h->patches, h->patches_sha256,
			     c->patches ? c->patches : "none");
		return 1;
	}
	if (kb.active) {
		ntb_snprintf(why, len,
			     "the image's blob serves one contender at a time");
		return -1;
	}
	if (check_request(c, why, len))
		return -1;
	reset_data();
	c->map = NULL;
	/* every call below ends here where it ends inside the blob */
	if (ntb_setjmp(kb.stopped)) {
		ntb_snprintf(why, len, "%s", kb.stop_why);
		plat_free(c->map, c->map_bytes);
		c->map = NULL;
		return -1;
	}
	blob_enter();
	if (kb.fn.page_size() != c->page_size ||
	    kb.fn.pageblock_pages() != c->pageblock_pages) {
		blob_leave();
		ntb_snprintf(why, len,
			     "the request has a %u-byte struct page and "
			     "pageblocks of %lu pfns; the kernel's differ",
			     c->page_size, c->pageblock_pages);
		return -1;
	}
	arena_bytes = kb.fn.arena_bytes(c->start_pfn, c->nr_pages);
	blob_leave();
	window = ALIGN_UP(c->line_offset + (u64)c->nr_pfns * c->page_size, 64);
	bits = ALIGN_UP((u64)c->nr_pageblocks, 64);
	c->map_bytes = window + bits + arena_bytes;
	c->map = plat_alloc_aligned(c->map_bytes, SZ_4K);
	if (!c->map) {
		ntb_snprintf(why, len, "no %zu bytes for the kernel's window",
			     c->map_bytes);
		return -1;
	}
	memset(c->map, 0, c->map_bytes);
	c->pages = (u8 *)c->map + c->line_offset;
	c->pageblock_bits = (u8 *)c->map + window;
	/* pfn_to_page(pfn) = vmemmap_base + pfn: the window's pages */
	*(u64 *)(uptr)h->vmemmap_base =
		(u64)(uptr)c->pages - (u64)c->base_pfn * c->page_size;
	blob_enter();
	setup = kb.fn.setup(c->start_pfn, c->nr_pages, c->order, c->type,
			    c->nid, c->altmap, c->altmap_reserve,
			    c->altmap_free, (u8 *)c->map + window + bits,
			    arena_bytes, why, len);
	c->pgmap_addr = (u64)(uptr)kb.fn.pgmap();
	blob_leave();
	if (setup) {
		plat_free(c->map, c->map_bytes);
		c->map = NULL;
		return -1;
	}
	c->pages_addr = (u64)(uptr)c->pages;
	ntb_snprintf(c->object, sizeof(c->object), "%s", kb.object);
	ntb_snprintf(c->return_thunk, sizeof(c->return_thunk), "%s",
		     kb.patched.return_thunk);
	ntb_snprintf(c->return_thunk_from, sizeof(c->return_thunk_from), "%s",
		     kb.patched.return_why);
	kb.active = c;
	kb.dead = false;
	return 0;
}

/* The kernel's code writes the window itself, which the caller poisons. */
void plat_kernel_memmap_poison(struct kernel_memmap_call *c,
			       const unsigned long *pfns, unsigned int nr,
			       u8 byte)
{
}

int plat_kernel_memmap_run(struct kernel_memmap_call *c, u64 *cycles,
			   char *why, size_t len)
{
	void (*const call)(void) = kb.fn.call;
	u64 t0, t1;

	*cycles = 0;
	if (kb.active != c) {
		ntb_snprintf(why, len, "the kernel's code is not started");
		return -1;
	}
	if (kb.dead) {
		ntb_snprintf(why, len,
			     "the kernel's code is not running: an earlier "
			     "call ended inside it (%s)",
			     kb.stop_why);
		return -1;
	}
	if (ntb_setjmp(kb.stopped)) {
		kb.dead = true;
		ntb_snprintf(why, len, "%s", kb.stop_why);
		return -1;
	}
	blob_enter();
	kb.fn.pageblocks_reset();
	/* the call alone between the two readings */
	t0 = rdtsc_ordered();
	call();
	t1 = rdtsc_ordered();
	for (unsigned long i = 0; i < c->nr_pageblocks; i++) {
		unsigned long pfn = c->pageblocks_pfn + i * c->pageblock_pages;
		unsigned long v = kb.fn.pageblock_bits(pfn);

		if (v > 0xff) {
			blob_leave();
			ntb_snprintf(why, len,
				     "pfn %#lx has no section: the request's "
				     "pageblocks go past the namespace's "
				     "sections",
				     pfn);
			return -1;
		}
		c->pageblock_bits[i] = v;
	}
	blob_leave();
	*cycles = t1 - t0;
	return 0;
}

void plat_kernel_memmap_stop(struct kernel_memmap_call *c)
{
	if (c->map)
		plat_free(c->map, c->map_bytes);
	c->map = NULL;
	if (kb.active == c) {
		kb.active = NULL;
		kb.dead = false;
	}
}
