#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Seed inputs for build/host/options_fuzz from what the tests feed the
option parser and the cfg decoder: tools/ntboot.cfg.example as UTF-8,
with a BOM, as UTF-16LE and UTF-16BE with their BOMs, as UCS-2 load
options after an image path; and every "key=value" string literal of
tests/options_test.c, tests/options_edges_test.c and
tests/cfg_text_test.c, one file each. Writes into the directory given."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTS = ("tests/options_test.c", "tests/options_edges_test.c",
         "tests/cfg_text_test.c")
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*=(?:[^"\\\n]|\\.)*)"')


def unescape(s):
    return s.encode().decode("unicode_escape").encode("latin-1")


def seeds():
    with open(os.path.join(ROOT, "tools", "ntboot.cfg.example"), "rb") as f:
        cfg = f.read()
    yield "cfg-utf8", cfg
    yield "cfg-utf8-bom", b"\xef\xbb\xbf" + cfg
    text = cfg.decode("utf-8", errors="replace")
    yield "cfg-utf16le", b"\xff\xfe" + text.encode("utf-16-le")
    yield "cfg-utf16be", b"\xfe\xff" + text.encode("utf-16-be")
    yield "load-options", ("\\EFI\\BOOT\\BOOTX64.EFI suite=printf runs=3"
                           "\0").encode("utf-16-le")
    # What the fuzzer found once: an error message that read past a
    # value with no NUL after it.
    yield "found-console-mmio32", b"console=mmio32"
    for path in TESTS:
        with open(os.path.join(ROOT, path), errors="replace") as f:
            src = f.read()
        for i, m in enumerate(LITERAL.finditer(src)):
            try:
                yield f"{os.path.basename(path)[:-2]}-{i}", unescape(
                    m.group(1))
            except (UnicodeDecodeError, UnicodeEncodeError):
                continue


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: options_seeds.py DIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    n = 0
    for name, data in seeds():
        with open(os.path.join(sys.argv[1], name), "wb") as f:
            f.write(data)
        n += 1
    print(f"options_seeds: {n} seeds in {sys.argv[1]}")


if __name__ == "__main__":
    main()
