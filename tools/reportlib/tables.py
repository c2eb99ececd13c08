# SPDX-License-Identifier: GPL-2.0-only
"""The report of one or more logs: a Markdown table per suite
(bench_memmap_init, bench_limit, bench_nocache_copy, bench_pollution;
every key of its lines for any other), the verdicts on the postings'
claims (reportlib.verdicts), the ordering observed per CPU (litmus and
memmap_smp lines); the same metric lines as JSON or CSV; and the table
of the results history (--db FILE fleet).
"""
import csv
import io
import json

from reportlib import level, manifest
from reportlib.formatting import (
    BYTES_NOTE,
    ci_title,
    fmt_bytes,
    fmt_ci,
    fmt_ns,
    fmt_num,
    md_table,
    ordered_unique,
)
from reportlib.stats import (
    median_ci,
    process_medians,
    processes_of,
    samples_of,
)
from reportlib.mitigation import mitigations
from reportlib.mitigation import section as mitigation_section
from reportlib.model_over_kernel import model_over_kernel
from reportlib.model_over_kernel import section as model_over_kernel_section
from reportlib.verdicts import follows, verdict_section, verdicts


# ------------------------------------------------------------- suite tables

def by_log(records):
    """[(label, records of that log)] in first-seen order."""
    labels = ordered_unique(r["_log"] for r in records)
    return [(lab, [r for r in records if r["_log"] == lab])
            for lab in labels]


def rec_ci(rec):
    """The median's interval of a metric line: from its samples, or for
    a line of several processes from its process medians (the samples of
    one process are not independent of it, the processes are)."""
    xs = samples_of(rec)
    if xs and processes_of(rec) > 1:
        xs = process_medians(rec)
    ci = median_ci(xs, level.ALPHA) if xs else None
    return (ci[0], ci[1]) if ci else None


def n_of(rec):
    """The samples of a line, and the processes they came from."""
    xs = samples_of(rec)
    if not xs:
        return "-"
    p = processes_of(rec)
    return f"{len(xs)} in {p}" if p > 1 else str(len(xs))


def spread(rec):
    """' +-1.2%': the farther end of the median's interval from the
    median, as a share of it; '' without one."""
    ci, med = rec_ci(rec), rec.get("median_ns")
    if not ci or not isinstance(med, (int, float)) or not med:
        return ""
    return f" +-{max(med - ci[0], ci[1] - med) * 100 / med:.1f}%"


def samples_note(records):
    if all(samples_of(r) for r in records):
        return []
    return ["", "Lines without samples_ns= (logs of older builds) have no "
            "intervals and take part in no test: intervals and tests need "
            "the samples."]


def table_memmap(records, multi):
    out = ["Median of runs 2..N with its " + ci_title() + " (order "
           "statistics of the samples, or of the process medians where a "
           "line ran in several processes; n: samples, \"in P\": from P "
           "processes). vs slow: the slow path's median over "
           "this "
           "strategy's (same log, struct page size and mode). % of limit: "
           "the fastest fill of the same bytes in the same rounds "
           "as a share of this strategy's time (limit_frac). " + BYTES_NOTE]
    for label, recs in by_log(records):
        # kernel=: the model's kernel where it is not the base
        # (docs/model.md, "The two kernels").
        def group_of(r):
            return tuple(r.get(k) for k in ("page_size", "mode", "map",
                                            "pages", "written", "kernel"))

        for group in ordered_unique(group_of(r) for r in recs):
            size, mode, map_, pages, written, kernel = group
            rows = [r for r in recs if group_of(r) == group]
            slow = next((r.get("median_ns") for r in rows
                         if r.get("strategy") == "slow"), None)
            # map=: where the memmap lives; pages: the pfns initialised,
            # written: the struct pages written (devdax with map=mem
            # writes fewer: its vmemmap is deduplicated).
            title = (f"page_size={size} mode={mode}"
                     + (f" map={map_}" if map_ else "")
                     + f" pages={pages}"
                     + (f" written={written}" if written is not None
                        and written != pages else "")
                     + (f" kernel={kernel}" if kernel else ""))
            if multi:
                title = f"{label}: {title}"
            table, beaten = [], []
            for r in rows:
                med = r.get("median_ns")
                vs_slow = (f"{slow / med:.2f}x"
                           if isinstance(slow, (int, float))
                           and isinstance(med, (int, float)) and med
                           else "-")
                lf = r.get("limit_frac")
                of_limit = (f"{lf * 100:.1f}%"
                            if isinstance(lf, (int, float)) and lf
                            else "-")
                if beats_limit(r):
                    of_limit += " **beats the limit**"
                    beaten.append(r.get("strategy", "?"))
                table.append([r.get("strategy", "?"), fmt_ns(med),
                              fmt_ci(rec_ci(r), fmt_ns), n_of(r),
                              fmt_ns(r.get("first_ns")),
                              fmt_num(r.get("ns_per_page"), 3),
                              fmt_num(r.get("gbps")), vs_slow, of_limit])
            out.append(f"\n### {title}\n")
            out.append(md_table(["strategy", "median", ci_title(), "n",
                                 "first", "ns/page", "GB/s", "vs slow",
                                 "% of limit"], table))
            best = ordered_unique(r.get("limit_best") for r in rows
                                  if r.get("limit_best"))
            if best:
                out.append(f"\nFastest fill of these bytes: "
                           f"{', '.join(map(str, best))}.")
            if beaten:
                out.append(f"\n{', '.join(map(str, beaten))} wrote these "
                           "bytes faster than every fill: the limit is not "
                           "a ceiling here, a finding about the fills "
                           "(docs/benchmarks.md), not a figure to trust "
                           "as a share.")
    return out + samples_note(records)


def beats_limit(rec):
    """A strategy faster than the fastest fill: the line says so
    (beats_limit=1), or older logs show it as limit_frac above 1."""
    if rec.get("beats_limit") in (1, "1", True):
        return True
    lf = rec.get("limit_frac")
    return isinstance(lf, (int, float)) and lf > 1


def limit_context(rec):
    """Where a fill was timed: in the rounds of a memmap benchmark (its
    limit for one struct page size and mode), or by bench_limit alone."""
    if rec.get("for"):
        where = " ".join(f"{k}={rec[k]}" for k in ("page_size", "mode",
                                                     "map", "kernel")
                         if k in rec)
        return f"{rec['for']} rounds" + (f", {where}" if where else "")
    return "bench_limit alone"


def table_limit(records, multi):
    out = ["Fills of the memmap's bytes by each kind of store (cached, "
           "rep stosb, each non-temporal width), non-zero data. Those "
           "timed in a memmap benchmark's rounds are its limit (the "
           "fastest); bench_limit alone times them again over the whole "
           "namespace. " + BYTES_NOTE, ""]
    table = []
    for r in records:
        row = [r.get("strategy", "?"), limit_context(r),
               fmt_bytes(r.get("bytes")), fmt_ns(r.get("median_ns")),
               fmt_ci(rec_ci(r), fmt_ns), n_of(r), fmt_num(r.get("gbps"))]
        table.append(([r["_log"]] if multi else []) + row)
    out.append(md_table((["log"] if multi else [])
                        + ["strategy", "measured in", "bytes", "median",
                           ci_title(), "n", "GB/s"], table,
                        ("ll" if multi else "l") + "lrrrrr"))
    return out + samples_note(records)


def pivot(records, row_key, col_key, cell, corner, col_title=str):
    rows = ordered_unique(r.get(row_key) for r in records)
    cols = ordered_unique(r.get(col_key) for r in records)
    if all(isinstance(c, int) for c in cols):
        cols.sort()
    table = []
    for rv in rows:
        line = [rv]
        for cv in cols:
            hit = [r for r in records
                   if r.get(row_key) == rv and r.get(col_key) == cv]
            line.append(cell(hit[-1]) if hit else "-")
        table.append(line)
    return md_table([corner] + [col_title(c) for c in cols], table)


def table_nocache(records, multi):
    out = ["MB/s (10^6 bytes/s of the median run) per copy method and "
           "chunk size; in brackets the speed-up over copy-then-clean with "
           "the kernel's choice of instruction (speedup_vs_copy_clean); "
           "+-: how far the median's " + ci_title() + " reaches from it. "
           + "".join(f"\"{c['subject']}\": {c['posted']}. "
                     for c in manifest.claims()
                     if c["suite"] == "bench_nocache_copy")
           + BYTES_NOTE]

    def cell(r):
        sp = r.get("speedup_vs_copy_clean")
        sp = f" ({sp:.2f}x)" if isinstance(sp, (int, float)) else ""
        return f"{fmt_num(r.get('mbps'), 0)}{spread(r)}{sp}"

    for label, recs in by_log(records):
        dest = recs[0].get("dest_bytes")
        title = f"destination {fmt_bytes(dest)}, " \
                f"{fmt_bytes(recs[0].get('bytes'))} per run"
        out.append(f"\n### {label + ': ' if multi else ''}{title}\n")
        out.append(pivot(recs, "method", "chunk", cell, "method",
                         lambda c: f"{fmt_bytes(c)} chunk"))
    return out + samples_note(records)


def table_pollution(records, multi):
    out = ["Share of a warm buffer evicted by one memmap init: "
           "(after - warm) / (cold - warm) of the times to re-read it; "
           "'idle' waits as long as the fastest init without one (what "
           "else evicts the buffer); na: a flushed read was not clearly "
           "slower than a warm one. " + BYTES_NOTE]

    def cell(r):
        pct = r.get("evicted_pct")
        return f"{pct:.1f}%" if isinstance(pct, (int, float)) else str(pct)

    for label, recs in by_log(records):
        first = recs[0]
        out.append(f"\n### {label + ': ' if multi else ''}memmap "
                   f"{fmt_bytes(first.get('memmap_bytes'))} "
                   f"(page_size={first.get('page_size')} "
                   f"mode={first.get('mode')})\n")
        out.append(pivot(recs, "strategy", "buffer", cell, "strategy",
                         lambda b: next(
                             (f"{b} ({fmt_bytes(r.get('buffer_bytes'))})"
                              for r in recs if r.get("buffer") == b),
                             str(b))))
        refs = ordered_unique((r.get("buffer"), r.get("warm_ns"),
                               r.get("cold_ns")) for r in recs)
        out.append("")
        for buf, warm, cold in refs:
            out.append(f"- {buf}: warm read {fmt_ns(warm)}, cold read "
                       f"{fmt_ns(cold)}")
    return out


def table_probe(records, multi):
    out = ["The state probe (probe_rfo): one 8-byte store to each 64-byte "
           "line of the buffer (at most its first 256 MiB), timed in every "
           "round of each memmap configuration, so that the machine's "
           "state shows where a strategy does not run (docs/statistics.md,"
           " \"States\"). Median of runs 2..N with its " + ci_title()
           + "; ns/line: the median over its lines; bytes: the span its "
           "lines cover (it stores 8 bytes of each).", ""]
    table = []
    for r in records:
        where = " ".join(f"{k}={r[k]}" for k in ("page_size", "mode", "map")
                         if k in r)
        row = [r.get("strategy", "?"), where, fmt_bytes(r.get("bytes")),
               fmt_ns(r.get("median_ns")), fmt_ci(rec_ci(r), fmt_ns),
               n_of(r), fmt_num(r.get("ns_per_line"), 3)]
        table.append(([r["_log"]] if multi else []) + row)
    out.append(md_table((["log"] if multi else [])
                        + ["probe", "configuration", "bytes", "median",
                           ci_title(), "n", "ns/line"], table,
                        ("ll" if multi else "l") + "lrrrrr"))
    return out + samples_note(records)


def table_generic(records, multi):
    keys = ordered_unique(k for r in records for k in r
                          if k not in ("suite", "_log"))
    table = [([r["_log"]] if multi else []) + [fmt_num(r.get(k)) for k in keys]
             for r in records]
    return [BYTES_NOTE, "",
            md_table((["log"] if multi else []) + keys, table,
                     "l" * (2 if multi else 1) + "r" * (len(keys) - 1))]


SUITE_TABLES = {
    "bench_memmap_init": table_memmap,
    "bench_limit": table_limit,
    "bench_probe": table_probe,
    "bench_nocache_copy": table_nocache,
    "bench_pollution": table_pollution,
}
SUITE_ORDER = ["bench_memmap_init", "bench_limit", "bench_probe",
               "bench_nocache_copy", "bench_pollution"]


def markdown_report(logs):
    records = [r for log in logs for r in log.metrics]
    multi = len(logs) > 1
    out = ["# ntboot benchmark report", ""]
    for log in logs:
        tag = f"{log.label}: " if multi else ""
        out.append(f"- {tag}`{log.name}`: {log.describe()}, "
                   f"{len(log.metrics)} metric lines"
                   + (f", **{log.failed} failed tests**" if log.failed
                      else ""))
    seen = ordered_unique(r["suite"] for r in records)
    suites = sorted(seen, key=lambda s: (SUITE_ORDER.index(s)
                                         if s in SUITE_ORDER
                                         else len(SUITE_ORDER),
                                         seen.index(s)))
    for suite in suites:
        recs = [r for r in records if r["suite"] == suite]
        out += ["", f"## {suite}", ""]
        out += SUITE_TABLES.get(suite, table_generic)(recs, multi)
    out += verdict_section(logs)
    out += model_over_kernel_section(logs)
    out += mitigation_section(logs)
    out += litmus_section(logs)
    return "\n".join(out) + "\n"


OBSERVED = "observed"
NOT_OBSERVED = "allowed, not observed here"
FORBIDDEN_SEEN = "**forbidden and observed**"


def litmus_section(logs):
    """One table per CPU model: each litmus test's relaxed outcome, what
    the table says of it, and whether this CPU showed it."""
    by_cpu = {}
    for log in logs:
        if log.litmus:
            cpu = log.header.get("cpu", "unknown CPU")
            by_cpu.setdefault(cpu, []).append(log)
    if not by_cpu:
        return []
    out = ["", "## Ordering observed, by CPU", "",
           "The relaxed outcome of each litmus test (tests/litmus.tests) "
           "and of each memmap_smp run (a struct page still stale when "
           "another CPU sees the hand-off flag; iterations are rounds), "
           "summed over the logs of one CPU model: " + OBSERVED + ", "
           + NOT_OBSERVED + " (the model allows it; this CPU did not show "
           "it in these iterations: not a proof of anything), or "
           + FORBIDDEN_SEEN + " (a failure). Failures come first."]
    for cpu, cpu_logs in by_cpu.items():
        rows = {}
        for log in cpu_logs:
            for case, o in log.litmus.items():
                r = rows.setdefault(case, {"verdict": o["verdict"],
                                           "count": 0, "iters": 0})
                r["count"] += o["count"]
                r["iters"] += o["iters"]
        table = []
        for case, r in rows.items():
            if r["verdict"] == "forbidden":
                word = FORBIDDEN_SEEN if r["count"] else "forbidden, never"
            else:
                word = OBSERVED if r["count"] else NOT_OBSERVED
            table.append((0 if word == FORBIDDEN_SEEN else 1,
                          [case, r["verdict"], f"{r['count']}/{r['iters']}",
                           word]))
        table.sort(key=lambda t: t[0])
        seen = sum(1 for _, t in table if t[3] == OBSERVED)
        allowed = sum(1 for _, t in table if t[1] == "allowed")
        out += ["", f"### {cpu} ({len(cpu_logs)} log"
                f"{'s' if len(cpu_logs) > 1 else ''})", ""]
        if "QEMU" in cpu or "TCG" in cpu:
            out.append("An emulated CPU: QEMU's TCG makes NT stores "
                       "ordinary stores and runs its vCPUs as host threads, "
                       "so what it shows is the host's own store-buffer "
                       "reordering (SB), never an NT-store effect; nothing "
                       "here is evidence about NT stores on silicon.\n")
        out.append(f"{seen} of {allowed} allowed relaxations observed.\n")
        out.append(md_table(["test", "table", "relaxed / iterations",
                             "here"], [t for _, t in table], "llrl"))
    return out


# ------------------------------------------------------------ machine output

def public(rec):
    return {k: v for k, v in rec.items() if k != "_log"}


def json_report(logs):
    out = []
    for log in logs:
        item = {"log": log.name, "header": log.header,
                "metrics": [public(r) for r in log.metrics],
                "verdicts": verdicts(log)}
        # Only where a strategy ran in states: the fills and the probe
        # against them (reportlib.verdicts.follows()).
        fl = follows(log, item["verdicts"])
        if fl:
            item["follows"] = fl
        mok = model_over_kernel(log)
        if mok:
            item["model_over_kernel"] = mok
        # Only where a build and its twin with plain returns both ran.
        mit = mitigations(log)
        if mit:
            item["mitigations"] = mit
        out.append(item)
    return json.dumps(out, indent=1) + "\n"


def csv_report(logs):
    keys = ordered_unique(k for log in logs for r in log.metrics for k in r
                          if k != "_log")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["log"] + keys)
    for log in logs:
        for r in log.metrics:
            w.writerow([log.name] + [",".join(map(str, r[k]))
                                     if isinstance(r.get(k), list)
                                     else r.get(k, "") for k in keys])
    return buf.getvalue()


# ---------------------------------------------------------- results history


def fleet_markdown(claims, mitigations):
    """The fleet's Markdown: a table per claim (fleet.fleet()), then the
    return thunk's cost by CPU model and microcode where any is stored
    (@mitigations: fleet.mitigation_summary())."""
    out = ["# ntboot fleet", "",
           "Per claim of the postings, a row per CPU model: the runs "
           "stored, the machines and builds they came from, what "
           "replicates (unit: the runs; one run's processes; or one "
           "process or boot, which replicates nothing), the measured "
           "speed-up (geometric mean of the runs'), its interval (one run: "
           "the run's own; several: Welch's across the runs), the verdict "
           "and measured/posted (docs/statistics.md, \"Many machines\"). "
           "The word judges the size as well as the direction: "
           "confirmed only where the posted speed-up lies inside the "
           "interval, faster, short of the posted where the interval lies "
           "below it, beyond the posted where above. A word \"seen ... in "
           "one process / boot\" is one observation, not a finding: the "
           "others take several runs, or one run of several processes. A "
           "word stored by a build before the size rule judged the "
           "direction only, and is marked as the old rule."]
    for title, rows in claims:
        table = []
        for r in rows:
            ci = (f"[{r['ci'][0]:.2f}, {r['ci'][1]:.2f}]" if r["ci"]
                  else "-")
            table.append([r["cpu_model"], r["cpu"] or "-", str(r["runs"]),
                          str(r["machines"]), str(r["builds"]),
                          r.get("unit", "-"),
                          f"{r['speedup']:.2f}x" if r["speedup"] else "-",
                          ci, r["verdict"],
                          f"{r['measured_over_posted']:.2f}"
                          if r["measured_over_posted"] else "-"])
        out += ["", f"## {title}", ""]
        out.append(md_table(["CPU model", "CPU", "runs", "machines",
                             "builds", "unit", "speed-up", "interval",
                             "verdict", "measured/posted"], table,
                            "llrrrlrrll"))
    return "\n".join(out + fleet_mitigations(mitigations)) + "\n"


def fleet_mitigations(summary):
    """Markdown lines of fleet.mitigation_summary()'s rows, or none."""
    if not summary:
        return []
    table = [[r["cpu_model"], r["microcode"] or "-", r["config"],
              r["kernel_code"], r["return_thunk"] or "-", str(r["runs"]),
              str(r["machines"]), fmt_num(r["cost"], 3),
              fmt_num(r["lowest"], 3), fmt_num(r["highest"], 3)]
             for r in summary]
    return ["", "## Mitigations by CPU model and microcode", "",
            "What the return thunk cost the kernel's code: a build's "
            "median with its return sites on the thunk its boot chose over "
            "the same object with plain returns, per run as the run's "
            "report judges it; a row per CPU model, microcode, "
            "configuration, build and thunk (the kernel picks the thunk "
            "by the CPU and its microcode): the runs, the machines, the "
            "geometric mean of their costs, and the lowest and highest.",
            "", md_table(["CPU model", "microcode", "configuration",
                          "kernel code", "thunk", "runs", "machines",
                          "cost", "lowest", "highest"], table,
                         "lllllrrrrr")]
