// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing, with every kind of bad input a user can type: each must
 * be an error naming the word and the source, never a silent default.
 */
#include "lib/bench.h"
#include "lib/kunit.h"
#include "lib/machine_options.h"
#include "lib/options.h"
#include "lib/run_context.h"
#include "lib/scale.h"
#include "lib/string.h"
#include "tests/engines/bench_util.h"
#include "tests/engines/memmap_case.h"

DECLARE_OPTION(namespace);
DECLARE_OPTION(runs);

/* From the defaults, the words of @text (the suite's own options). */
static int parse(const char *text, struct opt_error *e)
{
	options_set_defaults();
	memset(e, 0, sizeof(*e));
	return options_parse(text, strlen(text), "test", e);
}

/* An option's number, found by its key as the parser finds it. */
static u64 number(struct kunit *test, const char *key)
{
	const struct ntb_option *o = options_find(key, strlen(key));

	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_ASSERT_EQ(test, o->kind, OPT_NUMBER);
	return o->size == 8 ? *(const u64 *)o->var : *(const u32 *)o->var;
}

static void options_defaults(struct kunit *test)
{
	options_set_defaults();
	KUNIT_EXPECT_EQ(test, opt_runs, 30);
	KUNIT_EXPECT_EQ(test, opt_namespace, 100ull << 30);
	KUNIT_EXPECT_EQ(test, opt_layout.n, 3);
	KUNIT_EXPECT_EQ(test, opt_mode, MODE_FSDAX | MODE_DEVDAX2M);
	KUNIT_EXPECT_TRUE(test, opt_drain);
	KUNIT_EXPECT_EQ(test, opt_on_finish, FINISH_POWEROFF);
	KUNIT_EXPECT_EQ(test, opt_console.addr, 0x3f8);
	KUNIT_EXPECT_EQ(test, opt_console.baud, 115200);
	KUNIT_EXPECT_STREQ(test, opt_suite, "");
	KUNIT_EXPECT_EQ(test, opt_watchdog, 300);
	KUNIT_EXPECT_FALSE(test, option_is_set(namespace));
}

static void options_good_words(struct kunit *test)
{
	struct opt_error e;

	KUNIT_ASSERT_EQ(test,
			parse("suite=memcpy*,memmap* runs=5 namespace=1G "
				  "layout=80,96 mode=devdax1g drain=off "
				  "on_finish=halt smp=4 litmus.iters=0x100 "
				  "runs_id=lab-7.a strategy=tmpl_* seed=0x2a",
			      &e),
			0);
	KUNIT_EXPECT_STREQ(test, opt_suite, "memcpy*,memmap*");
	KUNIT_EXPECT_EQ(test, opt_runs, 5);
	KUNIT_EXPECT_EQ(test, opt_namespace, 1ull << 30);
	KUNIT_EXPECT_EQ(test, opt_layout.n, 2);
	KUNIT_EXPECT_EQ(test, opt_layout.v[0], 80);
	KUNIT_EXPECT_EQ(test, opt_layout.v[1], 96);
	KUNIT_EXPECT_EQ(test, opt_mode, MODE_DEVDAX1G);
	KUNIT_EXPECT_FALSE(test, opt_drain);
	KUNIT_EXPECT_EQ(test, opt_on_finish, FINISH_HALT);
	KUNIT_EXPECT_EQ(test, opt_smp, 4);
	KUNIT_EXPECT_EQ(test, number(test, "litmus.iters"), 256);
	KUNIT_EXPECT_STREQ(test, opt_runs_id, "lab-7.a");
	KUNIT_EXPECT_STREQ(test, opt_strategy, "tmpl_*");
	KUNIT_EXPECT_EQ(test, opt_seed, 42);
}

static void options_later_wins_and_comments(struct kunit *test)
{
	struct opt_error e;

	KUNIT_ASSERT_EQ(test,
			parse("# ntboot.cfg\nruns=3\n\n  runs=7 # seven\r\n"
				  "#runs=9\n\tsmp=off\n",
			      &e),
			0);
	KUNIT_EXPECT_EQ(test, opt_runs, 7);
	KUNIT_EXPECT_EQ(test, opt_smp, SMP_OFF);
}

static void options_console(struct kunit *test)
{
	struct opt_error e;

	KUNIT_ASSERT_EQ(test, parse("console=ttyS1,9600", &e), 0);
	KUNIT_EXPECT_EQ(test, opt_console.kind, CONSOLE_IO);
	KUNIT_EXPECT_EQ(test, opt_console.addr, 0x2f8);
	KUNIT_EXPECT_EQ(test, opt_console.baud, 9600);
	KUNIT_ASSERT_EQ(test, parse("console=mmio32,0xfe030000", &e), 0);
	KUNIT_EXPECT_EQ(test, opt_console.kind, CONSOLE_MMIO32);
	KUNIT_EXPECT_EQ(test, opt_console.addr, 0xfe030000ull);
	KUNIT_EXPECT_EQ(test, opt_console.baud, 115200);
	KUNIT_ASSERT_EQ(test, parse("console=io,0x3e8,57600", &e), 0);
	KUNIT_EXPECT_EQ(test, opt_console.addr, 0x3e8);
	KUNIT_EXPECT_EQ(test, opt_console.baud, 57600);
	KUNIT_ASSERT_EQ(test, parse("console=none", &e), 0);
	KUNIT_EXPECT_EQ(test, opt_console.kind, CONSOLE_NONE);
}

struct bad_case {
	const char *text;
	const char *must_say; /* the message names the problem */
};

static const struct bad_case bad_cases[] = {
	{ "bogus=1", "unknown key 'bogus'" },
	{ "runs", "is not key=value" },
	{ "runs=", "bad value in 'runs='" },
	{ "runs=abc", "bad value in 'runs=abc'" },
	{ "runs=0", "from 1 to" },
	{ "runs=99999999999999999999999", "bad value" },
	{ "runs=-1", "bad value" },
	{ "namespace=100Q", "namespace=100Q" },
	{ "namespace=1M", "at least 2M" },
	{ "namespace=4097", "namespace=4097" },
	{ "namespace=99999999999T", "bad value" },
	{ "layout=72", "64, 80 or 96" },
	{ "layout=", "bad value" },
	{ "layout=64,,80", "64, 80 or 96" },
	{ "mode=pmem", "fsdax, devdax2m, devdax1g" },
	{ "drain=maybe", "on or off" },
	{ "on_finish=sleep", "poweroff, halt or reboot" },
	{ "smp=0", "off, all or" },
	{ "smp=lots", "off, all or" },
	{ "console=ttyS9", "ttyS0..3" },
	{ "console=mmio32", "mmio32,0xADDRESS" },
	{ "console=io,0x10000", "out of range" },
	{ "console=ttyS0,12345", "baud must divide 115200" },
	{ "runs_id=has/slash", "only letters" },
	{ "RUNS=3", "unknown key 'RUNS'" },
	{ "litmus.iters=0", "from 1 to" },
	{ "seed=0", "from 1 to" },
	{ "watchdog=soon", "off or seconds" },
	{ "watchdog=0", "off or seconds" },
	{ "smp.extra_apic_ids=x", "APIC IDs" },
#ifdef NTB_HOSTED
	/* a file that cannot be read stops the run before anything runs */
	{ "kernel_patch=/nonexistent/v5.patch",
	  "/nonexistent/v5.patch cannot be read" },
	{ "kernel_patch=", "'' names no file" },
	{ "kernel_patch=/etc/passwd,", "'' names no file" },
	{ "kernel_patch=/etc/.patch", "'/etc/.patch' has no name before" },
	{ "kernel_patch=/etc/pass\"wd", "a blank or a quote" },
	/* two files, one contender's name */
	{ "kernel_patch=/etc/passwd,/etc/./passwd",
	  "/etc/passwd and /etc/./passwd are both kp_passwd" },
#else
	{ "kernel_patch=v5.patch", "kernel_patch= runs in the hosted runner" },
#endif
	/* Whole keys only, never a prefix either way. */
	{ "suit=tsc", "unknown key 'suit'" },
	{ "suites=tsc", "unknown key 'suites'" },
	{ "run=3", "unknown key 'run'" },
	{ "runs_=3", "unknown key 'runs_'" },
	{ "smp.extra=7", "unknown key 'smp.extra'" },
	{ "=3", "unknown key ''" },
	/* What cannot be shown is escaped, not printed raw. */
	{ "sui\xc3\xa9te=1", "unknown key 'sui\\xc3\\xa9te'" },
	{ "\xef\xbb\xbfsuite=1", "unknown key '\\xef\\xbb\\xbfsuite'" },
	{ "runs=3\x7f", "control character 0x7f" },
	{ "suite=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  "longer than 255" },
};

static void options_bad_input(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
			struct opt_error e;
		int rc = parse(bad_cases[i].text, &e);

		if (rc != -1) {
			kunit_fail_at(test, __FILE__, __LINE__,
				      "'%s' was accepted", bad_cases[i].text);
			continue;
		}
		if (!!!strstr(e.msg, bad_cases[i].must_say))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "'%s': message '%s' lacks '%s'",
				      bad_cases[i].text, e.msg,
				      bad_cases[i].must_say);
		if (!!!strstr(e.msg, "test:"))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "'%s': message '%s' lacks the source",
				      bad_cases[i].text, e.msg);
	}
}

static void options_error_stops_parsing(struct kunit *test)
{
	struct opt_error e;

	/* Words before the bad one apply; nothing after it does. */
	KUNIT_EXPECT_EQ(test, parse("runs=4 bogus=1 runs=9", &e), -1);
	KUNIT_EXPECT_EQ(test, opt_runs, 4);
}

static void options_sizes(struct kunit *test)
{
	u64 v;

	KUNIT_EXPECT_EQ(test, parse_size("100G", 4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 100ull << 30);
	KUNIT_EXPECT_EQ(test, parse_size("100GB", 5, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 100ull << 30);
	KUNIT_EXPECT_EQ(test, parse_size("2t", 2, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 2ull << 40);
	KUNIT_EXPECT_EQ(test, parse_size("4096", 4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 4096);
	KUNIT_EXPECT_EQ(test, parse_size("0x1000", 6, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 4096);
	KUNIT_EXPECT_EQ(test, parse_size("G", 1, &v), -1);
	KUNIT_EXPECT_EQ(test, parse_size("", 0, &v), -1);
	KUNIT_EXPECT_EQ(test, parse_size("16777216T", 9, &v), -1);
	KUNIT_EXPECT_EQ(test, parse_u64("18446744073709551615", 20, &v), 0);
	KUNIT_EXPECT_EQ(test, v, ~0ull);
	KUNIT_EXPECT_EQ(test, parse_u64("18446744073709551616", 20, &v), -1);
	KUNIT_EXPECT_EQ(test, parse_u64("0x", 2, &v), -1);
}

/*
 * Every key the documentation and ntboot.cfg.example name is declared,
 * once: a declaration dropped or doubled fails here.
 */
static void options_registry(struct kunit *test)
{
	static const char *const keys[] = {
		"suite",    "console",	 "namespace",	       "runs",
		"layout",   "mode",	 "strategy",	       "litmus.iters",
		"seed",	    "drain",	 "on_finish",	       "smp",
		"runs_id",  "watchdog",	 "smp.extra_apic_ids", "list",
		"map",	    "memmap_in", "memmap_smp.rounds", "memmap_smp.pfns",
		"memmap_smp.check", "memmap_smp.place", "memmap_smp.noise",
		"kernel", "kernel_patch",
#ifdef NTB_HOSTED
		/* The hosted runner's worker processes; the image is one boot. */
		"processes",
#endif
	};
	struct ntb_option *o;
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!options_find(keys[i], strlen(keys[i])))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "no option '%s' is declared", keys[i]);
	for_each_option(o) {
		n++;
		KUNIT_EXPECT_TRUE(test, o->help && o->help[0]);
		/* The parser takes the first of a key declared twice. */
		if (options_find(o->key, strlen(o->key)) != o)
			kunit_fail_at(test, __FILE__, __LINE__,
				      "'%s' is declared twice", o->key);
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(keys));
}

/* Parsing again starts from the declared defaults, nothing set. */
static void options_reset(struct kunit *test)
{
	struct opt_error e;

	KUNIT_ASSERT_EQ(test,
			parse("runs=5 suite=x layout=80 console=ttyS1,9600 "
			      "smp.extra_apic_ids=7,9 watchdog=off drain=no",
			      &e),
			0);
	KUNIT_EXPECT_TRUE(test, option_is_set(runs));
	KUNIT_EXPECT_FALSE(test, option_is_set(namespace));
	KUNIT_EXPECT_EQ(test, opt_smp_extra_apic_ids.n, 2);
	KUNIT_EXPECT_EQ(test, opt_smp_extra_apic_ids.v[1], 9);
	KUNIT_EXPECT_EQ(test, opt_watchdog, 0);
	options_set_defaults();
	KUNIT_EXPECT_FALSE(test, option_is_set(runs));
	KUNIT_EXPECT_EQ(test, opt_runs, 30);
	KUNIT_EXPECT_STREQ(test, opt_suite, "");
	KUNIT_EXPECT_EQ(test, opt_layout.n, 3);
	KUNIT_EXPECT_EQ(test, opt_layout.v[2], 96);
	KUNIT_EXPECT_EQ(test, opt_console.kind, CONSOLE_AUTO);
	KUNIT_EXPECT_EQ(test, opt_console.baud, 115200);
	KUNIT_EXPECT_EQ(test, opt_smp_extra_apic_ids.n, 0);
	KUNIT_EXPECT_EQ(test, opt_watchdog, 300);
	KUNIT_EXPECT_TRUE(test, opt_drain);
	KUNIT_EXPECT_EQ(test, opt_smp, SMP_ALL);
}

/*
 * A slow platform's defaults apply to what the user left alone, never to
 * what was given, and its line names the values in force.
 */
static void options_platform_scaling(struct kunit *test)
{
	static const struct platform_scale slow = {
		.name = "slow test platform",
		.defaults = "namespace=64M runs=3",
		.why = "a test",
	};
	static const struct platform_scale broken = {
		.name = "broken",
		.defaults = "namespace=1K",
	};
	struct opt_error e;
	char line[256];

	KUNIT_ASSERT_EQ(test, parse("runs=7", &e), 0);
	KUNIT_ASSERT_EQ(test, options_scale(&slow, line, sizeof(line)), 0);
	KUNIT_EXPECT_EQ(test, opt_runs, 7);
	KUNIT_EXPECT_EQ(test, opt_namespace, 64ull << 20);
	KUNIT_EXPECT_TRUE(test, option_is_set(runs));
	KUNIT_EXPECT_FALSE(test, option_is_set(namespace));
	KUNIT_EXPECT_STREQ(test, line,
			   "slow test platform: benchmark defaults scaled to "
			   "namespace=64M runs=7; a test (set namespace= and "
			   "runs= to override)");
	/* A word after the scaling still wins. */
	KUNIT_ASSERT_EQ(test, options_parse("namespace=1G", 12, "test", &e), 0);
	KUNIT_EXPECT_EQ(test, opt_namespace, 1ull << 30);

	KUNIT_ASSERT_EQ(test, parse("namespace=100G", &e), 0);
	KUNIT_ASSERT_EQ(test, options_scale(&slow, line, sizeof(line)), 0);
	KUNIT_EXPECT_EQ(test, opt_runs, 3);
	KUNIT_EXPECT_EQ(test, opt_namespace, 100ull << 30);
	KUNIT_EXPECT_FALSE(test, option_is_set(runs));
	KUNIT_EXPECT_TRUE(test, !!strstr(line, "namespace=100G runs=3;"));

	/* A scaled default the option refuses is an error, not ignored. */
	options_set_defaults();
	KUNIT_EXPECT_EQ(test, options_scale(&broken, line, sizeof(line)), -1);
	KUNIT_EXPECT_TRUE(test, !!strstr(line, "at least 2M"));
}

/*
 * The slow platforms' numbers as docs/options.md gives them, and what
 * bare metal (no slow platform) and both at once (the host tests on an
 * emulated CPU) get: a knob the first platform leaves alone falls through.
 */
static void options_slow_platform_knobs(struct kunit *test)
{
	static const struct {
		unsigned int present;
		enum scale_knob knob;
		u64 want;
		const char *who;
	} cases[] = {
		{0, SCALE_LITMUS_SUITE_MS, 1, NULL},
		{0, SCALE_SMP_MAX_PFNS, 1, NULL},
		{0, SCALE_SMP_ROUNDS, 1, NULL},
		{0, SCALE_ON_CPUS_SHORT_US, 1, NULL},
		{SLOW_SANITIZER, SCALE_LITMUS_SUITE_MS, 6000,
		 "sanitizer build"},
		{SLOW_SANITIZER, SCALE_SMP_MAX_PFNS, 1, NULL},
		{SLOW_SANITIZER, SCALE_SMP_ROUNDS, 20, "sanitizer build"},
		{SLOW_SANITIZER, SCALE_ON_CPUS_SHORT_US, 1, NULL},
		{SLOW_TCG, SCALE_LITMUS_SUITE_MS, 12000, "emulated CPU (TCG)"},
		{SLOW_TCG, SCALE_SMP_MAX_PFNS, 4096, "emulated CPU (TCG)"},
		{SLOW_TCG, SCALE_SMP_ROUNDS, 5, "emulated CPU (TCG)"},
		{SLOW_TCG, SCALE_ON_CPUS_SHORT_US, 500000,
		 "emulated CPU (TCG)"},
		{SLOW_SANITIZER | SLOW_TCG, SCALE_LITMUS_SUITE_MS, 6000,
		 "sanitizer build"},
		{SLOW_SANITIZER | SLOW_TCG, SCALE_SMP_MAX_PFNS, 4096,
		 "emulated CPU (TCG)"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *want = cases[i].who ? cases[i].who : "none";
		const char *who;
		u64 got = platform_scaled_on(cases[i].present, cases[i].knob, 1,
					     &who);

		if (!who)
			who = "none";
		if (got == cases[i].want && !strcmp(who, want))
			continue;
		kunit_fail_at(test, __FILE__, __LINE__,
			      "platforms %#x knob %u: %llu from %s, want %llu "
			      "from %s",
			      cases[i].present, cases[i].knob, got, who,
			      cases[i].want, want);
	}
}

/* What a value reads back as: the scaling line and the help print it. */
static void options_format_values(struct kunit *test)
{
	static const struct {
		const char *word, *key, *shown;
	} cases[] = {
		{ "namespace=0x100000000", "namespace", "4G" },
		{ "smp=all", "smp", "all" },
		{ "smp=12", "smp", "12" },
		{ "watchdog=off", "watchdog", "off" },
		{ "drain=no", "drain", "off" },
		{ "on_finish=reboot", "on_finish", "reboot" },
		{ "layout=96,64", "layout", "96,64" },
		{ "mode=devdax1g,fsdax", "mode", "fsdax,devdax1g" },
		{ "kernel=6.12", "kernel", "6.12" },
		{ "runs_id=a.b", "runs_id", "a.b" },
	};
	struct opt_error e;
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ(test, parse(cases[i].word, &e), 0);
		option_format(options_find(cases[i].key,
					   strlen(cases[i].key)),
			      buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, cases[i].shown);
	}
}

/*
 * The header's set=: every option a word set, once, at its last value,
 * in the registry's order; the defaults left out; a cut text says so.
 */
static void options_format_set_words(struct kunit *test)
{
	struct opt_error e;
	char buf[96], small[16];
	size_t n;

	KUNIT_ASSERT_EQ(test, parse("", &e), 0);
	KUNIT_EXPECT_EQ(test, options_format_set(buf, sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");

	KUNIT_ASSERT_EQ(test, parse("runs=3 namespace=0x40000000 runs=5", &e),
			0);
	n = options_format_set(buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, n, strlen(buf));
	KUNIT_EXPECT_TRUE(test, strstr(buf, "runs=5") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(buf, "runs=3") == NULL);
	KUNIT_EXPECT_TRUE(test, strstr(buf, "namespace=1G") != NULL);
	KUNIT_EXPECT_EQ(test, strlen(buf), strlen("runs=5 namespace=1G"));

	n = options_format_set(small, sizeof(small));
	KUNIT_EXPECT_EQ(test, n, strlen(buf));
	KUNIT_EXPECT_EQ(test, strlen(small), sizeof(small) - 1);
	KUNIT_EXPECT_STREQ(test, small + sizeof(small) - 4, "...");
}

static const struct kunit_case options_cases[] = {
	KUNIT_CASE(options_defaults),
	KUNIT_CASE(options_good_words),
	KUNIT_CASE(options_later_wins_and_comments),
	KUNIT_CASE(options_console),
	KUNIT_CASE(options_bad_input),
	KUNIT_CASE(options_error_stops_parsing),
	KUNIT_CASE(options_sizes),
	KUNIT_CASE(options_registry),
	KUNIT_CASE(options_reset),
	KUNIT_CASE(options_platform_scaling),
	KUNIT_CASE(options_slow_platform_knobs),
	KUNIT_CASE(options_format_values),
	KUNIT_CASE(options_format_set_words),
};

KUNIT_SUITE_DEFINE(options_suite, "options", options_cases,
		   .flags = KUNIT_SUITE_PARSES_OPTIONS);
