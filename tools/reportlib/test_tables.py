# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.tables: the Markdown tables of the sample logs of
reportlib.synth, suite by suite, the JSON and CSV output and the litmus
section. tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import csv
import io
import json
import re
import unittest

from reportlib.formatting import BYTES_NOTE
from reportlib.html import render_markdown
from reportlib.logs import parse_log
from reportlib.synth import (
    ZEN5,
    ZEN5_MEMMAP,
    sample_host,
    sample_image_a,
    synth_log,
)
from reportlib.tables import (
    FORBIDDEN_SEEN,
    NOT_OBSERVED,
    OBSERVED,
    csv_report,
    json_report,
    limit_context,
    litmus_section,
    markdown_report,
)

# A case's own litmus lines, after the lines of its engine self-test
# (another case, iters=4); a forbidden outcome seen; an allowed one not.
LITMUS_LOG = ('# ntboot 0.1 cpu="Example Xeon" smp=2\n'
              "  # litmus test=MP+nt layout=sep cpus=0,1 pair=core "
              "iters=4 outcome=1:x=0,1:y=1 count=4 allowed\n"
              "  ok 1 engine_counts\n"
              "    # litmus test=MP+nt layout=sep cpus=0,1 pair=core "
              "iters=1000 outcome=1:x=0,1:y=1 count=7 allowed\n"
              "  ok 2 MP+nt.sep\n"
              "    # litmus test=CoWWx+nt layout=one cpus=0,1 "
              "pair=core iters=1000 outcome=x=1 count=1 forbidden\n"
              "  not ok 3 CoWWx+nt\n"
              "    # litmus test=SB layout=sep cpus=0,1 pair=core "
              "iters=1000 outcome=0:y=0,1:x=0 count=0 allowed\n"
              "  ok 4 SB.sep\n")

QEMU_LOG = ('# ntboot 0.1 cpu="QEMU TCG CPU version 2.5+"\n'
            "    # litmus test=SB layout=sep cpus=0,1 pair=core "
            "iters=10 outcome=0:y=0,1:x=0 count=0 allowed\n"
            "  ok 1 SB.sep\n")

# A memmap_smp line: stale_rounds= and the verdict word to fill in.
SMP_LINE = ("    # memmap_smp strategy=tmpl_nt_fixed page_size=64 "
            "mode=fsdax cpus=1,0 pair=core pfns=512 place=fixed "
            "noise=0 check_pages=16 rounds=20000 drain=off nt=1 "
            "write_ns=1 round_ns=2 stale_rounds={} stale_pages=3 "
            "max_stale=1 verifies=3 verify_fails=0 {}\n")


def table_rows(section):
    """The body rows of the Markdown table in @section."""
    return [ln for ln in section.splitlines() if ln.startswith("| ")][1:]


class Litmus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lit = parse_log(LITMUS_LOG, "lit.log", "L")
        cls.sec = "\n".join(litmus_section([cls.lit]))
        cls.rows = table_rows(cls.sec)

    def test_a_case_counts_its_own_lines_not_its_engine_selftests(self):
        lit = self.lit
        self.assertTrue(lit.litmus.get("MP+nt.sep", {}).get("count") == 7
                        and lit.litmus["MP+nt.sep"]["iters"] == 1000,
                        f"litmus: the case's own lines only: {lit.litmus}")

    def test_a_forbidden_outcome_seen_comes_first(self):
        self.assertTrue(self.rows and "CoWWx+nt" in self.rows[0]
                        and FORBIDDEN_SEEN in self.rows[0],
                        f"litmus: a forbidden outcome seen is not "
                        f"first:\n{self.sec}")

    def test_allowed_outcomes_not_seen_are_named_and_counted(self):
        self.assertTrue(any("SB.sep" in r and NOT_OBSERVED in r
                            for r in self.rows)
                        and "1 of 2 allowed relaxations observed" in self.sec,
                        f"litmus: allowed but unseen, and the count:\n"
                        f"{self.sec}")

    def test_an_emulated_cpu_says_it_shows_nothing(self):
        qemu = parse_log(QEMU_LOG, "q.log", "Q")
        self.assertIn("emulated CPU", "\n".join(litmus_section([qemu])),
                      "litmus: a QEMU log does not say TCG shows nothing")


class MemmapSmp(unittest.TestCase):
    """memmap_smp lines join the litmus table, summed over the logs of
    one CPU."""

    @classmethod
    def setUpClass(cls):
        smp = [parse_log('# ntboot 0.1 cpu="Example Xeon"\n'
                         + SMP_LINE.format(n, "allowed")
                         + SMP_LINE.format(0, "allowed").replace(
                             "tmpl_nt_fixed", "fill_movnti")
                         + SMP_LINE.format(k, "forbidden").replace(
                             "drain=off", "drain=on"),
                         f"s{n}.log", "S") for n, k in ((5, 0), (2, 1))]
        cls.sec = "\n".join(litmus_section(smp))
        cls.rows = table_rows(cls.sec)

    def test_a_forbidden_stale_page_comes_first(self):
        rows = self.rows
        self.assertTrue(rows and "drain=on" in rows[0]
                        and FORBIDDEN_SEEN in rows[0] and "1/40000" in rows[0],
                        f"memmap_smp: a forbidden stale page is not "
                        f"first:\n{self.sec}")

    def test_rows_are_summed_over_the_logs(self):
        rows = self.rows
        self.assertTrue(any("tmpl_nt_fixed 64 fsdax drain=off" in r
                            and "7/40000" in r and OBSERVED in r
                            for r in rows)
                        and any("fill_movnti" in r and NOT_OBSERVED in r
                                for r in rows),
                        f"memmap_smp: rows summed over logs:\n{self.sec}")


class Markdown(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = sample_image_a()
        cls.h = sample_host()
        cls.md = markdown_report([cls.a])
        cls.mdh = markdown_report([cls.h])

    def test_a_section_per_suite_memmap_first(self):
        md = self.md
        self.assertTrue("## bench_memmap_init" in md
                        and "## bench_limit" in md, "suite sections")
        self.assertLess(md.index("## bench_memmap_init"),
                        md.index("## bench_limit"), "memmap table first")

    def test_memmap_row_has_every_column(self):
        md = self.md
        self.assertTrue("| tmpl_nt_fixed |" in md.replace("  ", " ")
                        or re.search(r"\| tmpl_nt_fixed +\|", md),
                        "strategy rows")
        self.assertTrue(re.search(r"\| tmpl_nt_fixed +\| +96\.79 ms \| +- "
                                  r"\| +- \| +1\.27 s \| +3\.692 \| "
                                  r"+17\.33 \| +2\.52x \| +82\.6% \|", md),
                        "memmap row: median, CI, n, first, ns/page, GB/s, "
                        "vs slow, % of limit")

    def test_a_line_of_several_processes_has_their_interval(self):
        # 8 processes of 10 warm runs, 20% apart: the interval of the
        # median is that of the 8 process medians (order statistics: at
        # 8, the smallest to the largest), not of the 80 samples.
        log = parse_log(synth_log(4, ZEN5, ZEN5_MEMMAP[:1], n=10, cv=0.01,
                                  processes=8, machine_cv=0.2), "p", "P")
        rec = log.metrics[0]
        meds = sorted(rec["proc_medians_ns"])
        md = markdown_report([log])
        row = next(r for r in table_rows(md) if "| slow " in r)
        self.assertIn("| 80 in 8 |", row)
        lo, hi = (float(x) for x in re.search(
            r"\[([0-9.]+) ms, ([0-9.]+) ms\]", row).groups())
        self.assertAlmostEqual(lo, meds[0] / 1e6, delta=0.01)
        self.assertAlmostEqual(hi, meds[-1] / 1e6, delta=0.01)

    def test_lines_without_samples_say_intervals_need_them(self):
        self.assertIn("Lines without samples_ns=", self.md,
                      "older logs: CIs need samples")

    def test_a_memmap_table_per_page_size_and_mode(self):
        md = self.md
        self.assertIn("### page_size=80 mode=fsdax pages=26214400", md,
                      "one table per page size and mode")
        self.assertTrue(re.search(r"\| tmpl_nt_fixed +\| +120\.00 ms "
                                  r".* 2\.50x", md),
                        "vs slow within the 80-byte group")

    def test_every_suite_says_which_bytes_are_counted(self):
        self.assertGreaterEqual(self.md.count(BYTES_NOTE), 2,
                                "bytes counted note in every suite")

    def test_nocache_pivot_has_chunks_as_sorted_columns(self):
        mdh = self.mdh
        self.assertTrue(re.search(r"\| nocache +\| +186 \(0\.88x\) \| "
                                  r"+11185 \(2\.67x\) \|", mdh),
                        "nocache pivot: chunks as columns")
        self.assertTrue(re.search(r"\| method +\| +64 B chunk \| +4 KiB "
                                  r"chunk \|", mdh),
                        "nocache pivot header, chunks sorted")

    def test_pollution_pivot(self):
        mdh = self.mdh
        self.assertTrue(re.search(r"\| tmpl_nt_fixed +\| +1\.9% \| +- \|",
                                  mdh)
                        and re.search(r"\| slow +\| +100\.0% \| +na \|",
                                      mdh),
                        "pollution pivot")

    def test_failed_tests_are_flagged(self):
        self.assertIn("**1 failed tests**", self.mdh, "failed tests flagged")

    def test_other_suites_get_a_generic_table(self):
        self.assertTrue("## custom_probe" in self.mdh
                        and "two words" in self.mdh,
                        "other suites: generic table")

    def test_several_logs_are_labelled(self):
        md2 = markdown_report([self.a, self.h])
        self.assertTrue("- A: `sample-a.log`" in md2
                        and "### A: page_size=64" in md2,
                        "several logs are labelled")

    def test_a_fill_says_where_it_was_timed(self):
        self.assertTrue(re.search(r"\| limit_nt512 +\| bench_limit alone "
                                  r"+\|", self.md),
                        "a fill timed by bench_limit alone says so")
        rec = dict(self.a.metrics[-1], **{"for": "bench_memmap_init",
                                          "page_size": 64, "mode": "fsdax"})
        self.assertEqual(limit_context(rec), "bench_memmap_init rounds, "
                         "page_size=64 mode=fsdax",
                         "a fill timed in the memmap rounds says so")

    def test_a_strategy_faster_than_every_fill_is_flagged(self):
        # Both from beats_limit=1 and, for older logs, from limit_frac
        # above 1.
        zen = parse_log(synth_log(14, ZEN5, ZEN5_MEMMAP), "z", "Z")
        zen.metrics[1]["limit_frac"], zen.metrics[1]["beats_limit"] = 1.071, 1
        zen.metrics[2]["limit_frac"] = 1.02
        zen.metrics[3]["limit_frac"], zen.metrics[3]["beats_limit"] = 0.97, 0
        md = markdown_report([zen])
        self.assertTrue(re.search(r"\| tmpl_memcpy +\|.*\| 107\.1% "
                                  r"\*\*beats the limit\*\* \|", md)
                        and re.search(r"\| tmpl_nt_generic +\|.*\| "
                                      r"102\.0% \*\*beats", md)
                        and re.search(r"\| tmpl_nt_fixed +\|.*\| +97\.0% \|",
                                      md)
                        and "tmpl_memcpy, tmpl_nt_generic wrote these bytes "
                            "faster than every fill" in md,
                        "limit_frac above 1 is flagged, 0.97 is not")


class KernelContenders(unittest.TestCase):
    """Every build of the kernel's code (manifest/strategies.yaml's
    kernels:, and one from a kernel_patch= file, kp_<stem>, in no
    manifest) is a contender like the model's strategies: the markdown
    table, --json and the HTML page list each, the series' and the
    patch file's beside the stock kernel's."""

    @classmethod
    def setUpClass(cls):
        text = synth_log(11, ZEN5, [("slow", 64, "fsdax", 40e6),
                                    ("kernel", 64, "fsdax", 42e6),
                                    ("kernel_series", 64, "fsdax", 17e6),
                                    ("kp_v6_0008_mm", 64, "fsdax", 23e6)])
        cls.log = parse_log(text, "kernels.log", "K")
        cls.md = markdown_report([cls.log])

    def test_the_table_has_a_row_of_each(self):
        # each with its own median (42 and 17 ms planted) and vs slow
        self.assertRegex(self.md, r"(?m)^\| kernel +\| 4\d\.\d\d ms \|")
        self.assertRegex(self.md,
                         r"(?m)^\| kernel_series +\| 1\d\.\d\d ms \|.*"
                         r"\| +2\.\d\dx \|")
        # a build from a patch file: no manifest names it, none drops it
        self.assertRegex(self.md,
                         r"(?m)^\| kp_v6_0008_mm +\| 2\d\.\d\d ms \|.*"
                         r"\| +1\.\d\dx \|")
        self.assertEqual(self.log.warnings, [])

    def test_json_and_the_page_list_each(self):
        data = json.loads(json_report([self.log]))
        names = {m["strategy"] for m in data[0]["metrics"]}
        self.assertTrue({"slow", "kernel", "kernel_series",
                         "kp_v6_0008_mm"} <= names, names)
        page = render_markdown(self.md)
        self.assertIn("kernel_series", page)
        self.assertIn(">kernel<", page.replace(" ", ""))
        self.assertIn(">kp_v6_0008_mm<", page.replace(" ", ""))


class MachineOutput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = sample_image_a()
        cls.h = sample_host()

    def test_json_has_a_list_of_metrics_per_log(self):
        data = json.loads(json_report([self.a, self.h]))
        self.assertTrue(len(data) == 2
                        and data[0]["metrics"][0]["suite"] == "bench_limit"
                        and "_log" not in data[0]["metrics"][0], "JSON")

    def test_csv_has_a_header_and_a_row_per_metric(self):
        rows = list(csv.reader(io.StringIO(csv_report([self.a]))))
        self.assertTrue(rows[0][:3] == ["log", "suite", "strategy"]
                        and len(rows) == 7,
                        f"CSV header and rows, got {rows[0][:3]} x "
                        f"{len(rows)}")


if __name__ == "__main__":
    unittest.main()
