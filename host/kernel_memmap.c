// SPDX-License-Identifier: GPL-2.0-only
/*
 * plat_kernel_memmap_*() on Linux: hand the request to the kernel memmap
 * runner (tools/kernel-memmap/runner.c, built by make kernel-memmap) in a
 * memory file that both processes map, and ask it for each run over a
 * socket (tools/kernel-memmap/request.h). The
 * runner is a program of its own because the kernel's objects are linked
 * without PIE and ntbench is PIE; docs/kernel-memmap.md has the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "include/compiler.h"
#include "include/platform.h"
#include "host/platform_linux.h"
#include "tools/kernel-memmap/request.h"

extern char **environ;

_Static_assert(sizeof(((struct kmemmap_request *)0)->object) ==
		       sizeof(((struct kernel_memmap_call *)0)->object),
	       "the runner's object line and the call's are one length");
_Static_assert(
	sizeof(((struct kmemmap_request *)0)->return_thunk) ==
			sizeof(((struct kernel_memmap_call *)0)
				       ->return_thunk) &&
		sizeof(((struct kmemmap_request *)0)->return_thunk_from) ==
			sizeof(((struct kernel_memmap_call *)0)
				       ->return_thunk_from),
	"the runner's return sites and the call's are one length");
_Static_assert(KMEMMAP_POISON_PFNS == KERNEL_MEMMAP_POISON_MAX,
	       "the request holds the sample the platform promises");

/* The runner is stopped if it has not answered in this time. */
#define KMEMMAP_WAIT_S 120

#define KMEMMAP_NEEDS                                            \
	"make kernel-memmap, which needs linux-source-6.12 "     \
	"linux-config-6.12 flex bison bc libelf-dev libssl-dev " \
	"python3-pyelftools"

/* @path as the user would type it: relative where it is under the cwd */
static const char *shown_path(const char *path)
{
	static char cwd[PATH_MAX];
	size_t n;

	if (!getcwd(cwd, sizeof(cwd)))
		return path;
	n = strlen(cwd);
	if (n > 1 && !strncmp(path, cwd, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/*
 * The runner: the file @c->env names (*@named), else @c->runner, beside
 * this program where it is a name, as it is where it is a path. Returns 0, 1 where it is not built (why, with what builds
 * it, in @why: a skip), -1 where @c->env names no program.
 */
static int runner_path(const struct kernel_memmap_call *c, char *path,
		       size_t len, bool *named, char *why, size_t wlen)
{
	const char *env = c->env ? getenv(c->env) : NULL;
	char exe[PATH_MAX - 64];

	*named = env && *env;
	if (*named) {
		snprintf(path, len, "%s", env);
	} else if (c->runner[0] == '/') {
		/* where its build put it (a patch file's, kernel_patch=) */
		snprintf(path, len, "%s", c->runner);
	} else {
		if (host_exe_dir(exe, sizeof(exe), why, wlen))
			return -1;
		snprintf(path, len, "%s/%s", exe, c->runner);
	}
	if (access(path, X_OK)) {
		/* named on purpose: an error, not a skip */
		if (*named)
			snprintf(why, wlen, "%s from %s is no program (%s)",
				 path, c->env, KMEMMAP_NEEDS);
		else
			snprintf(why, wlen, "%s is not built (%s)",
				 shown_path(path), KMEMMAP_NEEDS);
		return *named ? -1 : 1;
	}
	return 0;
}

/*
 * A runner built from other patches than its entry's is another
 * contender under this one's name: refused. One named by @c->env runs
 * whatever it was built from (its object line says which).
 */
static int runner_built_from(const struct kernel_memmap_call *c,
			     const char *path, bool named, char *why,
			     size_t len)
{
	const struct kmemmap_request *req = c->map;

	if (named || !strncmp(req->patches_sha256, c->patches_sha256,
			      sizeof(req->patches_sha256)))
		return 0;
	if (c->patches)
		snprintf(why, len,
			 "%s was built from other patches than %s: make "
			 "kernel-memmap",
			 shown_path(path), c->patches);
	else
		snprintf(why, len,
			 "%s was built with patches, and its entry has none: "
			 "make kernel-memmap",
			 shown_path(path));
	return -1;
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
		.plain_returns = c->plain_returns,
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

/* Why the runner went away: its own words, else how it ended. */
static void runner_gone(struct kernel_memmap_call *c, char *why, size_t len)
{
	struct kmemmap_request *req = c->map;
	int status = 0;

	close(c->fd);
	c->fd = -1;
	waitpid(c->pid, &status, 0);
	c->pid = 0;
	if (req->why[0])
		snprintf(why, len, "%.*s", (int)sizeof(req->why), req->why);
	else if (WIFSIGNALED(status))
		snprintf(why, len, "the runner died of signal %d",
			 WTERMSIG(status));
	else
		snprintf(why, len, "the runner exited with %d and no reason",
			 WEXITSTATUS(status));
}

/*
 * The runner's one-byte answer @want within KMEMMAP_WAIT_S: 0; 1 for
 * @also (not 0) instead, with the runner's why in @why (it exits then,
 * and is reaped); or -1 with why in @why (the runner stopped and
 * reaped).
 */
static int answer(struct kernel_memmap_call *c, char want, char also, char *why,
		  size_t len)
{
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	char got;
	int r;

	do
		r = poll(&p, 1, KMEMMAP_WAIT_S * 1000);
	while (r < 0 && errno == EINTR);
	if (r == 0) {
		kill(c->pid, SIGKILL);
		runner_gone(c, why, len);
		snprintf(why, len, "the runner did not answer in %d s",
			 KMEMMAP_WAIT_S);
		return -1;
	}
	if (r > 0 && read(c->fd, &got, 1) == 1) {
		if (got == want)
			return 0;
		if (also && got == also) {
			runner_gone(c, why, len);
			return 1;
		}
		kill(c->pid, SIGKILL);
		runner_gone(c, why, len);
		snprintf(why, len, "the runner answered %#x, not %#x",
			 (unsigned char)got, (unsigned char)want);
		return -1;
	}
	runner_gone(c, why, len);
	return -1;
}

static int spawn_runner(struct kernel_memmap_call *c, const char *path,
			int memfd, char *why, size_t len)
{
	char *argv[] = {(char *)path, NULL};
	posix_spawn_file_actions_t fa;
	int sv[2], high[2], err;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, len, "no socket for the runner: %s",
			 strerror(errno));
		return -1;
	}
	/*
	 * Above fd 4 first: the dups to 3 and 4 are made in order, and one
	 * of the two may be 3 or 4 already.
	 */
	high[0] = fcntl(memfd, F_DUPFD_CLOEXEC, 5);
	high[1] = fcntl(sv[1], F_DUPFD_CLOEXEC, 5);
	close(sv[1]);
	if (high[0] < 0 || high[1] < 0) {
		snprintf(why, len, "no descriptors for the runner: %s",
			 strerror(errno));
		close(sv[0]);
		if (high[0] >= 0)
			close(high[0]);
		if (high[1] >= 0)
			close(high[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, high[0], 3);
	posix_spawn_file_actions_adddup2(&fa, high[1], 4);
	err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(high[0]);
	close(high[1]);
	if (err) {
		close(sv[0]);
		snprintf(why, len, "cannot start %s: %s", path, strerror(err));
		return -1;
	}
	c->fd = sv[0];
	c->pid = pid;
	return 0;
}

int plat_kernel_memmap_start(struct kernel_memmap_call *c, char *why,
			     size_t len)
{
	char path[PATH_MAX];
	size_t pages_off =
		round_up_page(sizeof(struct kmemmap_request)) + c->line_offset;
	size_t bits_off = pages_off + (size_t)c->nr_pfns * c->page_size;
	struct kmemmap_request *req;
	bool named;
	int fd, r = runner_path(c, path, sizeof(path), &named, why, len);

	c->map = NULL;
	c->fd = -1;
	c->pid = 0;
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
	c->pages = (u8 *)c->map + pages_off;
	c->pageblock_bits = (u8 *)c->map + bits_off;
	r = spawn_runner(c, path, fd, why, len);
	close(fd);
	if (!r)
		r = answer(c, KMEMMAP_READY,
			   c->plain_returns ? KMEMMAP_SAME : 0, why, len);
	/* the same code as its build's here: not run twice */
	if (r == 1) {
		plat_kernel_memmap_stop(c);
		return 1;
	}
	if (r || runner_built_from(c, path, named, why, len)) {
		plat_kernel_memmap_stop(c);
		return -1;
	}
	c->pages_addr = req->pages_addr;
	c->pgmap_addr = req->pgmap_addr;
	snprintf(c->object, sizeof(c->object), "%.*s", (int)sizeof(req->object),
		 req->object);
	snprintf(c->return_thunk, sizeof(c->return_thunk), "%.*s",
		 (int)sizeof(req->return_thunk), req->return_thunk);
	snprintf(c->return_thunk_from, sizeof(c->return_thunk_from), "%.*s",
		 (int)sizeof(req->return_thunk_from), req->return_thunk_from);
	return 0;
}

bool plat_kernel_returns_set(char *why, size_t len)
{
	/* read by the runner (tools/kernel-memmap/patch.c) */
	const char *env = getenv(KMEMMAP_RETURN_THUNK_ENV);

	if (env)
		snprintf(why, len, "%s=%.40s", KMEMMAP_RETURN_THUNK_ENV, env);
	return env != NULL;
}

int plat_kernel_memmap_run(struct kernel_memmap_call *c, u64 *cycles, char *why,
			   size_t len)
{
	struct kmemmap_request *req = c->map;
	unsigned long long done = req->done;
	char cmd = KMEMMAP_RUN;

	*cycles = 0;
	if (c->fd < 0) {
		snprintf(why, len, "the runner is not running");
		return -1;
	}
	/* a runner gone since the last run: a reason, not SIGPIPE */
	if (send(c->fd, &cmd, 1, MSG_NOSIGNAL) != 1) {
		runner_gone(c, why, len);
		return -1;
	}
	if (answer(c, KMEMMAP_RAN, 0, why, len))
		return -1;
	if (req->done != done + 1) {
		snprintf(why, len,
			 "the runner answered run %llu having made %llu calls",
			 done + 1, req->done);
		return -1;
	}
	*cycles = req->cycles;
	return 0;
}

void plat_kernel_memmap_poison(struct kernel_memmap_call *c,
			       const unsigned long *pfns, unsigned int nr,
			       u8 byte)
{
	struct kmemmap_request *req = c->map;

	if (!req)
		return;
	req->poison_byte = byte;
	req->poison_all = !pfns;
	/*
	 * The caller's sample fits (asserted where it is drawn); a longer
	 * one would leave its last struct pages poisoned in the window, not
	 * copied back, and fail the run naming one.
	 */
	req->poison_nr = pfns ? min(nr, (unsigned int)KMEMMAP_POISON_PFNS) : 0;
	for (unsigned int i = 0; i < req->poison_nr; i++)
		req->poison_pfns[i] = pfns[i];
}

void plat_kernel_memmap_stop(struct kernel_memmap_call *c)
{
	if (c->fd >= 0) {
		close(c->fd); /* the runner's end of file: it exits */
		c->fd = -1;
	}
	if (c->pid > 0)
		waitpid(c->pid, NULL, 0);
	c->pid = 0;
	if (c->map)
		munmap(c->map, c->map_bytes);
	c->map = NULL;
}
