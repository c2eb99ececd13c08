#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A random-input loop for the Python log readers (Debian packages no
Python fuzzer): tools/report's parse_log(), its tables, verdicts and
both comparisons, its LAVA job log reader (tools/reportlib), and
tools/ktap-check's check_text(), fed logs
mutated from real ones: lines dropped, doubled, swapped, cut at random
columns, bytes flipped, control characters and escapes put in, values of
key=value words replaced with huge, negative, empty, non-numeric or
non-ASCII text. A reader may report a log as malformed (ktap-check's exit
status 2, report's warnings); it must not raise. The first exception is
printed with the seed and the input saved, so it reproduces:

    tests/fuzz/readers_fuzz.py [--seconds S] [--seed N] [--out DIR] [LOG...]

Without LOGs the seeds are the readers' own embedded sample logs (the
report's image and host samples, ktap-check's good, failed, bailed and
parameterised logs, a LAVA job log of the image sample), so `make fuzz-short` needs no boot first.

Exit status: 0, or 1 with the failing input written to DIR.
"""
import argparse
import importlib.machinery
import importlib.util
import io
import os
import random
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")
sys.path.insert(0, TOOLS)
from reportlib.debian_python import require  # noqa: E402

require("readers_fuzz", "scipy", "yaml", "jsonschema")
from reportlib import compare, lava, synth, tables, verdicts  # noqa: E402
from reportlib.logs import parse_log  # noqa: E402


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


WEIRD = ["", "-1", "0", "18446744073709551616", "1e308", "nan", "inf",
         "x", "\"", "\"unterminated", "1,2,,3", ",", "0x10", "\u00e9\u4e2d",
         "9" * 400, "-0.0", "1.5.6"]
NOISE = ["\x1b[2J", "\x1b[0;31m", "\r", "\x00", "\x7f", "\t", "\ufffd",
         "# metric ", "ok 1 x", "not ok 2 y", "KTAP version 1", "1..3",
         "# verdict ", "# ntboot ", "Bail out! z", "# SKIP"]


def mutate(rng, lines):
    out = list(lines)
    for _ in range(rng.randint(1, 8)):
        if not out:
            out.append(rng.choice(NOISE))
            continue
        i = rng.randrange(len(out))
        op = rng.randrange(8)
        line = out[i]
        if op == 0:
            del out[i]
        elif op == 1:
            out.insert(i, line)
        elif op == 2:
            j = rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
        elif op == 3 and line:
            out[i] = line[:rng.randrange(len(line))]
        elif op == 4 and line:
            k = rng.randrange(len(line))
            out[i] = line[:k] + chr(rng.randrange(1, 0x3000)) + line[k + 1:]
        elif op == 5:
            k = rng.randrange(len(line) + 1)
            out[i] = line[:k] + rng.choice(NOISE) + line[k:]
        elif op == 6 and "=" in line:
            words = line.split(" ")
            w = rng.randrange(len(words))
            if "=" in words[w]:
                key = words[w].split("=", 1)[0]
                words[w] = key + "=" + rng.choice(WEIRD)
            out[i] = " ".join(words)
        else:
            out.insert(i, rng.choice(NOISE) + rng.choice(WEIRD))
    return out


def job_log(console):
    """@console as lava-run writes it: an entry a line, the console's
    lines as "target" entries, a result entry after each case line."""
    import json
    out = [json.dumps({"dt": "0", "lvl": "info", "msg": "start: boot"})]
    for line in console.splitlines():
        out.append(json.dumps({"dt": "0", "lvl": "target",
                               "msg": line.replace('"', '\\"')}))
        if line.lstrip().startswith(("ok ", "not ok ")):
            out.append(json.dumps({"dt": "0", "lvl": "results", "msg": {
                "definition": "ntboot-1", "case": line.split()[-1],
                "result": "pass"}}))
    return "\n".join(out)


def run_readers(ktap, text):
    # A LAVA job log stands for its boots (reportlib.lava).
    for name, part, _ in lava.runs_of("fuzz.log", text.encode())[0]:
        parse_log(part, name, "A")
    log = parse_log(text, "fuzz.log", "A")
    tables.markdown_report([log])
    tables.json_report([log])
    verdicts.verdicts(log)
    other = parse_log(text[::-1], "fuzz2.log", "B")
    compare.compare_report(log, other)
    compare.compare_replicated_report([log, log], [other, log])
    ktap.check_text(text, "fuzz.log", out=io.StringIO())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="*", metavar="LOG")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="build/host/readers_fuzz")
    args = ap.parse_args()
    ktap = load("ntb_ktap_check", os.path.join(TOOLS, "ktap-check"))
    bases = [t.splitlines() for t in (
        synth.SAMPLE_IMAGE_A, synth.SAMPLE_IMAGE_B, synth.SAMPLE_HOST,
        ktap.GOOD, ktap.FAILED, ktap.BAILED, ktap.PARAMS, ktap.BAD_OPTION,
        job_log(synth.SAMPLE_IMAGE_A))] if not args.logs else []
    for path in args.logs:
        with open(path, errors="replace") as f:
            bases.append(f.read().splitlines())
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    n = 0
    while time.monotonic() < deadline:
        base = rng.choice(bases)
        # The head (KTAP line, header) and a window of the rest: small
        # inputs, many of them.
        at = rng.randrange(max(1, len(base) - 20))
        window = base[:6] + base[at:at + rng.randint(10, 120)]
        text = "\n".join(mutate(rng, window)) + "\n"
        n += 1
        try:
            run_readers(ktap, text)
        except Exception:  # noqa: BLE001 (any exception is the finding)
            os.makedirs(args.out, exist_ok=True)
            path = os.path.join(args.out, f"crash-{args.seed}-{n}.log")
            with open(path, "w") as f:
                f.write(text)
            print(f"readers_fuzz: input {n} (seed {args.seed}) raised; "
                  f"saved as {path}", file=sys.stderr)
            traceback.print_exc()
            return 1
    print(f"readers_fuzz: {n} inputs in {args.seconds:g} s (seed "
          f"{args.seed}): no reader raised")
    return 0


if __name__ == "__main__":
    sys.exit(main())
