/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC frequency: CPUID 0x15 (crystal ratio; 0x16 when the crystal reads 0),
 * measured against the HPET and against the ACPI PM timer. The source used
 * is the first of cpuid15, hpet, pmtimer that is available; the others are
 * reported beside it with their disagreement, so a wrong CPUID table or a
 * drifting timer shows in the header.
 */
#ifndef NTBOOT_KERNEL_TSC_H
#define NTBOOT_KERNEL_TSC_H

#include "include/types.h"
#include "lib/acpi.h"

enum tsc_source {
	TSC_SRC_NONE,
	TSC_SRC_CPUID15,
	TSC_SRC_HPET,
	TSC_SRC_PMTIMER,
};

struct tsc_calibration {
	u64 khz;		/* the value in use */
	enum tsc_source source;
	u64 cpuid_khz;		/* 0 when not enumerated */
	u64 hpet_khz;		/* 0 when not measured */
	u64 pmtimer_khz;
	u64 hpet_base;
	struct acpi_pm_timer pm;
	char note[96];		/* why a source was not used */
};

extern struct tsc_calibration tsc_cal;

const char *tsc_source_name(enum tsc_source s);

/* Calibrate; @hpet_base may be 0, @pm may be absent. */
void tsc_calibrate(u64 hpet_base, const struct acpi_pm_timer *pm);

/* Largest relative disagreement between measured sources, in ppm. */
u64 tsc_disagreement_ppm(void);

#endif
