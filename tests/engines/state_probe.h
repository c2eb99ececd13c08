/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state probe: a short run timed in every round beside the memmap
 * strategies, that follows what `slow` depends on where the full-line
 * fills do not. The kernel's memmap loop makes a dozen partial-line
 * stores to each struct page; a line that is only partly written must be
 * read first (a read for ownership). The probe makes one 8-byte store
 * to every 64-byte line of a region, so each line is read before it is
 * written, and nothing else: no full line, no streaming store, no
 * template. Where a machine has states in which such stores cost more
 * (a cloud VM's memory that is slower to read at times), the probe's
 * runs move with `slow`'s while the fills' stay (docs/benchmarks.md,
 * "A probe in every round"); lib/verdict.c tests whether they do.
 */
#ifndef NTBOOT_TESTS_ENGINES_STATE_PROBE_H
#define NTBOOT_TESTS_ENGINES_STATE_PROBE_H

#include "include/types.h"

/* The probe's name on its lines. */
#define STATE_PROBE_NAME "probe_rfo"
/* At most this much of the region: short beside the memmap (1.6 GB). */
#define STATE_PROBE_MAX_BYTES (256ull << 20)

/* The bytes the probe covers of a region of @bytes: whole lines. */
size_t state_probe_bytes(size_t bytes);

/* Its word in the line at @off of a run that writes @value. */
static inline u64 state_probe_word(u64 value, size_t off)
{
	return value ^ off;
}

/* One run: the line at each @off gets state_probe_word(@value, off). */
void state_probe_run(void *dst, size_t bytes, u64 value);

/*
 * Every line's word made what no run of @value writes, by non-temporal
 * stores (no dirty lines left for the timed run that follows).
 */
void state_probe_poison(void *dst, size_t bytes, u64 value);

/*
 * Whether every line holds its word of @value; @bad gets the first
 * offset that does not.
 */
bool state_probe_check(const void *dst, size_t bytes, u64 value, size_t *bad);

/* The line at @off only: poisoned, and checked. */
void state_probe_poison_line(void *dst, size_t off, u64 value);
bool state_probe_check_line(const void *dst, size_t off, u64 value);

#endif
