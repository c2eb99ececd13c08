# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.compare, --compare with one log a side: the sample
logs without samples, two single-process logs (nothing tested, however
far their samples lie apart, and the report says how many logs a side a
test would need), two logs of six processes each (a planted change found
through the process medians, an A/A pair whose processes differ not
called different, the machine's move between the invocations), the
history's spread (--db) and a side of one log against several. tools/report
--selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import json
import math
import random
import re
import unittest

from reportlib import compare, level
from reportlib.compare import (
    compare_json,
    compare_replicated,
    compare_replicated_report,
    compare_report,
    compare_rows,
    identity,
    proc_medians,
    runs_needed,
    sign_test,
)
from reportlib.logs import parse_log
from reportlib.stats import compare_samples
from reportlib.synth import (
    SAMPLE_IMAGE_B,
    SYNTH_LIMIT,
    SYNTH_MEMMAP,
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    sample_host,
    sample_image_a,
    synth_log,
)


def scaled(factor, strategy="tmpl_nt_fixed"):
    """ZEN5_MEMMAP with @strategy's median times @factor."""
    return [(st, z, m, med * (factor if st == strategy else 1))
            for st, z, m, med in ZEN5_MEMMAP]


def json_by_what(a, b):
    return {d["what"]: d for d in compare_json(compare_rows(a, b)[0])}


def c_median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2


def procs_line(rng, ident, med, offsets, n, cv, medians=True):
    """A '# metric' line measured by len(@offsets) processes, as the
    issue 34 format prints it: process k's @n warm runs at @med times
    @offsets[k], log-normal of spread @cv; processes=, with 2 or more
    proc_medians_ns= (unless not @medians) and proc_spread=, then the
    P blocks of samples_ns=."""
    blocks = [[max(1, round(med * off * math.exp(rng.gauss(0, cv))))
               for _ in range(n)] for off in offsets]
    xs = [x for b in blocks for x in b]
    s = sorted(xs)
    line = (f"# metric {ident} runs={n + 1} first_ns={round(med * 3)} "
            f"median_ns={c_median(xs)} min_ns={s[0]} max_ns={s[-1]} "
            f"mean_ns={round(sum(xs) / len(xs))} stddev_ns=1 node=0 "
            f"processes={len(offsets)}")
    if len(offsets) > 1 and medians:
        meds = [c_median(b) for b in blocks]
        line += (f" proc_medians_ns={','.join(map(str, meds))} "
                 f"proc_spread={(max(meds) - min(meds)) / c_median(meds):.3f}")
    return line + " samples_ns=" + ",".join(map(str, xs))


def procs_log(seed, memmap, offsets, n=8, cv=0.01, pcv=0.0, limit=(),
              shift=1.0, label="A", medians=True):
    """A hosted log of len(@offsets) processes: every line's process k
    at @offsets[k] (times its own log-normal of spread @pcv) and times
    @shift (the machine that invocation); @memmap and @limit as for
    synth_log()."""
    rng = random.Random(seed)
    out = ["KTAP version 1", "1..2",
           f'# ntboot 0.1+gSYNTH platform=host cpu="{ZEN5}" smp=2']

    def line(ident, med):
        offs = [o * math.exp(rng.gauss(0, pcv)) for o in offsets]
        out.append(procs_line(rng, ident, med * shift, offs, n, cv,
                              medians))
    for strategy, size, mode, med in memmap:
        line(SYNTH_MEMMAP.format(strategy, size, size, mode,
                                 26214400 * size), med)
    for fill, variant, med in limit:
        line(SYNTH_LIMIT.format(fill, variant), med)
    out.append("ntboot: 2 passed, 0 failed, 0 skipped")
    return parse_log("\n".join(out) + "\n", f"{label}.log", label)


# The postings' words for a finding: "115.24 ms -> 80.06 ms (-30.5%, p=".
FINDING = re.compile(r"ms -> \S+ ms \([-+]\d+\.\d%, p=")


class WithoutSamples(unittest.TestCase):
    """The figures of "mm: use memcpy_nt() in zone-device template
    copies", from logs of older builds of the image (no samples_ns=, no
    processes=): one boot a side, nothing tested."""

    @classmethod
    def setUpClass(cls):
        a = sample_image_a()
        b = parse_log(SAMPLE_IMAGE_B, "sample-b.log", "B")
        cls.text, cls.n = compare_report(a, b)

    def test_lines_match_ignoring_runs(self):
        self.assertEqual(self.n, 6, f"6 matching lines, got {self.n}")

    def test_one_boot_a_side_untested(self):
        self.assertTrue("one boot of A against one boot of B" in self.text
                        and "None of the 6 lines is tested" in self.text
                        and not FINDING.search(self.text),
                        "older image logs: one boot a side, nothing tested")

    def test_table_row(self):
        self.assertTrue(re.search(r"\| bench_memmap_init \| "
                                  r"strategy=tmpl_nt_fixed page_size=64 "
                                  r"layout=64 bytes=1677721600 +\| +"
                                  r"96\.79 ms \| +80\.00 ms \| +0\.827 \| "
                                  r"+\? \| +- \| +1\+1 \|", self.text),
                        "compare table row")

    def test_claims_no_drift(self):
        self.assertIn("A: no samples_ns= on its lines (an older build)",
                      self.text, "without samples, no claim about drift")

    def test_shared_keys_are_listed_once(self):
        self.assertIn("- bench_memmap_init: mode=fsdax pages=26214400 "
                      "written=26214400 drain=on", self.text,
                      "shared keys listed once")

    def test_the_evicted_share_is_compared_in_points(self):
        h = sample_host()
        data = compare_json(compare_rows(h, h)[0])
        ev = [d for d in data if d["key"] == "evicted_pct"]
        self.assertTrue(ev and ev[0]["change"] == "+0.0 pts"
                        and not ev[0]["testable"],
                        f"evicted share compared, untested: {ev}")


class OneProcessASide(unittest.TestCase):
    """Two single-process logs of one build, the slow path's samples 30%
    apart (as two processes of one build at 100 GiB gave it): the
    samples' own test would call it, the report calls nothing
    significant, never writes it as the postings write a finding, and
    says what it stands on and how many logs a side a test needs."""

    @classmethod
    def setUpClass(cls):
        cls.a = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                    cv=0.02), "a", "A")
        cls.b = parse_log(synth_log(2, ZEN5, scaled(0.7, "slow"),
                                    ZEN5_NOCACHE, cv=0.02), "b", "B")
        cls.text, cls.n = compare_report(cls.a, cls.b)
        cls.data = json_by_what(cls.a, cls.b)

    def test_the_samples_alone_would_call_it(self):
        # The premise: a within-run test on these samples finds it.
        ra, rb = (next(r for r in log.metrics if r.get("strategy") == "slow")
                  for log in (self.a, self.b))
        st = compare_samples(ra["samples_ns"], rb["samples_ns"],
                             level.ALPHA)
        self.assertTrue(st["significant"] and st["p"] < 1e-4,
                        f"the U test of the samples calls it: {st}")

    def test_nothing_is_significant(self):
        d = self.data["strategy=slow"]
        self.assertTrue(self.n == 6
                        and not any(x["significant"] or x["testable"]
                                    or x["p"] is not None
                                    for x in self.data.values())
                        and d["scope"] == "one-process"
                        and abs(d["ratio"] - 0.7) < 0.05
                        and "cannot be seen" in d["why"],
                        f"one process a side: nothing significant: {d}")

    def test_the_report_says_what_it_stands_on(self):
        text = self.text
        self.assertTrue("one process of A against one process of B" in text
                        and "between-process variance cannot be seen" in text
                        and "None of the 6 lines is tested: no difference "
                            "here is called significant" in text
                        and "differ significantly" not in text,
                        f"what it stands on:\n{text}")

    def test_it_names_the_logs_a_side_a_test_needs(self):
        self.assertTrue(re.search(r"it would need at least 2 logs a side "
                                  r"\(tools/ab.*processes=N >= 2 in each "
                                  r"log.*Welch's test finds a change of "
                                  r"3\.0 between-run standard deviations "
                                  r"with 3 runs a side, 2\.0 with 5, 1\.3 "
                                  r"with 10", self.text),
                        f"how many logs a side:\n{self.text}")

    def test_no_line_written_as_a_finding(self):
        self.assertTrue(not FINDING.search(self.text)
                        and "As the postings write it" not in self.text
                        and re.search(r"\| strategy=slow +\| +\d+\.\d\d ms "
                                      r"\| +\d+\.\d\d ms \| +0\.\d+ \| +\? "
                                      r"\|", self.text),
                        f"no finding in the postings' words:\n{self.text}")

    def test_a_run_that_drifted_is_still_named(self):
        drifted = parse_log(synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                      cv=0.02, drift=(1.1, 1.1, 1, 1)),
                            "a", "A")
        steady = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                     cv=0.02), "b", "B")
        text, _ = compare_report(drifted, steady)
        self.assertTrue("A drifted during its run" in text
                        and "B held steady" in text
                        and "None of the 6 lines is tested" in text,
                        "a run that drifted is named, nothing tested")


class SixProcessesASide(unittest.TestCase):
    """Two logs of six processes each (processes=6, proc_medians_ns=):
    the process medians are the runs. A 10% slower line is found; an
    A/A pair whose processes sit at offsets of their own (up to 8%
    apart, far beyond each process's 1% scatter) is not called
    different, though the pooled samples' own test would."""

    OFFSETS_A = (0.92, 0.96, 1.0, 1.04, 1.08, 1.0)
    OFFSETS_B = (0.95, 0.99, 1.03, 1.07, 1.11, 1.03)

    @classmethod
    def setUpClass(cls):
        cls.a = procs_log(21, ZEN5_MEMMAP, (1.0,) * 6, pcv=0.02)

    def test_a_10_percent_slower_line_is_found(self):
        b = procs_log(22, scaled(1.1), (1.0,) * 6, pcv=0.02, label="B")
        data = json_by_what(self.a, b)
        d = data["strategy=tmpl_nt_fixed"]
        self.assertTrue(d["significant"] and d["scope"] == "processes"
                        and d["test"] == "welch"
                        and d["n_a"] == 6 and d["n_b"] == 6
                        and 1.05 < d["ratio"] < 1.15
                        and d["ratio_ci"][0] > 1 and d["mde"] < 0.1,
                        f"a 10% slower line found: {d}")
        self.assertFalse(any(x["significant"] for w, x in data.items()
                             if w != "strategy=tmpl_nt_fixed"),
                         f"the unchanged lines: {data}")
        text, _ = compare_report(self.a, b)
        self.assertTrue("6 processes of A against 6 of B, one invocation a "
                        "side" in text
                        and "1 of 4 tested lines differ significantly" in text
                        and re.search(r"strategy=tmpl_nt_fixed: 1\d\d\.\d\d "
                                      r"ms -> 1\d\d\.\d\d ms \(\+\d+\.\d%, "
                                      r"p=\S+ n=6\+6 processes\)", text)
                        and "Minimum detectable effect at the spread seen"
                            in text,
                        f"the report of six processes a side:\n{text}")

    def test_the_medians_from_the_samples_blocks(self):
        b = procs_log(22, scaled(1.1), (1.0,) * 6, pcv=0.02, label="B",
                      medians=False)
        d = json_by_what(self.a, b)["strategy=tmpl_nt_fixed"]
        self.assertTrue(d["significant"] and d["scope"] == "processes",
                        f"without proc_medians_ns=, the samples' blocks: {d}")

    def test_an_a_a_pair_with_process_offsets_is_not_different(self):
        a = procs_log(31, ZEN5_MEMMAP, self.OFFSETS_A, cv=0.005)
        b = procs_log(32, ZEN5_MEMMAP, self.OFFSETS_B, cv=0.005, label="B")
        pooled = [compare_samples(ra["samples_ns"], rb["samples_ns"],
                                  level.ALPHA)["significant"]
                  for ra, rb in zip(a.metrics, b.metrics)]
        data = compare_json(compare_rows(a, b)[0])
        self.assertTrue(all(pooled), "the premise: the pooled samples' "
                        f"own test calls every line: {pooled}")
        self.assertTrue(all(d["testable"] and not d["significant"]
                            and d["scope"] == "processes" for d in data),
                        "A/A with process offsets: nothing significant, "
                        f"got {[(d['what'], d['p']) for d in data]}")

    def test_one_side_of_six_against_one_process(self):
        one = parse_log(synth_log(1, ZEN5, scaled(0.7), cv=0.02), "b", "B")
        text, _ = compare_report(self.a, one)
        d = json_by_what(self.a, one)["strategy=tmpl_nt_fixed"]
        self.assertTrue(not d["testable"] and not d["significant"]
                        and d["spread"] is not None and d["runs_needed"]
                        and "6 processes of A against one process of B"
                        in text and not FINDING.search(text),
                        f"six processes against one: untested: {d}")


class MachineMoved(unittest.TestCase):
    """Six processes a side, the machine 8% slower for all of B's
    invocation, the limit fills with it: they moved together (6 of 6
    slower, sign test p = 2/64), and every line within their move is
    "~ machine"; a line 25% slower on top is still found."""

    FILLS = [("limit_cached", "tmpl_mov_64", 65e6),
             ("limit_stosb", "rep_stosb", 55e6),
             ("limit_nt64", "tmpl_movnti_64", 66e6),
             ("limit_nt128", "tmpl_sse2_64", 60e6),
             ("limit_nt256", "tmpl_avx_64", 57e6),
             ("limit_nt512", "tmpl_avx512_64", 58e6)]

    @classmethod
    def setUpClass(cls):
        cls.a = procs_log(9, ZEN5_MEMMAP, (1.0,) * 6, pcv=0.02,
                          limit=cls.FILLS)

    def slower_b(self, memmap):
        return procs_log(10, memmap, (1.0,) * 6, pcv=0.02, limit=self.FILLS,
                         shift=1.08, label="B")

    def test_lines_within_the_fills_move_are_not_significant(self):
        b = self.slower_b(ZEN5_MEMMAP)
        text, _ = compare_report(self.a, b)
        data = compare_json(compare_rows(self.a, b)[0])
        memmap = [d for d in data if d["suite"] == "bench_memmap_init"]
        self.assertTrue(re.search(r"of its 6 limit fills .* 6 are slower in "
                                  r"B and 0 faster .*sign test p=0\.031\)\. "
                                  r"The fills moved together", text)
                        and all(d["machine_moved"] for d in data)
                        and all(d["within_machine"]
                                and not d["significant"] for d in memmap)
                        and "| ~ machine |" in text,
                        "a machine 8% slower in B: held to the fills: "
                        f"{[(d['what'], d['ratio'], d['p']) for d in data]}")

    def test_a_change_beyond_the_machines_move_is_still_found(self):
        b = self.slower_b(scaled(1.25))
        d = json_by_what(self.a, b)["strategy=tmpl_nt_fixed"]
        self.assertTrue(d["significant"] and not d["within_machine"]
                        and d["machine_moved"],
                        f"a line 25% slower on a machine that moved: {d}")

    def test_sign_test_by_hand(self):
        self.assertTrue(abs(sign_test(6, 0) - 2 / 64) < 1e-12
                        and abs(sign_test(5, 1) - 14 / 64) < 1e-12
                        and sign_test(3, 3) == 1.0
                        and sign_test(0, 0) == 1.0,
                        "sign test by hand: 6-0 is 2/64, 5-1 is 14/64")


class HistorySpread(unittest.TestCase):
    """--db: one process a side held to the between-run spread the
    history measured (2%, 10 degrees of freedom): 1% lies within it, 15%
    does not."""

    def setUp(self):
        self.a = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, cv=0.02), "a",
                           "A")
        for rec in self.a.metrics:
            compare.SPREADS[json.dumps(identity(rec))] = (0.02, 10)

    def tearDown(self):
        compare.SPREADS.clear()

    def test_within_and_beyond_the_spread(self):
        for factor, found in ((1.01, False), (1.15, True)):
            with self.subTest(factor=factor):
                b = parse_log(synth_log(1, ZEN5, scaled(factor), cv=0.02),
                              "b", "B")
                d = json_by_what(self.a, b)["strategy=tmpl_nt_fixed"]
                self.assertTrue(d["testable"] and d["scope"] == "history"
                                and d["significant"] == found
                                and d["within_spread"] == (not found),
                                f"B/A {factor} against a 2% spread: {d}")


class OneLogAgainstSeveral(unittest.TestCase):
    """--compare A -- B1 B2 B3: a side of one log counts its processes
    (processes=6: tested), else nothing shows its between-run variance
    (not tested, the other side's spread and what a test needs)."""

    @classmethod
    def setUpClass(cls):
        cls.b = [procs_log(40 + k, scaled(1.2), (1.0,), pcv=0.02,
                           label=f"B{k + 1}") for k in range(3)]

    def test_six_processes_against_three_logs(self):
        a = procs_log(50, ZEN5_MEMMAP, (1.0,) * 6, pcv=0.02)
        pairs, _, _ = compare_replicated([a], self.b)
        st = {r["what"]: s for r, s in pairs}["strategy=tmpl_nt_fixed"]
        self.assertTrue(st["testable"] and st["significant"]
                        and st["n_a"] == 6 and st["n_b"] == 3,
                        f"one log of six processes against three: {st}")

    def test_one_process_against_three_logs(self):
        a = procs_log(50, ZEN5_MEMMAP, (1.0,), pcv=0.02)
        pairs, _, _ = compare_replicated([a], self.b)
        text, _ = compare_replicated_report([a], self.b)
        self.assertTrue(all(not s["testable"] and not s["significant"]
                            and "spread" in s for _, s in pairs)
                        and "A is one log" in text
                        and "between-run variance cannot be seen" in text
                        and "0 of 4 lines differ significantly" in text,
                        f"one process against three logs:\n{text}")


class Helpers(unittest.TestCase):
    def test_identity_leaves_out_results(self):
        # bench_memmap_parallel's gbps_per_cpu= is a result: two runs of
        # one configuration match whatever each measured.
        a = {"suite": "bench_memmap_parallel", "strategy": "slow",
             "cpus": 2, "median_ns": 10, "gbps": 1.5, "gbps_per_cpu": 0.75}
        b = dict(a, median_ns=12, gbps=1.25, gbps_per_cpu=0.62)
        self.assertEqual(identity(a), identity(b))
        self.assertEqual(identity(a), (("suite", "bench_memmap_parallel"),
                                       ("strategy", "slow"), ("cpus", 2)))

    def test_process_medians(self):
        rec = {"processes": 2, "samples_ns": [5, 1, 3, 10, 20, 40]}
        self.assertEqual(proc_medians(rec), [3, 20], "from the blocks")
        # The samples decide (--check-verdicts names a line whose own
        # proc_medians_ns= disagrees); without them, the printed ones.
        rec["proc_medians_ns"] = [4, 21]
        self.assertEqual(proc_medians(rec), [3, 20], "the blocks first")
        del rec["samples_ns"]
        self.assertEqual(proc_medians(rec), [4, 21], "as printed")
        self.assertIsNone(proc_medians({"samples_ns": [1, 2, 3]}),
                          "no processes=: one process")
        even = {"processes": 2, "samples_ns": [1, 4, 10, 13]}
        self.assertEqual(proc_medians(even), [2, 11],
                         "an even block: the integer mean of the middle two")

    def test_processes_do_not_part_lines(self):
        a = procs_log(1, ZEN5_MEMMAP, (1.0,) * 6)
        b = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP), "b", "B")
        self.assertEqual(len(compare_rows(a, b)[0]), 4,
                         "a line of six processes matches one of one")

    def test_runs_needed(self):
        # 5 a side: (t(0.975, 8) + t(0.8, 8)) sqrt(2/5) = 2.02 sd.
        self.assertEqual(runs_needed(0.05, math.exp(0.102), 0.05), 5)
        self.assertEqual(runs_needed(0.05, math.exp(0.100), 0.05), 6)
        self.assertIsNone(runs_needed(0.05, 1.0, 0.05), "no change")
        self.assertIsNone(runs_needed(1.0, 1.001, 0.05), "beyond the most")


if __name__ == "__main__":
    unittest.main()
