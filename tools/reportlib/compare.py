# SPDX-License-Identifier: GPL-2.0-only
"""--compare: two builds, A before and B after, line by line.

The lines of A and B that describe the same thing are matched
(identity(): every key that is not a measurement; the verdicts pair a
claim's lines and the history, --db, keys its lines by the same
identity). The unit of replication is the run, a process or a boot: the
samples of one run share its memory placement, frequency and
neighbours, so they tell how steadily it measured, not how far two runs
of one build differ, and no test of one run's samples against
another's is made.

One log a side (compare_report(), compare_json()): where the lines of
both logs carry processes=P >= 2 (the hosted runner's processes, one
after another in one invocation), each process's median
(proc_medians_ns=) is a run, and the lines are tested as across runs
(reportlib.replicated: Welch's t on the log medians), held to the
machine's move between the two invocations (its limit fills). With
--db, a line measured by one process a side is held to the between-run
spread the history measured on A's CPU model (SPREADS). Otherwise
nothing is tested: the report says what it stands on and how many runs
a side a test would need (runs_needed(), mde_sds()). Several logs a
side: the same rows tested across the runs
(compare_replicated_report()); a side of one log gives its processes
there too.
"""
import json
import math

from scipy import stats

from reportlib import fleet, level, replicated
from reportlib.formatting import (
    BYTES_NOTE,
    ci_title,
    fmt_ns,
    fmt_p,
    md_table,
    ordered_unique,
)
from reportlib.stats import (
    DRIFT_HALVES_MIN,
    geomean,
    log_drift,
    median,
    process_medians,
    processes_of,
    samples_of,
)


# Keys that carry a result rather than say what was measured: they never
# take part in matching lines of two logs. processes= says how many
# processes measured a line, not what: a log of one process and one of
# six measure the same thing.
MEASURE_KEYS = {
    "runs", "node", "eff_mhz", "gbps", "gbps_per_cpu", "mbps", "limit_frac",
    "speedup_vs_copy_clean", "evicted_pct", "limit_best", "limit",
    "beats_limit", "processes", "proc_spread",
}
MEASURE_SUFFIXES = ("_ns", "_pct", "_frac", "_mhz")

# --compare A B --db FILE: {line identity (JSON): (between-run standard
# deviation of the log figures, degrees of freedom)} of A's CPU model.
SPREADS = {}

# What one log a side is one of, and its plural.
UNITS = {"process": "processes", "boot": "boots", "run": "runs"}

# The most runs a side runs_needed() looks at.
RUNS_MOST = 1000


def is_measure(key):
    return (key in MEASURE_KEYS or key.endswith(MEASURE_SUFFIXES)
            or key.startswith(("speedup", "ns_per_")))


def identity(rec):
    return tuple((k, rec[k]) for k in rec
                 if k != "_log" and not is_measure(k))


def primary(rec):
    """The figure a comparison shows: the median, or the evicted share."""
    if isinstance(rec.get("median_ns"), (int, float)):
        return "median_ns", rec["median_ns"]
    if "evicted_pct" in rec:
        return "evicted_pct", rec["evicted_pct"]
    for k, v in rec.items():
        if k.endswith("_ns") and isinstance(v, (int, float)):
            return k, v
    return None, None


def fmt_value(key, v):
    if key == "evicted_pct":
        return f"{v:.1f}%" if isinstance(v, (int, float)) else str(v)
    return fmt_ns(v)


def fmt_pct(x):
    return "-" if x is None else f"{x * 100:.1f}%"


def proc_medians(rec):
    """Each process's median of its warm runs, in process order
    (stats.process_medians()); None with fewer than 2 processes or when
    they cannot be read."""
    if processes_of(rec) < 2:
        return None
    meds = process_medians(rec)
    if meds and all(isinstance(m, int) and m > 0 for m in meds):
        return meds
    return None


def log_processes(log):
    """The most processes any line of @log was measured by."""
    return max((processes_of(r) for r in log.metrics), default=1)


def unit_of(log):
    """What a log measured once is one of: a process (the hosted runner,
    platform=host), a boot (the image) or, with no header, a run."""
    if not log.header:
        return "run"
    return "process" if log.header.get("platform") == "host" else "boot"


def mde_sds(n, alpha):
    """The smallest change, in between-run standard deviations of the log
    medians, that Welch's test of @n runs a side (spreading alike) finds
    4 times in 5 at @alpha."""
    df = 2 * (n - 1)
    return (stats.t.ppf(1 - alpha / 2, df)
            + stats.t.ppf(replicated.POWER, df)) * math.sqrt(2 / n)


def runs_needed(sd, ratio, alpha, most=RUNS_MOST):
    """The fewest runs a side (2 or more) with which Welch's test finds
    a change of @ratio 4 times in 5 at @alpha, given the between-run
    standard deviation @sd of the log medians; None for no change, or
    beyond @most."""
    if not ratio or ratio <= 0 or ratio == 1 or sd is None:
        return None
    d = abs(math.log(ratio))
    if mde_sds(most, alpha) * sd > d:
        return None
    lo, hi = 2, most
    while lo < hi:
        mid = (lo + hi) // 2
        if mde_sds(mid, alpha) * sd <= d:
            hi = mid
        else:
            lo = mid + 1
    return lo


def compare_rows(a, b):
    """Lines in both logs: ([row], {suite: shared keys}, lines of A, lines
    of B). A row is a dict: suite, what, key (the figure compared), a, b
    (its values), rec_a, rec_b (the metric lines), unit (what one log is
    one of: process, boot or run), run_a, run_b (log_drift() of a log of
    one process, else None). The last line wins when a log repeats one."""
    run_a, run_b = (log_drift(x.metrics, level.ALPHA)
                    if log_processes(x) == 1 else None for x in (a, b))
    unit = unit_of(a) if unit_of(a) == unit_of(b) else "run"
    index_b = {}
    for r in b.metrics:
        index_b[identity(r)] = r
    rows, seen = [], set()
    for r in a.metrics:
        ident = identity(r)
        if ident in seen or ident not in index_b:
            continue
        seen.add(ident)
        last_a = [x for x in a.metrics if identity(x) == ident][-1]
        key, va = primary(last_a)
        _, vb = primary(index_b[ident])
        if key is None:
            continue
        rows.append({"suite": last_a["suite"], "ident": ident, "key": key,
                     "a": va, "b": vb, "rec_a": last_a,
                     "rec_b": index_b[ident], "unit": unit, "run_a": run_a,
                     "run_b": run_b})
    common = name_rows(rows)
    mark_probes(rows, [a, b])
    return rows, common, len(a.metrics), len(b.metrics)


def name_rows(rows):
    """Name each row ("what") by the keys that tell it apart from the
    other rows of its suite; the keys all of them share go into one line
    per suite, returned as {suite: shared keys}."""
    common = {}
    for suite in ordered_unique(r["suite"] for r in rows):
        mine = [r for r in rows if r["suite"] == suite]
        idents = [dict(r["ident"]) for r in mine]
        keys = ordered_unique(k for i in idents for k in i if k != "suite")
        varying = [k for k in keys
                   if len({i.get(k) for i in idents}) > 1]
        if not varying:
            varying = keys
        common[suite] = " ".join(f"{k}={idents[0][k]}" for k in keys
                                 if k not in varying)
        for r, ident in zip(mine, idents):
            r["what"] = " ".join(f"{k}={ident[k]}" for k in varying
                                 if k in ident)
    return common


def change(key, va, vb):
    """(ratio text, change text) of B against A."""
    if not all(isinstance(v, (int, float)) for v in (va, vb)):
        return "-", "-"
    if key == "evicted_pct":
        return (f"{vb / va:.3f}" if va else "-"), f"{vb - va:+.1f} pts"
    if not va:
        return "-", "-"
    return f"{vb / va:.3f}", f"{(vb - va) * 100 / va:+.1f}%"


def sign_test(up, down):
    """Two-sided sign test: the probability, with no preferred direction,
    of a split at least as lopsided as @up against @down."""
    if not up + down:
        return 1.0
    return float(stats.binomtest(max(up, down), up + down, 0.5).pvalue)


def history_test(ratio, known, alpha):
    """One run a side held to the between-run spread the history
    measured (@known: the standard deviation of its log medians, its
    degrees of freedom): log(B/A) against the spread of the difference
    of two single runs, sqrt(2) times that, with the history's degrees
    of freedom (Student's t)."""
    sd, df = known
    out = {"scope": "history", "ratio": ratio, "spread": math.exp(sd) - 1,
           "run_spread": math.exp(sd) - 1, "df": df}
    if not sd or not df:
        out["why"] = "the history's runs gave identical medians"
        return out
    se = math.sqrt(2) * sd
    d = math.log(ratio)
    q = stats.t.ppf(1 - alpha / 2, df)
    p = float(2 * stats.t.sf(abs(d) / se, df))
    out.update(testable=True, p=p, significant=p < alpha,
               within_spread=p >= alpha,
               ratio_ci=(math.exp(d - q * se), math.exp(d + q * se)),
               mde=math.exp((q + stats.t.ppf(replicated.POWER, df)) * se)
               - 1,
               needed=runs_needed(sd, ratio, alpha))
    return out


def row_stats(row):
    """What can be said of a compared row, as a dict: scope (processes:
    tested on the per-process medians; history: held to the spread of
    --db; one-process, one-boot or one-run: not tested), testable,
    significant, n_a and n_b (runs a side: processes), ratio, and where
    a test or a spread was possible p, ratio_ci, spread (the between-run
    standard deviation, a fraction), mde and needed (runs_needed() for a
    change of this row's size); why when there is no test."""
    ra, rb = row["rec_a"], row["rec_b"]
    unit = row.get("unit", "run")
    out = {"scope": "one-" + unit, "n_a": processes_of(ra),
           "n_b": processes_of(rb), "testable": False,
           "significant": False, "within_spread": False}
    if row["key"] != "median_ns":
        out["why"] = f"no samples behind {row['key']}"
        return out
    ma, mb = proc_medians(ra), proc_medians(rb)
    if ma and mb:
        st = replicated.compare(ma, mb, level.ALPHA)
        st.update(scope="processes", within_spread=False,
                  gm_a=geomean(ma), gm_b=geomean(mb))
        if "spread" in st:
            st["needed"] = runs_needed(math.log1p(st["spread"]),
                                       st["ratio"], level.ALPHA)
        return st
    va, vb = row["a"], row["b"]
    if va and vb:
        out["ratio"] = vb / va
    known = SPREADS.get(json.dumps(row["ident"]))
    if known and out.get("ratio"):
        out.update(history_test(out["ratio"], known, level.ALPHA))
        return out
    seen, blind = (ma, "B") if ma else (mb, "A")
    if seen:
        # One side shows its processes' spread: what a test would need
        # were the other side's to spread alike. Nothing is tested.
        logs = [math.log(v) for v in seen]
        sd = stats.tstd(logs) if len(set(logs)) > 1 else 0.0
        out.update(spread=math.exp(sd) - 1, blind=blind,
                   mde=math.exp(mde_sds(len(seen), level.ALPHA) * sd) - 1,
                   needed=runs_needed(sd, out.get("ratio"), level.ALPHA),
                   why=f"{blind} is one {unit}: its between-{unit} "
                   "variance cannot be seen")
        return out
    out["why"] = (f"one {unit} a side: the between-{unit} variance cannot "
                  "be seen")
    return out


def mark_probes(rows, logs):
    """The probe in the machine guard: on each bench_probe row,
    probe_follows, [(log label, strategy)] whose states in its
    configuration @logs show it follows (their "# follows" lines or the
    report's own test, reportlib.verdicts.follows()), or [] where a
    strategy there ran in states and the probe was not shown to follow
    them; no such key where none ran in states."""
    # reportlib.verdicts imports this module.
    from reportlib.verdicts import config_of, probe_follows
    seen = [(log.label, probe_follows(log)) for log in logs]
    for r in rows:
        if r["suite"] != "bench_probe":
            continue
        where = config_of(dict(r["ident"]))
        found = [(label, pf[where]) for label, pf in seen if where in pf]
        if found:
            r["probe_follows"] = [(label, s) for label, some in found
                                  for s in sorted(some)]


def probe_note(pairs):
    """What the machine guard made of the probe, in words: its B/A where
    it follows the states and is counted with the fills; where states
    were found and it was not shown to follow them, that it is not."""
    from reportlib.verdicts import config_of
    out = []
    for r, st in pairs:
        shown = r.get("probe_follows")
        if shown is None:
            continue
        where = config_of(dict(r["ident"]))
        if not shown:
            out.append(f"The probe was not shown to follow the states here "
                       f"({where}), so the guard does not use it.")
            continue
        ratio = st.get("ratio")
        by = ", ".join(f"{s} in {label}" for label, s in shown)
        out.append(f"The probe ({where}) follows the machine's states "
                   f"there ({by}'s), so the guard uses it beside the fills"
                   + (f": B/A {ratio:.3f}" if ratio else "") + ".")
    return " ".join(out)


def compare_stats(rows):
    """row_stats() of every row, and the machine's move between the two
    logs (replicated.machine_move() of the tested limit fills, None
    with fewer than 2): where the fills moved together, a significant
    line the same way whose interval reaches back to the farthest fill's
    ratio is "within_machine" and not significant."""
    sts = [row_stats(r) for r in rows]
    pairs = list(zip(rows, sts))
    mv = replicated.machine_move(pairs, level.ALPHA)
    replicated.hold_to_machine(pairs, mv)
    return sts, mv


def shown(row, st):
    """The figures of A and B a row shows: the geometric means of the
    process medians when those were tested, else the lines' own."""
    if st.get("scope") == "processes":
        return st["gm_a"], st["gm_b"]
    return row["a"], row["b"]


def verdict_mark(key, va, vb, st):
    """The change column: '-17.3%' when significant, '~' when not,
    '~ machine' when the machine moved as much between the logs,
    '~ spread' when within the history's between-run spread, '?' when
    it was not tested."""
    if not st["testable"]:
        return "?"
    if st.get("within_machine"):
        return "~ machine"
    if st.get("within_spread"):
        return "~ spread"
    if not st["significant"]:
        return "~"
    r = st.get("ratio")
    if key == "median_ns" and r:
        return f"{(r - 1) * 100:+.1f}%"
    return change(key, va, vb)[1]


def compare_json(rows):
    out = []
    sts, mv = compare_stats(rows)
    for r, st in zip(rows, sts):
        va, vb = r["a"], r["b"]
        ratio = st.get("ratio") or (
            vb / va if all(isinstance(v, (int, float)) for v in (va, vb))
            and va else None)
        run_a, run_b = r.get("run_a"), r.get("run_b")
        item = {"suite": r["suite"], "what": r["what"], "key": r["key"],
                "a": va, "b": vb, "ratio": ratio,
                "change": change(r["key"], *shown(r, st))[1],
                "median_a": va if r["key"] == "median_ns" else None,
                "median_b": vb if r["key"] == "median_ns" else None,
                "scope": st["scope"],
                "processes_a": processes_of(r["rec_a"]),
                "processes_b": processes_of(r["rec_b"]),
                "gm_a": st.get("gm_a"), "gm_b": st.get("gm_b"),
                "ratio_ci": st.get("ratio_ci"),
                "p": st.get("p"),
                "test": {"processes": "welch",
                         "history": "history-t"}.get(st["scope"])
                if st["testable"] else None,
                "n_a": st.get("n_a"), "n_b": st.get("n_b"),
                "alpha": level.ALPHA, "significant": st["significant"],
                "testable": st["testable"],
                "spread": st.get("spread"), "mde": st.get("mde"),
                "runs_needed": st.get("needed"),
                "within_drift": False,
                "run_drifted_a": run_a["drifted"] if run_a else None,
                "run_drifted_b": run_b["drifted"] if run_b else None,
                "within_machine": st.get("within_machine", False),
                "within_spread": st.get("within_spread", False),
                "run_spread": st.get("run_spread"),
                "machine_moved": bool(mv and mv["moved"]),
                "machine_bound": mv["bound"] if mv and mv["moved"]
                else None}
        if "why" in st:
            item["why"] = st["why"]
        out.append(item)
    return out


def drift_note(rows, a, b):
    """A paragraph on how far each log moved during itself: for a log of
    one process, its lines' quarters (log_drift()); for one of several
    processes, the spread between them takes it in."""
    if not rows:
        return []
    out = []
    for log, run in ((a, rows[0]["run_a"]), (b, rows[0]["run_b"])):
        procs = log_processes(log)
        if procs > 1:
            out.append(f"{log.label}: {procs} processes one after another; "
                       "a machine that moved during them shows in the "
                       "spread between their medians.")
        elif not run:
            if any(samples_of(r) for r in log.metrics):
                out.append(f"{log.label}: too few samples per line (fewer "
                           f"than {DRIFT_HALVES_MIN}) to tell whether the "
                           "run drifted.")
            else:
                out.append(f"{log.label}: no samples_ns= on its lines (an "
                           "older build): whether the run drifted cannot "
                           "be told.")
        else:
            moved = "drifted" if run["drifted"] else "held steady"
            out.append(f"{log.label} {moved} during its run (Kruskal-Wallis "
                       f"over the quarters of each of {run['lines']} lines,"
                       f" summed: p={fmt_p(run['p'])}).")
    return [" ".join(out), ""]


def machine_note(rows, sts, mv):
    """A paragraph on how the machine moved between the logs, from its
    limit fills (bench_limit lines: the same fill code in both builds
    unless the change touched the fills) and the probe where it follows
    the machine's states (probe_note()): tested, the sign test of their
    directions (replicated.machine_move()); untested, their ratios."""
    probe = probe_note(list(zip(rows, sts)))
    probe = " " + probe if probe else ""
    if mv:
        probes = mv.get("probes", 0)
        what = (f"{mv['fills']} limit fills" if not probes else
                f"{mv['fills'] - probes} limit fills and {probes} probe "
                f"line{'s' if probes > 1 else ''}")
        out = (f"The machine between the logs: of its {what} "
               f"(bench_limit lines, the same code in both builds "
               f"unless the fills themselves changed), {mv['up']} are slower "
               f"in B and {mv['down']} faster (from {mv['low']:.3f}x to "
               f"{mv['high']:.3f}x; sign test p={fmt_p(mv['p'])}).")
        if mv["moved"]:
            held = sum(st.get("within_machine", False) for st in sts)
            out += (" The fills moved together, so the machine did: a "
                    "difference the same way that is not clearly beyond "
                    f"the farthest fill's ({(mv['bound'] - 1) * 100:+.1f}%:"
                    " the ratio's interval reaches it) is `~ machine`, not "
                    f"significant ({held} lines). Where the change under "
                    "test touched the fills themselves, read those lines "
                    "again.")
        return [out + probe, ""]
    guard = [(r, st["ratio"]) for r, st in zip(rows, sts)
             if replicated.in_guard(r) and st.get("ratio")
             and not st["testable"]]
    fills = sorted(x for _, x in guard)
    if len(fills) < 2:
        return [probe.strip(), ""] if probe else []
    probes = sum(not replicated.is_fill(r) for r, _ in guard)
    what = (f"The limit fills ({len(fills)} bench_limit lines" if not probes
            else f"The limit fills and the probe ({len(fills) - probes} "
            f"bench_limit lines and {probes} bench_probe "
            f"line{'s' if probes > 1 else ''}")
    return [f"{what}, the same "
            "code in both builds unless the fills themselves changed) "
            f"differ by {(median(fills) - 1) * 100:+.1f}% (median; "
            f"{(fills[0] - 1) * 100:+.1f}% to {(fills[-1] - 1) * 100:+.1f}%"
            f"; {sum(x > 1 for x in fills)} slower in B, "
            f"{sum(x < 1 for x in fills)} faster): as much as the machine "
            "and the two runs alone make of unchanged code here." + probe,
            ""]


def lines_of(some, sts):
    """' (N lines)' when @some are not all of @sts, else ''."""
    return "" if len(some) == len(sts) else f" ({len(some)} lines)"


def stands_on(sts, unit):
    """What the comparison stands on, a paragraph for each scope among
    @sts, and how many runs a side a test would need where it cannot
    see the between-run variance."""
    units = UNITS[unit]
    alpha = level.ALPHA
    out = []
    procs = [st for st in sts if st["scope"] == "processes"]
    if procs:
        counts = ordered_unique((st["n_a"], st["n_b"]) for st in procs)
        if len(counts) == 1:
            who = f"{counts[0][0]} processes of A against {counts[0][1]} of B"
        else:
            who = (f"{min(min(c) for c in counts)} to "
                   f"{max(max(c) for c in counts)} processes a side")
        out += [f"What this stands on{lines_of(procs, sts)}: "
                f"{who}, one invocation a side (one log each, processes=): "
                "each process's median of its warm runs (proc_medians_ns=) "
                "is one run, the process the unit of replication. A and B "
                "are the geometric means of the process medians; the test "
                "is Welch's t on their logarithms, B/A in brackets its "
                f"{ci_title()}; spread: the between-process standard "
                "deviation of a line's log medians (pooled over A and B); "
                "MDE: the smallest change these processes find 4 times in 5"
                f" at alpha {alpha:g}, given that spread; needs: the runs a "
                "side that would find a change the size of this line's 4 "
                "times in 5. The processes of one invocation ran one after "
                "another on one machine: separate invocations or boots "
                "(tools/ab) may differ by more than they do, and between "
                "the two invocations the machine itself may have moved "
                "(where the limit fills all moved one way, a line that "
                "moved that way no farther is `~ machine`).", ""]
    hist = [st for st in sts if st["scope"] == "history"]
    if hist:
        out += [f"What this stands on{lines_of(hist, sts)}: "
                f"one {unit} a side, held to the between-run spread the "
                "history (--db) measured on A's CPU model: p is Student's t "
                "of log(B/A) against the spread of two single runs' "
                "difference (sqrt(2) times the history's standard "
                "deviation, with its degrees of freedom), `~ spread` when "
                "within it; spread: the history's between-run standard "
                "deviation; MDE: the smallest change one run a side finds 4"
                f" times in 5 at alpha {alpha:g}; needs: the runs a side "
                "that would find a change the size of this line's.", ""]
    blind = [st for st in sts if st["scope"].startswith("one-")
             and st.get("why", "").startswith("one ")]
    half = [st for st in sts if st.get("blind")]
    if blind:
        one = ("one run of A against one of B (one log a side)"
               if unit == "run" else
               f"one {unit} of A against one {unit} of B (one log a side"
               + (", processes=1)" if unit == "process" else ")"))
        out += [f"What this stands on{lines_of(blind, sts)}: {one}. The "
                f"samples of one {unit} share its memory placement, "
                f"frequency and neighbours: they tell how steadily that "
                f"{unit} measured, not how far two {units} of one build "
                f"differ, and that between-{unit} variance cannot be seen "
                "with one log a side. So "
                + ("these lines are not" if len(blind) < len(sts)
                   else "no line is")
                + " tested and no difference is called significant: B/A "
                "is the ratio of the two medians, `?` in the change column "
                "marks it untested. To see that variance it would need at "
                "least 2 logs a side (tools/ab runs them interleaved), or "
                "processes=N >= 2 in each log, whose per-process medians "
                "are then the runs"
                + ("" if SPREADS else ", or --db FILE with repeated runs "
                   "of this machine")
                + ". What they then find depends on the spread they show: "
                "Welch's test finds a change of "
                + ", ".join(f"{mde_sds(n, alpha):.1f}"
                            + (" between-run standard deviations with "
                               f"{n} runs a side" if n == 3
                               else f" with {n}")
                            for n in (3, 5, 10))
                + f" (4 times in 5, alpha {alpha:g}).", ""]
    for side in ("A", "B"):
        mine = [st for st in half if st["blind"] == side]
        if not mine:
            continue
        seen = "B" if side == "A" else "A"
        counts = ordered_unique(st["n_b" if side == "A" else "n_a"]
                                for st in mine)
        out += [f"What this stands on{lines_of(mine, sts)}: "
                f"{' or '.join(map(str, counts))} processes of {seen} "
                f"against one {unit} of {side} (one log a side): {seen}'s "
                f"processes show its between-process spread, but {side}'s "
                f"cannot be seen with one {unit}, so "
                + ("these lines are not" if len(mine) < len(sts)
                   else "no line is")
                + " tested and no difference is called significant (`?`). "
                f"spread, MDE and needs are {seen}'s, as if {side} spread "
                f"alike. For a test, give {side} processes=N >= 2 too, or "
                "several logs a side (tools/ab).", ""]
    return out


def compare_report(a, b):
    rows, common, na, nb = compare_rows(a, b)
    unit = rows[0]["unit"] if rows else "run"
    out = ["# ntboot before/after", "",
           f"- A (before): `{a.name}`: {a.describe()}",
           f"- B (after): `{b.name}`: {b.describe()}", "",
           "Lines match when every key that is not a measurement is equal "
           "(suite, strategy, page_size, mode, pages, chunk, ...). Times "
           "are medians of the warm runs (2..N). change: the change when "
           f"significant, `~` when p >= {level.ALPHA:g} (no significant "
           "difference), `?` when not tested. n: runs (processes) a side. "
           + BYTES_NOTE, ""]
    sts, mv = compare_stats(rows)
    out += stands_on(sts, unit)
    out += drift_note(rows, a, b)
    out += machine_note(rows, sts, mv)
    table, posted = [], []
    for r, st in zip(rows, sts):
        key = r["key"]
        va, vb = shown(r, st)
        ratio = st.get("ratio")
        ratio = f"{ratio:.3f}" if ratio else change(key, va, vb)[0]
        if st.get("ratio_ci"):
            lo, hi = st["ratio_ci"]
            ratio += f" [{lo:.3f}, {hi:.3f}]"
        mark = verdict_mark(key, va, vb, st)
        n = f"{st['n_a']}+{st['n_b']}"
        needed = st.get("needed")
        table.append([r["suite"], r["what"], fmt_value(key, va),
                      fmt_value(key, vb), ratio, mark, fmt_p(st.get("p")),
                      n, fmt_pct(st.get("spread")), fmt_pct(st.get("mde")),
                      needed if needed else
                      f">{RUNS_MOST}" if "spread" in st and st.get("ratio")
                      and st["ratio"] != 1 else "-"])
        if st["testable"]:
            tail = (f"p={fmt_p(st['p'])} n={n} processes"
                    if st["scope"] == "processes" else
                    f"p={fmt_p(st['p'])}, one {unit} a side against the "
                    "history's spread")
            posted.append(f"- {r['suite']} {r['what']}: "
                          f"{fmt_value(key, va)} -> {fmt_value(key, vb)} "
                          f"({mark}, {tail})")
    if table:
        out.append(md_table(["suite", "what", "A", "B", "B/A", "change",
                             "p", "n", "spread", "MDE", "needs"], table,
                            "llrrrrrrrrr"))
        out += [""] + summary(sts)
        shared = [f"- {suite}: {keys}"
                  for suite, keys in common.items() if keys]
        if shared:
            out += ["", "Shared by every compared line of a suite:", ""]
            out += shared
        if posted:
            out += ["", "As the postings write it (the tested lines):", ""]
            out += posted
    unmatched_a = na - len(rows)
    unmatched_b = nb - len(rows)
    if unmatched_a or unmatched_b:
        out += ["", f"Not compared: {unmatched_a} lines of A and "
                f"{unmatched_b} of B have no counterpart (or repeat one)."]
    return "\n".join(out) + "\n", len(rows)


def summary(sts):
    """The sentences under the table: how many lines differ, why the
    others were not tested, the minimum detectable effect and the runs a
    side a 5% and a 2% change would need at the median spread."""
    tested = [st for st in sts if st["testable"]]
    out = []
    if tested:
        n_machine = sum(st.get("within_machine", False) for st in tested)
        n_spread = sum(st.get("within_spread", False) for st in tested)
        out.append(f"{sum(st['significant'] for st in tested)} of "
                   f"{len(tested)} tested lines differ significantly"
                   + (f"; {n_machine} more lie within the machine's move "
                      "between the logs" if n_machine else "")
                   + (f"; {n_spread} lie within the between-run spread "
                      "the history measured on this CPU" if n_spread
                      else "")
                   + ".")
    else:
        out.append(f"None of the {len(sts)} lines is tested: no difference "
                   "here is called significant.")
    untested = [st for st in sts if not st["testable"]]
    if tested and untested:
        whys = ordered_unique(st["why"] for st in untested)
        out.append(f"Not tested, and not called significant: "
                   f"{len(untested)} of {len(sts)} lines ("
                   + "; ".join(f"{why}: "
                               f"{sum(st['why'] == why for st in untested)}"
                               for why in whys) + ").")
    mdes = sorted(st["mde"] for st in sts if "mde" in st)
    if mdes:
        sd = median([math.log1p(st["spread"]) for st in sts
                     if "spread" in st])
        need = [runs_needed(sd, 1 + c, level.ALPHA) for c in (0.05, 0.02)]
        out.append(f"Minimum detectable effect at the spread seen: median "
                   f"{median(mdes) * 100:.1f}%, from {mdes[0] * 100:.1f}% "
                   f"to {mdes[-1] * 100:.1f}% over {len(mdes)} lines. At "
                   f"the median line's spread ({math.expm1(sd) * 100:.1f}%)"
                   ", a 5% change needs "
                   + " and a 2% change ".join(
                       f"{n} runs a side" if n else f"more than {RUNS_MOST} "
                       "runs a side" for n in need)
                   + " to be found 4 times in 5.")
    return out


# ------------------------------------------------------ several logs a side


def replicated_rows(logs_a, logs_b):
    """The lines every log of both sides has: [row] with suite, ident,
    key, a and b (one value per run), and the lines left out."""
    def value(rec):
        return primary(rec)[1]
    ta, miss_a = replicated.rep_table(logs_a, identity, value)
    tb, miss_b = replicated.rep_table(logs_b, identity, value)
    keys = {identity(rec): primary(rec)[0] for rec in logs_a[0].metrics}
    rows = []
    for ident, va in ta.items():
        if ident in tb:
            rows.append({"suite": dict(ident).get("suite", "?"),
                         "ident": ident, "key": keys.get(ident),
                         "a": va, "b": tb[ident]})
    left = miss_a + miss_b + len(set(ta) ^ set(tb))
    name_rows(rows)
    mark_probes(rows, logs_a + logs_b)
    return rows, left


def one_log_processes(rows, logs, side):
    """A side of one log: where its line carries processes=P >= 2, the
    row's values for that side become the P process medians (each
    process a run), and the row's "procs_" + @side is P."""
    if len(logs) != 1:
        return
    recs = {identity(rec): rec for rec in logs[0].metrics}
    for r in rows:
        meds = proc_medians(recs[r["ident"]]) \
            if r["key"] == "median_ns" and r["ident"] in recs else None
        if meds:
            r[side] = meds
            r["procs_" + side] = len(meds)


def compare_values(a, b):
    """replicated.compare() of one row's runs; where one side has a
    single run and the other several, the other's spread, the MDE and
    the runs a side a change this size needs, as if both spread alike:
    still not tested."""
    st = replicated.compare(a, b, level.ALPHA)
    if st["testable"] or (len(a) < 2) == (len(b) < 2):
        return st
    seen, blind = (a, "B") if len(a) >= 2 else (b, "A")
    logs = [math.log(v) for v in seen]
    sd = stats.tstd(logs) if len(set(logs)) > 1 else 0.0
    st.update(ratio=geomean(b) / geomean(a), spread=math.exp(sd) - 1,
              mde=math.exp(mde_sds(len(seen), level.ALPHA) * sd) - 1,
              needed=runs_needed(sd, geomean(b) / geomean(a), level.ALPHA),
              why=f"{blind} is one run: its between-run variance cannot be "
              "seen")
    return st


def compare_replicated(logs_a, logs_b):
    """[(row, stats)] of --compare with several logs a side (a side of
    one log: its processes, one_log_processes())."""
    rows, left = replicated_rows(logs_a, logs_b)
    one_log_processes(rows, logs_a, "a")
    one_log_processes(rows, logs_b, "b")
    pairs = [(r, compare_values(r["a"], r["b"])) for r in rows]
    # The machine guard (docs/statistics.md): when every limit fill moved
    # one way, a line that moved that way no farther is not the change's.
    move = replicated.machine_move(pairs, level.ALPHA)
    replicated.hold_to_machine(pairs, move)
    return pairs, left, move


def compare_replicated_json(logs_a, logs_b):
    pairs, _, _ = compare_replicated(logs_a, logs_b)
    out = []
    for r, st in pairs:
        item = {"suite": r["suite"], "what": r["what"], "runs_a": r["a"],
                "runs_b": r["b"], "a": geomean(r["a"]),
                "b": geomean(r["b"])}
        item.update({k: v for k, v in st.items()})
        out.append(item)
    return out


def one_log_note(pairs, logs_a, logs_b):
    """What a side of one log stands on, against several logs of the
    other: its processes where its lines carry several, else nothing
    that shows its between-run variance."""
    out = []
    for side, logs in (("A", logs_a), ("B", logs_b)):
        if len(logs) != 1:
            continue
        procs = sum("procs_" + side.lower() in r for r, _ in pairs)
        blind = [st for _, st in pairs if not st["testable"]
                 and "spread" in st]
        text = f"{side} is one log."
        if procs:
            text += (f" On {procs} of its lines (processes=P >= 2) each "
                     "process's median is one of its runs: processes of "
                     "one invocation, one after another, which separate "
                     "invocations or boots may differ from by more.")
        if blind:
            sd = median([math.log1p(st["spread"]) for st in blind])
            need = runs_needed(sd, 1.05, level.ALPHA)
            text += (f" On {len(blind)} lines it is one run: its "
                     "between-run variance cannot be seen, so they are "
                     "not tested. Their spread is the other side's, their "
                     "MDE what as many runs a side would find were it to "
                     "spread alike, and at the median of those spreads"
                     f" ({math.expm1(sd) * 100:.1f}%) a 5% "
                     "change needs "
                     + (f"{need}" if need else f"more than {RUNS_MOST}")
                     + " runs a side to be found 4 times in 5.")
        out += [text, ""]
    return out


def compare_replicated_report(logs_a, logs_b):
    pairs, left, move = compare_replicated(logs_a, logs_b)
    notes = replicated.machines(logs_a, logs_b, fleet.cpu_model,
                                fleet.machine_of)
    out = ["# ntboot A/B across repetitions", "",
           f"- A: {len(logs_a)} runs ({', '.join(f'`{x.name}`' for x in logs_a)}"
           f"): {logs_a[0].describe()}",
           f"- B: {len(logs_b)} runs ({', '.join(f'`{x.name}`' for x in logs_b)}"
           f"): {logs_b[0].describe()}", "",
           "Each run gives each line one number, its median of runs 2..N; "
           "A and B are the geometric means of those. The test is Welch's "
           "t on the logarithms of the per-run medians, the process (or "
           "boot) being the unit of replication; B/A in brackets its "
           f"{ci_title()}. spread: the between-run standard deviation of "
           "a line's medians (pooled over A and B); MDE: the smallest "
           f"change {len(logs_a)}+{len(logs_b)} runs find 4 times in 5 at "
           f"alpha {level.ALPHA:g}, given that spread. change: `~` when p >= "
           f"{level.ALPHA:g}; `~ machine` when the limit fills all moved the "
           "same way and the line's interval reaches back to theirs. "
           + BYTES_NOTE, ""]
    out += [f"Note: {n}." for n in notes] + ([""] if notes else [])
    out += one_log_note(pairs, logs_a, logs_b)
    table, mdes, n_sig = [], [], 0
    for r, st in pairs:
        va, vb = geomean(r["a"]), geomean(r["b"])
        ratio = f"{vb / va:.3f}"
        if st.get("ratio_ci"):
            lo, hi = st["ratio_ci"]
            ratio += f" [{lo:.3f}, {hi:.3f}]"
        if st["testable"]:
            n_sig += st["significant"]
            mark = (f"{(vb - va) * 100 / va:+.1f}%" if st["significant"]
                    else "~ machine" if st["within_machine"] else "~")
            mdes.append(st["mde"])
        else:
            mark = "? " + st["why"]
        table.append([r["suite"], r["what"], fmt_value(r["key"], va),
                      fmt_value(r["key"], vb), ratio, mark,
                      fmt_p(st.get("p")), f"{st['n_a']}+{st['n_b']}",
                      f"{st['spread'] * 100:.1f}%" if "spread" in st
                      else "-",
                      f"{st['mde'] * 100:.1f}%" if "mde" in st else "-"])
    if table:
        out.append(md_table(["suite", "what", "A", "B", "B/A", "change",
                             "p", "runs", "spread", "MDE"], table,
                            "llrrrlrrrr"))
        out += ["", f"{n_sig} of {len(pairs)} lines differ significantly."]
        held = sum(st.get("within_machine", False) for _, st in pairs)
        if move and move["moved"]:
            among = ("(the probe among them) " if move.get("probes")
                     else "")
            out.append(f"The machine moved: {max(move['up'], move['down'])}"
                       f" of {move['fills']} limit fills {among}"
                       f"{'slower' if move['up'] > move['down'] else 'faster'}"
                       f" in B (from {move['low']:.3f}x to "
                       f"{move['high']:.3f}x, sign test p "
                       f"{fmt_p(move['p'])}); {held} lines held to that "
                       "move.")
        note = probe_note(pairs)
        if note:
            out.append(note)
        if mdes:
            mdes.sort()
            runs = ordered_unique(f"{st['n_a']}+{st['n_b']}"
                                  for _, st in pairs if st["testable"])
            out.append(f"Minimum detectable effect at {' or '.join(runs)}"
                       f" runs: median {median(mdes) * 100:.1f}%"
                       f", from {mdes[0] * 100:.1f}% to "
                       f"{mdes[-1] * 100:.1f}% over the lines.")
    if left:
        out += ["", f"Not compared: {left} lines are missing from some "
                "run."]
    return "\n".join(out) + "\n", len(pairs)
