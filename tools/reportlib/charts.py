# SPDX-License-Identifier: GPL-2.0-only
"""--png: the report's charts, drawn by gnuplot (apt-get install
gnuplot-nox; without it the tables are still printed and a message says
why there is no chart).

Per log, ns per struct page for each strategy of bench_memmap_init, one
chart per struct page size and mode (else MB/s per method and chunk of
bench_nocache_copy, else the evicted share of bench_pollution), with
whiskers, the limit and marks where the postings' ratios would put the
bars (chart_data()); with --compare, B/A per line with the ratio's
interval (compare_chart_data()). draw_chart() turns either into a PNG.
"""
import os
import shutil
import subprocess
import tempfile

from reportlib.compare import compare_replicated, compare_rows, compare_stats
from reportlib.formatting import ci_title, fmt_bytes, fmt_num, ordered_unique
from reportlib.stats import samples_of
from reportlib.tables import rec_ci
from reportlib.verdicts import CLAIMS, claim_pairs


def whiskers(rec, scale):
    """(low, high) of a bar: the median's interval where the line has
    samples, else its min and max; @scale turns ns into the bar's unit
    (a function, since MB/s runs the other way)."""
    ci = rec_ci(rec)
    if ci:
        lo, hi = ci
    elif isinstance(rec.get("min_ns"), (int, float)) and \
            isinstance(rec.get("max_ns"), (int, float)):
        lo, hi = rec["min_ns"], rec["max_ns"]
    else:
        return None
    a, b = scale(rec, lo), scale(rec, hi)
    return (min(a, b), max(a, b))


def claim_marks(records, series_of, value_of, cats):
    """Where each claim's ratio puts the 'after' bar, given this log's
    'before' bar: [(category, series, value)]."""
    marks = []
    for claim in CLAIMS:
        if not claim["ratio"]:
            continue
        for label in ordered_unique(r["_log"] for r in records):
            mine = [r for r in records if r["_log"] == label]
            for before, after in claim_pairs(claim, mine):
                cat = after.get(claim["key"])
                if cat not in cats:
                    continue
                want = before["median_ns"] / claim["ratio"]
                marks.append((cat, series_of(after),
                              value_of(after) * want / after["median_ns"],
                              f"posted {before.get(claim['key'])} -> "
                              f"{cat}: {claim['ratio']:.2f}x"))
    return marks


def chart_data(records, every=False):
    """The charts of @records, a list of dicts: title, ylabel, cats,
    series [(name, {category: (value, low, high)})], limits {series:
    value}, marks [(category, series, value, label)] and suffix (what
    tells its file apart when there are several, else None); the title's
    second line says what the whiskers, the dashed lines and the dots
    are. bench_memmap_init gives one chart per struct page size and mode,
    else one chart of bench_nocache_copy or bench_pollution (--png's
    file names); with @every, all of these (a page); [] when there is
    nothing to draw."""
    out = []
    multi = len(ordered_unique(r["_log"] for r in records)) > 1
    with_samples = any(samples_of(r) for r in records)
    spread_note = (f"whiskers: {ci_title()} of the median" if with_samples
                   else "whiskers: min..max of the runs")

    def build(recs, name_of, cat_key, value_of, scale):
        cats = ordered_unique(r[cat_key] for r in recs)
        series = {}
        for r in recs:
            name = name_of(r)
            if multi:
                name = f"{r['_log']} {name}"
            w = whiskers(r, scale) if scale else None
            v = value_of(r)
            series.setdefault(name, {})[r[cat_key]] = (
                v, *(w if w else (v, v)))
        return cats, series

    memmap = [r for r in records if r["suite"] == "bench_memmap_init"
              and isinstance(r.get("ns_per_page"), (int, float))
              and isinstance(r.get("median_ns"), (int, float))
              and r["median_ns"]]
    if memmap:
        def name_of(r):
            return f"{r.get('page_size')} B {r.get('mode')}"

        def series_of(r):
            return (f"{r['_log']} " if multi else "") + name_of(r)

        def per_page(r, ns):
            return r["ns_per_page"] * ns / r["median_ns"]

        charts = []
        groups = ordered_unique((r.get("page_size"), r.get("mode"),
                                 r.get("map")) for r in memmap)
        for size, mode, map_ in groups:
            mine = [r for r in memmap
                    if (r.get("page_size"), r.get("mode"), r.get("map"))
                    == (size, mode, map_)]
            cats, series = build(mine, name_of, "strategy",
                                 lambda r: r["ns_per_page"], per_page)
            limits = {}
            for r in mine:
                lf = r.get("limit_frac")
                if isinstance(lf, (int, float)) and lf:
                    limits.setdefault(series_of(r), r["ns_per_page"] * lf)
            charts.append({
                "title": f"bench_memmap_init, {size}-byte struct pages, "
                         f"{mode}" + (f" map={map_}" if map_ else "")
                         + ": ns per struct page, median (bytes "
                         "counted = bytes written)\n"
                         f"{spread_note}; dashed: the limit; marks: where "
                         "the postings' ratios put the bar",
                "ylabel": "ns/page", "cats": cats,
                "series": list(series.items()), "limits": limits,
                "marks": claim_marks(mine, series_of,
                                     lambda r: r["ns_per_page"], cats),
                "suffix": f"{size}-{mode}" if len(groups) > 1 else None})
        out += charts
    nocache = [r for r in records if r["suite"] == "bench_nocache_copy"
               and isinstance(r.get("mbps"), (int, float))
               and isinstance(r.get("median_ns"), (int, float))
               and r["median_ns"]]
    if nocache and (every or not out):
        def name_of(r):
            return fmt_bytes(r.get("chunk"))

        def series_of(r):
            return (f"{r['_log']} " if multi else "") + name_of(r)

        def mbps(r, ns):
            return r["mbps"] * r["median_ns"] / ns if ns else 0

        cats, series = build(sorted(nocache, key=lambda r: r.get("chunk", 0)),
                             name_of, "method", lambda r: r["mbps"], mbps)
        cats = ordered_unique(r["method"] for r in nocache)
        out.append({"title": "bench_nocache_copy: MB/s per method and "
                             "chunk (bytes counted = bytes written)\n"
                             f"{spread_note}; marks: where the posting's "
                             "ratio puts the bar",
                    "ylabel": "MB/s", "cats": cats,
                    "series": list(series.items()), "limits": {},
                    "marks": claim_marks(nocache, series_of,
                                         lambda r: r["mbps"], cats),
                    "suffix": None})
    pollution = [r for r in records if r["suite"] == "bench_pollution"
                 and isinstance(r.get("evicted_pct"), (int, float))]
    if pollution and (every or not out):
        cats, series = build(pollution, lambda r: str(r.get("buffer")),
                             "strategy", lambda r: r["evicted_pct"], None)
        out.append({"title": "bench_pollution: share of the buffer evicted "
                            "by one memmap init", "ylabel": "evicted %",
                    "cats": cats, "series": list(series.items()),
                    "limits": {}, "marks": [], "suffix": None})
    return out


# The interval of a tested line, by its scope (compare.row_stats()).
COMPARE_INTERVALS = {
    "processes": "Welch's t on the process medians",
    "history": "Student's t against the --db history's spread",
    "runs": "Welch's t on the runs' medians",
}


def log_names(logs):
    return " ".join(log.name for log in logs)


def compare_chart_data(rows, stats, logs_a, logs_b):
    """The --compare chart: B/A per tested line with the ratio's
    interval (Welch's across processes, or Student's t against the
    history's spread), one series per outcome (significant, within the
    machine's move, not significant), a line at 1; None when no line
    has a ratio."""
    outcome = {"significant": {},
               "~ machine (within the machine's move)": {},
               "~ (not significant)": {}}
    cats, scopes = [], []
    for r, st in zip(rows, stats):
        ratio, ci = st.get("ratio"), st.get("ratio_ci")
        if not ratio or not st.get("testable"):
            continue
        cat = " ".join([r["suite"].replace("bench_", "")]
                       + [kv.partition("=")[2] for kv in r["what"].split()])
        cats.append(cat)
        scopes.append(st.get("scope"))
        if st["significant"]:
            key = "significant"
        elif st.get("within_machine"):
            key = "~ machine (within the machine's move)"
        else:
            key = "~ (not significant)"
        lo, hi = ci if ci else (ratio, ratio)
        outcome[key][cat] = (ratio, lo, hi)
    if not cats:
        return None
    how = "; ".join(COMPARE_INTERVALS.get(s, str(s))
                    for s in ordered_unique(scopes))
    return {"title": f"B/A per tested line with the {ci_title()} of the "
                     f"ratio ({how})\nA: {log_names(logs_a)}  B: "
                     f"{log_names(logs_b)}; below 1: B faster",
            "ylabel": "B/A (time)", "cats": cats, "style": "points",
            "series": [(k, v) for k, v in outcome.items() if v],
            "limits": {}, "hline": (1.0, "no change"), "marks": [],
            "suffix": None}


def compare_chart(logs_a, logs_b):
    """The B/A chart of --compare (compare_chart_data()): one log a side
    tested through each log's processes, several across the logs; None
    when no line was tested."""
    if len(logs_a) == 1 and len(logs_b) == 1:
        rows = compare_rows(logs_a[0], logs_b[0])[0]
        return compare_chart_data(rows, compare_stats(rows)[0], logs_a,
                                  logs_b)
    pairs = compare_replicated(logs_a, logs_b)[0]
    return compare_chart_data([r for r, _ in pairs],
                              [dict(st, scope="runs") for _, st in pairs],
                              logs_a, logs_b)


def gp_quote(s):
    """@s as a gnuplot string. gnuplot runs `command` inside a
    double-quoted string, and names and titles come from the logs: a
    backquote is written as a quote."""
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') \
        .replace("`", "'").replace("\n", "\\n") + '"'


# A bar more than this many times the middle bar does not set the axis.
CHART_OUTLIER = 8

NO_GNUPLOT = "gnuplot not found: no chart written " \
             "(apt-get install gnuplot-nox)"


def chart_path(path, suffix):
    """chart.png and 64-fsdax -> chart-64-fsdax.png."""
    if not suffix:
        return path
    root, ext = os.path.splitext(path)
    return f"{root}-{suffix}{ext or '.png'}"


def write_png(records, path):
    """Draw the charts of @records: (error message or None, the paths
    written). Several charts go to files named after @path with their
    suffix."""
    charts = chart_data(records)
    if not charts:
        return ("no bench_memmap_init, bench_nocache_copy or "
                "bench_pollution figures to chart", [])
    if not shutil.which("gnuplot"):
        return NO_GNUPLOT, []
    written = []
    for data in charts:
        out = chart_path(path, data["suffix"])
        err = draw_chart(data, out)
        if err:
            return err, written
        written.append(out)
    return None, written


def chart_axis(data):
    """(top of the y axis or None, [(category, series index, value)] of
    the bars it cuts). One slow run must not flatten every bar, nor one
    strategy many times slower than the rest (a copy that fences every
    page): the axis ends a quarter above the tallest bar, limit or mark
    within CHART_OUTLIER times the middle bar; taller bars are cut and
    carry their value as a label."""
    series = data["series"]
    bars = sorted(v for _, vals in series for v, _, _ in vals.values())
    tops = bars + list(data["limits"].values()) + [m[2] for m in
                                                  data["marks"]]
    mid = bars[len(bars) // 2] if bars else 0
    tops = [v for v in tops if not mid or v <= CHART_OUTLIER * mid]
    ymax = 1.25 * max(tops) if tops and max(tops) > 0 else None
    cut = [(c, j, v) for j, (_, vals) in enumerate(series)
           for c, (v, _, _) in vals.items() if ymax and v > ymax]
    return ymax, cut


def draw_chart(data, path, svg=False):
    """One chart (a chart_data() or compare_chart_data() dict) as a PNG
    at @path, or with @svg as SVG (for an HTML page: it scales with the
    page, and the browser can count the marks it drew); returns an error
    message or None."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        return NO_GNUPLOT
    cats, series = data["cats"], data["series"]
    points = data.get("style") == "points"
    nser = len(series)
    box = 0.8 / nser
    xpos = {c: i for i, c in enumerate(cats)}
    names = [name for name, _ in series]

    def x_of(cat, j):
        if points:                      # one value per category
            return xpos[cat]
        return xpos[cat] + (j - (nser - 1) / 2) * box

    plots = []
    with tempfile.TemporaryDirectory(prefix="ntboot-report.") as tmp:
        for j, (name, vals) in enumerate(series):
            dat = os.path.join(tmp, f"s{j}.dat")
            with open(dat, "w") as f:
                for c in cats:
                    if c in vals:
                        v, lo, hi = vals[c]
                        f.write(f"{x_of(c, j)} {v} {lo} {hi}\n")
            if points:
                plots.append(f"{gp_quote(dat)} using 1:2:3:4 with "
                             f"yerrorbars lt {j + 1} lw 1.5 pt 7 ps 1.2 "
                             f"title {gp_quote(name)}")
                continue
            plots.append(f"{gp_quote(dat)} using 1:2 with boxes "
                         f"lt {j + 1} title {gp_quote(name)}")
            plots.append(f"{gp_quote(dat)} using 1:2:3:4 with yerrorbars "
                         "lc rgb 'black' lw 1.5 pt 0 ps 0 notitle")
        if data.get("hline"):
            y, label = data["hline"]
            dat = os.path.join(tmp, "h.dat")
            with open(dat, "w") as f:
                f.write(f"-0.5 {y}\n{len(cats) - 0.5} {y}\n")
            plots.append(f"{gp_quote(dat)} using 1:2 with lines "
                         f"lc rgb 'black' dt 2 lw 1.5 title {gp_quote(label)}")
        for j, name in enumerate(names):
            if name not in data["limits"]:
                continue
            dat = os.path.join(tmp, f"l{j}.dat")
            with open(dat, "w") as f:
                y = data["limits"][name]
                f.write(f"-0.5 {y}\n{len(cats) - 0.5} {y}\n")
            plots.append(f"{gp_quote(dat)} using 1:2 with lines lt {j + 1} "
                         f"dt 2 lw 2 title {gp_quote('limit ' + name)}")
        labels = ordered_unique(m[3] for m in data["marks"])
        for k, label in enumerate(labels):
            dat = os.path.join(tmp, f"m{k}.dat")
            with open(dat, "w") as f:
                for cat, name, y, lab in data["marks"]:
                    if lab == label and name in names:
                        f.write(f"{x_of(cat, names.index(name))} {y}\n")
            plots.append(f"{gp_quote(dat)} using 1:2 with points "
                         f"pt {(5, 7, 9, 11, 13)[k % 5]} ps 1.6 "
                         f"lc rgb 'black' title {gp_quote(label)}")
        width = max(900, 60 * len(cats) * max(1, nser) // 2 + 200)
        if svg:
            term = "svg"
        else:
            # gnuplot lists its terminals on stderr.
            probe = subprocess.run([gnuplot, "-e", "set terminal"],
                                   capture_output=True, text=True)
            terms = probe.stdout + probe.stderr
            term = "pngcairo" if "pngcairo" in terms else "png"
        xtics = ", ".join(f"{gp_quote(c)} {i}" for i, c in enumerate(cats))
        ymax, cut = chart_axis(data)
        title = data["title"]
        if ymax and not points and any(hi > ymax for _, vals in series
                                       for _, _, hi in vals.values()):
            title += " (cut at the top)"
        labels = [f"set label {gp_quote(fmt_num(v))} at {x_of(c, j)},"
                  f"{ymax * 0.96} center front" for c, j, v in cut
                  if not points]
        yrange = f"[0:{ymax if ymax else '*'}]"
        if points:                      # ratios: the span of the intervals
            ends = [x for _, vals in series for v in vals.values()
                    for x in v] + [data["hline"][0] if data.get("hline")
                                   else 1.0]
            pad = (max(ends) - min(ends)) * 0.08 or 0.05
            yrange = f"[{min(ends) - pad}:{max(ends) + pad}]"
            width = max(900, 45 * len(cats) + 300)
        script = "\n".join([
            f"set terminal {term} size {width},700"
            + (" dynamic" if svg else ""),
            f"set output {gp_quote(path)}",
            f"set title {gp_quote(title)} noenhanced",
            f"set ylabel {gp_quote(data['ylabel'])}",
            f"set xrange [-0.5:{len(cats) - 0.5}]",
            f"set xtics ({xtics}) rotate by -35 noenhanced",
            "set style fill solid 0.8 border -1",
            f"set boxwidth {box * 0.95}",
            "set errorbars 0.5",
            "set key outside below horizontal maxcols 3 noenhanced",
            f"set yrange {yrange}",
            "set grid ytics",
            *labels,
            "plot " + ", \\\n     ".join(plots),
        ]) + "\n"
        proc = subprocess.run([gnuplot], input=script, capture_output=True,
                              text=True)
        if proc.returncode != 0:
            return "gnuplot failed: " + proc.stderr.strip()[-300:]
    return None


def svg_chart(data):
    """(the SVG text of one chart, None) or (None, why there is none)."""
    with tempfile.TemporaryDirectory(prefix="ntboot-report.") as tmp:
        path = os.path.join(tmp, "chart.svg")
        err = draw_chart(data, path, svg=True)
        if err:
            return None, err
        with open(path, encoding="utf-8") as f:
            return f.read(), None
