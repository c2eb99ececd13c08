// SPDX-License-Identifier: GPL-2.0-only
/*
 * plat_kernel_patch_build() on Linux: tools/kernel-memmap/patch-runner of
 * the tree this program was built from builds the runner of one patch
 * file, or finds it kept (build/host/kernel-patches/), and says what it
 * made on stdout; its progress goes to this program's stderr, so that a
 * first build's minutes are not silent. docs/kernel-memmap.md, "Your own
 * patch".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "include/platform.h"
#include "host/platform_linux.h"

extern char **environ;

#define PATCH_RUNNER "tools/kernel-memmap/patch-runner"

bool plat_file_readable(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd;

	/* a FIFO's open would wait for a writer: a file, first */
	if (stat(path, &st)) {
		snprintf(why, len, "%s cannot be read: %s", path,
			 strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s is not a file", path);
		return false;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, len, "%s cannot be read: %s", path,
			 strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

/*
 * The tree's patch-runner: NTB_ROOT's, else that of the tree this
 * program lies in (ROOT/build/host/ntbench). 0, or -1 with why.
 */
static int patch_runner(char *path, size_t len, char *why, size_t wlen)
{
	const char *root = getenv("NTB_ROOT");
	char exe[PATH_MAX - 64];

	if (root && *root) {
		snprintf(path, len, "%s/%s", root, PATCH_RUNNER);
	} else {
		if (host_exe_dir(exe, sizeof(exe), why, wlen))
			return -1;
		/* ROOT/build/host: two names up */
		for (int up = 0; up < 2; up++) {
			char *slash = strrchr(exe, '/');

			if (slash)
				*slash = 0;
		}
		snprintf(path, len, "%s/%s", exe, PATCH_RUNNER);
	}
	if (access(path, X_OK)) {
		snprintf(why, wlen,
			 "%.400s is not there: this program is not in the tree "
			 "it was built from (NTB_ROOT names the tree)",
			 path);
		return -1;
	}
	return 0;
}

/* @text's line beginning "@key ", its rest into @out. */
static bool answer_line(const char *text, const char *key, char *out,
			size_t len)
{
	size_t kl = strlen(key);

	for (const char *l = text; *l;) {
		const char *end = strchrnul(l, '\n');

		if (!strncmp(l, key, kl) && l[kl] == ' ') {
			snprintf(out, len, "%.*s", (int)(end - l - kl - 1),
				 l + kl + 1);
			return true;
		}
		l = *end ? end + 1 : end;
	}
	return false;
}

int plat_kernel_patch_build(const char *file, struct kernel_patch_build *b)
{
	char path[PATH_MAX], out[sizeof(b->why)], objects[120];
	char *argv[] = {path, (char *)file, NULL};
	posix_spawn_file_actions_t fa;
	size_t got = 0;
	int fds[2], status, err;
	ssize_t n;
	pid_t pid;

	*b = (struct kernel_patch_build){0};
	if (patch_runner(path, sizeof(path), b->why, sizeof(b->why)))
		return -1;
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(b->why, sizeof(b->why), "no pipe: %s",
			 strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	/* stdin: nothing a build could eat */
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	fflush(stdout);
	fflush(stderr);
	err = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		snprintf(b->why, sizeof(b->why), "cannot start %.400s: %s",
			 path, strerror(err));
		return -1;
	}
	/* all of it read (what does not fit is dropped): it never blocks */
	for (;;) {
		char discard[256];
		bool room = got < sizeof(out) - 1;

		n = read(fds[0], room ? out + got : discard,
			 room ? sizeof(out) - 1 - got : sizeof(discard));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (room)
			got += n;
	}
	out[got] = 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status)) {
		snprintf(b->why, sizeof(b->why), "%s %s died of signal %d",
			 PATCH_RUNNER, file, WTERMSIG(status));
		return -1;
	}
	switch (WEXITSTATUS(status)) {
	case 0:
		break;
	case 77:
		snprintf(b->why, sizeof(b->why), "%s", out);
		b->why[strcspn(b->why, "\n")] = 0;
		return 1;
	default:
		/* its reason, lines: the last newline dropped */
		snprintf(b->why, sizeof(b->why), "%s", out);
		if (got && b->why[strlen(b->why) - 1] == '\n')
			b->why[strlen(b->why) - 1] = 0;
		if (!b->why[0])
			snprintf(b->why, sizeof(b->why),
				 "%s %s exited with %d and no reason",
				 PATCH_RUNNER, file, WEXITSTATUS(status));
		return -1;
	}
	if (!answer_line(out, "sha256", b->sha256, sizeof(b->sha256)) ||
	    strlen(b->sha256) != 64 ||
	    !answer_line(out, "runner", b->runner, sizeof(b->runner)) ||
	    !answer_line(out, "objects", objects, sizeof(objects))) {
		snprintf(b->why, sizeof(b->why),
			 "%s %s answered no sha256, runner and objects: "
			 "\"%.200s\"",
			 PATCH_RUNNER, file, out);
		return -1;
	}
	b->same_objects = !strcmp(objects, "same");
	if (!b->same_objects && strncmp(objects, "differ ", 7)) {
		snprintf(b->why, sizeof(b->why),
			 "%s %s answered objects \"%s\"", PATCH_RUNNER, file,
			 objects);
		return -1;
	}
	if (!b->same_objects) {
		/* one word of a line: "mm_init.o,page_alloc.o" */
		snprintf(b->differ, sizeof(b->differ), "%.100s", objects + 7);
		for (char *c = b->differ; *c; c++)
			if (*c == ' ')
				*c = ',';
	}
	return 0;
}
