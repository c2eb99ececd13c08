# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.charts (--png): the charts' data (one chart per
struct page size and mode, whiskers, the limit line, the postings'
marks, the axis, the --compare chart) and the PNG files gnuplot draws
from it. tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import os
import shutil
import tempfile
import unittest
from unittest import mock

from reportlib.charts import (
    chart_axis,
    chart_data,
    chart_path,
    compare_chart_data,
    draw_chart,
    gp_quote,
    write_png,
)
from reportlib.compare import compare_rows, compare_stats
from reportlib.logs import parse_log
from reportlib.synth import (
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    sample_host,
    sample_image_a,
    synth_log,
)
from reportlib.tables import rec_ci

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def is_png(path):
    if not os.path.exists(path):
        return False
    with open(path, "rb") as f:
        return f.read(8) == PNG_MAGIC


def two_modes_log():
    """A Zen 5 class log with a second mode, devdax2m."""
    return parse_log(synth_log(12, ZEN5, ZEN5_MEMMAP + [
        ("slow", 64, "devdax2m", 90e6),
        ("tmpl_nt_fixed", 64, "devdax2m", 40e6)]), "a", "A")


def faster_compare_chart():
    """The --compare chart of a Zen 5 class log against one whose
    tmpl_nt_fixed is 20% faster, six processes each (one log a side is
    tested only through its processes' medians), each process's lines
    placed 2% apart."""
    za = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                             processes=6, placement_cv=0.02), "a", "A")
    faster = [(st, z, m, med * (0.8 if st == "tmpl_nt_fixed" else 1))
              for st, z, m, med in ZEN5_MEMMAP]
    zb = parse_log(synth_log(3, ZEN5, faster, ZEN5_NOCACHE, processes=6,
                             placement_cv=0.02), "b", "B")
    rows = compare_rows(za, zb)[0]
    return compare_chart_data(rows, compare_stats(rows)[0], [za], [zb])


class ChartData(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.zen = parse_log(synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE),
                            "z", "Z")
        cls.chart = chart_data(cls.zen.metrics)[0]

    def test_whiskers_are_the_medians_interval(self):
        fixed = next(r for r in self.zen.metrics
                     if r.get("strategy") == "tmpl_nt_fixed")
        lo, hi = rec_ci(fixed)
        v, wlo, whi = dict(self.chart["series"])["64 B fsdax"][
            "tmpl_nt_fixed"]
        self.assertTrue(abs(wlo - lo / 26214400) < 1e-3
                        and abs(whi - hi / 26214400) < 1e-3
                        and wlo < v < whi,
                        f"chart whiskers: the median's CI, {wlo, whi}")

    def test_limit_line_is_the_fastest_fill(self):
        self.assertTrue(abs(self.chart["limits"]["64 B fsdax"]
                            - 60e6 / 26214400) < 1e-2,
                        f"chart limit line: {self.chart['limits']}")

    def test_marks_where_the_postings_ratios_put_the_bars(self):
        slow = next(r for r in self.zen.metrics
                    if r.get("strategy") == "slow")
        marks = {m[3]: m[2] for m in self.chart["marks"]}
        want = slow["median_ns"] / (244.28 / 96.79) / 26214400
        self.assertTrue(abs(marks.get("posted slow -> tmpl_nt_fixed: 2.52x",
                                      0) - want) < 1e-2
                        and len(marks) == 2, f"chart marks: {marks}")

    def test_without_samples_the_whiskers_are_min_and_max(self):
        old = sample_image_a()
        chart = chart_data(old.metrics)[0]
        _, wlo, whi = dict(chart["series"])["64 B fsdax"]["tmpl_nt_fixed"]
        self.assertTrue(abs(wlo - 3.692 * 95.0 / 96.79) < 1e-9
                        and abs(whi - 3.692 * 98.0 / 96.79) < 1e-9
                        and "min..max" in chart["title"],
                        "no samples: min/max whiskers")

    def test_a_chart_per_page_size_and_mode(self):
        charts = chart_data(two_modes_log().metrics)
        self.assertTrue([c["suffix"] for c in charts]
                        == ["64-fsdax", "64-devdax2m"]
                        and charts[1]["cats"] == ["slow", "tmpl_nt_fixed"]
                        and "64-byte struct pages, devdax2m"
                            in charts[1]["title"],
                        f"one chart per page size and mode: "
                        f"{[c['suffix'] for c in charts]}")

    def test_the_axis_ends_a_quarter_above_the_tallest_bar(self):
        chart = chart_data(two_modes_log().metrics)[0]
        ymax, cut = chart_axis(chart)
        tallest = max(v for _, vals in chart["series"]
                      for v, _, _ in vals.values())
        self.assertTrue(ymax and abs(ymax - 1.25 * tallest) < 1e-9
                        and not cut,
                        f"chart axis: a quarter above the tallest bar, got "
                        f"{ymax}")

    def test_a_bar_40_times_the_others_is_cut_not_the_axis(self):
        slowest = [(st, z, m, med * (40 if st == "tmpl_nt_generic" else 1))
                   for st, z, m, med in ZEN5_MEMMAP]
        ymax, cut = chart_axis(chart_data(parse_log(synth_log(
            13, ZEN5, slowest), "a", "A").metrics)[0])
        self.assertTrue(ymax and ymax < 20
                        and [c[0] for c in cut] == ["tmpl_nt_generic"],
                        f"a bar 40 times the others is cut, not the axis: "
                        f"{ymax} {cut}")

    def test_chart_file_names(self):
        self.assertTrue(chart_path("/x/chart.png", "64-fsdax")
                        == "/x/chart-64-fsdax.png"
                        and chart_path("/x/chart.png", None)
                        == "/x/chart.png", "chart file names")

    def test_compare_chart_puts_a_faster_line_below_1(self):
        cmp_chart = faster_compare_chart()
        sig = dict(cmp_chart["series"]).get("significant", {})
        r, lo, hi = sig.get("memmap_init tmpl_nt_fixed", (0, 0, 0))
        self.assertTrue(cmp_chart["cats"][3] == "memmap_init tmpl_nt_fixed"
                        and len(cmp_chart["cats"]) == 6
                        and list(sig) == ["memmap_init tmpl_nt_fixed"]
                        and lo < r < hi < 1 and abs(r - 0.8) < 0.1
                        and cmp_chart["hline"][0] == 1.0,
                        f"compare chart: every line tested, the faster one "
                        f"alone significant, its interval below 1: "
                        f"{cmp_chart['cats']}, {sig}")

    def test_compare_chart_names_the_interval_it_draws(self):
        title = faster_compare_chart()["title"]
        self.assertTrue("95% CI of the ratio (Welch's t on the process "
                        "medians)" in title
                        and "Hodges-Lehmann" not in title,
                        f"compare chart title: {title!r}")


class Quote(unittest.TestCase):
    def test_a_name_from_a_log_runs_no_command(self):
        # gnuplot runs `...` inside double quotes.
        q = gp_quote('x`rm -rf /tmp/y`"\n')
        self.assertNotIn("`", q)
        self.assertEqual(q, '"x\'rm -rf /tmp/y\'\\"\\n"')


class Png(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ntboot-report-test.")
        self.png = os.path.join(self.tmp.name, "chart.png")

    def tearDown(self):
        self.tmp.cleanup()

    def written(self, *suffixes):
        return [os.path.join(self.tmp.name, f"chart-{s}.png")
                for s in suffixes]

    @unittest.skipUnless(shutil.which("gnuplot"),
                         "gnuplot not installed, chart drawing not exercised")
    def test_gnuplot_draws_every_chart(self):
        a = sample_image_a()
        err, written = write_png(a.metrics, self.png)
        want = self.written("64-fsdax", "80-fsdax")
        self.assertTrue(err is None and written == want
                        and all(is_png(w) for w in want),
                        f"PNG charts written, one per page size: {written} "
                        f"({err})")
        h = sample_host()
        err, written = write_png(h.metrics, self.png)
        self.assertIsNone(err, f"nocache chart ({err})")
        err, written = write_png(two_modes_log().metrics, self.png)
        want = self.written("64-fsdax", "64-devdax2m")
        self.assertTrue(err is None and written == want
                        and all(is_png(w) for w in want),
                        f"two charts, one per mode: {written} ({err})")
        cpng = os.path.join(self.tmp.name, "compare.png")
        err = draw_chart(faster_compare_chart(), cpng)
        self.assertTrue(err is None and is_png(cpng),
                        f"compare chart ({err})")

    def test_without_gnuplot_a_message_says_how_to_install_it(self):
        # gnuplot hidden, so that the message is checked where it is
        # installed too.
        a = sample_image_a()
        with mock.patch("shutil.which", return_value=None):
            err, _ = write_png(a.metrics, self.png)
        self.assertTrue(err and "apt-get install gnuplot-nox" in err,
                        "no gnuplot: a clear message")

    def test_nothing_to_chart_is_a_message_not_a_file(self):
        err, written = write_png([], self.png)
        self.assertTrue(err and not written
                        and not os.path.exists(self.png + ".x"),
                        "nothing to chart: a message")


if __name__ == "__main__":
    unittest.main()
