// SPDX-License-Identifier: GPL-2.0-only
/* The platform interface on bare metal (the rest is in console/memory). */
#include "include/platform.h"
#include "kernel/platform.h"
#include "kernel/tsc.h"

unsigned int kernel_nr_cpus = 1;

u64 plat_tsc_khz(void)
{
	return tsc_cal.khz;
}

unsigned int plat_cpu_count(void)
{
	/* Only the boot CPU runs code until the APs are brought up. */
	return 1;
}

const char *plat_name(void)
{
	return "image";
}

bool plat_can_catch_faults(void)
{
	return true;
}
