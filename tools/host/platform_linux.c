// SPDX-License-Identifier: GPL-2.0-only
/*
 * The platform interface on Linux, for the host test program and the hosted
 * benchmark runner: stdout for the console, mmap for buffers (huge pages
 * where the system has them), the TSC calibrated against CLOCK_MONOTONIC.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
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

unsigned int plat_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

const char *plat_name(void)
{
	return "host";
}

bool plat_can_catch_faults(void)
{
	return false;
}
