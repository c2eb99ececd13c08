// SPDX-License-Identifier: GPL-2.0-only
#include "include/compiler.h"
#include "model/arch/x86/include/asm/string_64.h"
#include "tests/engines/state_probe.h"

/* The word's place in its line: past the first, as a struct page field. */
#define WORD_OFF 8

static volatile u64 *word_at(void *dst, size_t off)
{
	return (volatile u64 *)((u8 *)dst + off + WORD_OFF);
}

size_t state_probe_bytes(size_t bytes)
{
	if (bytes > STATE_PROBE_MAX_BYTES)
		bytes = STATE_PROBE_MAX_BYTES;
	return bytes & ~(size_t)63;
}

void state_probe_run(void *dst, size_t bytes, u64 value)
{
	/*
	 * Volatile: one 8-byte store per line, in order, that the compiler
	 * may neither widen into a full line nor drop.
	 */
	for (size_t off = 0; off < bytes; off += 64)
		*word_at(dst, off) = state_probe_word(value, off);
}

void state_probe_poison_line(void *dst, size_t off, u64 value)
{
	*word_at(dst, off) = ~state_probe_word(value, off);
}

/*
 * By MOVNTI, then SFENCE, as bench_poison_streaming() poisons the fills:
 * cached stores would leave up to a cache's worth of dirty lines for the
 * probe's timed run that follows (the last run of a case is both fully
 * checked and counted).
 */
void state_probe_poison(void *dst, size_t bytes, u64 value)
{
	for (size_t off = 0; off < bytes; off += 64)
		movnti_store_u64((void *)word_at(dst, off),
				 ~state_probe_word(value, off));
	memcpy_nt_drain();
}

bool state_probe_check_line(const void *dst, size_t off, u64 value)
{
	return *word_at((void *)dst, off) == state_probe_word(value, off);
}

bool state_probe_check(const void *dst, size_t bytes, u64 value, size_t *bad)
{
	for (size_t off = 0; off < bytes; off += 64)
		if (!state_probe_check_line(dst, off, value)) {
			*bad = off;
			return false;
		}
	return true;
}
