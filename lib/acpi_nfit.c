// SPDX-License-Identifier: GPL-2.0-only
/*
 * NFIT: a 36-byte header, 4 reserved bytes, then structures that each
 * start with a 2-byte type and a 2-byte length. Only type 0, the System
 * Physical Address Range, is read; of those only the ones whose range
 * type GUID says persistent memory.
 */
#include "lib/acpi_nfit.h"
#include "lib/string.h"

#define NFIT_FIRST 40 /* header + reserved */
#define NFIT_SPA 0
#define NFIT_SPA_LEN 56
#define NFIT_SPA_PROXIMITY_VALID (1u << 1)

/* 66F0D379-B4F3-4074-AC43-0D3318B78CDB, in the table's byte order */
static const u8 nfit_spa_pm_guid[16] = {
	0x79, 0xd3, 0xf0, 0x66, 0xf3, 0xb4, 0x74, 0x40,
	0xac, 0x43, 0x0d, 0x33, 0x18, 0xb7, 0x8c, 0xdb,
};

static u16 get16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static u32 get32(const u8 *p)
{
	return (u32)get16(p) | (u32)get16(p + 2) << 16;
}

static u64 get64(const u8 *p)
{
	return (u64)get32(p) | (u64)get32(p + 4) << 32;
}

int acpi_parse_nfit(const struct acpi_table_header *nfit,
		    struct acpi_nfit_info *out)
{
	const u8 *t = (const u8 *)nfit;
	u32 len, at;

	memset(out, 0, sizeof(*out));
	if (!nfit || nfit->length < NFIT_FIRST)
		return -1;
	len = nfit->length;
	for (at = NFIT_FIRST; at < len;) {
		u16 type, slen;

		if (len - at < 4) {
			out->truncated = true;
			break;
		}
		type = get16(t + at);
		slen = get16(t + at + 2);
		if (slen < 4 || slen > len - at) {
			out->truncated = true;
			break;
		}
		if (type == NFIT_SPA && slen >= NFIT_SPA_LEN) {
			const u8 *s = t + at;
			u64 base = get64(s + 32), length = get64(s + 40);

			if (memcmp(s + 16, nfit_spa_pm_guid, 16)) {
				out->nr_other++;
			} else if (!length || base + length < base) {
				out->nr_other++;
			} else if (out->nr_ranges == NFIT_MAX_RANGES) {
				out->nr_dropped++;
			} else {
				struct acpi_nfit_range *r =
					&out->ranges[out->nr_ranges++];

				r->base = base;
				r->length = length;
				r->proximity_domain = get32(s + 12);
				r->proximity_valid =
					get16(s + 6) & NFIT_SPA_PROXIMITY_VALID;
			}
		}
		at += slen;
	}
	return 0;
}

const struct acpi_nfit_range *
acpi_nfit_largest(const struct acpi_nfit_info *info)
{
	const struct acpi_nfit_range *best = NULL;

	for (u32 i = 0; i < info->nr_ranges; i++)
		if (!best || info->ranges[i].length > best->length)
			best = &info->ranges[i];
	return best;
}
