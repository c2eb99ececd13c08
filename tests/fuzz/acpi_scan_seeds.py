#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seed windows for build/host/acpi_scan_fuzz: physical memory as the
fuzz target maps it (at WINDOW_BASE), an RSDP at its start and the tables
behind it. One window of the synthetic tables of acpi_seeds.py behind an
ACPI 2.0 RSDP and its XSDT, the same behind an ACPI 1.0 RSDP and its
RSDT, and one window per real machine of tests/data/acpi-real/ (the
tables the image reads, as the firmware's bytes). Writes one file per
window into the directory given."""

import glob
import importlib.machinery
import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import acpi_seeds  # noqa: E402
from seed_files import write_corpus  # noqa: E402

# As tests/fuzz/acpi_scan_fuzz.c maps it.
WINDOW_BASE = 0x40000000


def load_tool(name):
    path = os.path.join(TOP, "tools", name)
    loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"),
                                                  path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def checksum(data):
    return (-sum(data)) & 0xff


def sealed(data):
    data = bytearray(data)
    data[9] = 0
    data[9] = checksum(data)
    return bytes(data)


def window(tables, revision):
    """RSDP at 0, the root table at 0x40, each table 16-byte aligned."""
    entry = 8 if revision >= 2 else 4
    root_len = 36 + entry * len(tables)
    off = 0x40 + root_len
    addrs = []
    body = b""
    for t in tables:
        pad = (-off) % 16
        body += bytes(pad)
        off += pad
        addrs.append(WINDOW_BASE + off)
        body += t
        off += len(t)
    fmt = "<Q" if entry == 8 else "<I"
    root = (b"XSDT" if entry == 8 else b"RSDT") + struct.pack(
        "<IBB6s8sIII", root_len, 1, 0, b"NTBOOT", b"FUZZSEED", 1, 0, 0)
    root = sealed(root + b"".join(struct.pack(fmt, a) for a in addrs))
    root_addr = WINDOW_BASE + 0x40
    rsdp = bytearray(b"RSD PTR " + bytes(1) + b"NTBOOT" +
                     struct.pack("<BI", revision,
                                 root_addr if entry == 4 else 0))
    if revision >= 2:
        rsdp += struct.pack("<IQB3s", 36, root_addr, 0, bytes(3))
    rsdp[8] = checksum(rsdp[:20])
    if revision >= 2:
        rsdp[32] = checksum(rsdp[:36])
    return bytes(rsdp) + bytes(0x40 - len(rsdp)) + root + body


def seeds():
    synthetic = [sealed(t) for _, t in acpi_seeds.seeds()]
    yield "synthetic-xsdt", window(synthetic, 2)
    yield "synthetic-rsdt", window(synthetic, 0)
    acpi_tables = load_tool("acpi-tables")
    for path in sorted(glob.glob(os.path.join(TOP, "tests", "data",
                                              "acpi-real", "*.txt"))):
        tables = [data for _, data in acpi_tables.read_capture(path).values()]
        name = os.path.splitext(os.path.basename(path))[0]
        yield f"real-{name}", window(tables, 2)


def main():
    write_corpus("acpi_scan_seeds.py", seeds())


if __name__ == "__main__":
    main()
