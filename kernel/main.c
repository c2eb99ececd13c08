// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_main: from a machine just out of UEFI boot services to a finished
 * KTAP report, the image's platform around the one runner (lib/runner.c).
 * The order matters: the console first (so every later problem is seen),
 * then our own descriptor tables (so faults are caught), then the plan,
 * then memory, then the timers the measurements depend on.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/lib/clean_cache.h"
#include "kernel/console.h"
#include "kernel/desc.h"
#include "kernel/fbcon.h"
#include "kernel/fpu.h"
#include "kernel/main.h"
#include "kernel/memory.h"
#include "kernel/msr.h"
#include "kernel/pat.h"
#include "kernel/percpu.h"
#include "kernel/pmem.h"
#include "kernel/power.h"
#include "kernel/smp.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/watchdog.h"
#include "lib/acpi.h"
#include "lib/bench_summary.h"
#include "lib/kunit.h"
#include "lib/machine_options.h"
#include "lib/options.h"
#include "lib/printf.h"
#include "lib/relaxations.h"
#include "version.h"
#include "kernel/kernel_blob.h"
#include "lib/runner.h"
#include "lib/string.h"
#include "lib/verdict.h"

static struct acpi_info acpi;
static struct acpi_madt_info madt;
static struct acpi_srat_info srat;
static struct boot_info *boot;

/* After the summary line: the screen, then halt, reboot or power off. */
static void __noreturn finish(bool failed)
{
	const struct kunit_totals *totals = runner_totals();

	if (opt_on_finish == FINISH_HALT && fbcon_present()) {
		struct summary_screen_in s = {
			.version = NTB_VERSION,
			.cpu = boot_cpu_data.brand,
			.passed = totals->passed,
			.failed = totals->failed,
			.skipped = totals->skipped,
			.failed_names = kunit_failed_names(),
			.nr_failed_names = kunit_nr_failed_names(),
			.verdicts = verdict_get(0),
			.nr_verdicts = verdict_count(),
			.dropped_verdicts = verdict_dropped(),
			.rows = bench_summary_get(0),
			.nr_rows = bench_summary_count(),
			.dropped_rows = bench_summary_dropped(),
			.relax = relaxation_totals(),
			.footer = "  halted (on_finish=halt); the serial log "
				  "has the full report",
		};

		/*
		 * The screen's rows on the serial console too: a log shows
		 * what a person at the console saw.
		 */
		fbcon_show_summary(&s, true);
	}
	kernel_finish(opt_on_finish, failed, boot->firmware_reset);
}

/* A fault outside any test case, or a setup step that cannot go on. */
static void __noreturn bail_out(const char *reason)
{
	runner_bail_out(reason);
	finish(true);
}

static const char *secure_boot_name(enum secure_boot_state s)
{
	switch (s) {
	case SECURE_BOOT_ON:
		return "on";
	case SECURE_BOOT_OFF:
		return "off";
	case SECURE_BOOT_SETUP:
		return "setup_mode";
	default:
		return "unknown";
	}
}

/* The first header line's words that only the firmware and the machine give. */
static void header_words(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;

	kprintf(" mem_mib=%llu firmware=\"%s\" fw_rev=0x%x uefi=%u.%u "
		"secure_boot=%s%s%s",
		(unsigned long long)(kmem.ram_bytes >> 20), boot->fw_vendor,
		boot->fw_revision, boot->uefi_revision >> 16,
		(boot->uefi_revision & 0xffff) / 10,
		secure_boot_name(boot->secure_boot),
		c->has[X86_FEATURE_HYPERVISOR] ? " hypervisor=" : "",
		c->has[X86_FEATURE_HYPERVISOR] ? c->hypervisor : "");
}

/* What the image brought up, a line each: the hosted runner has none. */
static void header_lines(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;
	char features[300], mem_notes[96];

	cpu_format_features(features, sizeof(features));
	memory_format_notes(mem_notes, sizeof(mem_notes));
	kprintf("# cpu features=%s xcr0=0x%llx clflush_size=%u phys_bits=%u\n",
		features, (unsigned long long)c->xcr0, c->clflush_size,
		c->phys_bits);
	kprintf("# tsc cpuid15_khz=%llu hpet_khz=%llu pmtimer_khz=%llu "
		"disagreement_ppm=%llu%s%s\n",
		(unsigned long long)tsc_cal.cpuid_khz,
		(unsigned long long)tsc_cal.hpet_khz,
		(unsigned long long)tsc_cal.pmtimer_khz,
		(unsigned long long)tsc_disagreement_ppm(),
		tsc_cal.note[0] ? " note=" : "", tsc_cal.note);
	kprintf("# memory efi_entries=%u regions=%u ram_mib=%llu free_mib=%llu "
		"largest_free_mib=%llu map_limit=0x%llx pt_tables=%llu "
		"pages_1g=%llu pages_2m=%llu pages_4k=%llu ebs_attempts=%u "
		"mended_overlaps=%u mended_zero_length=%u%s\n",
		boot->efi_map_entries, boot->map.nr,
		(unsigned long long)(kmem.ram_bytes >> 20),
		(unsigned long long)(kmem.fa.free_bytes >> 20),
		(unsigned long long)(frame_alloc_largest(&kmem.fa) >> 20),
		(unsigned long long)kmem.map_limit,
		(unsigned long long)kmem.pt_stats.tables,
		(unsigned long long)kmem.pt_stats.pages_1g,
		(unsigned long long)kmem.pt_stats.pages_2m,
		(unsigned long long)kmem.pt_stats.pages_4k, boot->ebs_attempts,
		boot->map.nr_overlaps, boot->map.nr_zero_length, mem_notes);
	kprintf("# acpi rsdp=0x%llx revision=%u xsdt=%d tables=%u oem=\"%s\" "
		"cpus_enabled=%u cpus_online_capable=%u x2apic_entries=%u\n",
		(unsigned long long)boot->rsdp, acpi.rsdp_revision, acpi.xsdt,
		acpi.nr_tables, acpi.oem_id, madt.nr_enabled,
		madt.nr_online_capable, madt.nr_x2apic);
	kprintf("# smp present=%u wanted=%u online=%u failed=%u late=%u "
		"x2apic=%d bsp_apic_id=%u trampoline=0x%llx limit=%u%s%s%s%s%s\n",
		smp_report.present, smp_report.wanted, num_online_cpus(),
		smp_report.failed, smp_report.late, smp_report.x2apic,
		smp_report.bsp_apic_id, smp_report.trampoline, NR_CPUS_MAX,
		smp_report.why_not[0] ? " note=" : "", smp_report.why_not,
		smp_report.limited[0] ? " limited=\"" : "",
		smp_report.limited, smp_report.limited[0] ? "\"" : "");
	if (watchdog_enabled())
		kprintf("# watchdog cpu=%u timeout_s=%u\n",
			num_online_cpus() - 1, watchdog_timeout_s());
	else
		kprintf("# watchdog off (%s)\n",
			!opt_watchdog ? "watchdog=off" : "needs a second CPU");
	kprintf("# console uart=%s,0x%llx baud=%u source=%s present=%d%s\n",
		uart_access_name(console.uart.access), console.uart.base,
		console.uart.baud, console_source_name(console.source),
		console.uart.present, console.debugcon ? " debugcon=0xe9" : "");
	if (fbcon_present())
		kprintf("# screen %ux%u stride=%u fb=0x%llx\n", boot->fb.width,
			boot->fb.height, boot->fb.stride, boot->fb.base);
	else
		kprintf("# screen none%s\n", boot->fb.base
						     ? " (no memory)"
						     : " (no GOP framebuffer)");
	kprintf("# numa nodes=%u", srat.nr_nodes);
	for (u32 i = 0; i < srat.nr_nodes; i++)
		kprintf(" node%u_cpus=%u node%u_mib=%llu", srat.node_ids[i],
			srat.node_cpus[i], srat.node_ids[i],
			srat.node_mem[i] >> 20);
	if (srat.nr_hotplug_ranges)
		kprintf(" hotplug_ranges=%u hotplug_mib=%llu",
			srat.nr_hotplug_ranges, srat.hotplug_bytes >> 20);
	kprintf("%s\n", srat.nr_nodes ? "" : " (no SRAT: one node)");
	pmem_print_header();
	image_kernel_blob_init();
	image_kernel_blob_line();
	for (u32 i = 0; i < acpi.nr_problems; i++)
		kprintf("# acpi problem: %s\n", acpi.problems[i]);
	if (boot->load_options_binary)
		kprintf("# options load=binary bytes=%llu (a boot manager's "
			"data, not text: not options)\n",
			boot->load_options_binary);
}

static void options_words(void)
{
	kprintf(" load=\"%s\" cfg=%s%s suite=%s on_finish=%s",
		boot->load_options, boot->cfg_found ? "found:" : "absent",
		boot->cfg_found ? boot->cfg_path : "",
		opt_suite[0] ? opt_suite : "all",
		opt_on_finish == FINISH_HALT
			? "halt"
			: (opt_on_finish == FINISH_REBOOT ? "reboot"
							  : "poweroff"));
}

/*
 * The firmware's console choice, read before anything is printed: the
 * tables are plain memory, and the scan reports problems only into @acpi.
 */
static const struct acpi_spcr_info *
firmware_console(struct acpi_spcr_info *spcr)
{
	/*
	 * Read only what the identity map will cover: a table pointer past
	 * it (a wild 64-bit address) is reported, not followed.
	 */
	if (acpi_scan(boot->rsdp, 0, identity_map_limit(&boot->map), &acpi) ||
	    acpi_parse_spcr(acpi_find(&acpi, "SPCR"), spcr))
		return NULL;
	return spcr;
}

static void firmware_tables(struct acpi_pm_timer *pm, u64 *hpet)
{
	const struct acpi_table_header *t;

	memset(pm, 0, sizeof(*pm));
	*hpet = 0;
	if (!acpi.valid)
		return;
	t = acpi_find(&acpi, "SRAT");
	if (t && acpi_parse_srat(t, &srat))
		kprintf("# acpi: SRAT unusable\n");
	if (srat.truncated)
		kprintf("# acpi: SRAT entry runs past the table end, or more "
			"than %u memory ranges or %u proximity domains; rest "
			"ignored\n",
			ACPI_MAX_MEM_RANGES, ACPI_MAX_NUMA_NODES);
	t = acpi_find(&acpi, "FACP");
	if (t && acpi_parse_fadt_pm_timer(t, pm))
		kprintf(pm->hw_reduced
				? "# acpi: hardware-reduced ACPI (FADT flag): no "
				  "PM timer\n"
				: "# acpi: FADT has no usable PM timer\n");
	t = acpi_find(&acpi, "HPET");
	if (t && acpi_parse_hpet(t, hpet))
		kprintf("# acpi: HPET table unusable\n");
	t = acpi_find(&acpi, "APIC");
	if (t)
		acpi_parse_madt(t, &madt);
	if (madt.truncated)
		kprintf("# acpi: MADT entry runs past the table end; rest ignored\n");
}

/* The console's problem, the first thing a log can hold. */
static void console_notes(void)
{
	if (console.uart_requested && !console.uart.present)
		kprintf("# console: no UART at %s 0x%llx (from %s); output only "
			"on the debug port\n",
			uart_access_name(console.uart.access),
			console.uart.base, console_source_name(console.source));
}

/* Inside the KTAP document the runner has begun, after its empty plan. */
static void __noreturn refuse(const char *why)
{
	bail_out(why);
}

/*
 * Memory, the framebuffer, the FPU, the timers and the other CPUs, after
 * the plan: a fault in any of them is a Bail out! inside the report.
 */
static void bring_up(struct runner_header *h)
{
	struct acpi_pm_timer pm;
	char why[160];
	u64 hpet, mmio[3];
	u32 rev;

	firmware_tables(&pm, &hpet);
	mmio[0] = hpet;
	mmio[1] = madt.lapic_base;
	/* A memory-mapped console UART must stay mapped under our tables. */
	mmio[2] = console.uart.present && console.uart.access != UART_IO
			  ? console.uart.base
			  : 0;
	pat_init();
	if (memory_init(boot, mmio, ARRAY_SIZE(mmio), why, sizeof(why)))
		bail_out(why);
	pmem_init(&acpi, &boot->map);
	if (boot->fb.base && !memory_map_wc(boot->fb.base, boot->fb.size))
		fbcon_init(&boot->fb);
	fpu_init();
	/* XCR0 changed: read the features again so AVX shows as usable. */
	cpu_detect(&boot_cpu_data);
	clean_cache_init();
	tsc_calibrate(hpet, &pm);
	smp_init(&madt, opt_smp, opt_smp_extra_apic_ids.v,
		 opt_smp_extra_apic_ids.n, &boot->map);
	watchdog_init(opt_watchdog);

	if (!read_microcode_rev(&rev))
		ntb_snprintf(h->ucode, sizeof(h->ucode), "0x%x", rev);
	h->tsc_khz = tsc_cal.khz;
	h->tsc_source = tsc_source_name(tsc_cal.source);
	h->smp = num_online_cpus();
}

static const struct runner_platform image_platform = {
	.checking_build = "the checking image (make ntcheck-image)",
	.plan_first = true,
	.early_notes = console_notes,
	.refuse = refuse,
	.bring_up = bring_up,
	.header_words = header_words,
	.header_lines = header_lines,
	.options_words = options_words,
};

void kernel_main(struct boot_info *bi)
{
	struct acpi_spcr_info spcr_buf;

	boot = bi;
	cpu_detect(&boot_cpu_data);
	console_init(&opt_console, firmware_console(&spcr_buf),
		     boot_cpu_has(X86_FEATURE_HYPERVISOR));

	idt_init();
	load_cpu_tables(&boot_cpu_tables);
	smp_boot_cpu_init();
	trap_fatal_hook = bail_out;

	finish(runner_run(&image_platform,
			  bi->options_bad ? bi->options_error : NULL));
}

int plat_numa_node_of(const void *p)
{
	if (!srat.nr_nodes)
		return 0;
	return acpi_srat_node_of(&srat, (u64)(uptr)p);
}
