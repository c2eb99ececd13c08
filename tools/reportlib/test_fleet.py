# SPDX-License-Identifier: GPL-2.0-only
"""Tests of tools/report --db (reportlib.fleet), through the command."""
import json
import math
import os
import random
import sqlite3
import subprocess
import tempfile
import unittest

from scipy import stats

from reportlib import fleet
from reportlib.logs import parse_log
from reportlib.stats import compare_samples
from reportlib.synth import synth_log
from reportlib.verdicts import CLAIMS

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


# The tables of the first schema, up to the verdicts' posted_speedup: a
# history written before the columns added since (fleet.ADDED_COLUMNS).
OLD_TABLES = """
            CREATE TABLE logs (id INTEGER PRIMARY KEY, sha256 TEXT UNIQUE
                NOT NULL, name TEXT NOT NULL, cpu_model TEXT NOT NULL,
                cpu_brand TEXT, microcode TEXT, machine TEXT NOT NULL,
                build TEXT, header TEXT NOT NULL,
                added TEXT DEFAULT CURRENT_TIMESTAMP);
            CREATE TABLE verdicts (log_id INTEGER NOT NULL, subject TEXT
                NOT NULL, what TEXT NOT NULL, page_size INTEGER, mode TEXT,
                map TEXT, before TEXT, after TEXT, speedup REAL,
                ci_low REAL, ci_high REAL, p REAL, verdict TEXT,
                posted_speedup REAL"""


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

    def claim_rows(self, part):
        """{CPU model: fleet row} of the one claim whose title holds
        @part."""
        res = self.report("--json", "fleet")
        self.assertEqual(res.returncode, 0, res.stderr)
        claims = json.loads(res.stdout)
        step = [c for c in claims if part in c["claim"]]
        self.assertEqual(len(step), 1, [c["claim"] for c in claims])
        return {r["cpu_model"]: r for r in step[0]["rows"]}

    def step_rows(self):
        # The template step: no posted figure of its own.
        return self.claim_rows("rather than memcpy()")

    def rebind_rows(self):
        # slow -> tmpl_nt_fixed, fsdax: posted 244.28 ms -> 96.79 ms.
        return self.claim_rows("memmap init on rebind, fsdax")

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
        # The step has no posted figure of its own: faster, of no size.
        self.assertEqual(intel["verdict"], "faster")
        self.assertEqual(intel["rule"], "size")
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
        # One run of one process: what it saw, not a finding.
        self.assertEqual(rows["GenuineIntel 6/167/1"]["verdict"],
                         "seen faster in one process")

    def test_one_run_is_one_observation_never_confirmed(self):
        # ntbench in one process, the image in one boot: each run's word
        # says so, however clear its samples.
        boot = log_text("amd", 5e6, 6.5e6, 30).replace(
            "platform=host ", "")
        paths = [self.write("i.log", log_text("intel", 16e6, 6e6, 1)),
                 self.write("a.log", boot)]
        self.assertEqual(self.report("add", *paths).returncode, 0)
        rows = self.step_rows()
        intel = rows["GenuineIntel 6/167/1"]
        amd = rows["AuthenticAMD 26/2/0"]
        self.assertEqual((intel["verdict"], intel["unit"]),
                         ("seen faster in one process", "one process"))
        self.assertEqual((amd["verdict"], amd["unit"]),
                         ("seen reversed in one boot", "one boot"))
        text = self.report("fleet").stdout
        self.assertIn("| one process |", text)

    def test_one_run_of_8_processes_is_replicated(self):
        cpu = "Example Processes CPU"
        text = synth_log(3, cpu, [("tmpl_memcpy", 64, "fsdax", 16e6),
                                  ("tmpl_nt_fixed", 64, "fsdax", 6e6)],
                         n=10, cv=0.01, processes=8, machine_cv=0.05,
                         placement_cv=0.02)
        self.assertEqual(self.report("add", self.write("p.log", text))
                         .returncode, 0)
        row = self.step_rows()[cpu]
        self.assertEqual((row["runs"], row["unit"], row["verdict"]),
                         (1, "8 processes", "faster"))

    def test_a_history_from_before_scope_reads_as_seen(self):
        # A history written before verdicts had a scope: its tables lack
        # the columns, its one-run "confirmed" was one process's.
        db = sqlite3.connect(self.db)
        db.executescript(OLD_TABLES + """);
            INSERT INTO logs VALUES (1, 'x', 'old.log', 'Old CPU', 'Old',
                NULL, 'm1', '0.1', '{"platform": "host", "cpu": "Old"}',
                NULL);
        """)
        step = next(c for c in CLAIMS if c["before"] == "tmpl_memcpy")
        db.execute("INSERT INTO verdicts VALUES (1, ?, ?, 64, 'fsdax', "
                   "'dev', 'tmpl_memcpy', 'tmpl_nt_fixed', 2.5, 2.4, 2.6, "
                   "0.001, 'confirmed', NULL)",
                   (step["subject"], step["what"]))
        db.commit()
        db.close()
        row = self.step_rows()["Old CPU"]
        # Stored before the size rule too: the direction only.
        self.assertEqual((row["verdict"], row["unit"], row["rule"]),
                         ("seen in one process (old rule: direction only)",
                          "one process", "direction"))
        # A log added now goes in beside it.
        path = self.write("n.log", log_text("intel", 16e6, 6e6, 1))
        self.assertEqual(self.report("add", path).returncode, 0)
        self.assertEqual(len(self.step_rows()), 2)

    def test_the_kernels_code_judged_apart(self):
        # One log with the model's pair and the kernel's of the rebind
        # claim: two tables, each of its own source; the kernel's pair
        # stored with its source, the model's with its own.
        text = log_text("intel", 16e6, 6e6, 1).replace(
            "ntboot: 1 passed", "\n".join([
                metric("kernel", 30_000_000, 9),
                metric("kernel_series", 10_000_000, 10),
                "ntboot: 1 passed"]))
        path = self.write("k.log", text)
        self.assertEqual(self.report("add", path).returncode, 0)
        res = self.report("--json", "fleet")
        self.assertEqual(res.returncode, 0, res.stderr)
        titles = [c["claim"] for c in json.loads(res.stdout)
                  if "rebind, fsdax" in c["claim"]]
        self.assertEqual(sorted(t.rsplit(" ", 1)[1] for t in titles),
                         ["source=kernel", "source=model"])
        db = sqlite3.connect(self.db)
        stored = db.execute("SELECT source, before, after FROM verdicts "
                            "WHERE what LIKE '%rebind, fsdax%'").fetchall()
        db.close()
        self.assertEqual(sorted(stored),
                         [("kernel", "kernel", "kernel_series"),
                          ("model", "slow", "tmpl_nt_fixed")])

    def test_several_runs_judge_the_posted_size(self):
        # slow at 12 ms: tmpl_nt_fixed at 6 ms is 2.0x, short of the
        # posted 2.52x; at 12 / 2.52 ms, the posted; at 4 ms, 3.0x,
        # beyond it. Three runs a CPU, 1% apart.
        posted = CLAIMS[0]["ratio"]
        third = HEADERS["amd"].replace("EPYC", "Zen").replace(
            "family=26", "family=25")
        runs = {"intel": 6e6, "amd": 12e6 / posted, "zen": 4e6}
        paths = []
        for cpu, nt in runs.items():
            for k, f in enumerate((0.99, 1.0, 1.01)):
                text = log_text("amd" if cpu == "zen" else cpu,
                                16e6, nt * f, 40 + k)
                if cpu == "zen":
                    text = text.replace(HEADERS["amd"], third)
                paths.append(self.write(f"{cpu}{k}.log", text))
        self.assertEqual(self.report("add", *paths).returncode, 0)
        rows = self.rebind_rows()
        short = rows["GenuineIntel 6/167/1"]
        within = rows["AuthenticAMD 26/2/0"]
        beyond = rows["AuthenticAMD 25/2/0"]
        self.assertEqual([r["runs"] for r in (short, within, beyond)],
                         [3, 3, 3])
        self.assertTrue(1 < short["ci"][0] and short["ci"][1] < posted,
                        short)
        self.assertEqual(short["verdict"], "faster, short of the posted")
        self.assertTrue(within["ci"][0] <= posted <= within["ci"][1],
                        within)
        self.assertEqual(within["verdict"], "confirmed")
        self.assertTrue(posted < beyond["ci"][0], beyond)
        self.assertEqual(beyond["verdict"], "beyond the posted")
        self.assertEqual({r["rule"] for r in rows.values()}, {"size"})
        text = self.report("fleet").stdout
        self.assertIn("| faster, short of the posted |", text)

    def test_combine_by_hand(self):
        # Three runs' speed-ups, their Welch interval, the words.
        def rows(ups, posted):
            return [{"speedup": x, "posted_speedup": posted} for x in ups]

        def word(ups, posted):
            return fleet.combine(rows(ups, posted), 0.05)[2]
        around2 = (1.98, 2.0, 2.02)
        self.assertEqual(word(around2, 2.5), "faster, short of the posted")
        self.assertEqual(word(around2, 2.0), "confirmed")
        self.assertEqual(word(around2, 1.5), "beyond the posted")
        self.assertEqual(word(around2, None), "faster")
        self.assertEqual(word((0.49, 0.5, 0.51), 2.5),
                         "reversed on this CPU")
        self.assertEqual(word((0.9, 1.0, 1.1), 2.5), "not confirmed")
        # A claim of a slow-down: faster is the other way.
        self.assertEqual(word(around2, 0.5), "reversed on this CPU")
        self.assertEqual(word((0.49, 0.5, 0.51), 0.5), "confirmed")
        # The interval's ends are within: judged in whole millionths, as
        # every interval's is (reportlib.verdict_words.vs_posted()), the lower
        # end rounded down and R a millionth past either end outside.
        geo, ci, _ = fleet.combine(rows(around2, None), 0.05)
        lo, hi = (math.floor(x * 1e6 + 1e-9) for x in ci)
        self.assertEqual(word(around2, ci[0]), "confirmed")
        self.assertEqual(word(around2, lo / 1e6), "confirmed")
        self.assertEqual(word(around2, hi / 1e6), "confirmed")
        self.assertEqual(word(around2, (lo - 1) / 1e6), "beyond the posted")
        self.assertEqual(word(around2, (hi + 1) / 1e6),
                         "faster, short of the posted")

    def test_add_stores_the_size_rule(self):
        path = self.write("s.log", log_text("intel", 16e6, 6e6, 1))
        self.assertEqual(self.report("add", path).returncode, 0)
        db = sqlite3.connect(self.db)
        rules = db.execute("SELECT rule, COUNT(*) FROM verdicts "
                           "GROUP BY rule").fetchall()
        db.close()
        self.assertEqual(len(rules), 1, rules)
        self.assertEqual(rules[0][0], "size")
        self.assertGreaterEqual(rules[0][1], 2)

    def test_a_history_from_before_the_size_rule_is_marked(self):
        # A history written after scope= but before the rule column: its
        # "confirmed" said the direction only, whatever the size.
        db = sqlite3.connect(self.db)
        db.executescript(OLD_TABLES + """, scope TEXT, processes INTEGER);
            INSERT INTO logs VALUES (1, 'x', 'old.log', 'Old CPU', 'Old',
                NULL, 'm1', '0.1', '{"platform": "host", "cpu": "Old"}',
                NULL);
            INSERT INTO logs VALUES (2, 'y', 'old2.log', 'Old CPU 2',
                'Old2', NULL, 'm2', '0.1',
                '{"platform": "host", "cpu": "Old2"}', NULL);
        """)
        claim = CLAIMS[0]
        for log_id, up, ci, word in ((1, 2.0, (1.9, 2.1), "confirmed"),
                                     (2, 0.5, (0.45, 0.55),
                                      "reversed on this CPU")):
            db.execute("INSERT INTO verdicts VALUES (?, ?, ?, 64, 'fsdax', "
                       "'dev', 'slow', 'tmpl_nt_fixed', ?, ?, ?, 0.001, ?, "
                       "?, 'processes', 8)",
                       (log_id, claim["subject"], claim["what"], up, *ci,
                        word, claim["ratio"]))
        db.commit()
        db.close()
        rows = self.rebind_rows()
        old = rows["Old CPU"]
        # 2.0x [1.9, 2.1] against a posted 2.52x: short of it by the size
        # rule; the stored word is shown as stored, marked, and is not
        # the size rule's confirmed.
        self.assertEqual((old["verdict"], old["unit"], old["rule"]),
                         ("confirmed (old rule: direction only)",
                          "8 processes", "direction"))
        self.assertNotEqual(old["verdict"], "confirmed")
        # A reversal is one under either rule: not marked.
        self.assertEqual(rows["Old CPU 2"]["verdict"],
                         "reversed on this CPU")
        text = self.report("fleet").stdout
        self.assertIn("| confirmed (old rule: direction only) |", text)
        self.assertNotIn("| confirmed |", text)
        # A log added now gets the column, and the rule, beside them.
        path = self.write("n.log", log_text("intel", 16e6, 6e6, 1))
        self.assertEqual(self.report("add", path).returncode, 0)
        db = sqlite3.connect(self.db)
        stored = db.execute("SELECT log_id, rule FROM verdicts WHERE "
                            "what = ? ORDER BY log_id",
                            (claim["what"],)).fetchall()
        db.close()
        self.assertEqual(stored, [(1, None), (2, None), (3, "size")])
        self.assertEqual(self.rebind_rows()["Old CPU"]["verdict"],
                         "confirmed (old rule: direction only)")

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
    """--compare A B: one run (one process) a side. Without --db nothing
    is tested, however tight each run's samples; with --db FILE, the
    difference is held to the between-run spread the history measured
    on that CPU model (Student's t with the history's degrees of
    freedom): 1% lies within four runs 1.5% apart, 15% does not."""

    HISTORY = (1.0, 1.02, 0.985, 1.01)

    def test_within_and_beyond_the_spread(self):
        with tempfile.TemporaryDirectory() as tmp:
            db = os.path.join(tmp, "h.db")
            # Four earlier runs of one build, 2% apart from each other.
            hist = []
            for k, f in enumerate(self.HISTORY):
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

            # The premise: the samples of A and B, 0.1% around medians 1%
            # apart, would call the 1% difference by themselves.
            recs = []
            for path in paths[:2]:
                with open(path) as f:
                    recs.append(parse_log(f.read(), path, "X").metrics[0])
            self.assertTrue(compare_samples(recs[0]["samples_ns"],
                                            recs[1]["samples_ns"])
                            ["significant"], "the premise: the samples' "
                            "own test calls 1%")
            # Without --db: one process a side, nothing tested.
            plain = row(paths[1])
            self.assertTrue(not plain["significant"]
                            and not plain["testable"]
                            and plain["p"] is None and plain["test"] is None
                            and plain["scope"] == "one-process"
                            and plain["n_a"] == plain["n_b"] == 1
                            and "cannot be seen" in plain["why"], plain)
            # With --db: Student's t against the history's spread.
            # Its spread: the history's runs' log medians, to within
            # their samples' 0.1%.
            logs = [math.log(f) for f in self.HISTORY]
            mean = sum(logs) / len(logs)
            sd = math.sqrt(sum((x - mean) ** 2 for x in logs)
                           / (len(logs) - 1))
            held = row(paths[1], "--db", db)
            self.assertTrue(held["testable"] and held["scope"] == "history"
                            and held["test"] == "history-t"
                            and not held["significant"]
                            and held["p"] >= 0.05
                            and held["within_spread"]
                            and abs(held["spread"] - math.expm1(sd)) < 2e-3
                            and held["ratio_ci"][0] < 1.01
                            < held["ratio_ci"][1], held)
            # Student's t with the history's 3 degrees of freedom (four
            # runs of one build), the difference of two single runs
            # spreading sqrt(2) times one run: the interval by hand.
            half = (stats.t.ppf(0.975, 3) * math.sqrt(2)
                    * math.log1p(held["spread"]))
            d = math.log(held["ratio"])
            self.assertTrue(all(abs(got - want) < 1e-9 for got, want in zip(
                held["ratio_ci"], (math.exp(d - half), math.exp(d + half)))),
                f"t interval, 3 df: {held['ratio_ci']}")
            big = row(paths[2], "--db", db)
            self.assertTrue(big["testable"] and big["scope"] == "history"
                            and big["significant"] and big["p"] < 0.05
                            and not big["within_spread"]
                            and 1.14 < big["ratio"] < 1.16
                            and big["ratio_ci"][0] > 1, big)


if __name__ == "__main__":
    unittest.main()
