/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The relaxed outcomes a run looked for, counted for the end of the run:
 * every litmus test and every memmap_smp run records whether the table
 * allows its relaxed outcome and how often it was observed. The end of
 * the run prints the totals as a line, and the summary screen shows them:
 * "3 of 22 allowed relaxations observed" says how much of the table this
 * CPU backed with evidence; a forbidden one observed is a failure.
 */
#ifndef NTBOOT_LIB_RELAXATIONS_H
#define NTBOOT_LIB_RELAXATIONS_H

#include "include/types.h"

struct relaxation_totals {
	unsigned int allowed;		 /* tests whose relaxation is allowed */
	unsigned int allowed_observed;	 /* ... and it was seen */
	unsigned int forbidden;		 /* tests whose relaxation is not */
	unsigned int forbidden_observed; /* ... and it was seen: failures */
};

/* Room for the line, four 10-digit counts included. */
#define RELAXATION_LINE_MAX 128

/* One test (or run) ended: its relaxation @allowed or not, seen @count times.
 */
void relaxation_add(struct relaxation_totals *t, bool allowed, u64 count);

/*
 * "# relaxations allowed=22 observed=3 forbidden=40 forbidden_observed=0\n"
 * into @buf when @t holds anything, else "". Returns the length, as
 * ntb_snprintf() does.
 */
int relaxation_format(const struct relaxation_totals *t, char *buf,
		      size_t size);

/* The run's own totals: relaxation_add() and relaxation_format() on them. */
void relaxation_record(bool allowed, u64 count);
const struct relaxation_totals *relaxation_totals(void);
void relaxation_print(void);

#endif
