# SPDX-License-Identifier: GPL-2.0-only
"""The variance at each level of a measurement: runs inside a process,
processes inside an invocation (Kalibera and Jones, "Rigorous
Benchmarking in Reasonable Time", ISMM 2013). On a log scale, for a line
measured in P processes of n warm runs each:

  - S1^2, the within-process variance: of each run about its process's
    mean, pooled over the processes (P (n - 1) degrees of freedom);
  - S2^2, the variance of the process means; what the processes add of
    their own is T2^2 = S2^2 - S1^2 / n (at least 0), T1^2 = S1^2;
  - the runs per process that give the most precision for the time,
    when a process costs c2 (its setup) and a run c1: the ceiling of
    sqrt((c2 / c1) T1^2 / T2^2); when T2 is 0, as many as the time
    allows (the processes add nothing).

A verdict compares two lines measured in the same processes, so what it
replicates over is the per-process speed-up r_k = before_k / after_k:
a load that slows a whole process slows both and cancels. For each
claim the table gives the spread of log r_k between processes beside
the spread the runs alone would give it (sqrt((S1_b + S1_a) / n)): where
the first is the larger, the processes differ in the speed-up itself,
and only more processes narrow the verdict.

`tools/report --levels LOG... [--cost-ratio C2/C1]` prints them per line
(docs/statistics.md, "Worker processes").
"""
import math

from reportlib.formatting import md_table
from reportlib.stats import process_blocks as stats_process_blocks
from reportlib.stats import processes_of


def process_blocks(rec):
    """[[warm samples of process 1], ...] of a metric line
    (stats.process_blocks()), or None unless it was measured in several
    processes of two warm runs or more."""
    if processes_of(rec) < 2:
        return None
    blocks = stats_process_blocks(rec)
    return blocks if blocks and len(blocks[0]) >= 2 else None


def components(blocks):
    """(S1^2, S2^2, T2^2) of @blocks of positive samples, on a log scale."""
    logs = [[math.log(x) for x in b] for b in blocks]
    means = [sum(b) / len(b) for b in logs]
    n = len(logs[0])
    s1 = sum((x - m) ** 2 for b, m in zip(logs, means) for x in b) / \
        (len(logs) * (n - 1))
    grand = sum(means) / len(means)
    s2 = sum((m - grand) ** 2 for m in means) / (len(means) - 1)
    return s1, s2, max(0.0, s2 - s1 / n)


def optimal_runs(t1_sq, t2_sq, cost_ratio):
    """Runs per process for the most precision in the time, or None when
    the processes add nothing (more runs of fewer processes then)."""
    if t2_sq <= 0:
        return None
    return max(1, math.ceil(math.sqrt(cost_ratio * t1_sq / t2_sq)))


def pct(var):
    """A log-scale variance as a standard deviation in percent."""
    return f"{100 * math.sqrt(var):.1f}%"


def levels_rows(logs, cost_ratio=None):
    rows = []
    for log in logs:
        for rec in log.metrics:
            if any(k in rec for k in ("pass", "results")):
                continue
            blocks = process_blocks(rec)
            if blocks is None or any(x <= 0 for b in blocks for x in b):
                continue
            s1, s2, t2 = components(blocks)
            what = rec.get("strategy") or rec.get("method") or "-"
            where = " ".join(f"{k}={rec[k]}" for k in
                             ("page_size", "mode", "chunk") if k in rec)
            best = (optimal_runs(s1, t2, cost_ratio)
                    if cost_ratio is not None else None)
            rows.append({
                "log": log.label, "suite": rec.get("suite"),
                "what": f"{what} {where}".strip(),
                "processes": len(blocks), "runs": len(blocks[0]),
                "within": s1, "between": t2,
                "share": t2 / (t2 + s1) if t2 + s1 else 0.0,
                "best_runs": best})
    return rows


def claim_rows(logs):
    """Per claim of each log: the spread of the per-process speed-ups and
    the part of it the runs alone explain."""
    from reportlib.verdicts import CLAIMS, claim_pairs  # (a cycle)

    rows = []
    for log in logs:
        for claim in CLAIMS:
            for before, after in claim_pairs(claim, log.metrics):
                bb, ba = process_blocks(before), process_blocks(after)
                if not bb or not ba or len(bb) != len(ba) or \
                        len(bb[0]) != len(ba[0]):
                    continue
                logs_b = [[math.log(x) for x in b] for b in bb]
                logs_a = [[math.log(x) for x in b] for b in ba]
                r = [sum(b) / len(b) - sum(a) / len(a)
                     for b, a in zip(logs_b, logs_a)]
                mean = sum(r) / len(r)
                between = sum((x - mean) ** 2 for x in r) / (len(r) - 1)
                s1_b = components(bb)[0]
                s1_a = components(ba)[0]
                rows.append({
                    "log": log.label,
                    "what": f"{before.get(claim['key'])} -> "
                            f"{after.get(claim['key'])} "
                            f"{after.get('mode', after.get('chunk', ''))}",
                    "processes": len(r), "ratio_spread": between,
                    "from_runs": (s1_b + s1_a) / len(bb[0])})
    return rows


def levels_main(logs, cost_ratio):
    rows = levels_rows(logs, cost_ratio)
    if not rows:
        print("report: --levels: no metric line carries samples of "
              "several processes (processes=N with runs=2 or more)")
        return 1
    head = ["log", "suite", "what", "P x n", "within (run)",
            "between (process)", "process share"]
    if cost_ratio is not None:
        head.append(f"runs/process at c2/c1={cost_ratio:g}")
    table = []
    for r in rows:
        row = [r["log"], r["suite"], r["what"],
               f"{r['processes']} x {r['runs']}", pct(r["within"]),
               pct(r["between"]), f"{100 * r['share']:.0f}%"]
        if cost_ratio is not None:
            row.append("all in one" if r["best_runs"] is None
                       else str(r["best_runs"]))
        table.append(row)
    print(md_table(head, table))
    shares = sorted(r["share"] for r in rows)
    print(f"\nThe processes' own share of a run's variance: median "
          f"{100 * shares[len(shares) // 2]:.0f}% over {len(rows)} lines "
          f"(0% would make a process no different from a run).")
    claims = claim_rows(logs)
    if claims:
        print("\nThe postings' claims: the per-process speed-up's spread "
              "between processes, and what the runs alone would give it.\n")
        print(md_table(["log", "claim", "P", "speed-up spread",
                        "from the runs alone"],
                       [[c["log"], c["what"], str(c["processes"]),
                         pct(c["ratio_spread"]), pct(c["from_runs"])]
                        for c in claims]))
    return 0
