# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.html, the --html page, without a browser (make
check-report-html opens real pages in one): a log's text stays text,
the charts' ids are their own, a cut or empty log is said in words, and
the page names nothing outside itself."""
import os
import re
import shutil
import tempfile
import unittest

from reportlib.html import (
    ab_comparison,
    inline_svg,
    problems,
    render_markdown,
    write_page,
)
from reportlib.logs import parse_log
from reportlib.synth import ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, synth_log
from reportlib.tables import markdown_report


def zen(label="A", cut=False):
    text = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)
    if cut:
        # Inside the first nocache line's median: no copy line is whole.
        first = text.index("suite=bench_nocache_copy")
        text = text[:text.index("median_ns=", first) + 13]
    return parse_log(text, f"zen-{label}.log", label)


class Text(unittest.TestCase):
    def test_markup_in_a_log_is_shown_not_run(self):
        out = render_markdown("# title\n\n- `a<b>`: cpu=\"<script>x()"
                              "</script>\"\n")
        self.assertNotIn("<script>", out)
        self.assertIn("&lt;script&gt;", out)

    def test_a_link_or_image_in_a_log_is_text(self):
        out = render_markdown('- cpu="![x](http://h/p.png) [y](javascript:'
                              'z()) <http://h/>"\n')
        self.assertFalse(re.search(r"<(img|a)\b", out), out)
        self.assertIn("http://h/p.png", out)

    def test_the_reports_title_is_left_to_the_page(self):
        out = render_markdown("# ntboot benchmark report\n\n## suite\n")
        self.assertNotIn("<h1", out)
        self.assertIn('<h2 id="suite">suite</h2>', out)

    def test_a_markdown_table_is_a_table(self):
        out = render_markdown("| a | b |\n|:--|--:|\n| x | 1 |\n")
        self.assertIn("<thead>", out)
        self.assertEqual(out.count("<tr>"), 2)


class Problems(unittest.TestCase):
    def test_a_whole_log_has_none(self):
        self.assertEqual(problems([zen()]), "")

    def test_a_cut_log_is_named_with_its_line(self):
        log = zen(cut=True)
        said = problems([log])
        text = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)
        # the line zen(cut=True) cuts: the first nocache line's
        cut_at = text[:text.index("suite=bench_nocache_copy")].count("\n") + 1
        self.assertIn(f"{log.name}:{cut_at}: the log ends mid-line", said)
        self.assertEqual(said.count("ends mid-line"), 1)

    def test_a_log_without_metric_lines_is_named(self):
        log = parse_log('# ntboot 0.1 cpu="X"\nok 1 printf\n', "e.log", "A")
        self.assertIn("e.log holds no &#x27;# metric&#x27; line",
                      problems([log]))


class Charts(unittest.TestCase):
    SVG = ('<?xml version="1.0"?>\n<svg><defs><path id=\'gpPt0\'/></defs>'
           '<g id="gnuplot_plot_1"><use xlink:href=\'#gpPt0\'/></g></svg>')

    def test_each_chart_has_its_own_ids(self):
        one, two = inline_svg(self.SVG, 1), inline_svg(self.SVG, 2)
        self.assertTrue(one.startswith("<svg"))
        self.assertIn("id='c1-gpPt0'", one)
        self.assertIn("href='#c1-gpPt0'", one)
        self.assertIn('id="c2-gnuplot_plot_1"', two)
        ids = re.findall(r"id=['\"]([^'\"]+)", one + two)
        self.assertEqual(len(ids), len(set(ids)))


class PatchContender(unittest.TestCase):
    """A build of the kernel's code from a kernel_patch= file (kp_<stem>,
    in no manifest) on an A/B page: compared, A against B, and in each
    run's tables, as the manifest's builds are."""

    def test_on_the_ab_page(self):
        memmap = [("slow", 64, "fsdax", 100e6), ("kernel", 64, "fsdax", 130e6),
                  ("kp_comment", 64, "fsdax", 120e6)]
        logs_a = [parse_log(synth_log(1, ZEN5, memmap, n=10, processes=6),
                            "a.log", "A")]
        logs_b = [parse_log(synth_log(2, ZEN5, memmap, n=10, processes=6),
                            "b.log", "B")]
        with tempfile.TemporaryDirectory() as tmp:
            logs = logs_a + logs_b
            path = write_page(tmp, logs, markdown_report(logs),
                              ab_comparison(logs_a, logs_b))
            with open(path, encoding="utf-8") as f:
                text = f.read()
        ab = text[text.index('<section id="comparison">'):
                  text.index('<section id="report">')]
        self.assertIn("strategy=kp_comment", ab)
        self.assertIn("strategy=kernel", ab)
        report = text[text.index('<section id="report">'):]
        self.assertEqual(report.count(">kp_comment</td>"), 2,
                         "a row a run")


@unittest.skipUnless(shutil.which("gnuplot"), "no gnuplot")
class Page(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def page(self, logs):
        path = write_page(self.tmp.name, logs, markdown_report(logs))
        with open(path, encoding="utf-8") as f:
            return f.read()

    def test_a_page_loads_nothing_from_outside(self):
        text = self.page([zen()])
        outside = re.findall(r"""(?:src|href)=["']?(?:https?:|//)[^"' ]*""",
                             text)
        self.assertEqual(outside, [])
        self.assertFalse("@import" in text, "a style imported")
        self.assertEqual(os.listdir(self.tmp.name), ["index.html"])

    def test_every_chart_of_the_log_is_inline(self):
        text = self.page([zen()])
        # ZEN5's one memmap configuration and its nocache copies.
        self.assertEqual(text.count('<figure class="chart"'), 2)
        self.assertEqual(text.count("<svg"), 2)

    def test_a_cut_log_has_no_chart_of_what_it_lost(self):
        text = self.page([zen(cut=True)])
        self.assertIn("ends mid-line", text)
        self.assertFalse("bench_nocache_copy: MB/s" in text,
                         "a chart of the copies the cut log lost")
