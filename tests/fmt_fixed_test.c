// SPDX-License-Identifier: GPL-2.0-only
/*
 * ntb_fmt_fixed(), the figure of every ns/page, GB/s and ratio, at its
 * rounding edges: exact halves round up (2.5 is 3, 0.125 is 0.13), just
 * under a half rounds down, and a carry runs through every 9 into the
 * whole part.
 */
#include "lib/kunit.h"
#include "lib/printf.h"
#include "lib/string.h"

struct fixed_case {
	u64 num, den;
	unsigned int decimals;
	const char *want;
};

static const struct fixed_case fixed_cases[] = {
	{5, 2, 0, "3"},		  {3, 2, 0, "2"},
	{1, 2, 0, "1"},		  {1, 8, 2, "0.13"},
	{1, 16, 3, "0.063"},	  {3, 8, 2, "0.38"},
	{1249, 10000, 2, "0.12"}, {1251, 10000, 2, "0.13"},
	{9995, 1000, 2, "10.00"}, {99999, 1000, 2, "100.00"},
	{19, 2, 0, "10"},	  {1, 3, 0, "0"},
	{2, 3, 0, "1"},		  {7, 7, 4, "1.0000"},
};

static void fixed_rounding(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixed_cases); i++) {
		const struct fixed_case *c = &fixed_cases[i];
		char buf[32];

		ntb_fmt_fixed(buf, sizeof(buf), c->num, c->den, c->decimals);
		if (strcmp(buf, c->want))
			kunit_fail_at(test, __FILE__, __LINE__,
				      "%llu/%llu to %u decimals: \"%s\", "
				      "expected \"%s\"",
				      c->num, c->den, c->decimals, buf,
				      c->want);
	}
}

static const struct kunit_case fmt_fixed_cases[] = {
	KUNIT_CASE(fixed_rounding),
};

KUNIT_SUITE_DEFINE(fmt_fixed_suite, "fmt_fixed", fmt_fixed_cases);
