#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seed tables for build/host/acpi_fuzz, in the shapes the host tests
(tests/acpi_test.c, tests/acpi_nfit_test.c) build: a FADT with an I/O PM
timer, an HPET, a MADT with local APIC and x2APIC entries, an SRAT with
CPU, memory and hot-pluggable entries, an NFIT with a persistent-memory
SPA range. Writes one file per table into the directory given."""

import struct

from seed_files import write_corpus


def table(sig, body):
    return (sig.encode() + struct.pack("<IBB6s8sIII", 36 + len(body), 1, 0,
                                       b"NTBOOT", b"FUZZSEED", 1, 0, 0)
            + body)


def seeds():
    fadt = bytearray(276 - 36)
    fadt[112 - 36:116 - 36] = struct.pack("<I", 1 << 8)
    fadt[208 - 36:220 - 36] = struct.pack("<BBBBQ", 1, 32, 0, 3, 0x608)
    yield "fadt", table("FACP", bytes(fadt))
    hpet = bytearray(56 - 36)
    hpet[40 - 36:52 - 36] = struct.pack("<BBBBQ", 0, 64, 0, 0, 0xfed00000)
    yield "hpet", table("HPET", bytes(hpet))
    madt = struct.pack("<II", 0xfee00000, 1)
    madt += struct.pack("<BBBBI", 0, 8, 0, 0, 1)
    madt += struct.pack("<BBBBI", 0, 8, 1, 1, 1)
    madt += struct.pack("<BBHIII", 9, 16, 0, 300, 1, 2)
    yield "madt", table("APIC", madt)
    srat = bytes(12)
    srat += struct.pack("<BBBBIB3sI", 0, 16, 0, 0, 1, 0, bytes(3), 0)
    srat += struct.pack("<BBIHQQIIQ", 1, 40, 0, 0, 0, 2 << 30, 0, 1, 0)
    srat += struct.pack("<BBIHQQIIQ", 1, 40, 0, 0, 8 << 30, 4 << 30, 0, 3,
                        0)
    yield "srat", table("SRAT", srat)
    guid = bytes.fromhex("79d3f066f3b47440ac430d3318b78cdb")
    spa = struct.pack("<HHHHII16sQQQ", 0, 56, 1, 2, 0, 0, guid,
                      0x100000000, 256 << 20, 0)
    yield "nfit", table("NFIT", bytes(4) + spa)


def main():
    write_corpus("acpi_seeds.py", seeds())


if __name__ == "__main__":
    main()
