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

With one run a side nothing here can be estimated: the caller falls back
to the within-run test and says that the between-process variance is
unknown.
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
