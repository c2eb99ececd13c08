/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_KERNEL_PLATFORM_H
#define NTBOOT_KERNEL_PLATFORM_H

/* CPUs the firmware tables list (the MADT), whether started or not. */
extern unsigned int kernel_nr_cpus;

#endif
