/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTBOOT_TOOLS_HOST_PLATFORM_LINUX_H
#define NTBOOT_TOOLS_HOST_PLATFORM_LINUX_H

#include "include/types.h"

/* Measure the TSC against CLOCK_MONOTONIC_RAW for @window_ms; kHz. */
u64 host_calibrate_tsc(unsigned int window_ms);

#endif
