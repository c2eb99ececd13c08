// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform interface on Linux, for the host test program and the hosted
 * benchmark runner: stdout for the console, mmap for buffers (huge pages
 * where the system has them), the TSC calibrated against CLOCK_MONOTONIC.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "include/platform.h"
#include "arch/x86/tsc.h"
#include "tools/host/platform_linux.h"

static u64 host_tsc_khz;

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
	/* Results are printed the moment they exist, even into a pipe. */
	if (memchr(s, '\n', len))
		fflush(stdout);
}

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

u64 host_calibrate_tsc(unsigned int window_ms)
{
	u64 t0 = monotonic_ns(), c0 = rdtsc_ordered(), t1, c1;

	do {
		t1 = monotonic_ns();
	} while (t1 - t0 < (u64)window_ms * 1000000ull);
	c1 = rdtsc_ordered();
	host_tsc_khz = (c1 - c0) * 1000000ull / (t1 - t0);
	return host_tsc_khz;
}

u64 plat_remeasure_tsc_khz(unsigned int window_ms, const char **ref)
{
	u64 saved = host_tsc_khz, khz;

	*ref = "clock_monotonic";
	khz = host_calibrate_tsc(window_ms);
	host_tsc_khz = saved;
	return khz;
}

u64 plat_tsc_khz(void)
{
	return host_tsc_khz;
}

void *plat_alloc_aligned(size_t size, size_t align)
{
	void *p;

	if (size == 0)
		size = 1;
	/* Large buffers: anonymous mappings, with transparent huge pages. */
	if (size >= (2u << 20) && align <= (2u << 20)) {
		size_t len = (size + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);

		size_t huge = 2u << 20;
		uintptr_t start, aligned;

		/*
		 * mmap() aligns only to pages (before Linux 6.7): map 2 MiB
		 * more and trim, so the buffer can sit on huge pages and the
		 * caller gets the alignment it asked for.
		 */
		p = mmap(NULL, len + huge, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		start = (uintptr_t)p;
		aligned = (start + huge - 1) & ~(uintptr_t)(huge - 1);
		if (aligned > start)
			munmap(p, aligned - start);
		munmap((void *)(aligned + len), start + huge - aligned);
		p = (void *)aligned;
		madvise(p, len, MADV_HUGEPAGE);
		return p;
	}
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (posix_memalign(&p, align, size))
		return NULL;
	return p;
}

void plat_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size == 0)
		size = 1;
	if (size >= (2u << 20)) {
		size_t len = (size + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);

		munmap(p, len);
		return;
	}
	free(p);
}

u64 plat_mem_available(void)
{
	long pages = sysconf(_SC_AVPHYS_PAGES);
	long psz = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psz <= 0)
		return 0;
	return (u64)pages * (u64)psz;
}

/*
 * CPUs: the ones this process may run on, in affinity-mask order; CPU 0 is
 * the one main() pinned itself to. Work on another CPU runs in a thread
 * pinned there.
 */
#define HOST_MAX_CPUS 1024

static int host_cpus[HOST_MAX_CPUS];
static unsigned int host_nr_cpus;

struct host_work {
	pthread_t thread;
	bool running;
	void (*fn)(void *);
	void *arg;
	int cpu;
};

static struct host_work host_work[HOST_MAX_CPUS];

void host_cpus_init(int first_cpu)
{
	cpu_set_t set;

	host_nr_cpus = 0;
	host_cpus[host_nr_cpus++] = first_cpu;
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int i = 0; i < CPU_SETSIZE && host_nr_cpus < HOST_MAX_CPUS; i++)
		if (CPU_ISSET(i, &set) && i != first_cpu)
			host_cpus[host_nr_cpus++] = i;
}

unsigned int plat_cpu_count(void)
{
	return host_nr_cpus ? host_nr_cpus : 1;
}

/* The run-on-CPU number a thread stands for: 0 unless a worker's. */
static __thread unsigned int host_this_cpu;

unsigned int plat_this_cpu(void)
{
	return host_this_cpu;
}

#ifdef __SANITIZE_ADDRESS__
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf,
			      size_t out_buf_size);
#endif

/*
 * With the sanitizer runtime's symbolizer: the innermost frame (the store
 * itself), the first frame outside arch/x86 that inlined it (which copy)
 * and the function it all was inlined into, e.g. "movnti_store_u64
 * arch/x86/lib/memcpy_flushcache.h:65 via tmpl_copy_page mm/mm_init.c:389
 * in memmap_init_MEMMAP_TMPL_NT_FIXED_PAGE_LAYOUT_64".
 */
void plat_symbolize(uptr ip, char *buf, size_t len)
{
#ifdef __SANITIZE_ADDRESS__
	char frames[1024];
	const char *f[32];
	int n = 0, via = -1;

	frames[0] = frames[1] = '\0';
	/* Frames of the inline chain, each "\0"-ended, "\0\0" at the end. */
	__sanitizer_symbolize_pc((void *)(ip - 1), "%f %S", frames,
				 sizeof(frames) - 1);
	frames[sizeof(frames) - 1] = frames[sizeof(frames) - 2] = '\0';
	for (const char *p = frames; *p && n < 32; p += strlen(p) + 1)
		f[n++] = p;
	if (n && strncmp(f[0], "<null>", 6)) {
		for (int i = 1; i < n - 1 && via < 0; i++)
			if (!strstr(f[i], " arch/x86/"))
				via = i;
		if (n == 1)
			snprintf(buf, len, "%s", f[0]);
		else if (via < 0)
			snprintf(buf, len, "%s in %.*s", f[0],
				 (int)strcspn(f[n - 1], " "), f[n - 1]);
		else
			snprintf(buf, len, "%s via %s in %.*s", f[0], f[via],
				 (int)strcspn(f[n - 1], " "), f[n - 1]);
		return;
	}
#endif
	snprintf(buf, len, "ip 0x%lx", (unsigned long)(ip - 1));
}

static void *host_work_thread(void *p)
{
	struct host_work *w = p;
	cpu_set_t set;

	host_this_cpu = (unsigned int)(w - host_work);
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	w->fn(w->arg);
	return NULL;
}

int plat_run_on_cpu_async(unsigned int cpu, void (*fn)(void *), void *arg)
{
	struct host_work *w;

	if (cpu >= plat_cpu_count())
		return -3;
	w = &host_work[cpu];
	if (w->running)
		return -2;
	w->fn = fn;
	w->arg = arg;
	w->cpu = host_cpus[cpu];
	if (pthread_create(&w->thread, NULL, host_work_thread, w))
		return -3;
	w->running = true;
	return 0;
}

int plat_wait_cpu(unsigned int cpu, u64 timeout_us)
{
	struct host_work *w;
	struct timespec ts;
	int rc;

	if (cpu >= plat_cpu_count())
		return -3;
	w = &host_work[cpu];
	if (!w->running)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_us / 1000000;
	ts.tv_nsec += (timeout_us % 1000000) * 1000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	rc = pthread_timedjoin_np(w->thread, NULL, &ts);
	if (rc == ETIMEDOUT)
		return -2;
	w->running = false;
	return rc ? -3 : 0;
}

int plat_run_on_cpu(unsigned int cpu, void (*fn)(void *), void *arg,
		    u64 timeout_us)
{
	int rc;

	if (cpu == 0) {
		fn(arg);
		return 0;
	}
	rc = plat_run_on_cpu_async(cpu, fn, arg);
	return rc ? rc : plat_wait_cpu(cpu, timeout_us);
}

/*
 * APERF/MPERF need ring 0; /dev/cpu/N/msr would do as root with the msr
 * module, but a benchmark must not depend on that: report "unknown".
 */
int plat_read_aperf_mperf(u64 *aperf, u64 *mperf)
{
	return -1;
}

/* Hosted runs are stopped from outside (a timeout, ^C): nothing to pet. */
void plat_watchdog_pet(void)
{
}

int plat_numa_node_of(const void *p)
{
	void *page = (void *)((uptr)p & ~(uptr)4095);
	int status = -1;

	/* move_pages() with no target nodes only reports where pages are. */
	if (syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0))
		return -1;
	return status >= 0 ? status : -1;
}

const char *plat_name(void)
{
	return "host";
}

bool plat_can_catch_faults(void)
{
	return false;
}
