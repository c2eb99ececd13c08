/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Probing an instruction that may fault (an MSR a hypervisor lacks):
 *	if (trap_probe_begin())
 *		return -1;	// it faulted; this CPU's probe.vector says how
 *	...instruction...
 *	trap_probe_end();
 * Each CPU has its own probe (in its per-CPU area, kernel/percpu.h), so
 * CPUs probing at the same time cannot take each other's jump; the
 * exception handler (kernel/traps.c) takes it. A header of its own, so
 * the MSR helpers that probe need neither the handler nor the per-CPU
 * area.
 */
#ifndef NTBOOT_KERNEL_TRAP_PROBE_H
#define NTBOOT_KERNEL_TRAP_PROBE_H

#include "include/compiler.h"
#include "include/types.h"
#include "lib/jump.h"

struct trap_probe {
	ntb_jmp_buf jb;
	volatile bool active;
	volatile int vector;
};

struct trap_probe *this_cpu_probe(void);

#define trap_probe_begin()                                                   \
	({                                                                   \
		struct trap_probe *__p = this_cpu_probe();                   \
		int __faulted = ntb_setjmp(__p->jb);                         \
		__p->active = !__faulted;                                    \
		barrier();                                                   \
		__faulted;                                                   \
	})
#define trap_probe_end()                                                     \
	do {                                                                 \
		barrier();                                                   \
		this_cpu_probe()->active = false;                            \
	} while (0)

#endif
