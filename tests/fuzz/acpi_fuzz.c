// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the ACPI table parsers, the firmware input the
 * image trusts least: the input is one table, header included, in a
 * buffer of exactly its size. The header's length field is set to that
 * size, as acpi_scan() has checked (it sums `length` bytes for the
 * checksum before anything parses a table), and every parser reads it:
 * FADT (PM timer), HPET, MADT, SPCR, SRAT and NFIT. ASan sees any read
 * past the table; each parser's answers are checked for what it promises
 * (counts within their arrays, ranges kept only when sane).
 *
 * Host only (clang -fsanitize=fuzzer,address,undefined): `make fuzz`
 * builds build/host/acpi_fuzz, `make fuzz-short` runs it for a few
 * seconds from a corpus seeded with tables of the host tests' shapes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/acpi_parsers_check.h"

void plat_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_table_header *t;
	u32 len;

	if (size < sizeof(*t) || size > 1 << 20)
		return 0;
	t = malloc(size);
	if (!t)
		return 0;
	memcpy(t, data, size);
	len = (u32)size;
	memcpy(&t->length, &len, sizeof(len));
	acpi_parsers_check(t);
	free(t);
	return 0;
}
