// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for ACPI discovery as the image runs it: the input is
 * a window of physical memory with the RSDP at its start and, behind it,
 * whatever the RSDP, the XSDT or RSDT and the tables point at. The
 * window lives at a fixed address (WINDOW_BASE) so that the pointers in
 * the input mean what they say, 32-bit RSDT entries included; the input
 * fills the start of the window and the rest is poisoned, so ASan
 * reports any read past the input, and the page below the window is
 * mapped without access, so a read just before it faults.
 *
 * acpi_scan() is told the window is the mapped memory, as the image tells
 * it its identity map: its own checks (bounds, header length, checksum)
 * are all that stands between a firmware pointer and a read, and every
 * table it accepts then goes through every parser
 * (acpi_parsers_check.h). The scan's answers are held to its promises:
 * counts within their arrays, each table inside the window with a good
 * checksum, problems NUL-terminated.
 *
 * Host only (clang -fsanitize=fuzzer,address,undefined): `make fuzz`
 * builds build/host/acpi_scan_fuzz, `make fuzz-short` runs it from a
 * corpus of synthetic and real machines' tables laid out behind an RSDP
 * (tests/fuzz/acpi_scan_seeds.py).
 */
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tests/fuzz/acpi_parsers_check.h"

/* Below 4 GiB, so that RSDT entries can point into the window. */
#define WINDOW_BASE 0x40000000ull
#define WINDOW_SIZE (1u << 20)

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

static u8 *window(void)
{
	static u8 *w;

	if (!w) {
		void *guard = mmap((void *)(uptr)(WINDOW_BASE - 4096), 4096,
				   PROT_NONE,
				   MAP_PRIVATE | MAP_ANONYMOUS |
					   MAP_FIXED_NOREPLACE,
				   -1, 0);

		if (guard != (void *)(uptr)(WINDOW_BASE - 4096)) {
			fprintf(stderr, "acpi_scan_fuzz: cannot map the guard "
					"page below the window\n");
			abort();
		}
		w = mmap((void *)(uptr)WINDOW_BASE, WINDOW_SIZE,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			 0);
		if (w != (void *)(uptr)WINDOW_BASE) {
			fprintf(stderr,
				"acpi_scan_fuzz: cannot map the window at "
				"0x%llx\n",
				WINDOW_BASE);
			abort();
		}
	}
	return w;
}

static void check_answers(const struct acpi_info *info, u64 end)
{
	if (info->nr_tables > ACPI_MAX_TABLES ||
	    info->nr_problems > ACPI_MAX_PROBLEMS)
		abort();
	for (u32 i = 0; i < info->nr_problems; i++)
		if (!memchr(info->problems[i], '\0', sizeof(info->problems[i])))
			abort();
	for (u32 i = 0; i < info->nr_tables; i++) {
		const struct acpi_table_header *t = info->tables[i];
		u64 addr = (u64)(uptr)t;

		if (addr < WINDOW_BASE || addr >= end ||
		    t->length < sizeof(*t) || t->length > end - addr ||
		    !acpi_checksum_ok(t, t->length))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_info info;
	u8 *w = window();

	if (size > WINDOW_SIZE)
		return 0;
	ASAN_UNPOISON_MEMORY_REGION(w, WINDOW_SIZE);
	memcpy(w, data, size);
	ASAN_POISON_MEMORY_REGION(w + size, WINDOW_SIZE - size);

	if (acpi_scan(WINDOW_BASE, WINDOW_BASE, WINDOW_BASE + size, &info) ==
	    0) {
		check_answers(&info, WINDOW_BASE + size);
		for (u32 i = 0; i < info.nr_tables; i++)
			acpi_parsers_check(info.tables[i]);
	} else if (info.nr_tables) {
		abort();
	}
	return 0;
}
