// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86/tsc.h"
#include "include/platform.h"
#include "kernel/apic.h"
#include "kernel/percpu.h"
#include "kernel/traps.h"
#include "kernel/watchdog.h"
#include "lib/kunit.h"

#define APIC_ICR_NMI 0x00000400

/*
 * The boot CPU only counts heartbeats; the watching CPU times them with
 * its own TSC. TSCs of different CPUs need not agree (QEMU starts each
 * vCPU's at its own reset; firmware may write them), so no TSC value
 * ever crosses from one CPU to the other.
 */
static struct {
	u32 cpu;		/* the watching CPU, 0 = none */
	u32 timeout_s;
	u64 timeout_cycles;
	volatile u64 beats;	/* written by the boot CPU */
	volatile bool fired;
	/* The watcher's own view: */
	u64 seen_beats;
	u64 seen_at;		/* its TSC when seen_beats last changed */
} wd;

void plat_watchdog_pet(void)
{
	WRITE_ONCE(wd.beats, wd.beats + 1);
}

bool watchdog_enabled(void)
{
	return wd.cpu != 0;
}

u32 watchdog_timeout_s(void)
{
	return wd.timeout_s;
}

u32 plat_watchdog_set_timeout(u32 seconds)
{
	u32 old = wd.timeout_s;

	if (!watchdog_enabled() || !seconds)
		return 0;
	WRITE_ONCE(wd.timeout_cycles, (u64)seconds * plat_tsc_khz() * 1000);
	wd.timeout_s = seconds;
	plat_watchdog_pet();
	return old;
}

/* In the NMI handler: did the watchdog send this one? Clears the flag. */
static bool watchdog_fired(void)
{
	if (!READ_ONCE(wd.fired))
		return false;
	WRITE_ONCE(wd.fired, false);
	return true;
}

/* trap_nmi_hook: the boot CPU's NMI, a hang where the watchdog sent it. */
static bool watchdog_nmi(u64 ip)
{
	if (!watchdog_fired())
		return false;
	kunit_diag("# watchdog: no sign of life for %u s; the boot CPU "
		   "was at RIP 0x%llx\n",
		   watchdog_timeout_s(), ip);
	return true;
}

int watchdog_init(u32 timeout_s)
{
	unsigned int n = num_online_cpus();
	struct percpu *pc;

	if (!timeout_s || n < 2 || !plat_tsc_khz())
		return -1;
	pc = per_cpu(n - 1);
	if (!pc)
		return -1;
	wd.timeout_s = timeout_s;
	wd.timeout_cycles = (u64)timeout_s * plat_tsc_khz() * 1000;
	plat_watchdog_pet();
	/* The handler knows the watchdog's NMI before the watcher can send one. */
	trap_nmi_hook = watchdog_nmi;
	pc->is_watchdog = true;
	wd.cpu = n - 1;
	return 0;
}

void watchdog_check(struct percpu *pc)
{
	u64 now = rdtsc(), beats = READ_ONCE(wd.beats);

	if (beats != wd.seen_beats || !wd.seen_at) {
		wd.seen_beats = beats;
		wd.seen_at = now;
		return;
	}
	if (now - wd.seen_at < READ_ONCE(wd.timeout_cycles) ||
	    READ_ONCE(wd.fired))
		return;
	/* Once per timeout: the next period starts now. */
	wd.seen_at = now;
	WRITE_ONCE(wd.fired, true);
	lapic_send_ipi(per_cpu(0)->apic_id, APIC_ICR_NMI, 1000);
}

void watchdog_restart(void)
{
	wd.seen_at = 0;
}
