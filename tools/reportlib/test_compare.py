# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.compare, --compare with one log a side: the sample
logs without samples, a build against itself and against a real change,
a run that drifted, a machine that moved between the runs (the limit
fills' sign test) and too few samples. tools/report --selftest runs
them, as does python3 -m unittest discover -s tools/reportlib -t tools
"""
import re
import unittest

from reportlib import level
from reportlib.compare import (
    compare_json,
    compare_report,
    compare_rows,
    sign_test,
)
from reportlib.logs import parse_log
from reportlib.synth import (
    SAMPLE_IMAGE_B,
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    sample_host,
    sample_image_a,
    synth_log,
)


def scaled(factor):
    """ZEN5_MEMMAP with tmpl_nt_fixed's median times @factor."""
    return [(st, z, m, med * (factor if st == "tmpl_nt_fixed" else 1))
            for st, z, m, med in ZEN5_MEMMAP]


def json_by_what(a, b):
    return {d["what"]: d for d in compare_json(compare_rows(a, b)[0])}


class WithoutSamples(unittest.TestCase):
    """The figures of "mm: use memcpy_nt() in zone-device template
    copies", from logs of older builds (no samples_ns=)."""

    @classmethod
    def setUpClass(cls):
        a = sample_image_a()
        b = parse_log(SAMPLE_IMAGE_B, "sample-b.log", "B")
        cls.text, cls.n = compare_report(a, b)

    def test_lines_match_ignoring_runs(self):
        self.assertEqual(self.n, 6, f"6 matching lines, got {self.n}")

    def test_a_line_as_the_postings_write_it_untested(self):
        self.assertIn("244.28 ms -> 96.79 ms (-60.4% ?, not tested: no "
                      "samples_ns= in A and B)", self.text,
                      "a line as the postings write it, runs= ignored for "
                      "matching, untested")

    def test_table_row(self):
        self.assertTrue(re.search(r"\| bench_memmap_init \| "
                                  r"strategy=tmpl_nt_fixed page_size=64 "
                                  r"layout=64 bytes=1677721600 +\| +"
                                  r"96\.79 ms \| +80\.00 ms \| +0\.827 \| "
                                  r"+-17\.3% \? \| +- \| +- \|", self.text),
                        "compare table row")

    def test_says_it_tested_nothing_and_claims_no_drift(self):
        self.assertIn("6 of 6 lines were not tested", self.text,
                      "without samples, the comparison says it tested "
                      "nothing")
        self.assertIn("A: no samples_ns= on its lines (an older build)",
                      self.text, "without samples, no claim about drift")

    def test_shared_keys_are_listed_once(self):
        self.assertIn("- bench_memmap_init: mode=fsdax pages=26214400 "
                      "written=26214400 drain=on", self.text,
                      "shared keys listed once")

    def test_the_evicted_share_is_compared_in_points(self):
        h = sample_host()
        text, _ = compare_report(h, h)
        self.assertIn("100.0% -> 100.0% (+0.0 pts ?", text,
                      "evicted share compared")


class OneBuild(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE),
                          "a", "A")

    def test_two_runs_of_one_build_at_most_one_line_by_chance(self):
        # A line may come out significant by chance (alpha of them, by
        # design), not more.
        same = parse_log(synth_log(2, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE), "b",
                         "B")
        _, n = compare_report(self.a, same)
        data = compare_json(compare_rows(self.a, same)[0])
        self.assertTrue(n == 6 and all(d["testable"] for d in data)
                        and sum(d["significant"] for d in data) <= 1,
                        "two runs of one build: at most one line of six "
                        "significant, got "
                        f"{[(d['what'], d['p']) for d in data]}")

    def test_a_log_against_itself(self):
        text, n = compare_report(self.a, self.a)
        data = compare_json(compare_rows(self.a, self.a)[0])
        self.assertTrue(n == 6 and all(not d["significant"] and d["p"] == 1
                                       for d in data),
                        "a log against itself: p = 1")
        self.assertTrue(all(re.search(r"\| +~ \|", line)
                            for line in text.splitlines()
                            if line.startswith("| bench_")),
                        "a log against itself: every change is ~")
        self.assertTrue(all(d["ratio_ci"][0] <= 1 <= d["ratio_ci"][1]
                            for d in data),
                        "a log against itself: every ratio CI holds 1")

    def test_a_20_percent_faster_line_is_significant(self):
        b = parse_log(synth_log(3, ZEN5, scaled(0.8), ZEN5_NOCACHE), "b",
                      "B")
        data = json_by_what(self.a, b)
        d = data.get("strategy=tmpl_nt_fixed")
        self.assertTrue(d and d["significant"] and d["ratio"] < 1
                        and d["ratio_ci"][1] < 1 and d["n_a"] == 15
                        and d["n_b"] == 15
                        and set(d) >= {"median_a", "median_b", "ratio",
                                       "ratio_ci", "significant", "p"},
                        f"a 20% faster line is significant: {d}")
        self.assertLessEqual(sum(x["significant"] for w, x in data.items()
                                 if w != "strategy=tmpl_nt_fixed"), 1,
                             "the unchanged lines: at most one significant "
                             "by chance")
        text, _ = compare_report(self.a, b)
        self.assertTrue(re.search(r"strategy=tmpl_nt_fixed: 1\d\d\.\d\d ms "
                                  r"-> \d+\.\d\d ms \(-\d+\.\d%, p=\S+ "
                                  r"n=15\+15\)", text),
                        "a line as the postings write it, with p and n")

    def test_a_steady_run_is_not_called_drifted(self):
        steady = parse_log(synth_log(8, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                     cv=0.02), "c", "C")
        data = compare_json(compare_rows(steady, steady)[0])
        self.assertFalse(any(d["run_drifted_a"] or d["drift_bound"]
                             for d in data),
                         f"a steady run is not called drifted: {data[0]}")

    def test_too_few_samples_give_a_reason_not_a_verdict(self):
        few = parse_log(synth_log(4, ZEN5, ZEN5_MEMMAP, n=3), "c", "C")
        text, _ = compare_report(few, few)
        self.assertTrue("too few samples" in text and "| ~ |" not in text,
                        "3 samples: no verdict, a reason")


class DriftedRun(unittest.TestCase):
    """Two runs of one build; the machine was 10% slower during the first
    half of run A and steady during B: the U test alone calls every line
    different, the drift guard none (A drifted by about 10% on every
    line); a 25% faster line is still found."""

    @classmethod
    def setUpClass(cls):
        cls.a = parse_log(synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                    cv=0.02, drift=(1.1, 1.1, 1, 1)),
                          "a", "A")
        b = parse_log(synth_log(6, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02),
                      "b", "B")
        cls.data = compare_json(compare_rows(cls.a, b)[0])
        cls.plain = sum(d["p"] < level.ALPHA for d in cls.data)
        cls.text, _ = compare_report(cls.a, b)

    def test_one_build_is_held_to_the_drift(self):
        data, plain = self.data, self.plain
        seen = [(d["what"], d["p"], d["drift_bound"]) for d in data]
        self.assertTrue(all(d["run_drifted_a"] and not d["run_drifted_b"]
                            for d in data)
                        and plain >= 5
                        and not any(d["significant"] for d in data)
                        and sum(d["within_drift"] for d in data) == plain,
                        f"one build, drifting machine: {plain} of "
                        f"{len(data)} lines significant by the U test, none "
                        f"with the drift guard: {seen}")

    def test_the_report_says_which_run_drifted(self):
        text = self.text
        self.assertTrue("A drifted during its run" in text
                        and "B held steady" in text
                        and "| ~ drift |" in text
                        and f"0 of {len(self.data)} lines differ "
                            f"significantly; {self.plain} more" in text,
                        "the report says which run drifted")

    def test_a_25_percent_faster_line_is_still_found(self):
        b = parse_log(synth_log(7, ZEN5, scaled(0.75), ZEN5_NOCACHE,
                                cv=0.02), "b", "B")
        d = json_by_what(self.a, b)["strategy=tmpl_nt_fixed"]
        self.assertTrue(d["significant"] and not d["within_drift"]
                        and d["ratio"] < 0.8,
                        f"a 25% faster line on a drifting machine: {d}")


class MachineMoved(unittest.TestCase):
    """The machine 8% slower for all of run B, the limit fills with it:
    they moved together (6 of 6 slower, sign test p = 2/64), and every
    line within their move is "~ machine"; a line 25% slower on top, or
    20% faster against the machine's move, is still found."""

    FILLS = [("limit_cached", "tmpl_mov_64", 65e6),
             ("limit_stosb", "rep_stosb", 55e6),
             ("limit_nt64", "tmpl_movnti_64", 66e6),
             ("limit_nt128", "tmpl_sse2_64", 60e6),
             ("limit_nt256", "tmpl_avx_64", 57e6),
             ("limit_nt512", "tmpl_avx512_64", 58e6)]

    @classmethod
    def setUpClass(cls):
        cls.a = parse_log(synth_log(9, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                    cv=0.02, limit=cls.FILLS), "a", "A")

    def slower_b(self, memmap):
        return parse_log(synth_log(10, ZEN5, memmap, ZEN5_NOCACHE, cv=0.02,
                                   drift=(1.08,) * 4, limit=self.FILLS),
                         "b", "B")

    def test_lines_within_the_fills_move_are_not_significant(self):
        b = self.slower_b(ZEN5_MEMMAP)
        text, _ = compare_report(self.a, b)
        data = compare_json(compare_rows(self.a, b)[0])
        plain = sum(d["p"] < level.ALPHA for d in data)
        seen = [(d["what"], d["ratio"], d["significant"]) for d in data]
        self.assertTrue(re.search(r"limit fills \(6 bench_limit lines.*moved "
                                  r"by \+[789]\.\d% .*6 slower, 0 faster, "
                                  r"sign test p=0\.031.*Of all 12 lines, 12 "
                                  r"are slower in B and 0 faster\. The fills "
                                  r"moved together", text)
                        and plain >= 10
                        and not any(d["significant"] for d in data)
                        and all(d["machine_moved"] for d in data)
                        and sum(d["within_machine"] for d in data) == plain
                        and "| ~ machine |" in text,
                        f"a machine 8% slower in B: {plain} lines "
                        "significant by the U test, none once the fills "
                        f"show the machine moved: {seen}")

    def test_a_change_beyond_the_machines_move_is_still_found(self):
        for factor, why in ((1.25, "25% slower on top"),
                            (0.8, "20% faster against the machine's move")):
            with self.subTest(why=why):
                b = self.slower_b(scaled(factor))
                d = json_by_what(self.a, b)["strategy=tmpl_nt_fixed"]
                self.assertTrue(d["significant"] and not d["within_machine"]
                                and d["machine_moved"],
                                f"a line {why} on a machine that moved: {d}")

    def test_on_a_steady_machine_the_fills_did_not_move(self):
        b = parse_log(synth_log(11, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02,
                                limit=self.FILLS), "b", "B")
        text, _ = compare_report(self.a, b)
        data = compare_json(compare_rows(self.a, b)[0])
        self.assertTrue("limit fills (6 bench_limit lines" in text
                        and "moved together" not in text
                        and not any(d["machine_moved"] or d["within_machine"]
                                    for d in data),
                        "a steady machine: the fills did not move")

    def test_sign_test_by_hand(self):
        self.assertTrue(abs(sign_test(6, 0) - 2 / 64) < 1e-12
                        and abs(sign_test(5, 1) - 14 / 64) < 1e-12
                        and sign_test(3, 3) == 1.0
                        and sign_test(0, 0) == 1.0,
                        "sign test by hand: 6-0 is 2/64, 5-1 is 14/64")


if __name__ == "__main__":
    unittest.main()
