# SPDX-License-Identifier: GPL-2.0-only
"""A/B comparisons whose unit of replication is the process (or boot).

The samples inside one run share that run's memory placement, frequency
and neighbours, so they are not independent of it: two processes of one
build differ by more than one process's samples admit. Here each run
gives one number per line (its median), and what is tested is how those
numbers vary between runs of A and of B:

  - the per-run medians are compared on a log scale (a ratio, like the
    postings' figures) with Welch's t test (scipy.stats.ttest_ind,
    unequal variances): few runs a side, no assumption that A and B
    spread alike;
  - the ratio B/A is the ratio of the geometric means, its interval the
    Welch interval of the difference of the logs;
  - the between-run spread is the pooled standard deviation of the log
    medians, shown as a percentage;
  - the minimum detectable effect is the smallest ratio a test at this
    level and number of runs finds with 80% power, given that spread:
    (t(1 - alpha/2) + t(0.8)) times the standard error.

With one run a side nothing here can be estimated from separate runs:
a log whose lines carry several processes (processes=N) gives its
per-process medians as the runs (compare.py); a log of one process or
boot is not tested at all, and the report says what it would need.
"""
import math

from scipy import stats

POWER = 0.8


def rep_table(logs, identity, value):
    """{line identity: [value per log]} for the lines every log has, and
    the number of lines some logs lack. @identity and @value map a metric
    record to its identity and to its number (None: not comparable)."""
    per_log = []
    for log in logs:
        mine = {}
        for rec in log.metrics:
            v = value(rec)
            if isinstance(v, (int, float)) and v > 0:
                mine[identity(rec)] = v     # the last line wins
        per_log.append(mine)
    if not per_log:
        return {}, 0
    common = [k for k in per_log[0] if all(k in m for m in per_log[1:])]
    every = set().union(*per_log)
    return {k: [m[k] for m in per_log] for k in common}, \
        len(every) - len(common)


def compare(a, b, alpha=0.05):
    """Welch's test of the log medians of @a against @b (values of one
    line, one per run). A dict: testable, why (when not), ratio,
    ratio_ci, p, significant, spread (between-run, as a fraction), mde
    (as a fraction), n_a, n_b."""
    out = {"n_a": len(a), "n_b": len(b)}
    if len(a) < 2 or len(b) < 2:
        out.update(testable=False, significant=False,
                   why="one run a side: the between-process variance is "
                   "unknown")
        return out
    la = [math.log(v) for v in a]
    lb = [math.log(v) for v in b]
    ma, mb = sum(la) / len(la), sum(lb) / len(lb)
    va = stats.tvar(la) if len(set(la)) > 1 else 0.0
    vb = stats.tvar(lb) if len(set(lb)) > 1 else 0.0
    se2 = va / len(la) + vb / len(lb)
    diff = mb - ma
    out["ratio"] = math.exp(diff)
    out["spread"] = math.exp(math.sqrt((va + vb) / 2)) - 1
    if se2 == 0:
        # No variation at all between runs: nothing to scale a test by.
        out.update(testable=False, significant=False,
                   why="the runs gave identical medians")
        return out
    se = math.sqrt(se2)
    df = se2 ** 2 / ((va / len(la)) ** 2 / (len(la) - 1) +
                     (vb / len(lb)) ** 2 / (len(lb) - 1))
    res = stats.ttest_ind(lb, la, equal_var=False)
    q = stats.t.ppf(1 - alpha / 2, df)
    out.update(testable=True, p=float(res.pvalue),
               significant=bool(res.pvalue < alpha),
               ratio_ci=(math.exp(diff - q * se), math.exp(diff + q * se)),
               df=df,
               mde=math.exp((q + stats.t.ppf(POWER, df)) * se) - 1)
    return out


def is_fill(row):
    """A limit fill's row."""
    return row["suite"] == "bench_limit"


def in_guard(row):
    """A row the machine guard stands on: a limit fill, or the probe
    where it was shown to follow the machine's states (probe_follows,
    compare.mark_probes())."""
    return is_fill(row) or bool(row.get("probe_follows"))


def machine_move(pairs, alpha=0.05):
    """How the machine moved between the A runs and the B runs, from its
    limit fills (bench_limit lines: the same fill code in both builds
    unless the change touched the fills). @pairs: [(row, compare())]. A
    dict with fills, up and down (how many fills' ratios lie which side
    of 1), p (a two-sided sign test of those directions), moved (p <
    alpha, one way more than the other), bound (the farthest fill's
    ratio the way they moved) and probes (how many of the rows were not
    fills: the probe where it follows the machine's states, in_guard());
    None with fewer than 2 testable rows.

    Interleaving the runs (A B B A ...) spreads a machine's slow minutes
    over both sides, but not what the two builds' binaries do to it
    alike (their placement, a frequency step the first run set off):
    when every fill moved one way, a line that moved that way no farther
    is the machine's move, not the change's."""
    used = [(r, st) for r, st in pairs if in_guard(r) and st.get("testable")]
    ratios = sorted(st["ratio"] for _, st in used)
    if len(ratios) < 2:
        return None
    up = sum(x > 1 for x in ratios)
    down = sum(x < 1 for x in ratios)
    p = float(stats.binomtest(max(up, down), up + down, 0.5).pvalue) \
        if up + down else 1.0
    return {"fills": len(ratios), "up": up, "down": down, "p": p,
            "moved": p < alpha and up != down,
            "low": ratios[0], "high": ratios[-1],
            "bound": ratios[-1] if up > down else ratios[0],
            "probes": sum(not is_fill(r) for r, _ in used)}


def hold_to_machine(pairs, move):
    """Where the fills moved together (machine_move()), a significant
    line of any other suite whose ratio lies the same way and whose
    interval reaches back to the farthest fill's ratio is
    within_machine, not significant. Every stats dict gets
    within_machine. Returns how many were held. The rows of the guard
    itself (in_guard()) are not held."""
    held = 0
    for r, st in pairs:
        st["within_machine"] = False
        if not (move and move["moved"] and st.get("significant")) or \
                in_guard(r):
            continue
        lo, hi = st["ratio_ci"]
        bound = move["bound"]
        if (st["ratio"] > 1 and bound > 1 and lo <= bound) or \
                (st["ratio"] < 1 and bound < 1 and hi >= bound):
            st["within_machine"] = True
            st["significant"] = False
            held += 1
    return held


def machines(logs_a, logs_b, model_of, machine_of):
    """What a comparison across runs should be told about where its runs
    ran: a list of sentences, empty when every run of both sides names
    one CPU model and one machine. @model_of and @machine_of map a log
    header to its CPU model and machine (reportlib.fleet). A run whose
    header names no CPU is counted as such."""
    notes = []
    seen = {}
    for side, logs in (("A", logs_a), ("B", logs_b)):
        for log in logs:
            try:
                model = model_of(log.header)
            except ValueError:
                notes.append(f"{side}: `{log.name}` has no header naming "
                             f"its CPU: where it ran is unknown")
                continue
            seen.setdefault(("model", model), set()).add(side)
            seen.setdefault(("machine", machine_of(log.header)),
                            set()).add(side)
    models = sorted(k[1] for k in seen if k[0] == "model")
    hosts = [k for k in seen if k[0] == "machine"]
    if len(models) > 1:
        notes.append(f"the runs come from {len(models)} CPU models "
                     f"({', '.join(models)}): the difference between the "
                     f"sides is that of the machines as much as the "
                     f"builds', and the spread is not one machine's")
    elif len(hosts) > 1:
        notes.append(f"the runs come from {len(hosts)} machines of one "
                     f"CPU model: the spread is between machines, not "
                     f"only between processes of one")
    notes += option_notes(logs_a, logs_b)
    return notes


def option_notes(logs_a, logs_b):
    """Sentences on the options the runs were asked (each log's
    options: the header's set=, None when its build did not print it):
    runs asked differently measure different things."""
    asked = {}
    unknown = 0
    for side, logs in (("A", logs_a), ("B", logs_b)):
        for log in logs:
            if log.options is None:
                unknown += 1
            else:
                asked.setdefault(log.options, set()).add(side)
    notes = []
    if len(asked) > 1:
        sets = "; ".join(f"{'+'.join(sorted(sides))}: "
                         f"`{words or '(defaults)'}`"
                         for words, sides in sorted(asked.items()))
        notes.append(f"the runs were asked {len(asked)} different sets of "
                     f"options ({sets}): a line may differ by what it "
                     f"measured, not by the build")
    if unknown and asked:
        notes.append(f"{unknown} runs do not say which options they were "
                     f"asked (a build before the header's set=)")
    return notes
