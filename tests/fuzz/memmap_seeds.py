#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seed maps for build/host/memmap_fuzz: two bytes of descriptor size,
one byte of choices (bit 0: 1 GiB pages), then UEFI memory descriptors
(Type, PhysicalStart, VirtualStart, NumberOfPages, Attribute, padded to
the descriptor size). The maps: QEMU q35 with OVMF at ExitBootServices
(the recorded map of tests/phys_map_test.c, in EFI types) with OVMF's
48-byte descriptors and with bare 40-byte ones, with and without 1 GiB
pages; the same without its 64-bit PCI window (all below 4 GiB), and
with persistent memory and an MMIO window above the
reach of 4-level paging; and a map needing every mend (overlaps, zero
lengths, unaligned RAM, a region that wraps); free memory inside the
last page; descriptor sizes smaller than a descriptor. Writes one file per map
into the directory given."""

import struct

from seed_files import write_corpus

# EFI memory types (UEFI 2.10, table 7.10).
RESERVED, LOADER_CODE, LOADER_DATA, BS_CODE, BS_DATA = 0, 1, 2, 3, 4
RT_CODE, RT_DATA, CONVENTIONAL, UNUSABLE, ACPI_RECLAIM = 5, 6, 7, 8, 9
ACPI_NVS, MMIO, MMIO_PORT, PAL_CODE, PERSISTENT = 10, 11, 12, 13, 14

OVMF_Q35_512M = [
    (0x0000000000, 0x00001000, BS_CODE),
    (0x0000001000, 0x0009f000, CONVENTIONAL),
    (0x0000100000, 0x00700000, CONVENTIONAL),
    (0x0000800000, 0x00008000, ACPI_NVS),
    (0x0000808000, 0x00003000, CONVENTIONAL),
    (0x000080b000, 0x00001000, ACPI_NVS),
    (0x000080c000, 0x00005000, CONVENTIONAL),
    (0x0000811000, 0x000ef000, ACPI_NVS),
    (0x0000900000, 0x01700000, BS_DATA),
    (0x0002000000, 0x1c000000, CONVENTIONAL),
    (0x001e000000, 0x00020000, LOADER_DATA),
    (0x001e020000, 0x01a00000, CONVENTIONAL),
    (0x001fa20000, 0x00200000, BS_CODE),
    (0x001fc20000, 0x00100000, BS_DATA),
    (0x001fd20000, 0x00080000, RT_CODE),
    (0x001fda0000, 0x00080000, RT_DATA),
    (0x001fe20000, 0x00010000, ACPI_RECLAIM),
    (0x001fe30000, 0x00050000, ACPI_NVS),
    (0x001fe80000, 0x00100000, BS_DATA),
    (0x001ff80000, 0x00080000, RESERVED),
    (0x00b0000000, 0x10000000, RESERVED),
    (0x00ffc00000, 0x00400000, MMIO),
    (0x8000000000, 0x800000000, MMIO),
]

# Without the 64-bit PCI window: the identity map ends at 4 GiB.
LOW = OVMF_Q35_512M[:-1]

HIGH = OVMF_Q35_512M + [
    (0x0100000000, 0x40000000, PERSISTENT),
    (0x7ffff0000000, 0x20000000, MMIO),  # across 2^47
    (0x900000000000, 0x1000, MMIO),      # past it
]

BROKEN = [
    (0x0000001000, 0x0009f000, CONVENTIONAL),
    (0x0000050000, 0x00010000, RESERVED),  # inside free memory
    (0x0000100800, 0x00100000, CONVENTIONAL),  # unaligned RAM
    (0x0000300000, 0x0, CONVENTIONAL),  # zero length
    (0x00fee00000, 0x1000, MMIO),
    (0xfffffffffffff000, 0x2000, RESERVED),  # wraps past 2^64
]

# Free memory from inside the last page: once rounded up to a page it
# wrapped to 0 and made the whole space free (found by this fuzzer).
LAST_PAGE = [(0xffffffffffffff00, 0x1000, CONVENTIONAL)]


def descriptor(base, size, typ, desc_size):
    d = struct.pack("<IIQQQQ", typ, 0, base, 0, size >> 12, 0xf)
    return d + bytes(desc_size - len(d))


def seed(regions, desc_size, use_1g):
    return (struct.pack("<HB", desc_size, 1 if use_1g else 0) +
            b"".join(descriptor(b, s, t, desc_size) for b, s, t in regions))


def seeds():
    for name, regions in (("ovmf", OVMF_Q35_512M), ("low", LOW),
                          ("high", HIGH), ("broken", BROKEN),
                          ("last-page", LAST_PAGE)):
        for desc_size in (48, 40):
            for use_1g in (True, False):
                pages = "1g" if use_1g else "2m"
                yield (f"{name}-{desc_size}-{pages}",
                       seed(regions, desc_size, use_1g))
    # Descriptor sizes no map can be walked by (smaller than the
    # structure; 38 also misaligned every descriptor after the first):
    # refused whole, found by this fuzzer.
    for desc_size in (0, 8, 38):
        yield f"desc-size-{desc_size}", (
            struct.pack("<HB", desc_size, 1) +
            b"".join(descriptor(b, s, t, 40)[:max(desc_size, 1)]
                     for b, s, t in OVMF_Q35_512M))


def main():
    write_corpus("memmap_seeds.py", seeds())


if __name__ == "__main__":
    main()
