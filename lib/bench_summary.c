// SPDX-License-Identifier: GPL-2.0-only
#include "lib/bench_summary.h"

static struct bench_summary_row rows[BENCH_SUMMARY_MAX];
static unsigned int nr_rows, nr_dropped;

void bench_summary_reset(void)
{
	nr_rows = 0;
	nr_dropped = 0;
}

void bench_summary_add(const struct bench_summary_row *row)
{
	if (nr_rows < BENCH_SUMMARY_MAX)
		rows[nr_rows++] = *row;
	else
		nr_dropped++;
}

unsigned int bench_summary_count(void)
{
	return nr_rows;
}

unsigned int bench_summary_dropped(void)
{
	return nr_dropped;
}

const struct bench_summary_row *bench_summary_get(unsigned int i)
{
	return i < nr_rows ? &rows[i] : NULL;
}
