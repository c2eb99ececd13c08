/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text of the end-of-run screen (on_finish=halt): what a person at a
 * console without a serial capture leaves with. The CPU, the pass/fail
 * counts, the names of failed cases, the verdicts on the postings' claims
 * (lib/verdict.h) and bench_memmap_init's summary table
 * (lib/bench_summary.h), fitted to the rows and columns there are: a
 * section that does not fit ends with a "... N more" line, and no line is
 * longer than the screen is wide. Portable, so the host tests check the
 * layout; kernel/fbcon.c draws it.
 */
#ifndef NTBOOT_LIB_SUMMARY_SCREEN_H
#define NTBOOT_LIB_SUMMARY_SCREEN_H

#include "include/types.h"
#include "lib/bench_summary.h"
#include "lib/relaxations.h"
#include "lib/verdict.h"

enum summary_kind {
	SUMMARY_TEXT,
	SUMMARY_DIM,
	SUMMARY_PASS,
	SUMMARY_FAIL,
	SUMMARY_SKIP,
};

struct summary_screen_in {
	const char *version;
	const char *cpu; /* the CPU's brand string */
	unsigned int passed, failed, skipped;
	const char *const *failed_names;
	unsigned int nr_failed_names; /* may be fewer than failed */
	/* lib/verdict.h: verdict_get(0), verdict_count(), verdict_dropped() */
	const struct verdict *verdicts;
	unsigned int nr_verdicts, dropped_verdicts;
	/* lib/bench_summary.h: the same of bench_summary_*() */
	const struct bench_summary_row *rows;
	unsigned int nr_rows, dropped_rows;
	/* lib/relaxations.h: relaxation_totals(); NULL: none recorded */
	const struct relaxation_totals *relax;
	const char *footer;
};

/* The widest line kept (a wider screen gets lines this long). */
#define SUMMARY_MAX_COLS 160

/*
 * Lay the summary out in @rows lines of at most @cols characters: line i
 * is the NUL-terminated string at @text + i * (@cols + 1), its colour
 * @kind[i]. Returns the number of lines used (<= @rows).
 */
unsigned int summary_screen_compose(const struct summary_screen_in *in,
				    unsigned int cols, unsigned int rows,
				    char *text, u8 *kind);

#endif
