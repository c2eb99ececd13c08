// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/cpu.h"
#include "arch/x86/tsc.h"
#include "kernel/io.h"
#include "kernel/tsc.h"
#include "include/platform.h"
#include "lib/printf.h"

struct tsc_calibration tsc_cal;

#define PMTMR_HZ 3579545ull
#define CALIBRATE_MS 50
/* Bound on reference-timer reads: a dead timer must not hang the boot. */
#define MAX_POLLS 50000000ull

#define HPET_CAP 0x000
#define HPET_CFG 0x010
#define HPET_COUNTER 0x0f0
#define HPET_CFG_ENABLE 0x1
#define HPET_CAP_64BIT (1ull << 13)

const char *tsc_source_name(enum tsc_source s)
{
	switch (s) {
	case TSC_SRC_CPUID15:
		return "cpuid15";
	case TSC_SRC_HPET:
		return "hpet";
	case TSC_SRC_PMTIMER:
		return "pmtimer";
	default:
		return "none";
	}
}

static u64 cpuid_tsc_khz(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	u64 crystal = c->tsc_crystal_hz;

	if (!c->tsc_ratio_num || !c->tsc_ratio_den)
		return 0;
	/* Crystal not enumerated: derive it from the base frequency. */
	if (!crystal && c->base_mhz)
		crystal = (u64)c->base_mhz * 1000000ull * c->tsc_ratio_den /
			  c->tsc_ratio_num;
	if (!crystal)
		return 0;
	return crystal * c->tsc_ratio_num / c->tsc_ratio_den / 1000;
}

static u64 measure_pmtimer(const struct acpi_pm_timer *pm, unsigned int ms)
{
	u32 mask = pm->ext32 ? 0xffffffffu : 0xffffffu;
	u64 want = PMTMR_HZ * ms / 1000, elapsed = 0, polls = 0;
	u32 last = inl(pm->port) & mask, now;
	u64 t0 = rdtsc_ordered(), t1;

	while (elapsed < want) {
		if (++polls > MAX_POLLS)
			return 0;
		now = inl(pm->port) & mask;
		elapsed += (now - last) & mask;
		last = now;
	}
	t1 = rdtsc_ordered();
	return (t1 - t0) * PMTMR_HZ / elapsed / 1000;
}

static u64 measure_hpet(u64 base, unsigned int ms)
{
	volatile u8 *h = (volatile u8 *)(uptr)base;
	u64 cap = readq(h + HPET_CAP), fs_per_tick = cap >> 32;
	/* COUNT_SIZE_CAP clear: a 32-bit counter, which may wrap. */
	u64 mask = cap & HPET_CAP_64BIT ? ~0ull : 0xffffffffull;
	u64 want, c0, c, t0, t1, polls = 0;

	/* Period must be nonzero and at most 100 ns (the spec's limit). */
	if (!fs_per_tick || fs_per_tick > 100000000ull)
		return 0;
	if (!(readq(h + HPET_CFG) & HPET_CFG_ENABLE))
		writeq(readq(h + HPET_CFG) | HPET_CFG_ENABLE, h + HPET_CFG);
	want = ms * 1000000000000ull / fs_per_tick;
	c0 = readq(h + HPET_COUNTER);
	t0 = rdtsc_ordered();
	do {
		if (++polls > MAX_POLLS)
			return 0;
		c = readq(h + HPET_COUNTER);
	} while (((c - c0) & mask) < want);
	c = c0 + ((c - c0) & mask);
	t1 = rdtsc_ordered();
	/*
	 * kHz = cycles / (ticks * fs_per_tick * 1e-15 s) / 1000. The elapsed
	 * time in ns fits 64 bits easily (50 ms = 5e7 ns), and keeps the
	 * arithmetic in 64 bits.
	 */
	return (t1 - t0) * 1000000ull / ((c - c0) * fs_per_tick / 1000000ull);
}

void tsc_calibrate(u64 hpet_base, const struct acpi_pm_timer *pm)
{
	struct tsc_calibration *t = &tsc_cal;

	t->hpet_base = hpet_base;
	if (pm)
		t->pm = *pm;
	t->cpuid_khz = cpuid_tsc_khz();
	if (hpet_base)
		t->hpet_khz = measure_hpet(hpet_base, CALIBRATE_MS);
	if (pm && pm->present)
		t->pmtimer_khz = measure_pmtimer(pm, CALIBRATE_MS);

	if (t->cpuid_khz) {
		t->khz = t->cpuid_khz;
		t->source = TSC_SRC_CPUID15;
	} else if (t->hpet_khz) {
		t->khz = t->hpet_khz;
		t->source = TSC_SRC_HPET;
	} else if (t->pmtimer_khz) {
		t->khz = t->pmtimer_khz;
		t->source = TSC_SRC_PMTIMER;
	} else {
		t->source = TSC_SRC_NONE;
		ntb_snprintf(t->note, sizeof(t->note),
			     "no CPUID 0x15, HPET or PM timer: times unknown");
	}
}

static u64 ppm_diff(u64 a, u64 b)
{
	if (!a || !b)
		return 0;
	return (a > b ? a - b : b - a) * 1000000ull / b;
}

u64 tsc_disagreement_ppm(void)
{
	const struct tsc_calibration *t = &tsc_cal;
	u64 worst = 0, vals[3] = { t->cpuid_khz, t->hpet_khz, t->pmtimer_khz };

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (i != j)
				worst = max(worst, ppm_diff(vals[i], vals[j]));
	return worst;
}

u64 plat_remeasure_tsc_khz(unsigned int window_ms, const char **ref)
{
	if (tsc_cal.hpet_base && tsc_cal.hpet_khz) {
		*ref = "hpet";
		return measure_hpet(tsc_cal.hpet_base, window_ms);
	}
	if (tsc_cal.pm.present) {
		*ref = "pmtimer";
		return measure_pmtimer(&tsc_cal.pm, window_ms);
	}
	*ref = "none";
	return 0;
}

int plat_os_clock_ns(u64 *ns, const char **why)
{
	*why = "bare metal: no operating system clock "
	       "(the HPET and PM timer are compared instead)";
	return -1;
}

int plat_os_clock_independent(const char **what)
{
	*what = "bare metal: no operating system clock";
	return -1;
}
