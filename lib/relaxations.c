// SPDX-License-Identifier: GPL-2.0-only
/* The run's relaxation counts (lib/relaxations.h). */
#include "lib/printf.h"
#include "lib/relaxations.h"

static struct relaxation_totals totals;

void relaxation_record(bool allowed, u64 count)
{
	if (allowed) {
		totals.allowed++;
		totals.allowed_observed += count != 0;
	} else {
		totals.forbidden++;
		totals.forbidden_observed += count != 0;
	}
}

const struct relaxation_totals *relaxation_totals(void)
{
	return &totals;
}

void relaxation_print(void)
{
	if (!totals.allowed && !totals.forbidden)
		return;
	kprintf("# relaxations allowed=%u observed=%u forbidden=%u "
		"forbidden_observed=%u\n",
		totals.allowed, totals.allowed_observed, totals.forbidden,
		totals.forbidden_observed);
}

void relaxation_reset(void)
{
	totals = (struct relaxation_totals){0};
}
