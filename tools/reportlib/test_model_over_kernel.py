# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.model_over_kernel: the model over the kernel's own
code, each build against the model's strategy the manifest names for it
(slow for kernel, tmpl_nt_fixed for kernel_series), judged over the runs
of one process and over the medians of several; the band's edges; the
Markdown section; and --check-verdicts against the log's own
"# model_over_kernel" lines.
tools/report --selftest runs them."""
import unittest

from reportlib.logs import parse_log
from reportlib.model_over_kernel import (
    check,
    in_band,
    model_over_kernel,
    section,
)
from reportlib.synth import ZEN5, fixed3, synth_log
from reportlib.verdict_words import SCOPE_PROCESS, SCOPE_PROCESSES

# The kernel's code at 2.5 times the model's (Safe RET on every return).
SLOWER = [("slow", 64, "fsdax", 100e6), ("kernel", 64, "fsdax", 250e6)]
# The same cost, measured tightly.
SAME = [("slow", 64, "devdax2m", 100e6), ("kernel", 64, "devdax2m", 100e6)]
# The series beside the kernel: each build set against its own model,
# and the model's tmpl_memcpy with no build of its own that ran.
SERIES = SLOWER + [("tmpl_nt_fixed", 64, "fsdax", 40e6),
                   ("kernel_series", 64, "fsdax", 50e6),
                   ("tmpl_memcpy", 64, "fsdax", 60e6)]


def parsed(memmap, **kw):
    return parse_log(synth_log(7, ZEN5, memmap, **kw), "t", "T")


def own_line(r, **change):
    """The "# model_over_kernel" line ntbench prints for @r."""
    ci = r["ci"] or [None, None]
    keys = {"model_over_kernel": fixed3(r["model_over_kernel"]),
            "ci_low": fixed3(ci[0]), "ci_high": fixed3(ci[1]),
            "scope": r["scope"], "processes": r["processes"],
            "in_band": r["in_band"]}
    if r["reason"]:
        keys["reason"] = r["reason"]
    keys.update(change)
    return (f"# model_over_kernel suite=bench_memmap_init {r['config']} "
            f"model={r['model']} model_kernel={r['model_kernel']} "
            f"kernel_code={r['kernel_code']} "
            + " ".join(f"{k}={v}" for k, v in keys.items()))


def with_lines(memmap, lines, **kw):
    text = synth_log(7, ZEN5, memmap, **kw).replace(
        "ntboot: 2 passed", "\n".join(lines) + "\nntboot: 2 passed")
    return parse_log(text, "t", "T")


class Judged(unittest.TestCase):
    def test_one_process(self):
        (r,) = model_over_kernel(parsed(SLOWER))
        self.assertEqual(r["scope"], SCOPE_PROCESS)
        self.assertAlmostEqual(r["model_over_kernel"], 0.4, delta=0.04)
        self.assertLess(r["ci"][0], r["model_over_kernel"])
        self.assertGreater(r["ci"][1], r["model_over_kernel"])
        self.assertEqual(r["in_band"], "no")

    def test_processes(self):
        (r,) = model_over_kernel(parsed(SLOWER, n=10, processes=8,
                                        machine_cv=0.1, cv=0.02))
        self.assertEqual((r["scope"], r["processes"]), (SCOPE_PROCESSES, 8))
        self.assertAlmostEqual(r["model_over_kernel"], 0.4, delta=0.02)
        self.assertEqual(r["in_band"], "no")

    def test_same_cost_in_band(self):
        (r,) = model_over_kernel(parsed(SAME, n=30, cv=0.002))
        self.assertEqual(r["in_band"], "yes")
        self.assertIn("mode=devdax2m", r["config"])

    def test_no_kernel_line_no_row(self):
        self.assertEqual(model_over_kernel(parsed(SLOWER[:1])), [])
        self.assertEqual(section([parsed(SLOWER[:1])]), [])

    def test_section(self):
        text = "\n".join(section([parsed(SLOWER)]))
        self.assertIn("## The model's cost over the kernel's", text)
        self.assertIn("| page_size=64 mode=fsdax |", text)


class Pairs(unittest.TestCase):
    def test_each_build_against_its_model(self):
        rows = model_over_kernel(parsed(SERIES))
        self.assertEqual([(r["model"], r["kernel_code"]) for r in rows],
                         [("slow", "kernel"),
                          ("tmpl_nt_fixed", "kernel_series")])
        self.assertAlmostEqual(rows[1]["model_over_kernel"], 0.8,
                               delta=0.08)
        text = "\n".join(section([parsed(SERIES)]))
        self.assertIn("| tmpl_nt_fixed | kernel_series |", text)

    def test_lines_held_to_their_pair(self):
        rows = model_over_kernel(parsed(SERIES))
        lines = [own_line(r) for r in rows]
        self.assertEqual(check(with_lines(SERIES, lines)), [])
        # the series' line naming the slow path: its model is wrong
        bad = [lines[0], own_line(rows[1], model="slow")]
        problems = check(with_lines(SERIES, bad))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("kernel_code=kernel_series: model here slow, from "
                      "the metric lines tmpl_nt_fixed", problems[0])
        # the series' line left out
        problems = check(with_lines(SERIES, lines[:1]))
        self.assertIn("no model_over_kernel line for page_size=64 "
                      "mode=fsdax", problems[0])
        self.assertIn("kernel_code=kernel_series", problems[0])


class Band(unittest.TestCase):
    def test_edges(self):
        self.assertEqual(in_band([0.97, 1.03]), "yes")
        self.assertEqual(in_band([0.96, 1.01]), "unsure")
        self.assertEqual(in_band([1.0, 1.04]), "unsure")
        self.assertEqual(in_band([1.031, 1.05]), "no")
        self.assertEqual(in_band([0.4, 0.6]), "no")

    def test_no_interval_is_untested(self):
        # An estimate inside the band, or outside it, says nothing alone.
        self.assertEqual(in_band(None), "untested")

    def test_three_processes_untested_with_the_reason(self):
        (r,) = model_over_kernel(parsed(SAME, n=10, processes=3, cv=0.002))
        self.assertEqual((r["scope"], r["processes"], r["ci"]),
                         (SCOPE_PROCESSES, 3, None))
        self.assertEqual((r["in_band"], r["reason"]),
                         ("untested", "processes=3"))
        text = "\n".join(section([parsed(SAME, n=10, processes=3,
                                           cv=0.002)]))
        self.assertIn("| untested (processes=3) |", text)
        # the line's own in_band= and reason= are held to it
        ok = with_lines(SAME, [own_line(r)], n=10, processes=3, cv=0.002)
        self.assertEqual(check(ok), [])
        bad = with_lines(SAME, [own_line(r, in_band="yes")], n=10,
                         processes=3, cv=0.002)
        self.assertEqual(len(check(bad)), 1, check(bad))
        bad = with_lines(SAME, [own_line(r, reason="processes=4")], n=10,
                         processes=3, cv=0.002)
        self.assertEqual(len(check(bad)), 1, check(bad))
        # A build before the rule printed the estimate's word, no reason=
        old = own_line(r, in_band="yes").replace(" reason=processes=3", "")
        self.assertEqual(check(with_lines(SAME, [old], n=10, processes=3,
                                          cv=0.002)), [])
        old = own_line(r, in_band="no").replace(" reason=processes=3", "")
        self.assertEqual(len(check(with_lines(SAME, [old], n=10,
                                              processes=3, cv=0.002))), 1)


class Checked(unittest.TestCase):
    def setUp(self):
        (self.r,) = model_over_kernel(parsed(SLOWER))

    def test_own_line_agrees(self):
        self.assertEqual(check(with_lines(SLOWER, [own_line(self.r)])), [])

    def test_wrong_value_named(self):
        bad = own_line(self.r, model_over_kernel="0.990", in_band="yes")
        problems = check(with_lines(SLOWER, [bad]))
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("model_over_kernel here 0.99", problems[0])

    def test_missing_and_extra_lines(self):
        self.assertIn("no model_over_kernel line for page_size=64",
                      check(with_lines(SLOWER, []))[0])
        other = own_line(self.r).replace("fsdax", "devdax1g")
        problems = check(with_lines(SLOWER, [own_line(self.r), other]))
        self.assertIn("a model_over_kernel line the metric lines do not "
                      "give: page_size=64 mode=devdax1g", problems[0])


if __name__ == "__main__":
    unittest.main()
