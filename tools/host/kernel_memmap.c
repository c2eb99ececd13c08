// SPDX-License-Identifier: GPL-2.0-only
/*
 * plat_kernel_memmap() on Linux: hand the request to the kernel memmap
 * runner (tools/kernel-memmap/runner.c, built by make kernel-memmap) in a
 * memory file that both processes map, run it, and read its answer. The
 * runner is a program of its own because the kernel's objects are linked
 * without PIE and ntbench is PIE; docs/kernel-memmap.md has the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "include/platform.h"
#include "tools/kernel-memmap/request.h"

extern char **environ;

/* The runner is stopped if it has not answered in this time. */
#define KMEMMAP_WAIT_S 120

#define KMEMMAP_NEEDS                                            \
	"make kernel-memmap, which needs linux-source-6.12 "     \
	"linux-config-6.12 flex bison bc libelf-dev libssl-dev " \
	"python3-pyelftools"

/* $NTB_KERNEL_MEMMAP, else kernel-memmap beside this program. */
static int runner_path(char *path, size_t len, char *why, size_t wlen)
{
	const char *env = getenv("NTB_KERNEL_MEMMAP");
	char exe[PATH_MAX - 32];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(path, len, "%s", env);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n < 0) {
			snprintf(why, wlen, "cannot read /proc/self/exe: %s",
				 strerror(errno));
			return -1;
		}
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(path, len, "%s/kernel-memmap", exe);
	}
	if (access(path, X_OK)) {
		/* named on purpose: an error, not a skip */
		snprintf(why, wlen, "%s %s (%s)", path,
			 env && *env ? "from NTB_KERNEL_MEMMAP is no program"
				     : "is not built",
			 KMEMMAP_NEEDS);
		return env && *env ? -1 : 1;
	}
	return 0;
}

static size_t round_up_page(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static void fill_request(struct kmemmap_request *req,
			 const struct kernel_memmap_call *c, size_t pages_off,
			 size_t bits_off)
{
	*req = (struct kmemmap_request){
		.magic = KMEMMAP_MAGIC,
		.version = KMEMMAP_VERSION,
		.start_pfn = c->start_pfn,
		.nr_pages = c->nr_pages,
		.order = c->order,
		.type = c->type,
		.nid = c->nid,
		.altmap = c->altmap,
		.altmap_reserve = c->altmap_reserve,
		.altmap_free = c->altmap_free,
		.base_pfn = c->base_pfn,
		.nr_pfns = c->nr_pfns,
		.page_size = c->page_size,
		.pages_offset = pages_off,
		.pageblock_pages = c->pageblock_pages,
		.pageblocks_pfn = c->pageblocks_pfn,
		.nr_pageblocks = c->nr_pageblocks,
		.pageblocks_offset = bits_off,
	};
}

/*
 * Wait for @pid at most KMEMMAP_WAIT_S: 0 with its wait status, or -1
 * with why in @why.
 */
static int wait_runner(pid_t pid, int *status, char *why, size_t len)
{
	const struct timespec tick = {0, 10 * 1000 * 1000};

	for (unsigned int i = 0; i < KMEMMAP_WAIT_S * 100; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR) {
			snprintf(why, len, "waiting for the runner: %s",
				 strerror(errno));
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, status, 0);
	snprintf(why, len, "the runner did not finish in %d s", KMEMMAP_WAIT_S);
	return -1;
}

static int run_runner(const char *path, int fd, struct kmemmap_request *req,
		      char *why, size_t len)
{
	char *argv[] = {(char *)path, NULL};
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err, status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 3);
	err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		snprintf(why, len, "cannot start %s: %s", path, strerror(err));
		return -1;
	}
	if (wait_runner(pid, &status, why, len))
		return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status) && req->done)
		return 0;
	if (req->why[0])
		snprintf(why, len, "%.*s", (int)sizeof(req->why), req->why);
	else if (WIFSIGNALED(status))
		snprintf(why, len, "%s died of signal %d", path,
			 WTERMSIG(status));
	else
		snprintf(why, len, "%s exited with %d and no reason", path,
			 WEXITSTATUS(status));
	return -1;
}

int plat_kernel_memmap(struct kernel_memmap_call *c, char *why, size_t len)
{
	char path[PATH_MAX];
	size_t pages_off =
		round_up_page(sizeof(struct kmemmap_request)) + c->line_offset;
	size_t bits_off = pages_off + (size_t)c->nr_pfns * c->page_size;
	struct kmemmap_request *req;
	int fd, r = runner_path(path, sizeof(path), why, len);

	c->map = NULL;
	if (r)
		return r;
	c->map_bytes = round_up_page(bits_off + c->nr_pageblocks);
	fd = memfd_create("ntbench-kernel-memmap", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, c->map_bytes)) {
		snprintf(why, len, "no memory file of %zu bytes: %s",
			 c->map_bytes, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	c->map = mmap(NULL, c->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		snprintf(why, len, "cannot map %zu bytes: %s", c->map_bytes,
			 strerror(errno));
		close(fd);
		return -1;
	}
	req = c->map;
	fill_request(req, c, pages_off, bits_off);
	memset((u8 *)c->map + pages_off, c->poison,
	       (size_t)c->nr_pfns * c->page_size);
	r = run_runner(path, fd, req, why, len);
	close(fd);
	if (r) {
		plat_kernel_memmap_release(c);
		return -1;
	}
	c->pages = (const u8 *)c->map + pages_off;
	c->pageblock_bits = (const u8 *)c->map + bits_off;
	c->pages_addr = req->pages_addr;
	c->pgmap_addr = req->pgmap_addr;
	snprintf(c->object, sizeof(c->object), "%.*s", (int)sizeof(req->object),
		 req->object);
	return 0;
}

void plat_kernel_memmap_release(struct kernel_memmap_call *c)
{
	if (c->map)
		munmap(c->map, c->map_bytes);
	c->map = NULL;
}
