/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_HOST_PLATFORM_LINUX_H
#define NTBOOT_HOST_PLATFORM_LINUX_H

#include "include/types.h"

/* Measure the TSC against CLOCK_MONOTONIC_RAW for @window_ms; kHz. */
u64 host_calibrate_tsc(unsigned int window_ms);

/* Number the usable CPUs, @first_cpu (where main runs) as CPU 0. */
void host_cpus_init(int first_cpu);

/*
 * The microcode revision /proc/cpuinfo gives for @cpu (the Linux CPU
 * number) into @buf as printed there ("0x1000065"), or "unknown" where
 * the kernel shows none (some hypervisors) or the file cannot be read.
 */
void host_read_microcode(int cpu, char *buf, size_t size);

/*
 * The directory this program's file lies in (build/host for ntbench), into
 * @dir: 0, or -1 with why in @why. Its runners and its tree are found
 * from it.
 */
int host_exe_dir(char *dir, size_t len, char *why, size_t wlen);

#endif
