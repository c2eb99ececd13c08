// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform interface on Linux, for the host test program and the hosted
 * benchmark runner: stdout for the console, mmap for buffers (huge pages
 * where the system has them), the TSC calibrated against
 * CLOCK_MONOTONIC_RAW.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
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
#include "lib/report_count.h"
#include "lib/timing.h"
#include "host/huge_map.h"
#include "host/platform_linux.h"

static u64 host_tsc_khz;

void plat_console_write(const char *s, size_t len)
{
	report_counter_feed(&console_results, s, len);
	fwrite(s, 1, len, stdout);
	/* Results are printed the moment they exist, even into a pipe. */
	if (memchr(s, '\n', len))
		fflush(stdout);
}

int plat_pmem_region(u64 *base, u64 *size, const char **source)
{
	*source = "the hosted runner maps no persistent memory";
	return -1;
}

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/*
 * A TSC reading and the clock's time at it: the clock read on both sides
 * of the TSC, the tightest of a few tries kept (a preemption between the
 * reads would otherwise move the pair by a time slice), its midpoint
 * taken.
 */
static void tsc_clock_pair(u64 *tsc, u64 *ns)
{
	u64 best = ~0ull;

	for (int i = 0; i < 8; i++) {
		u64 a = monotonic_ns(), c = rdtsc_ordered(), b = monotonic_ns();

		if (b - a < best) {
			best = b - a;
			*tsc = c;
			*ns = a + (b - a) / 2;
		}
	}
}

u64 host_calibrate_tsc(unsigned int window_ms)
{
	u64 t0, c0, t1, c1;

	tsc_clock_pair(&c0, &t0);
	while (monotonic_ns() - t0 < (u64)window_ms * 1000000ull)
		;
	tsc_clock_pair(&c1, &t1);
	host_tsc_khz = (c1 - c0) * 1000000ull / (t1 - t0);
	return host_tsc_khz;
}

/*
 * The host calibrates against CLOCK_MONOTONIC_RAW and has no second
 * hardware clock to read from user space: measuring against the same
 * clock again would compare the calibration with itself. tsc_test
 * compares the TSC with plat_os_clock_ns() in its own code instead.
 */
u64 plat_remeasure_tsc_khz(unsigned int window_ms, const char **ref)
{
	*ref = "none besides CLOCK_MONOTONIC_RAW, the calibration's own clock";
	return 0;
}

int plat_os_clock_ns(u64 *ns, const char **why)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts)) {
		*why = "CLOCK_MONOTONIC_RAW unavailable";
		return -1;
	}
	*ns = (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
	return 0;
}

/*
 * Linux clock sources that read the TSC and scale it: the kernel's own,
 * and the paravirtual clocks, which scale the (host's) TSC with factors
 * the hypervisor publishes. A raw clock on any of these is the TSC seen
 * through a second calibration, not a second oscillator.
 */
static const char *const tsc_clocksources[] = {
	"tsc", "tsc-early", "kvm-clock", "hyperv_clocksource_tsc_page",
	"xen", "pvclock",
};

int plat_os_clock_independent(const char **what)
{
	static char name[64], text[160];
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "r");
	size_t n;

	if (!f) {
		*what = "cannot read the kernel's clock source "
			"(/sys/devices/system/clocksource)";
		return -1;
	}
	n = fread(name, 1, sizeof(name) - 1, f);
	fclose(f);
	while (n && (name[n - 1] == '\n' || name[n - 1] == ' '))
		n--;
	name[n] = 0;
	for (size_t i = 0; i < sizeof(tsc_clocksources) /
				     sizeof(tsc_clocksources[0]); i++) {
		if (!strcmp(name, tsc_clocksources[i])) {
			snprintf(text, sizeof(text),
				 "CLOCK_MONOTONIC_RAW runs on clock source "
				 "%s, which is the TSC itself", name);
			*what = text;
			return 0;
		}
	}
	snprintf(text, sizeof(text), "clock source %s", name);
	*what = text;
	return 1;
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
	if (size >= HUGE_MAP_ALIGN && align <= HUGE_MAP_ALIGN)
		return huge_map(size);
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
	if (size >= HUGE_MAP_ALIGN) {
		munmap(p, huge_map_len(size));
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
 * model/arch/x86/include/asm/string_64.h:65 via tmpl_copy_tmpl_nt_fixed
 * model/mm/mm_init.c:311
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
			if (!strstr(f[i], "arch/x86/"))
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

/*
 * The effective-frequency clock in user space, per thread (each thread
 * opens its own on first use, and closes it when it exits):
 *
 *  - a perf_event cycles counter of the calling thread, kernel included
 *    where perf_event_paranoid allows, else user cycles only. The kernel
 *    counts it only while the thread runs; its running time is the
 *    reference, so a preempted thread does not read as a slow CPU.
 *  - else, for a thread pinned to one CPU, APERF and MPERF through
 *    /dev/cpu/N/msr (root and the msr module); MPERF ticks at the TSC's
 *    rate.
 *  - else nothing (a virtual machine without a PMU, perf forbidden): -1,
 *    and no effective frequency is reported.
 */
enum active_src { ACTIVE_UNTRIED, ACTIVE_NONE, ACTIVE_PERF, ACTIVE_MSR };

struct active_clock {
	enum active_src src;
	int fd;
	const char *how;
};

static __thread struct active_clock active = { ACTIVE_UNTRIED, -1, NULL };
static pthread_key_t active_key;
static pthread_once_t active_once = PTHREAD_ONCE_INIT;

static void active_close(void *p)
{
	struct active_clock *a = p;

	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	a->src = ACTIVE_UNTRIED;
}

static void active_key_init(void)
{
	pthread_key_create(&active_key, active_close);
}

static int perf_cycles_open(bool user_only)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* /dev/cpu/N/msr of the one CPU this thread may run on, or -1. */
static int msr_open_pinned(void)
{
	char path[48];
	cpu_set_t set;
	int cpu = -1, fd;
	u64 v;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) != 1)
		return -1;
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &set))
			cpu = i;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* APERF (0xe8) must be readable: not every hypervisor has it. */
	if (pread(fd, &v, sizeof(v), 0xe8) != sizeof(v)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void active_open(struct active_clock *a)
{
	pthread_once(&active_once, active_key_init);
	a->src = ACTIVE_NONE;
	a->fd = perf_cycles_open(false);
	a->how = "perf_cycles";
	if (a->fd < 0) {
		a->fd = perf_cycles_open(true);
		a->how = "perf_cycles_user";
	}
	if (a->fd >= 0) {
		a->src = ACTIVE_PERF;
	} else {
		a->fd = msr_open_pinned();
		a->how = "msr";
		if (a->fd >= 0)
			a->src = ACTIVE_MSR;
	}
	if (a->src != ACTIVE_NONE)
		pthread_setspecific(active_key, a);
}

int plat_read_active_clock(u64 *cycles, u64 *ns, const char **how)
{
	struct active_clock *a = &active;

	if (a->src == ACTIVE_UNTRIED)
		active_open(a);
	if (a->src == ACTIVE_PERF) {
		struct {
			u64 value, enabled, running;
		} rd;

		if (read(a->fd, &rd, sizeof(rd)) != sizeof(rd) || !rd.running)
			return -1;
		*cycles = rd.value;
		*ns = rd.running;
	} else if (a->src == ACTIVE_MSR) {
		u64 mperf;

		if (!host_tsc_khz ||
		    pread(a->fd, cycles, sizeof(*cycles), 0xe8) != 8 ||
		    pread(a->fd, &mperf, sizeof(mperf), 0xe7) != 8)
			return -1;
		*ns = cycles_to_ns(mperf);
	} else {
		return -1;
	}
	if (how)
		*how = a->how;
	return 0;
}

/* Hosted runs are stopped from outside (a timeout, ^C): nothing to pet. */
void plat_watchdog_pet(void)
{
}

/* No hang watchdog in user space: a hung case is the shell's to stop. */
u32 plat_watchdog_set_timeout(u32 seconds)
{
	return 0;
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

void host_read_microcode(int cpu, char *buf, size_t size)
{
	char line[256], rev[24] = "unknown";
	int current = -1;
	FILE *f = fopen("/proc/cpuinfo", "r");

	/* Each CPU's block starts with its "processor : N" line. */
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "processor : %d", &current) == 1)
			continue;
		if (current == cpu &&
		    sscanf(line, "microcode : %23s", rev) == 1)
			break;
	}
	if (f)
		fclose(f);
	snprintf(buf, size, "%s", rev);
}

int host_exe_dir(char *dir, size_t len, char *why, size_t wlen)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n < 0) {
		snprintf(why, wlen, "cannot read /proc/self/exe: %s",
			 strerror(errno));
		return -1;
	}
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	return 0;
}
