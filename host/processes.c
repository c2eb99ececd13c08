// SPDX-License-Identifier: GPL-2.0-only
/*
 * Worker processes of the hosted runner. A process is the unit the
 * verdicts replicate over (docs/statistics.md): the state a machine is in
 * (where the buffers landed, what the prefetchers learnt, a neighbour's
 * load) holds for seconds and moves between processes, so runs of one
 * process agree with each other more than the next process agrees with
 * them. The workers run one after another, never together: a 100 GiB
 * worker holds about 2 GB, and two would time each other.
 *
 * The channel is a file of text records, one per bench_interleave() of a
 * timed suite, in the order the suites ran:
 *
 *   R <seq> <what> <entries> <runs>
 *   E <name> <failed> <failed_run> <cycles> <clk_ns> <ns>,<ns>,...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "include/platform.h"
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/machine_options.h"
#include "lib/options.h"
#include "lib/prandom.h"
#include "lib/printf.h"
#include "host/processes.h"

/*
 * The checking build (ASan/UBSan) times nothing worth replicating: one
 * process unless told.
 */
#ifdef NTB_HOST_TESTS
#define PROCESSES_DEFAULT 1
#else
#define PROCESSES_DEFAULT 6
#endif

DEFINE_OPTION_U32(processes, PROCESSES_DEFAULT, 1, BENCH_MAX_PROCESSES,
		  "hosted runner: processes that measure each timed suite, "
		  "one after another, this one last (ntbench 6, ntboot-test "
		  "1; runs= is per process, 6 unless given with several)");

/* runs= of each process when several measure and runs= was not given. */
#define RUNS_PER_PROCESS 6
/* Lines of a worker's output kept to show when it fails. */
#define KEEP_LINES 40

static FILE *worker_channel;
/* This process is a worker: it runs no workers of its own. */
static bool is_worker;

/* A worker's channel, read back whole once it has ended. */
static char *channel_text[BENCH_MAX_PROCESSES];

static void worker_put(const struct bench_record *rec)
{
	fprintf(worker_channel, "R %u %s %u %u\n", rec->seq, rec->what, rec->n,
		rec->runs);
	for (u32 i = 0; i < rec->n; i++) {
		fprintf(worker_channel, "E %s %d %u %llu %llu ", rec->names[i],
			rec->failed[i], rec->failed_run[i],
			(unsigned long long)rec->cycles[i],
			(unsigned long long)rec->clk_ns[i]);
		for (u32 r = 0; r < rec->runs; r++)
			fprintf(worker_channel, "%s%llu", r ? "," : "",
				(unsigned long long)rec->samples[i][r]);
		fputc('\n', worker_channel);
	}
	/* Written the moment it exists: a worker that dies keeps its past. */
	fflush(worker_channel);
}

static const struct bench_processes worker_ops = {
	.nr = 1,
	.put = worker_put,
};

int processes_worker_arg(const char *arg)
{
	size_t len = strlen(PROCESSES_WORKER_ARG);
	char *end;
	long fd;

	if (strncmp(arg, PROCESSES_WORKER_ARG, len))
		return 0;
	fd = strtol(arg + len, &end, 10);
	if (end == arg + len || *end || fd < 3)
		return -1;
	worker_channel = fdopen((int)fd, "w");
	if (!worker_channel)
		return -1;
	kunit_timed_only = true;
	is_worker = true;
	bench_set_processes(&worker_ops);
	return 1;
}

/* The line of @text that begins "R <seq> ", or NULL. */
static const char *find_record(const char *text, u32 seq)
{
	char head[32];
	size_t n = (size_t)snprintf(head, sizeof(head), "R %u ", seq);

	for (const char *p = text; p && *p;) {
		if (!strncmp(p, head, n))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static int parent_get(u32 k, struct bench_record *rec, char *why, size_t len)
{
	const char *p =
		channel_text[k] ? find_record(channel_text[k], rec->seq) : NULL;
	char what[64], name[64];
	unsigned int seq, n, runs;
	int used;

	if (!p) {
		snprintf(why, len,
			 "its channel has no measurement %u (%s): it ended "
			 "before it, or measured less",
			 rec->seq, rec->what);
		return -1;
	}
	if (sscanf(p, "R %u %63s %u %u%n", &seq, what, &n, &runs, &used) != 4 ||
	    strcmp(what, rec->what) || n != rec->n || runs != rec->runs) {
		snprintf(why, len,
			 "measurement %u is not the same: %.60s there, %s of "
			 "%u entries x %u runs here",
			 rec->seq, p, rec->what, rec->n, rec->runs);
		return -1;
	}
	p = strchr(p, '\n');
	for (u32 i = 0; i < rec->n; i++) {
		unsigned long long cyc, ns;
		unsigned int failed, failed_run;

		if (!p ||
		    sscanf(p + 1, "E %63s %u %u %llu %llu %n", name, &failed,
			   &failed_run, &cyc, &ns, &used) != 5 ||
		    strcmp(name, rec->names[i])) {
			snprintf(why, len,
				 "measurement %u (%s): entry %u is not %s "
				 "there",
				 rec->seq, rec->what, i + 1, rec->names[i]);
			return -1;
		}
		rec->failed[i] = failed;
		rec->failed_run[i] = failed_run;
		rec->cycles[i] = cyc;
		rec->clk_ns[i] = ns;
		p += 1 + used;
		for (u32 r = 0; r < rec->runs; r++) {
			char *end;

			errno = 0;
			rec->samples[i][r] = strtoull(p, &end, 10);
			if (end == p || errno ||
			    *end != (r + 1 < rec->runs ? ',' : '\n')) {
				snprintf(why, len,
					 "measurement %u (%s): %s has a bad "
					 "sample %u",
					 rec->seq, rec->what, name, r + 1);
				return -1;
			}
			p = end + (r + 1 < rec->runs);
		}
	}
	return 0;
}

static struct bench_processes parent_ops = {
	.get = parent_get,
};

int processes_plan(char *why, size_t len)
{
	if (opt_processes < 2)
		return 0;
	if (!options_find("runs", 4)->set)
		opt_runs = RUNS_PER_PROCESS;
	if (opt_runs < 2) {
		snprintf(why, len,
			 "runs=%u leaves no warm run in each of processes=%u: "
			 "give runs=2 or more, or processes=1",
			 opt_runs, opt_processes);
		return -1;
	}
	if ((u64)opt_runs * opt_processes > BENCH_MAX_RUNS) {
		snprintf(why, len,
			 "runs=%u x processes=%u is over the %u samples the "
			 "timing core keeps",
			 opt_runs, opt_processes, BENCH_MAX_RUNS);
		return -1;
	}
	return 0;
}

/* Process @k's seed (0-based; the parent is the last): repeatable. */
static u64 process_seed(u64 base, u32 k)
{
	u64 state = base + k * 0x9e3779b97f4a7c15ull;
	u64 s = k ? prandom_u64(&state) : base;

	return s ? s : 1;
}

static void child_exec(int argc, char **argv, const cpu_set_t *mask,
		       int channel, int out, u64 seed)
{
	char **args = calloc((size_t)argc + 5, sizeof(*args));
	char arg_channel[48], arg_seed[40], arg_runs[24];
	int n = 0;

	/* The CPUs the run was given, not the one the parent pinned to. */
	if (CPU_COUNT(mask))
		sched_setaffinity(0, sizeof(*mask), mask);
	/* A parent that is killed takes its worker (and its 2 GB) along. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	dup2(out, 1);
	dup2(out, 2);
	snprintf(arg_channel, sizeof(arg_channel), PROCESSES_WORKER_ARG "%d",
		 channel);
	snprintf(arg_seed, sizeof(arg_seed), "seed=%llu",
		 (unsigned long long)seed);
	snprintf(arg_runs, sizeof(arg_runs), "runs=%u", opt_runs);
	args[n++] = argv[0];
	args[n++] = arg_channel;
	/* The later word wins: the same options, its own seed and one process.
	 */
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	args[n++] = "processes=1";
	args[n++] = arg_seed;
	args[n++] = arg_runs;
	args[n] = NULL;
	execv("/proc/self/exe", args);
	fprintf(stderr, "ntbench worker: exec /proc/self/exe: %s\n",
		strerror(errno));
	_exit(127);
}

/*
 * Whether the worker said something within watchdog= seconds (forever
 * with watchdog=off). It prints a progress line every 10 s of timed work,
 * so a silence that long is a hang.
 */
static bool worker_alive(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int timeout = opt_watchdog ? (int)opt_watchdog * 1000 : -1;
	int r;

	do
		r = poll(&p, 1, timeout);
	while (r < 0 && errno == EINTR);
	return r > 0;
}

/*
 * The worker's output: progress passed on now, the rest kept to show.
 * False when it fell silent for longer than the watchdog allows.
 */
static bool follow_output(FILE *in, u32 k, char kept[KEEP_LINES][256],
			  unsigned int *nkept, char *summary, size_t len)
{
	char line[4096];

	/* Unbuffered: nothing read ahead hides behind poll(). */
	setvbuf(in, NULL, _IONBF, 0);
	for (;;) {
		if (!worker_alive(fileno(in)))
			return false;
		if (!fgets(line, sizeof(line), in))
			return true;
		const char *s = line + strspn(line, " ");

		if (!strncmp(s, "# progress ", 11)) {
			kprintf("# process %u/%u: %s", k + 1, opt_processes,
				s + 2);
			continue;
		}
		/*
		 * Its counts without the "ntboot: " that ends a run: a lab's
		 * monitor waits for that line and must not stop at a worker's.
		 */
		if (!strncmp(line, "ntboot: ", 8)) {
			snprintf(summary, len, "%.*s",
				 (int)strcspn(line + 8, "\n"), line + 8);
			continue;
		}
		if (!strncmp(s, "# metric ", 9) ||
		    !strncmp(s, "# verdict ", 10))
			continue;
		snprintf(kept[*nkept % KEEP_LINES], 256, "%.*s",
			 (int)strcspn(line, "\n"), line);
		(*nkept)++;
	}
}

static char *read_all(int fd)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	ssize_t got;

	if (!buf || lseek(fd, 0, SEEK_SET) < 0) {
		free(buf);
		return NULL;
	}
	while ((got = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)got;
		if (cap - n < 2) {
			char *more = realloc(buf, cap * 2);

			if (!more) {
				free(buf);
				return NULL;
			}
			buf = more;
			cap *= 2;
		}
	}
	buf[n] = 0;
	return buf;
}

/* Worker @k, from start to end; 0 when it passed. */
static int run_worker(u32 k, int argc, char **argv, const cpu_set_t *mask,
		      u64 seed)
{
	static char kept[KEEP_LINES][256];
	char summary[160] = "";
	unsigned int nkept = 0;
	int pipefd[2], status, channel;
	u64 t0 = 0, t1 = 0;
	const char *no_clock;
	bool timed = !plat_os_clock_ns(&t0, &no_clock);
	FILE *in;
	pid_t pid;

	channel = memfd_create("ntbench-channel", 0);
	if (channel < 0 || pipe(pipefd)) {
		kprintf("# process %u/%u: cannot make its channel: %s\n", k + 1,
			opt_processes, strerror(errno));
		if (channel >= 0)
			close(channel);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		kprintf("# process %u/%u: fork: %s\n", k + 1, opt_processes,
			strerror(errno));
		close(channel);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (!pid) {
		close(pipefd[0]);
		child_exec(argc, argv, mask, channel, pipefd[1], seed);
	}
	close(pipefd[1]);
	kprintf("# process %u/%u seed=%llu pid=%d\n", k + 1, opt_processes,
		(unsigned long long)seed, (int)pid);
	in = fdopen(pipefd[0], "r");
	if (!follow_output(in, k, kept, &nkept, summary, sizeof(summary))) {
		kprintf("# process %u/%u: silent for watchdog=%u s: killed\n",
			k + 1, opt_processes, opt_watchdog);
		kill(pid, SIGKILL);
	}
	fclose(in);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	channel_text[k] = read_all(channel);
	close(channel);
	timed = timed && !plat_os_clock_ns(&t1, &no_clock);
	kprintf("# process %u/%u done in %s s: %s%s\n", k + 1, opt_processes,
		timed ? bench_fixed(t1 - t0, 1000000000ull, 1) : "?",
		summary[0] ? summary : "no summary line",
		WIFSIGNALED(status) ? " (killed by a signal)" : "");
	if (WIFEXITED(status) && !WEXITSTATUS(status) && channel_text[k])
		return 0;
	/* What it said last, so the failure is read where it is reported. */
	for (unsigned int i = nkept > KEEP_LINES ? nkept - KEEP_LINES : 0;
	     i < nkept; i++)
		kprintf("# process %u/%u: %s\n", k + 1, opt_processes,
			kept[i % KEEP_LINES]);
	kprintf("# process %u/%u failed (%s %d)\n", k + 1, opt_processes,
		WIFSIGNALED(status) ? "signal" : "exit",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return -1;
}

unsigned int processes_run_workers(int argc, char **argv, const cpu_set_t *mask)
{
	u64 base = bench_seed();
	unsigned int failed = 0, timed;

	if (opt_processes < 2 || is_worker)
		return 0;
	/* Nothing timed selected: nothing for a worker to measure. */
	kunit_timed_only = true;
	timed = kunit_count_selected(opt_suite);
	kunit_timed_only = false;
	if (!timed)
		return 0;
	kprintf("# processes=%u runs=%u: %u workers one after another, then "
		"this process; seed=%llu\n",
		opt_processes, opt_runs, opt_processes - 1,
		(unsigned long long)base);
	for (u32 k = 0; k + 1 < opt_processes; k++)
		if (run_worker(k, argc, argv, mask, process_seed(base, k)))
			failed++;
	opt_seed = process_seed(base, opt_processes - 1);
	kprintf("# process %u/%u seed=%llu pid=%d (this one)\n", opt_processes,
		opt_processes, (unsigned long long)opt_seed, (int)getpid());
	parent_ops.nr = opt_processes;
	bench_set_processes(&parent_ops);
	return failed;
}
