// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-memmap: runs the kernel's own compiled memmap_init_zone_device()
 * (Debian's 6.12 mm/mm_init.o, with mm/page_alloc.o and glue.c, all built
 * by the kernel's build) in user space, on the request in the memory file
 * at fd 3, as many times as the socket at fd 4 asks (request.h), for the
 * hosted runner's strategy=kernel: its text patched first as the kernel's
 * boot patches its own (patch.c), each call timed alone.
 *
 * The kernel's objects use the kernel code model (R_X86_64_32S
 * relocations): this program is linked without PIE, below 2 GiB, which
 * is why it is a program of its own and not part of ntbench. Symbols of
 * the rest of the kernel come from stubs.S (tools/kernel-memmap/stubs):
 * a call to one that the path is not expected to make, or a read of
 * such a variable, stops the run with the symbol's name in the answer.
 *
 * Exit status: 0 every call returned and the socket closed, 1 one did not
 * or the request was wrong (the reason in request->why and on stderr).
 *
 * kernel-memmap --selftest: a call of a function stub and a read of a
 * variable stub each stop a child run naming the symbol; exit 0 when
 * both do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <asm/prctl.h>

#include "arch/x86/tsc.h"
#include "host/huge_map.h"
#include "glue.h"
#include "jump_labels.h"
#include "patch.h"
#include "request.h"

/* The variable glue.c defines for the kernel's pfn_to_page(). */
extern unsigned long vmemmap_base;

/* The stubs (stubs): the name of the variable stub at @addr, or NULL. */
const char *kmemmap_stub_variable(unsigned long addr);
extern void (*const kmemmap_selftest_function)(void);
extern const char kmemmap_selftest_function_name[];
extern const volatile long *const kmemmap_selftest_variable;
extern const char kmemmap_selftest_variable_name[];

/* How long the call may take before the run is stopped. */
#define KMEMMAP_TIMEOUT_S 60

/*
 * A per-CPU variable, a stub's or one the linked objects define, is read
 * at its link address from the GS base: below 2 GiB (the kernel code
 * model), all of it reserved with no access past the canary.
 */
#define KMEMMAP_PERCPU_REACH 0x80000000UL

/* Where the linked objects' own per-CPU variables lie (their .data). */
#define KMEMMAP_SELFTEST_PERCPU_OFF 0x400000UL

static struct kmemmap_request *req;

/*
 * The kernel's memmap: in memory of the runner's own, anonymous and on
 * transparent huge pages where the system gives them, as ntbench's model
 * has its memmap (plat_alloc_aligned()) and as the kernel has its
 * vmemmap (2 MiB mappings: vmemmap_populate_hugepages()). The memory file
 * shared with ntbench is shmem, on 4 KiB pages wherever shmem's huge
 * pages are off (Debian's default): there the kernel's code paid a TLB
 * miss every 64 struct pages that the model did not, 5 to 15% of its
 * time on an Intel Xeon (docs/kernel-memmap.md, "The memory under the
 * memmap"). The window of
 * the file gets a copy of what ntbench reads after each call, outside the
 * cycles.
 */
static unsigned char *memmap_pages; /* the struct page of base_pfn */
static unsigned char *window_pages; /* the same in the memory file */

/* The GS base percpu_area_init() set, 0 where it set none. */
static unsigned long percpu_base;

/* Why the run stops: in the answer, and on stderr. */
static void say(const char *fmt, ...)
{
	char why[sizeof(req->why)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (req)
		memcpy(req->why, why, sizeof(why));
	fprintf(stderr, "kernel-memmap: %s\n", why);
}

/*
 * Called by a function stub (stubs.S) that the kernel's code reached:
 * the glue provides no such function, so the run cannot be the kernel's.
 */
void kmemmap_unexpected_call(const char *name, unsigned long from)
{
	say("the kernel's code called %s() (returning to %#lx), which the "
	    "runner does not provide (tools/kernel-memmap/stubs)",
	    name, from);
	_exit(1);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	const unsigned long addr = (unsigned long)si->si_addr;
	/* as an offset from the GS base: a per-CPU read, %gs:variable */
	const unsigned long gs_off = addr - percpu_base;
	const char *var = kmemmap_stub_variable(addr);
	unsigned long ip = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	const char *key = kmemmap_jump_label_key_at(ip);

	if (!var && percpu_base)
		var = kmemmap_stub_variable(gs_off);
	if (sig == SIGALRM)
		say("memmap_init_zone_device() did not return in %d s",
		    KMEMMAP_TIMEOUT_S);
	else if (sig == SIGILL && key)
		say("the kernel's code reached a static branch on %s, a key "
		    "the runner does not provide (tools/kernel-memmap/stubs)",
		    key);
	else if (var)
		say("the kernel's code read %s, which the runner does not "
		    "provide (tools/kernel-memmap/stubs)",
		    var);
	else if (percpu_base && gs_off < KMEMMAP_PERCPU_REACH)
		/*
		 * likely a per-CPU variable of the linked objects: %gs plus
		 * its link address, which the per-CPU area does not hold
		 */
		say("signal %d (%s) at ip %#lx, address %p, inside the "
		    "kernel's code: %%gs:%#lx if a per-CPU read, beyond the "
		    "runner's per-CPU area (it holds the stack canary alone)",
		    sig, strsignal(sig), ip, si->si_addr, gs_off);
	else
		say("signal %d (%s) at ip %#lx, address %p, inside the "
		    "kernel's code",
		    sig, strsignal(sig), ip, si->si_addr);
	_exit(1);
}

static void catch_faults(void)
{
	static char stack[1 << 16];
	stack_t ss = {.ss_sp = stack, .ss_size = sizeof(stack)};
	struct sigaction sa = {.sa_sigaction = on_fault,
			       .sa_flags = SA_SIGINFO | SA_ONSTACK};
	const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGALRM};

	sigaltstack(&ss, NULL);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * The per-CPU area, as much of it as the kernel's code may read: its stack
 * canary. A function of the kernel's build that the stack protector
 * instruments (one with a local whose address is taken: the series'
 * struct page templates) reads the canary at a fixed offset from the GS
 * base on entry and compares it on return. The GS base points to a page
 * that ends just past the canary; the 2 GiB after it, as far as a per-CPU
 * read reaches, are reserved with no access (address space, no memory),
 * so that a read of any per-CPU variable (%gs:symbol: a stub's, or one of
 * the linked objects') faults and is named by on_fault() rather than
 * landing in whatever else is mapped there.
 */
static int percpu_area_init(char *why, size_t len)
{
	const long canary_off = ntb_kmemmap_stack_canary_offset();
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	const size_t span = page + KMEMMAP_PERCPU_REACH;
	char *area;

	if (canary_off < 0)
		return 0; /* no stack protector: the GS base stays 0 */
	area = mmap(NULL, span, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED ||
	    mprotect(area, page, PROT_READ | PROT_WRITE)) {
		snprintf(why, len, "cannot map a per-CPU area: %s",
			 strerror(errno));
		return -1;
	}
	percpu_base = (unsigned long)area + page -
		      (unsigned long)(canary_off + sizeof(unsigned long));
	/* any value serves: it is compared with itself; a zero low byte */
	*(unsigned long *)(percpu_base + canary_off) = 0x6e74626f6f7400UL;
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, percpu_base)) {
		snprintf(why, len, "cannot set the GS base: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Does the window of @bytes at @off lie inside the file of @size? */
static int inside(unsigned long long off, unsigned long long bytes,
		  unsigned long long size)
{
	return off <= size && bytes <= size - off;
}

/* Before anything of the request is read: ntbench's build is this one's. */
static int check_version(void)
{
	if (req->magic == KMEMMAP_MAGIC && req->version == KMEMMAP_VERSION)
		return 0;
	say("fd 3 holds no version %d request (ntbench and this runner are "
	    "of different builds: make kernel-memmap)",
	    KMEMMAP_VERSION);
	return -1;
}

static int check_request(unsigned long long size)
{
	req->kernel_page_size = ntb_kmemmap_page_size();
	req->kernel_pageblock_pages = ntb_kmemmap_pageblock_pages();
	if (req->pageblock_pages != req->kernel_pageblock_pages) {
		say("the request has pageblocks of %llu pfns; the kernel's "
		    "have %llu",
		    req->pageblock_pages, req->kernel_pageblock_pages);
		return -1;
	}
	if (req->page_size != req->kernel_page_size) {
		say("the request has a %llu-byte struct page; the kernel's "
		    "is %llu bytes",
		    req->page_size, req->kernel_page_size);
		return -1;
	}
	if (req->start_pfn < req->base_pfn ||
	    req->start_pfn + req->nr_pages > req->base_pfn + req->nr_pfns ||
	    !inside(req->pages_offset, req->nr_pfns * req->page_size, size) ||
	    !inside(req->pageblocks_offset, req->nr_pageblocks, size)) {
		say("the request's windows do not hold pfns %#llx+%llu",
		    req->start_pfn, req->nr_pages);
		return -1;
	}
	return 0;
}

#if !defined(NTB_KERNEL_RELEASE) || !defined(NTB_KERNEL_PATCHES) || \
	!defined(NTB_KERNEL_PATCHES_SHA256)
#error "tools/kernel-memmap/build defines NTB_KERNEL_RELEASE, NTB_KERNEL_PATCHES and NTB_KERNEL_PATCHES_SHA256"
#endif
_Static_assert(sizeof(NTB_KERNEL_PATCHES_SHA256) ==
		       sizeof(((struct kmemmap_request *)0)->patches_sha256),
	       "a SHA-256 in hex");

/*
 * The text as the kernel's boot on this CPU leaves its own (patch.c,
 * jump_labels.c), its return sites as RET where @p->plain_returns asks;
 * what was patched in @p and @object, for the run's header. 0, -1 with
 * why in @why, or KMEMMAP_SAME_CODE (kmemmap_patch_text()).
 */
static int patch_as_booted(struct kmemmap_patched *p, char *object, size_t olen,
			   char *why, size_t len)
{
	int r = kmemmap_patch_text(p, why, len);

	if (r)
		return r;
	if (kmemmap_jump_labels_init(&p->jump_labels, why, len))
		return -1;
	snprintf(object, olen,
		 "mm_init.o %s patches=%d patches_sha256=%s fentry=%u "
		 "return_sites=%u "
		 "alternatives=%u jump_labels=%u static_calls=%u "
		 "return_thunk=%s return_thunk_from=\"%s\"",
		 NTB_KERNEL_RELEASE, NTB_KERNEL_PATCHES,
		 NTB_KERNEL_PATCHES_SHA256, p->fentry, p->return_sites,
		 p->alternatives, p->jump_labels, p->static_calls,
		 p->return_thunk, p->return_why);
	return 0;
}

/*
 * Run @body in a child with the runner's fault handling: does its stderr
 * name @name?
 */
static int stops_naming(void (*body)(void), const char *name)
{
	char out[512] = "";
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return 0;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		catch_faults();
		body();
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	out[n > 0 ? n : 0] = 0;
	fprintf(stderr, "kernel-memmap: selftest: %s", out);
	return WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
	       strstr(out, name);
}

static void call_function_stub(void)
{
	kmemmap_selftest_function();
}

static void read_variable_stub(void)
{
	(void)*kmemmap_selftest_variable;
}

/* The same variable read as a per-CPU one, as %gs:variable. */
static void read_percpu_variable_stub(void)
{
	unsigned long v;

	asm volatile("movq %%gs:(%1), %0"
		     : "=r"(v)
		     : "r"(kmemmap_selftest_variable));
}

/* A per-CPU variable of the linked objects, %gs plus its link address. */
static void read_percpu_object_variable(void)
{
	unsigned long v;

	asm volatile("movq %%gs:(%1), %0"
		     : "=r"(v)
		     : "r"(KMEMMAP_SELFTEST_PERCPU_OFF));
}

/*
 * Nothing else can be mapped where a per-CPU read of the linked objects
 * lands (the request file, a library): else it would read that instead
 * of faulting. Tried as any mapping would be placed there.
 */
static int percpu_reach_reserved(void)
{
	const unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	void *at = (void *)((percpu_base + KMEMMAP_SELFTEST_PERCPU_OFF) &
			    ~(page - 1));
	void *got =
		mmap(at, page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (got == MAP_FAILED)
		return errno == EEXIST;
	fprintf(stderr,
		"kernel-memmap: selftest: %%gs:%#lx could be mapped: the "
		"per-CPU area does not reserve the reach of a per-CPU read\n",
		KMEMMAP_SELFTEST_PERCPU_OFF);
	munmap(got, page);
	return 0;
}

static int selftest(void)
{
	char object[KMEMMAP_OBJECT_LEN], why[256], percpu_read[32];
	struct kmemmap_patched p = {0};
	int ok;

	if (patch_as_booted(&p, object, sizeof(object), why, sizeof(why))) {
		printf("kernel-memmap: selftest FAILED: %s\n", why);
		return 1;
	}
	printf("kernel-memmap: selftest: # kernel-object %s\n", object);
	if (percpu_area_init(why, sizeof(why))) {
		printf("kernel-memmap: selftest FAILED: %s\n", why);
		return 1;
	}
	/* how the fault handler names a per-CPU read at that offset */
	snprintf(percpu_read, sizeof(percpu_read), "%%gs:%#lx ",
		 KMEMMAP_SELFTEST_PERCPU_OFF);
	ok = stops_naming(call_function_stub, kmemmap_selftest_function_name) &&
	     stops_naming(read_variable_stub, kmemmap_selftest_variable_name) &&
	     stops_naming(read_percpu_variable_stub,
			  kmemmap_selftest_variable_name) &&
	     (percpu_base == 0 ||
	      (percpu_reach_reserved() &&
	       stops_naming(read_percpu_object_variable, percpu_read)));

	printf("kernel-memmap: selftest %s (a call of %s() and a read of %s, "
	       "plain and per-CPU, stop the run by name; a per-CPU read at "
	       "%%gs:%#lx faults)\n",
	       ok ? "passed" : "FAILED", kmemmap_selftest_function_name,
	       kmemmap_selftest_variable_name, KMEMMAP_SELFTEST_PERCPU_OFF);
	return !ok;
}

/*
 * The runner's own memmap, mapped as ntbench maps the model's
 * (huge_map(): 2 MiB aligned, anonymous, MADV_HUGEPAGE), the first
 * struct page at the window's offset in its cache line, every byte
 * touched now (the cold call pays no fault the model's does not).
 */
static int memmap_init(void)
{
	size_t line = req->pages_offset % 64;
	size_t bytes = line + req->nr_pfns * req->page_size;
	void *p = huge_map(bytes);

	if (!p) {
		say("cannot map %zu bytes for the memmap: %s",
		    huge_map_len(bytes), strerror(errno));
		return -1;
	}
	memset(p, 0, huge_map_len(bytes));
	memmap_pages = (unsigned char *)p + line;
	return 0;
}

/* @n bytes of @byte at @dst by MOVNTI, drained: ntbench's poison. */
static void fill_streaming(unsigned char *dst, unsigned char byte, size_t n)
{
	long long word;
	size_t i = 0;

	memset(&word, byte, sizeof(word));
	for (; i + 8 <= n; i += 8)
		__builtin_ia32_movnti64((long long *)(dst + i), word);
	memset(dst + i, byte, n - i);
	__builtin_ia32_sfence();
}

/*
 * The request's poison on the runner's memmap, before the call: every
 * struct page by streaming stores (poison_all), or the listed ones, each
 * checked to lie in the window.
 */
static int memmap_poison(void)
{
	size_t size = req->page_size;

	if (req->poison_all) {
		fill_streaming(memmap_pages, (unsigned char)req->poison_byte,
			       req->nr_pfns * size);
		return 0;
	}
	if (req->poison_nr > KMEMMAP_POISON_PFNS) {
		say("the request poisons %llu struct pages: more than %d",
		    req->poison_nr, KMEMMAP_POISON_PFNS);
		return -1;
	}
	for (unsigned long long i = 0; i < req->poison_nr; i++) {
		unsigned long long pfn = req->poison_pfns[i];

		if (pfn < req->base_pfn ||
		    pfn - req->base_pfn >= req->nr_pfns) {
			say("the request poisons pfn %#llx, outside the window",
			    pfn);
			return -1;
		}
		memset(memmap_pages + (pfn - req->base_pfn) * size,
		       (unsigned char)req->poison_byte, size);
	}
	return 0;
}

/*
 * After the call: the struct pages poisoned before it into the window
 * (all of them where all or none were), and the request cleared.
 */
static void memmap_copy_out(void)
{
	size_t size = req->page_size;

	if (req->poison_all || !req->poison_nr)
		memcpy(window_pages, memmap_pages, req->nr_pfns * size);
	for (unsigned long long i = 0; !req->poison_all && i < req->poison_nr;
	     i++) {
		size_t off = (req->poison_pfns[i] - req->base_pfn) * size;

		memcpy(window_pages + off, memmap_pages + off, size);
	}
	req->poison_all = req->poison_nr = 0;
}

/*
 * One call, the timed part alone: the request's poison before it, the
 * pageblocks zeroed before (as a new section has them) and read back
 * after, by the kernel's own get_pfnblock_flags_mask(), and the poisoned
 * struct pages copied into the window after, all outside the cycles.
 */
static int run_once(unsigned char *bits)
{
	unsigned long long t0, t1;

	if (memmap_poison())
		return -1;
	ntb_kmemmap_pageblocks_reset();
	alarm(KMEMMAP_TIMEOUT_S);
	t0 = rdtsc_ordered();
	ntb_kmemmap_call();
	t1 = rdtsc_ordered();
	alarm(0);
	for (unsigned long long i = 0; i < req->nr_pageblocks; i++) {
		unsigned long pfn =
			req->pageblocks_pfn + i * req->pageblock_pages;
		unsigned long v = ntb_kmemmap_pageblock_bits(pfn);

		if (v > 0xff) {
			say("pfn %#lx has no section: the request's pageblocks "
			    "go past the namespace's sections",
			    pfn);
			return -1;
		}
		bits[i] = v;
	}
	memmap_copy_out();
	req->cycles = t1 - t0;
	req->done++;
	return 0;
}

/* Answer each KMEMMAP_RUN on fd 4 until it closes. */
static int serve(unsigned char *bits)
{
	char cmd, ready = KMEMMAP_READY, ran = KMEMMAP_RAN;
	ssize_t n;

	if (write(4, &ready, 1) != 1) {
		say("cannot answer on fd 4");
		return 1;
	}
	while ((n = read(4, &cmd, 1)) == 1) {
		if (cmd != KMEMMAP_RUN) {
			say("fd 4 sent %#x, not a run", (unsigned char)cmd);
			return 1;
		}
		if (run_once(bits))
			return 1;
		if (write(4, &ran, 1) != 1) {
			say("cannot answer on fd 4");
			return 1;
		}
	}
	if (n) {
		say("reading fd 4: %s", strerror(errno));
		return 1;
	}
	return 0; /* closed: done */
}

int main(int argc, char **argv)
{
	struct kmemmap_patched patched = {0};
	char same = KMEMMAP_SAME;
	struct stat st;
	int r;
	unsigned char *map, *pages;
	unsigned long arena_bytes;
	void *arena;

	if (argc == 2 && !strcmp(argv[1], "--selftest"))
		return selftest();
	if (argc > 1) {
		fprintf(stderr,
			"kernel-memmap: unknown argument '%s' (only "
			"--selftest; ntbench's kernel contenders run it)\n",
			argv[1]);
		return 2;
	}
	/* no runner outlives the ntbench that started it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (fstat(3, &st) || st.st_size < (off_t)sizeof(*req) ||
	    fcntl(4, F_GETFD) < 0) {
		fprintf(stderr, "kernel-memmap: fd 3 is not a request file or "
				"fd 4 no socket (run by ntbench's "
				"kernel contenders)\n");
		return 1;
	}
	/*
	 * Populated now: no copy into the window pays a fault per page.
	 */
	map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_POPULATE, 3, 0);
	if (map == MAP_FAILED) {
		perror("kernel-memmap: mmap of fd 3");
		return 1;
	}
	req = (struct kmemmap_request *)map;
	catch_faults();
	if (check_version())
		return 1;
	/*
	 * Patched before anything compiled by the kernel's build runs, the
	 * glue's checks of the request included: its ftrace sites call a
	 * stub that stops the run until then, and the number of section
	 * roots depends on pgtable_l5_enabled(), an alternative on LA57.
	 */
	patched.plain_returns = req->plain_returns;
	r = patch_as_booted(&patched, req->object, sizeof(req->object),
			    req->why, sizeof(req->why));
	if (r == KMEMMAP_SAME_CODE) {
		/* not an error: nothing of its own to run here */
		return write(4, &same, 1) == 1 ? 0 : 1;
	}
	if (r || percpu_area_init(req->why, sizeof(req->why)) ||
	    check_request(st.st_size))
		return 1;
	snprintf(req->return_thunk, sizeof(req->return_thunk), "%s",
		 patched.return_thunk);
	snprintf(req->return_thunk_from, sizeof(req->return_thunk_from), "%s",
		 patched.return_why);
	/* what it was built from, for the hosted runner to hold it to */
	memcpy(req->patches_sha256, NTB_KERNEL_PATCHES_SHA256,
	       sizeof(req->patches_sha256));
	window_pages = map + req->pages_offset;
	if (memmap_init())
		return 1;
	pages = memmap_pages;
	/* pfn_to_page(pfn) = vmemmap_base + pfn: the runner's own pages */
	vmemmap_base = (unsigned long)pages - req->base_pfn * req->page_size;
	arena_bytes = ntb_kmemmap_arena_bytes(req->start_pfn, req->nr_pages);
	arena = calloc(1, arena_bytes);
	if (!arena) {
		say("cannot allocate %lu bytes of sections", arena_bytes);
		return 1;
	}
	if (ntb_kmemmap_setup(req->start_pfn, req->nr_pages, req->order,
			      (int)req->type, (int)req->nid, !!req->altmap,
			      req->altmap_reserve, req->altmap_free, arena,
			      arena_bytes, req->why, sizeof(req->why)))
		return 1;
	req->pages_addr = (unsigned long)pages;
	req->pgmap_addr = (unsigned long)ntb_kmemmap_pgmap();
	return serve(map + req->pageblocks_offset);
}
