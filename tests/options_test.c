// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing, with every kind of bad input a user can type: each must
 * be an error naming the word and the source, never a silent default.
 */
#include "lib/kunit.h"
#include "lib/options.h"
#include "lib/string.h"

static int parse(struct ntb_options *o, const char *text, struct opt_error *e)
{
	options_set_defaults(o);
	memset(e, 0, sizeof(*e));
	return options_parse(o, text, strlen(text), "test", e);
}

static void options_defaults(struct kunit *test)
{
	struct ntb_options o;

	options_set_defaults(&o);
	KUNIT_EXPECT_EQ(test, o.runs, 30);
	KUNIT_EXPECT_EQ(test, o.namespace_bytes, 100ull << 30);
	KUNIT_EXPECT_EQ(test, o.nr_layouts, 3);
	KUNIT_EXPECT_EQ(test, o.modes, MODE_FSDAX | MODE_DEVDAX2M);
	KUNIT_EXPECT_TRUE(test, o.drain);
	KUNIT_EXPECT_EQ(test, o.on_finish, FINISH_POWEROFF);
	KUNIT_EXPECT_EQ(test, o.console_addr, 0x3f8);
	KUNIT_EXPECT_EQ(test, o.console_baud, 115200);
	KUNIT_EXPECT_STREQ(test, o.suite, "");
	KUNIT_EXPECT_EQ(test, o.watchdog_s, 300);
	KUNIT_EXPECT_FALSE(test, o.namespace_set);
}

static void options_good_words(struct kunit *test)
{
	struct ntb_options o;
	struct opt_error e;

	KUNIT_ASSERT_EQ(test,
			parse(&o, "suite=memcpy*,memmap* runs=5 namespace=1G "
				  "layout=80,96 mode=devdax1g drain=off "
				  "on_finish=halt smp=4 litmus.iters=0x100 "
				  "runs_id=lab-7.a strategy=tmpl_* seed=0x2a",
			      &e),
			0);
	KUNIT_EXPECT_STREQ(test, o.suite, "memcpy*,memmap*");
	KUNIT_EXPECT_EQ(test, o.runs, 5);
	KUNIT_EXPECT_EQ(test, o.namespace_bytes, 1ull << 30);
	KUNIT_EXPECT_EQ(test, o.nr_layouts, 2);
	KUNIT_EXPECT_EQ(test, o.layouts[0], 80);
	KUNIT_EXPECT_EQ(test, o.layouts[1], 96);
	KUNIT_EXPECT_EQ(test, o.modes, MODE_DEVDAX1G);
	KUNIT_EXPECT_FALSE(test, o.drain);
	KUNIT_EXPECT_EQ(test, o.on_finish, FINISH_HALT);
	KUNIT_EXPECT_EQ(test, o.smp, 4);
	KUNIT_EXPECT_EQ(test, o.litmus_iters, 256);
	KUNIT_EXPECT_STREQ(test, o.runs_id, "lab-7.a");
	KUNIT_EXPECT_STREQ(test, o.strategy, "tmpl_*");
	KUNIT_EXPECT_EQ(test, o.seed, 42);
}

static void options_later_wins_and_comments(struct kunit *test)
{
	struct ntb_options o;
	struct opt_error e;

	KUNIT_ASSERT_EQ(test,
			parse(&o, "# ntboot.cfg\nruns=3\n\n  runs=7 # seven\r\n"
				  "#runs=9\n\tsmp=off\n",
			      &e),
			0);
	KUNIT_EXPECT_EQ(test, o.runs, 7);
	KUNIT_EXPECT_EQ(test, o.smp, SMP_OFF);
}

static void options_console(struct kunit *test)
{
	struct ntb_options o;
	struct opt_error e;

	KUNIT_ASSERT_EQ(test, parse(&o, "console=ttyS1,9600", &e), 0);
	KUNIT_EXPECT_EQ(test, o.console, CONSOLE_IO);
	KUNIT_EXPECT_EQ(test, o.console_addr, 0x2f8);
	KUNIT_EXPECT_EQ(test, o.console_baud, 9600);
	KUNIT_ASSERT_EQ(test, parse(&o, "console=mmio32,0xfe030000", &e), 0);
	KUNIT_EXPECT_EQ(test, o.console, CONSOLE_MMIO32);
	KUNIT_EXPECT_EQ(test, o.console_addr, 0xfe030000ull);
	KUNIT_EXPECT_EQ(test, o.console_baud, 115200);
	KUNIT_ASSERT_EQ(test, parse(&o, "console=io,0x3e8,57600", &e), 0);
	KUNIT_EXPECT_EQ(test, o.console_addr, 0x3e8);
	KUNIT_EXPECT_EQ(test, o.console_baud, 57600);
	KUNIT_ASSERT_EQ(test, parse(&o, "console=none", &e), 0);
	KUNIT_EXPECT_EQ(test, o.console, CONSOLE_NONE);
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
		struct ntb_options o;
		struct opt_error e;
		int rc = parse(&o, bad_cases[i].text, &e);

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
	struct ntb_options o;
	struct opt_error e;

	/* Words before the bad one apply; nothing after it does. */
	KUNIT_EXPECT_EQ(test, parse(&o, "runs=4 bogus=1 runs=9", &e), -1);
	KUNIT_EXPECT_EQ(test, o.runs, 4);
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

static const struct kunit_case options_cases[] = {
	KUNIT_CASE(options_defaults),
	KUNIT_CASE(options_good_words),
	KUNIT_CASE(options_later_wins_and_comments),
	KUNIT_CASE(options_console),
	KUNIT_CASE(options_bad_input),
	KUNIT_CASE(options_error_stops_parsing),
	KUNIT_CASE(options_sizes),
};

KUNIT_SUITE_DEFINE(options_suite, "options", options_cases);
