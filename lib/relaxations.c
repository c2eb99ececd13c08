// SPDX-License-Identifier: GPL-2.0-only
/* The run's relaxation counts (lib/relaxations.h). */
#include "lib/printf.h"
#include "lib/relaxations.h"

static struct relaxation_totals totals;

void relaxation_add(struct relaxation_totals *t, bool allowed, u64 count)
{
	if (allowed) {
		t->allowed++;
		t->allowed_observed += count != 0;
	} else {
		t->forbidden++;
		t->forbidden_observed += count != 0;
	}
}

int relaxation_format(const struct relaxation_totals *t, char *buf, size_t size)
{
	if (!t->allowed && !t->forbidden) {
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return ntb_snprintf(buf, size,
			    "# relaxations allowed=%u observed=%u "
			    "forbidden=%u forbidden_observed=%u\n",
			    t->allowed, t->allowed_observed, t->forbidden,
			    t->forbidden_observed);
}

void relaxation_record(bool allowed, u64 count)
{
	relaxation_add(&totals, allowed, count);
}

const struct relaxation_totals *relaxation_totals(void)
{
	return &totals;
}

void relaxation_print(void)
{
	char line[RELAXATION_LINE_MAX];

	if (relaxation_format(&totals, line, sizeof(line)))
		kprintf("%s", line);
}
