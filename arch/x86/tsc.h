/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Time stamp counter reads. rdtsc_ordered() fences on both sides so the
 * read neither starts before earlier loads finish nor lets later work start
 * before it: the measurement method of docs/design.md.
 */
#ifndef NTBOOT_ARCH_X86_TSC_H
#define NTBOOT_ARCH_X86_TSC_H

#include "include/types.h"

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u64 rdtsc_ordered(void)
{
	u32 lo, hi;

	asm volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((u64)hi << 32) | lo;
}

#endif
