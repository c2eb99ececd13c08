# SPDX-License-Identifier: GPL-2.0-only
"""--html DIR: one self-contained page, DIR/index.html, that a person
opens in a browser: the runs' headers, what the logs do not hold, the
tables of the Markdown report (every suite, the verdicts, the model
against the kernel, what the return thunk costs the kernel's code, the
ordering observed by CPU) rendered by Debian's python3-markdown, the
charts drawn by gnuplot as inline SVG, and with --db the fleet (with
the return thunk's cost by CPU model and microcode). With logs on both
sides of --, the A/B comparison comes first. Nothing is loaded from
outside the file: no network, no external script, style or font.

The page's one script sorts a table by the column whose header is
clicked; the tables say nothing it alone would make true.
"""
import html
import os
import re

import markdown

from reportlib.charts import chart_data, compare_chart, svg_chart
from reportlib.compare import compare_replicated_report, compare_report


# A header word of the runs' table: (title, the header keys it shows).
RUN_FIELDS = [
    ("CPU", ("cpu",)),
    ("family/model/stepping", ("family", "model", "stepping")),
    ("microcode", ("ucode", "microcode")),
    ("ntboot", ("version",)),
    ("platform", ("platform", "hypervisor")),
    ("options", ("options",)),
]

STYLE = """
body { font-family: sans-serif; margin: 1.5em; max-width: 1400px;
       color: #111; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; font-size: 0.9em; }
th { background: #eee; cursor: pointer; }
th[aria-sort=ascending]::after { content: " \\25B2"; }
th[aria-sort=descending]::after { content: " \\25BC"; }
tr:nth-child(even) td { background: #f7f7f7; }
code { font-size: 0.95em; }
.problems { border: 2px solid #c33; background: #fff3f3;
            padding: 0.2em 1em; }
figure.chart { margin: 1em 0 2em; }
figure.chart svg { width: 100%; height: auto; }
"""

# Sorting by a clicked header: numbers as numbers, times and sizes in
# the units the report prints ("950 us" before "1.2 ms", "64 B" before
# "1 KiB"), a ratio or share by its number ("1.23x", "12%"), other cells
# as text after the numbers; a second click reverses the order.
SCRIPT = """
"use strict";
const NTB_UNITS = {ns: 1e-9, us: 1e-6, "\u00b5s": 1e-6, ms: 1e-3, s: 1,
                   B: 1, KiB: 1024, MiB: 1048576, GiB: 1073741824,
                   TiB: 1099511627776};
function ntbCellKey(cell) {
  const text = cell.textContent.trim();
  const m = /^([-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*([A-Za-z\u00b5]+)?/
    .exec(text);
  if (!m) return [1, 0, text];
  const unit = m[2] && NTB_UNITS.hasOwnProperty(m[2]) ? NTB_UNITS[m[2]] : 1;
  return [0, parseFloat(m[1]) * unit, text];
}
function ntbCompare(a, b) {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[0] === 0 && a[1] !== b[1]) return a[1] - b[1];
  return a[2].localeCompare(b[2]);
}
function ntbSortBy(th) {
  const table = th.closest("table");
  const body = table.tBodies[0];
  const col = Array.prototype.indexOf.call(th.parentNode.children, th);
  const down = th.getAttribute("aria-sort") === "ascending";
  for (const other of th.parentNode.children)
    other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", down ? "descending" : "ascending");
  const rows = Array.from(body.rows);
  rows.sort(function (r, s) {
    const c = ntbCompare(ntbCellKey(r.cells[col]), ntbCellKey(s.cells[col]));
    return down ? -c : c;
  });
  for (const row of rows) body.appendChild(row);
}
document.addEventListener("DOMContentLoaded", function () {
  for (const th of document.querySelectorAll("table thead th"))
    th.addEventListener("click", function () { ntbSortBy(th); });
});
"""


MARKDOWN_OFF = ("html", "link", "image_link", "reference",
                "image_reference", "short_reference", "short_image_ref",
                "autolink", "automail")


def render_markdown(text, inside=False):
    """The report's Markdown as HTML: tables, headings with ids, its
    own title left out (the page has its <h1>); @inside: its headings a
    level down, in a section of the page's own. A log's text reaches the
    page only as text: the Markdown's raw HTML is not passed through."""
    text = re.sub(r"\A# .*\n", "", text)
    if inside:
        text = re.sub(r"^(#{2,5}) ", r"#\1 ", text, flags=re.M)
    md = markdown.Markdown(extensions=["tables", "toc"])
    md.preprocessors.deregister("html_block")
    # Nor a link or an image a log's text writes ("![](http://...)"):
    # the page loads nothing and links nowhere.
    for pattern in MARKDOWN_OFF:
        md.inlinePatterns.deregister(pattern)
    return md.convert(text)


def run_value(header, keys):
    return " ".join(str(header[k]) for k in keys if k in header)


def runs_table(logs):
    """One row per log: what its "# ntboot" header and "# options" line
    say it ran on and was asked."""
    out = ['<table class="runs"><thead><tr><th>log</th>']
    out += [f"<th>{html.escape(title)}</th>" for title, _ in RUN_FIELDS]
    out.append("</tr></thead><tbody>")
    for log in logs:
        cells = [f"{log.label}: {log.name}"]
        cells += [run_value(log.header, keys) or "not in the log"
                  for _, keys in RUN_FIELDS]
        out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>"
                                    for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def problems(logs):
    """What the logs do not hold, in words: a log cut mid-line, one with
    no metric line, each line the reader could not read."""
    said = []
    for log in logs:
        said += log.warnings
        if not log.metrics:
            said.append(f"{log.name} holds no '# metric' line: no "
                        "benchmark table or chart comes from it.")
    if not said:
        return ""
    return ('<section id="problems" class="problems">\n'
            "<h2>What the logs do not hold</h2>\n<ul>\n"
            + "".join(f"<li>{html.escape(s)}</li>\n" for s in said)
            + "</ul>\n</section>")


def inline_svg(svg, n):
    """gnuplot's SVG inside the page: its XML prolog dropped and its ids
    (point shapes, plot groups) given the chart's prefix, so that the
    charts of one page do not share ids."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"""\bid=(['"])""", rf"id=\1c{n}-", svg)
    return re.sub(r"""href=(['"])#""", rf"href=\1#c{n}-", svg)


def charts_section(charts, heading, first=0):
    """A section of figures, one per chart (chart_data() dicts), each an
    inline SVG; where gnuplot drew none, the reason in words."""
    out = []
    for n, data in enumerate(charts, first):
        svg, err = svg_chart(data)
        if err:
            out.append(f'<p class="no-chart">No chart: {html.escape(err)}'
                       "</p>")
            continue
        # The title is the chart's own, inside the SVG.
        out.append(f'<figure class="chart" id="chart-{n}" aria-label='
                   f'"{html.escape(data["title"])}">{inline_svg(svg, n)}'
                   "</figure>")
    if not out:
        return ""
    return f"<section>\n<h2>{html.escape(heading)}</h2>\n" + \
        "\n".join(out) + "\n</section>"


def ab_comparison(logs_a, logs_b):
    """(the Markdown of --compare, its B/A chart or None) for an A/B
    page: one log a side as --compare A B, several as --compare A... --
    B..."""
    if len(logs_a) == 1 and len(logs_b) == 1:
        text = compare_report(logs_a[0], logs_b[0])[0]
    else:
        text = compare_replicated_report(logs_a, logs_b)[0]
    return text, compare_chart(logs_a, logs_b)


def page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
            '<meta charset="utf-8">\n'
            # Nothing from outside, were anything to ask: the page's own
            # style and script, images only inside it.
            '<meta http-equiv="Content-Security-Policy" content="'
            "default-src 'none'; style-src 'unsafe-inline'; "
            "script-src 'unsafe-inline'; img-src data:\">\n"
            # No favicon request: the page loads nothing.
            '<link rel="icon" href="data:,">\n'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n{body}\n"
            f"<script>{SCRIPT}</script>\n</body>\n</html>\n")


def write_page(directory, logs, report_md, comparison=None, fleet_md=None):
    """DIR/index.html for @logs: @report_md (markdown_report() of them),
    and @comparison, (its Markdown, the B/A chart or None) of an A/B;
    @fleet_md the --db history's tables. Returns the page's path."""
    names = ", ".join(log.name for log in logs)
    title = ("ntboot A/B: " if comparison else "ntboot run: ") + names
    parts = [problems(logs), "<section id=\"runs\">\n<h2>The runs</h2>\n"
             + runs_table(logs) + "\n</section>"]
    if comparison:
        text, chart = comparison
        parts.append('<section id="comparison">\n<h2>A against B</h2>\n'
                     + render_markdown(text, inside=True) + "\n</section>")
        if chart:
            parts.append(charts_section([chart], "B/A", first=0))
    parts.append('<section id="report">\n' + render_markdown(report_md)
                 + "\n</section>")
    records = [r for log in logs for r in log.metrics]
    parts.append(charts_section(chart_data(records, every=True), "Charts",
                                first=1))
    if fleet_md:
        parts.append('<section id="fleet">\n<h2>The fleet</h2>\n'
                     + render_markdown(fleet_md, inside=True)
                     + "\n</section>")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "index.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(page(title, "\n".join(p for p in parts if p)))
    return path
