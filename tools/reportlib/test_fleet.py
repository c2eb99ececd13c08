# SPDX-License-Identifier: GPL-2.0-only
"""Tests of tools/report --db (reportlib.fleet), through the command."""
import json
import os
import random
import subprocess
import tempfile
import unittest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join(TOOLS, "report")

HEADERS = {
    "intel": ('# ntboot 0.1+g1111 platform=host cpu="Example Xeon" '
              "vendor=GenuineIntel family=6 model=167 stepping=1 "
              "tsc_khz=2600000 smp=2 features=sse2,avx512f"),
    "amd": ('# ntboot 0.1+g1111 platform=host cpu="Example EPYC" '
            "vendor=AuthenticAMD family=26 model=2 stepping=0 "
            "tsc_khz=3000000 smp=2 features=sse2,avx512f"),
}


def metric(strategy, median, seed):
    rng = random.Random(seed)
    samples = [int(median * (1 + rng.uniform(-0.01, 0.01)))
               for _ in range(14)]
    return ("    # metric suite=bench_memmap_init strategy=" + strategy
            + " page_size=64 layout=64 mode=fsdax map=dev memmap_in=dram "
            "pages=2063872 written=2063872 bytes=132087808 runs=15 "
            f"median_ns={sorted(samples)[7]} drain=on "
            f"samples_ns={','.join(map(str, samples))}")


def log_text(cpu, memcpy_ns, nt_ns, seed, build="0.1+g1111"):
    header = HEADERS[cpu].replace("0.1+g1111", build)
    return "\n".join([
        "KTAP version 1", header,
        metric("slow", 12_000_000, seed),
        metric("tmpl_memcpy", memcpy_ns, seed + 1),
        metric("tmpl_nt_fixed", nt_ns, seed + 2),
        "ntboot: 1 passed, 0 failed, 0 skipped", ""])


class Fleet(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.tmp.name, "fleet.db")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def report(self, *args):
        return subprocess.run([REPORT, "--db", self.db, *args],
                              capture_output=True, text=True, check=False)

    def step_rows(self):
        res = self.report("--json", "fleet")
        self.assertEqual(res.returncode, 0, res.stderr)
        claims = json.loads(res.stdout)
        step = [c for c in claims if "rather than memcpy()" in c["claim"]]
        self.assertEqual(len(step), 1, [c["claim"] for c in claims])
        return {r["cpu_model"]: r for r in step[0]["rows"]}

    def test_intel_and_amd_disagree(self):
        # The series' template step: NT faster than memcpy on the Intel
        # logs, slower on the AMD ones.
        logs = [self.write(f"i{k}.log", log_text("intel", 16e6, 6e6, k))
                for k in range(3)]
        logs += [self.write(f"a{k}.log", log_text("amd", 5e6, 6.5e6, 10 + k))
                 for k in range(3)]
        res = self.report("add", *logs)
        self.assertEqual(res.returncode, 0, res.stderr)
        rows = self.step_rows()
        intel = rows["GenuineIntel 6/167/1"]
        amd = rows["AuthenticAMD 26/2/0"]
        self.assertEqual((intel["runs"], amd["runs"]), (3, 3))
        self.assertEqual(intel["verdict"], "confirmed")
        self.assertEqual(amd["verdict"], "reversed on this CPU")
        self.assertLess(amd["speedup"], 1)
        text = self.report("fleet").stdout
        self.assertIn("| AuthenticAMD 26/2/0", text)

    def test_an_emulated_cpu_gets_no_verdict(self):
        # A reversal measured under QEMU's TCG, where NT stores are
        # ordinary stores, says nothing about a CPU.
        tcg = log_text("amd", 5e6, 6.5e6, 20).replace(
            "features=sse2,avx512f", "features=sse2 hypervisor=TCGTCGTCGTCG")
        paths = [self.write("q.log", tcg),
                 self.write("i.log", log_text("intel", 16e6, 6e6, 1))]
        self.assertEqual(self.report("add", *paths).returncode, 0)
        rows = self.step_rows()
        self.assertEqual(rows["AuthenticAMD 26/2/0"]["verdict"],
                         "no verdict: emulated CPU (TCG)")
        self.assertLess(rows["AuthenticAMD 26/2/0"]["speedup"], 1)
        self.assertEqual(rows["GenuineIntel 6/167/1"]["verdict"],
                         "confirmed")

    def test_broken_header_is_refused(self):
        good = self.write("g.log", log_text("intel", 16e6, 6e6, 1))
        bad = self.write("b.log", log_text("intel", 16e6, 6e6, 2).replace(
            HEADERS["intel"], "# ntboot garbled"))
        res = self.report("add", bad, good)
        self.assertEqual(res.returncode, 1)
        self.assertIn("b.log: not added: no '# ntboot' header", res.stderr)
        self.assertEqual(self.step_rows()["GenuineIntel 6/167/1"]["runs"], 1)

    def test_duplicate_log_is_stored_once(self):
        path = self.write("d.log", log_text("intel", 16e6, 6e6, 1))
        copy = self.write("d-copy.log", log_text("intel", 16e6, 6e6, 1))
        res = self.report("add", path, copy)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("not added again", res.stderr)
        self.assertEqual(self.step_rows()["GenuineIntel 6/167/1"]["runs"], 1)

    def test_two_builds_of_one_machine(self):
        a = self.write("b1.log", log_text("intel", 16e6, 6e6, 1, "0.1+gaaaa"))
        b = self.write("b2.log", log_text("intel", 16e6, 6.1e6, 2,
                                          "0.1+gbbbb"))
        self.assertEqual(self.report("add", a, b).returncode, 0)
        row = self.step_rows()["GenuineIntel 6/167/1"]
        self.assertEqual((row["runs"], row["machines"], row["builds"]),
                         (2, 1, 2))

    def test_a_measured_tsc_does_not_make_a_machine(self):
        def boot(khz, source, seed):
            text = log_text("intel", 16e6, 6e6, seed)
            return text.replace("tsc_khz=2600000",
                                f"tsc_khz={khz} tsc_source={source}")
        paths = [self.write(f"t{k}.log", boot(khz, src, k))
                 for k, (khz, src) in enumerate([
                     (2602307, "hpet"), (2602497, "hpet"),
                     (2600000, "cpuid15"), (2400000, "cpuid15")])]
        self.assertEqual(self.report("add", *paths).returncode, 0)
        row = self.step_rows()["GenuineIntel 6/167/1"]
        self.assertEqual((row["runs"], row["machines"]), (4, 3))


def tight_log(nt_ns, seed):
    """A run whose samples agree to 0.1% (the within-run spread), so a
    difference between two such runs is 'significant' by their samples."""
    rng = random.Random(seed)

    def line(strategy, med):
        samples = [int(med * (1 + rng.uniform(-0.001, 0.001)))
                   for _ in range(14)]
        return ("    # metric suite=bench_memmap_init strategy=" + strategy
                + " page_size=64 layout=64 mode=fsdax map=dev "
                f"median_ns={sorted(samples)[7]} "
                f"samples_ns={','.join(map(str, samples))}")
    return "\n".join(["KTAP version 1", HEADERS["intel"],
                      line("tmpl_nt_fixed", nt_ns),
                      "ntboot: 1 passed, 0 failed, 0 skipped", ""])


class Spread(unittest.TestCase):
    """--compare A B --db FILE: one run a side, held to the between-run
    spread the history measured on that CPU model."""

    def test_within_and_beyond_the_spread(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "h.db")
            # Four earlier runs of one build, 2% apart from each other.
            hist = []
            for k, f in enumerate((1.0, 1.02, 0.985, 1.01)):
                hist.append(os.path.join(tmp, f"h{k}.log"))
                with open(hist[-1], "w") as out:
                    out.write(tight_log(6e6 * f, k))
            subprocess.run([REPORT, "--db", db, "add", *hist], check=True,
                           capture_output=True)
            paths = []
            for name, ns in (("a", 6e6), ("b", 6.06e6), ("c", 6.9e6)):
                paths.append(os.path.join(tmp, name + ".log"))
                with open(paths[-1], "w") as out:
                    out.write(tight_log(ns, 100 + len(paths)))

            def row(b, *extra):
                res = subprocess.run(
                    [REPORT, "--compare", "--json", paths[0], b, *extra],
                    capture_output=True, text=True, check=False)
                self.assertEqual(res.returncode, 0, res.stderr)
                return json.loads(res.stdout)[0]

            plain = row(paths[1])
            self.assertTrue(plain["significant"], plain)
            held = row(paths[1], "--db", db)
            self.assertFalse(held["significant"], held)
            self.assertTrue(held["within_spread"], held)
            big = row(paths[2], "--db", db)
            self.assertTrue(big["significant"], big)
            self.assertFalse(big["within_spread"], big)


if __name__ == "__main__":
    unittest.main()
