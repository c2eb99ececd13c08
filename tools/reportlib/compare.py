# SPDX-License-Identifier: GPL-2.0-only
"""--compare: two logs, A before and B after, line by line.

One log a side: the lines of A and B that describe the same thing are
matched (identity(): every key that is not a measurement; the verdicts
pair a claim's lines and the history, --db, keys its lines by the same
identity), and each pair is tested with the U test of its samples
(reportlib.stats), held to the run's own drift, to the machine's move
between the runs (its limit fills, machine_move()) and, with --db, to
the between-run spread the history measured (SPREADS); the result as
Markdown (compare_report()) or JSON rows (compare_json()). Several logs
a side: the same rows tested across the runs (reportlib.replicated) and
their report (compare_replicated_report()).
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
    MIN_SAMPLES,
    compare_runs,
    log_drift,
    median,
    samples_of,
)


# Keys that carry a result rather than say what was measured: they never
# take part in matching lines of two logs.
MEASURE_KEYS = {
    "runs", "node", "eff_mhz", "gbps", "mbps", "ns_per_page", "limit_frac",
    "speedup_vs_copy_clean", "evicted_pct", "limit_best", "limit",
    "beats_limit",
}
MEASURE_SUFFIXES = ("_ns", "_pct", "_frac", "_mhz")

# --compare A B --db FILE: {line identity (JSON): (between-run standard
# deviation of the log figures, degrees of freedom)} of A's CPU model.
SPREADS = {}


def is_measure(key):
    return (key in MEASURE_KEYS or key.endswith(MEASURE_SUFFIXES)
            or key.startswith("speedup"))


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


def compare_rows(a, b):
    """Lines in both logs: ([row], {suite: shared keys}, lines of A, lines
    of B). A row is a dict: suite, what, key (the figure compared), a, b
    (its values), rec_a, rec_b (the metric lines). The last line wins when
    a log repeats one."""
    run_a, run_b = (log_drift(a.metrics, level.ALPHA),
                    log_drift(b.metrics, level.ALPHA))
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
                     "rec_b": index_b[ident], "run_a": run_a,
                     "run_b": run_b})
    common = name_rows(rows)
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


def row_stats(row):
    """compare_samples() of a compared row, or a dict that says why there
    is no test."""
    if row["key"] != "median_ns":
        return {"testable": False, "significant": False,
                "why": f"no samples behind {row['key']}"}
    sa, sb = samples_of(row["rec_a"]), samples_of(row["rec_b"])
    if not sa or not sb:
        return {"testable": False, "significant": False,
                "why": "no samples_ns= in " + " and ".join(
                    side for side, s in (("A", sa), ("B", sb)) if not s)}
    return compare_runs(sa, sb, level.ALPHA, row.get("run_a"),
                        row.get("run_b"))


def sign_test(up, down):
    """Two-sided sign test: the probability, with no preferred direction,
    of a split at least as lopsided as @up against @down."""
    if not up + down:
        return 1.0
    return float(stats.binomtest(max(up, down), up + down, 0.5).pvalue)


def machine_move(rows, stats):
    """How the machine moved between the runs, from its limit fills
    (bench_limit lines: the fastest ways it writes memory; the fill_*
    strategies run the same fill code, the template copies and the slow
    path do not): a dict with fills, the ratios' median, low
    and high, up and down (how many moved which way), p (a sign test of
    those directions), moved (p < alpha) and bound (the farthest ratio
    in the way they moved); None with fewer than 2 fills."""
    ratios = sorted(st["ratio"] for r, st in zip(rows, stats)
                    if r["suite"] == "bench_limit" and st.get("ratio"))
    if len(ratios) < 2:
        return None
    up = sum(x > 1 for x in ratios)
    down = sum(x < 1 for x in ratios)
    p = sign_test(up, down)
    return {"fills": len(ratios), "median": median(ratios),
            "low": ratios[0], "high": ratios[-1], "up": up, "down": down,
            "p": p, "moved": p < level.ALPHA and up != down,
            "significant": sum(st.get("p") is not None
                               and st["p"] < level.ALPHA
                               for r, st in zip(rows, stats)
                               if r["suite"] == "bench_limit"),
            "bound": ratios[-1] if up > down else ratios[0]}


def compare_stats(rows):
    """row_stats() of every row, and machine_move(); where the fills
    moved together, a significant difference in the same direction whose
    interval reaches back to the farthest fill's ratio is
    "within_machine" and not significant: the machine moved as much
    between the runs."""
    stats = [row_stats(r) for r in rows]
    for r, st in zip(rows, stats):
        # One log a side: the between-run spread this machine's history
        # measured (--db) holds a difference no larger than two runs of
        # one build differ.
        known = SPREADS.get(json.dumps(r["ident"]))
        st["within_spread"] = False
        if known and st.get("ratio"):
            st["run_spread"] = math.exp(known[0]) - 1
            if st["significant"] and fleet.within_spread(
                    st["ratio"], known[0], level.ALPHA):
                st["within_spread"] = True
                st["significant"] = False
    mv = machine_move(rows, stats)
    for st in stats:
        r, ci = st.get("ratio"), st.get("ratio_ci")
        st["within_machine"] = False
        if not (mv and mv["moved"] and st["significant"] and r):
            continue
        # The same way as the fills, and not clearly beyond the farthest
        # of them: the ratio's interval reaches back to it.
        lo, hi = ci if ci else (r, r)
        if (r > 1 and mv["bound"] > 1 and lo <= mv["bound"]) or \
                (r < 1 and mv["bound"] < 1 and hi >= mv["bound"]):
            st["within_machine"] = True
            st["significant"] = False
    return stats, mv


def fmt_spread(med, ci):
    """'96.79 ms +-1.2%' (the farther end of the interval) or '96.79 ms'."""
    if not ci or not isinstance(med, (int, float)) or not med:
        return fmt_ns(med)
    return (f"{fmt_ns(med)} "
            f"+-{max(med - ci[0], ci[1] - med) * 100 / med:.1f}%")


def verdict_mark(key, va, vb, st):
    """The change column: '-17.3%' when significant, '~' when not,
    '~ drift' when the U test alone would have called it but a run
    drifted as much, '~ machine' when the machine moved as much between
    the runs, the change and '?' when it could not be tested."""
    _, chg = change(key, va, vb)
    if not st["testable"]:
        return chg + " ?" if chg != "-" else "?"
    if st.get("within_drift"):
        return "~ drift"
    if st.get("within_machine"):
        return "~ machine"
    if st.get("within_spread"):
        return "~ spread"
    return chg if st["significant"] else "~"


def compare_json(rows):
    out = []
    stats, mv = compare_stats(rows)
    for r, st in zip(rows, stats):
        va, vb = r["a"], r["b"]
        ratio = (vb / va if all(isinstance(v, (int, float))
                                for v in (va, vb)) and va else None)
        item = {"suite": r["suite"], "what": r["what"], "key": r["key"],
                "a": va, "b": vb, "ratio": ratio,
                "change": change(r["key"], va, vb)[1],
                "median_a": va if r["key"] == "median_ns" else None,
                "median_b": vb if r["key"] == "median_ns" else None,
                "ci_a": st.get("ci_a"), "ci_b": st.get("ci_b"),
                "ratio_ci": st.get("ratio_ci"),
                "ratio_hl": st.get("ratio_hl"),
                "p": st.get("p"), "test": st.get("test"),
                "n_a": st.get("n_a"), "n_b": st.get("n_b"),
                "alpha": level.ALPHA, "significant": st["significant"],
                "testable": st["testable"],
                "within_drift": st.get("within_drift", False),
                "drift_a": st.get("drift_a"), "drift_b": st.get("drift_b"),
                "drift_bound": st.get("drift_bound"),
                "run_drifted_a": st.get("run_drifted_a"),
                "run_drifted_b": st.get("run_drifted_b"),
                "within_machine": st.get("within_machine", False),
                "within_spread": st.get("within_spread", False),
                "run_spread": st.get("run_spread"),
                "machine_moved": bool(mv and mv["moved"]),
                "machine_shift": mv["median"] if mv else None,
                "machine_bound": mv["bound"] if mv and mv["moved"]
                else None}
        if "why" in st:
            item["why"] = st["why"]
        out.append(item)
    return out


def drift_note(rows, a, b):
    """A paragraph on how far each run moved during itself."""
    if not rows:
        return []
    out = []
    for log, run in ((a, rows[0]["run_a"]), (b, rows[0]["run_b"])):
        if not run:
            if any(samples_of(r) for r in log.metrics):
                out.append(f"{log.label}: too few samples per line (fewer "
                           f"than {DRIFT_HALVES_MIN}) to tell whether the "
                           "run drifted.")
            else:
                out.append(f"{log.label}: no samples_ns= on its lines (an "
                           "older build): whether the run drifted cannot "
                           "be told.")
            continue
        moved = "drifted" if run["drifted"] else "held steady"
        out.append(f"{log.label} {moved} during its run (Kruskal-Wallis "
                   f"over the quarters of each of {run['lines']} lines, "
                   f"summed: p={fmt_p(run['p'])}).")
    out.append("drift: the largest slowest-to-fastest quarter of this line "
               "in a run that drifted; a difference within it is `~ drift`, "
               "not significant (docs/statistics.md).")
    return [" ".join(out), ""]


def machine_note(mv, stats):
    """A paragraph on how the machine itself moved between the runs
    (machine_move()), and how many lines moved the same way."""
    if not mv:
        return []
    timed = [st["ratio"] for st in stats if st.get("ratio")]
    slower = sum(x > 1 for x in timed)
    faster = sum(x < 1 for x in timed)
    out = (f"The machine between the runs: its limit fills ({mv['fills']} "
           f"bench_limit lines, the same code in both builds unless the "
           f"fills themselves changed) moved by "
           f"{(mv['median'] - 1) * 100:+.1f}% (median; "
           f"{(mv['low'] - 1) * 100:+.1f}% to "
           f"{(mv['high'] - 1) * 100:+.1f}%; {mv['up']} slower, "
           f"{mv['down']} faster, sign test p={fmt_p(mv['p'])}; "
           f"{mv['significant']} of them significantly by the U test). "
           f"Of all {len(timed)} lines, {slower} are slower in B and "
           f"{faster} faster.")
    if mv["moved"]:
        out += (f" The fills moved together, so the machine did: a "
                f"difference the same way that is not clearly beyond the "
                f"farthest fill's ({(mv['bound'] - 1) * 100:+.1f}%: the "
                "ratio's interval reaches it) is `~ machine`, not "
                "significant. Where the change under "
                "test touched the fills themselves, read those lines "
                "again.")
    return [out, ""]


def compare_report(a, b):
    rows, common, na, nb = compare_rows(a, b)
    out = ["# ntboot before/after", "",
           f"- A (before): `{a.name}`: {a.describe()}",
           f"- B (after): `{b.name}`: {b.describe()}", "",
           "Lines match when every key that is not a measurement is equal "
           "(suite, strategy, page_size, mode, pages, chunk, ...). Times "
           "are medians of runs 2..N, +- the farther end of the median's "
           f"{ci_title()}; B/A is the ratio of the medians, in brackets the "
           f"{ci_title()} of the ratio (Hodges-Lehmann, pairwise ratios). "
           "p: two-sided Mann-Whitney U test of the samples; change: `~` "
           f"when p >= {level.ALPHA:g} (no significant difference), `?` "
           "when no test was possible (no samples, or fewer than "
           f"{MIN_SAMPLES} a side). n: samples of A+B. " + BYTES_NOTE, ""]
    out += drift_note(rows, a, b)
    stats, mv = compare_stats(rows)
    out += machine_note(mv, stats)
    table, posted, untested = [], [], []
    n_sig = n_drift = n_machine = n_spread = 0
    if not SPREADS:
        out += ["One run a side: the between-process variance is unknown, "
                "so the test treats the samples of one run as independent "
                "of it. Run several (tools/ab), or give --db FILE with "
                "repeated runs of this machine: a difference within their "
                "spread is then `~ spread`.", ""]
    for r, st in zip(rows, stats):
        n_sig += st["significant"]
        n_drift += st.get("within_drift", False)
        n_machine += st.get("within_machine", False)
        n_spread += st.get("within_spread", False)
        key, va, vb = r["key"], r["a"], r["b"]
        ratio, _ = change(key, va, vb)
        if st.get("ratio_ci"):
            lo, hi = st["ratio_ci"]
            ratio += f" [{lo:.3f}, {hi:.3f}]"
        mark = verdict_mark(key, va, vb, st)
        if key == "median_ns":
            fa, fb = fmt_spread(va, st.get("ci_a")), fmt_spread(vb,
                                                               st.get("ci_b"))
        else:
            fa, fb = fmt_value(key, va), fmt_value(key, vb)
        n = f"{st['n_a']}+{st['n_b']}" if "n_a" in st else "-"
        bound = st.get("drift_bound")
        table.append([r["suite"], r["what"], fa, fb, ratio, mark,
                      fmt_p(st.get("p")), n,
                      f"{bound * 100:.1f}%" if bound is not None else "-"])
        if st["testable"]:
            tail = f"p={fmt_p(st['p'])} n={n}"
        else:
            tail = "not tested: " + st["why"]
            untested.append(st["why"])
        posted.append(f"- {r['suite']} {r['what']}: {fmt_value(key, va)} -> "
                    f"{fmt_value(key, vb)} ({mark}, {tail})")
    if table:
        out.append(md_table(["suite", "what", "A", "B", "B/A", "change",
                             "p", "n", "drift"], table, "llrrrrrrr"))
        out += ["", f"{n_sig} of {len(rows)} lines differ significantly"
                + (f"; {n_drift} more would by the U test alone, but lie "
                   "within a run's own drift" if n_drift else "")
                + (f"; {n_machine} more lie within the machine's move "
                   "between the runs" if n_machine else "")
                + (f"; {n_spread} more lie within the between-run spread "
                   "the history measured on this CPU" if n_spread else "")
                + "."]
        shared = [f"- {suite}: {keys}"
                  for suite, keys in common.items() if keys]
        if shared:
            out += ["", "Shared by every compared line of a suite:", ""]
            out += shared
        out += ["", "As the postings write it:", ""] + posted
        if untested:
            out += ["", f"{len(untested)} of {len(rows)} lines were not "
                    "tested: a difference there may be noise. Intervals and "
                    "tests need samples_ns= on both sides, at least "
                    f"{MIN_SAMPLES} a side."]
    unmatched_a = na - len(rows)
    unmatched_b = nb - len(rows)
    if unmatched_a or unmatched_b:
        out += ["", f"Not compared: {unmatched_a} lines of A and "
                f"{unmatched_b} of B have no counterpart (or repeat one)."]
    return "\n".join(out) + "\n", len(rows)


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
    return rows, left


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def compare_replicated(logs_a, logs_b):
    """[(row, stats)] of --compare with several logs a side."""
    rows, left = replicated_rows(logs_a, logs_b)
    pairs = [(r, replicated.compare(r["a"], r["b"], level.ALPHA))
             for r in rows]
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
            out.append(f"The machine moved: {max(move['up'], move['down'])}"
                       f" of {move['fills']} limit fills "
                       f"{'slower' if move['up'] > move['down'] else 'faster'}"
                       f" in B (from {move['low']:.3f}x to "
                       f"{move['high']:.3f}x, sign test p "
                       f"{fmt_p(move['p'])}); {held} lines held to that "
                       "move.")
        if mdes:
            mdes.sort()
            out.append(f"Minimum detectable effect at {len(logs_a)}+"
                       f"{len(logs_b)} runs: median {median(mdes) * 100:.1f}%"
                       f", from {mdes[0] * 100:.1f}% to "
                       f"{mdes[-1] * 100:.1f}% over the lines.")
    if left:
        out += ["", f"Not compared: {left} lines are missing from some "
                "run."]
    return "\n".join(out) + "\n", len(pairs)
