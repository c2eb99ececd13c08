# SPDX-License-Identifier: GPL-2.0-only
"""The statistics of tools/report (docs/statistics.md): medians and their
order-statistic intervals, the Mann-Whitney U test, the Hodges-Lehmann
ratio interval, the drift of a run within itself (Kruskal-Wallis over its
quarters) and the test of two runs held to that drift; for a line
measured in several processes, the paired test of the processes' medians
(Wilcoxon signed-rank on their log ratios, with its Hodges-Lehmann
interval). The distributions and tests come from scipy.stats; the exact
U and signed-rank counts behind the intervals' critical values are
counted here (scipy does not expose them) and checked against scipy's
exact p-values by test_stats.py.
"""
import functools
import math
from fractions import Fraction

from scipy import stats

# The default level; tools/report passes its --alpha to every call.
ALPHA = 0.05

# Fewer samples per side than this: no test, no verdict.
MIN_SAMPLES = 5
# Exact U distribution while both sides together have at most this many
# samples (and there are no ties); the normal approximation above.
EXACT_MAX = 60


def geomean(xs):
    """The geometric mean of @xs, all > 0 (a ValueError where one is
    not, ZeroDivisionError where there is none: callers pick the
    values)."""
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def median(xs):
    s = sorted(xs)
    n = len(s)
    if not n:
        return None
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


def binom_half_cdf(n, k):
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    return float(stats.binom.cdf(k, n, 0.5))


def median_ci(xs, alpha=ALPHA):
    """Distribution-free interval for the median: (low, high, coverage)
    with coverage >= 1 - alpha, or None when n samples cannot give one.
    [x_(l), x_(n+1-l)] (1-based order statistics) misses the median with
    probability 2 * P(Bin(n, 1/2) <= l - 1); l is the largest index that
    keeps this within alpha."""
    s = sorted(xs)
    n = len(s)
    best = None
    for low in range(1, n // 2 + 1):
        miss = 2 * binom_half_cdf(n, low - 1)
        if miss > alpha:
            break
        best = (s[low - 1], s[n - low], 1 - miss)
    return best


_U_COUNTS = {}


def u_counts(m, n):
    """For m + n distinct values dealt at random to an A side of m and a
    B side of n: how many of the C(m + n, m) deals give each U = 0..mn
    (U: pairs in which the B value is the larger). The largest value is
    either A's, beating nothing, or B's, beating all m values of A:
    f(m, n, u) = f(m - 1, n, u) + f(m, n - 1, u - m)."""
    key = (m, n)
    if key in _U_COUNTS:
        return _U_COUNTS[key]
    prev = [[1] for _ in range(n + 1)]         # i = 0: U is always 0
    for i in range(1, m + 1):
        cur = [[1]]                             # j = 0: U is always 0
        for j in range(1, n + 1):
            row = [0] * (i * j + 1)
            for u, c in enumerate(prev[j]):     # (i - 1, j): A's largest
                row[u] += c
            for u, c in enumerate(cur[j - 1]):  # (i, j - 1): B's largest
                row[u + i] += c
            cur.append(row)
        prev = cur
    _U_COUNTS[key] = prev[n]
    return prev[n]


def phi_upper(z):
    """P(Z > z) for a standard normal Z."""
    return float(stats.norm.sf(z))


def z_quantile(p):
    """z with P(Z > z) = p (0 < p < 1)."""
    return float(stats.norm.isf(p))


def mann_whitney(a, b, method=None):
    """Two-sided Mann-Whitney U test of samples a and b
    (scipy.stats.mannwhitneyu). Returns a dict: u (pairs with b > a, ties
    counting a half), p, method ('exact' or 'normal'), ties (True when
    any value repeats). Exact without ties up to EXACT_MAX samples, else
    the normal approximation with the tie and continuity corrections.
    @method forces one ('exact' only where there are no ties)."""
    m, n = len(a), len(b)
    pooled = list(a) + list(b)
    ties = len(set(pooled)) != len(pooled)
    if method is None:
        method = "exact" if not ties and m + n <= EXACT_MAX else "normal"
    res = stats.mannwhitneyu(b, a, alternative="two-sided",
                             method="exact" if method == "exact"
                             else "asymptotic", use_continuity=True)
    u = float(res.statistic)
    if len(set(pooled)) == 1:                    # every value the same
        return {"u": u, "p": 1.0, "method": method, "ties": ties}
    return {"u": u, "p": min(1.0, float(res.pvalue)), "method": method,
            "ties": ties}


def u_critical(m, n, alpha, exact):
    """The largest k with P(U <= k - 1) < alpha / 2 (0 when none)."""
    if exact:
        counts = u_counts(m, n)
        total = math.comb(m + n, m)
        cum, k = 0, 0
        for c in counts:
            if (cum + c) / total >= alpha / 2:
                break
            cum += c
            k += 1
        return k
    mn = m * n
    sd = math.sqrt(mn * (m + n + 1) / 12)
    return max(0, math.ceil(mn / 2 - z_quantile(alpha / 2) * sd - 0.5))


def ratio_interval(num, den, alpha=ALPHA):
    """Hodges-Lehmann estimate and interval of num / den from the m * n
    pairwise ratios x / y: (estimate, low, high), low/high None when the
    samples are too few for an interval at this alpha."""
    ratios = sorted(x / y for x in num for y in den if y)
    if not ratios:
        return None, None, None
    est = median(ratios)
    k = ratio_interval_rank(num, den, len(ratios), alpha)
    if k is None:
        return est, None, None
    return est, ratios[k - 1], ratios[len(ratios) - k]


def ratio_interval_rank(num, den, nr_ratios, alpha):
    """k: the interval of num / den is the k-th smallest and k-th largest
    of its @nr_ratios sorted pairwise ratios; None where the samples are
    too few for an interval at @alpha. Inverted from the U test's own
    distribution, so that the interval leaves out 1.0 exactly when the
    exact test calls the difference significant."""
    pooled = list(num) + list(den)
    exact = len(set(pooled)) == len(pooled) and len(pooled) <= EXACT_MAX
    k = u_critical(len(den), len(num), alpha, exact)
    if not nr_ratios or k < 1 or k > nr_ratios - k + 1:
        return None
    return k


def whole_millionths(x):
    """@x in whole millionths, rounded down, as lib/verdict.c holds a ratio
    (the 1e-9 keeps a float just below a whole millionth it stands for
    from falling to the one below)."""
    return math.floor(x * RATIO_SCALE + 1e-9)


def ratio_interval_millionths(num, den, alpha=ALPHA):
    """ratio_interval()'s interval of num / den as lib/mannwhitney.c's
    mw_ratio_interval() holds it: the same order statistics of the
    pairwise ratios, each in whole millionths rounded down, as integers
    (low, high); None where ratio_interval() gives none. Rounding down
    keeps the order, so these are the C's figures to the unit, where the
    floats of ratio_interval() can land a millionth above them."""
    ratios = sorted(int(x) * RATIO_SCALE // int(y)
                    for x in num for y in den if y)
    k = ratio_interval_rank(num, den, len(ratios), alpha)
    if k is None:
        return None
    return ratios[k - 1], ratios[len(ratios) - k]


def min_p(m, n):
    """The smallest two-sided p-value m and n samples can give."""
    return min(1.0, 2 / math.comb(m + n, m))


def compare_samples(a, b, alpha=ALPHA):
    """Everything a comparison of two sample sets says, as a dict: the
    medians, their intervals, the ratio b/a of the medians with the
    pairwise-ratio interval, the U test, "significant" and, when no test
    can be made, "why"."""
    out = {"n_a": len(a), "n_b": len(b), "alpha": alpha}
    out["median_a"], out["median_b"] = median(a), median(b)
    for side, xs in (("a", a), ("b", b)):
        ci = median_ci(xs, alpha) if xs else None
        out[f"ci_{side}"] = [ci[0], ci[1]] if ci else None
    ma, mb = out["median_a"], out["median_b"]
    out["ratio"] = mb / ma if ma and mb is not None else None
    out["significant"] = False
    out["testable"] = False
    if min(len(a), len(b)) < MIN_SAMPLES or min_p(len(a), len(b)) >= alpha:
        out["why"] = (f"too few samples to reach significance "
                      f"(n={len(a)}+{len(b)}, at least {MIN_SAMPLES} a side)")
        out["ratio_ci"] = None
        out["p"] = None
        return out
    est, lo, hi = ratio_interval(b, a, alpha)
    out["ratio_hl"] = est
    out["ratio_ci"] = [lo, hi] if lo is not None else None
    test = mann_whitney(a, b)
    out["p"] = test["p"]
    out["test"] = test["method"]
    out["testable"] = True
    out["significant"] = test["p"] < alpha
    return out


# ------------------------------------------------------- drift within a run
#
# Samples of one run are not independent when the machine itself changes
# during the run (a neighbour's load, memory bandwidth that comes and goes
# in a VM): each strategy then sees regimes, and two runs of one build
# differ by more than the U test expects of independent samples. The
# runs' own samples show it: in run order, a run's quarters (halves below
# DRIFT_QUARTERS_MIN samples) should not differ. Where a Kruskal-Wallis
# test says they do, the run drifted by its slowest quarter's median over
# its fastest; a difference between two runs smaller than that cannot be
# laid at the build's door (docs/statistics.md). A line measured in
# several processes is cut process by process (line_blocks()): what
# differs between its processes is their spread, not drift.

DRIFT_QUARTERS_MIN = 12
DRIFT_HALVES_MIN = 6


def chi2_sf(x, df):
    """P(X > x) for X chi-squared with @df degrees of freedom."""
    if x <= 0:
        return 1.0
    return float(stats.chi2.sf(x, df))


def kruskal_wallis(groups):
    """Kruskal-Wallis H of @groups (lists of values), tie-corrected, and
    its p-value from the chi-squared distribution with len(groups) - 1
    degrees of freedom (scipy.stats.kruskal)."""
    pooled = [x for g in groups for x in g]
    if len(set(pooled)) <= 1:                    # every value the same
        return {"h": 0.0, "p": 1.0}
    res = stats.kruskal(*groups)
    return {"h": float(res.statistic), "p": float(res.pvalue)}


def time_blocks(xs):
    """@xs in run order cut into quarters (halves for fewer than
    DRIFT_QUARTERS_MIN samples), or None below DRIFT_HALVES_MIN."""
    n = len(xs)
    if n < DRIFT_HALVES_MIN:
        return None
    k = 4 if n >= DRIFT_QUARTERS_MIN else 2
    return [xs[i * n // k:(i + 1) * n // k] for i in range(k)]


def line_blocks(rec):
    """The time blocks of one metric line, a list per process: the
    quarters (time_blocks()) of its samples_ns=, or, on a line of
    processes=P >= 2, of each process's own block of them. The processes
    run one after another, each at an offset of its own (its memory
    placement, its frequency): quarters cut across the whole series
    would straddle processes and read those offsets as drift within a
    run. A process with too few samples gives nothing; so does a line
    whose samples do not cut into its processes."""
    xs = samples_of(rec)
    if not xs:
        return []
    if processes_of(rec) < 2:
        runs = [xs]
    else:
        runs = process_blocks(rec) or []
    return [b for b in map(time_blocks, runs) if b]


def log_drift(records, alpha=ALPHA):
    """Did the machine move during one run? One log's lines are measured
    in the same rounds, so drift shows in all of them: the Kruskal-Wallis
    statistics of every line with enough samples add up, and their sum
    is tested against the chi-squared distribution with the summed
    degrees of freedom (independent lines under no drift). A line of
    several processes adds each process's statistic (line_blocks()): the
    drift within each, not the differences between them. A dict with
    lines, h, df, p and drifted; None when no line has enough samples."""
    h = df = lines = 0
    for rec in records:
        runs = line_blocks(rec)
        if not runs:
            continue
        for blocks in runs:
            h += kruskal_wallis(blocks)["h"]
            df += len(blocks) - 1
        lines += 1
    if not lines:
        return None
    p = chi2_sf(h, df)
    return {"lines": lines, "h": h, "df": df, "p": p, "drifted": p < alpha}


def samples_of(rec):
    """The timed runs 2..N of a metric line (ns), or None."""
    s = rec.get("samples_ns")
    return list(s) if isinstance(s, list) and s else None


# ------------------------------------------------ the process as the unit
#
# ntbench runs each strategy in several processes (processes=P on a
# metric line): samples_ns= then holds P blocks of equal length, the warm
# runs of process 1, then of process 2, ... Samples of one process share
# its memory placement, frequency and neighbours, so the process, not the
# sample, is what replicates. The verdicts pair the two strategies'
# process medians (both ran in each process) and test their log ratios.
# The image's own verdicts (lib/verdict.c) work in integers: process
# medians by the integer median, ratios in millionths rounded down, the
# interval's geometric means by an integer square root; so do these, so
# that the two agree to the printed digits.

# Ratios in millionths, as lib/verdict.c holds them.
RATIO_SCALE = 1000000
# The exact distribution's counts take n^3 steps: beyond this many
# processes (ntbench runs at most 32) a line is not tested.
PROCESSES_MAX = 256


def processes_of(rec):
    """How many processes a metric line was measured in: processes=,
    1 where the line does not say (older logs, the image)."""
    p = rec.get("processes")
    return p if isinstance(p, int) and p >= 1 else 1


def int_median(xs):
    """The median as lib/bench.c's bench_median() takes it: the middle
    value, or of the two middle ones the mean rounded down."""
    s = sorted(xs)
    n = len(s)
    if not n:
        return None
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) // 2


def process_blocks(rec, key="samples_ns"):
    """The series @key of a metric line cut into its processes' blocks
    ([[ns]], one per process), or None when the line has no such series
    or it does not cut into processes= equal blocks."""
    xs = rec.get(key)
    p = processes_of(rec)
    if not isinstance(xs, list) or not xs or len(xs) % p:
        return None
    m = len(xs) // p
    return [xs[i * m:(i + 1) * m] for i in range(p)]


def process_medians(rec):
    """Each process's median of its warm runs (integer ns): from the
    blocks of samples_ns=, else the line's own proc_medians_ns=; None
    when neither gives processes= of them."""
    blocks = process_blocks(rec)
    if blocks:
        return [int_median(b) for b in blocks]
    meds = rec.get("proc_medians_ns")
    if isinstance(meds, list) and len(meds) == processes_of(rec):
        return list(meds)
    return None


@functools.lru_cache(maxsize=64)
def sign_pattern_counts(weights):
    """For ranks @weights (a tuple) whose signs are, under the null
    hypothesis, each + or - with probability 1/2: how many of the 2^n
    sign patterns give each sum t = 0..sum(weights) of the positive
    ones' ranks. Each rank is either negative, adding nothing, or
    positive, adding its weight."""
    counts = [1] + [0] * sum(weights)
    top = 0
    for w in weights:
        for t in range(top, -1, -1):
            counts[t + w] += counts[t]
        top += w
    return counts


def signed_rank_counts(n):
    """sign_pattern_counts() of the ranks 1..n (no ties)."""
    return sign_pattern_counts(tuple(range(1, n + 1)))


def signed_rank_tail_p(weights, t):
    """The exact two-sided p of a rank sum @t over ranks @weights:
    2 * min(P(T <= t), P(T >= t)), at most 1."""
    counts = sign_pattern_counts(tuple(weights))
    lower, upper = sum(counts[:t + 1]), sum(counts[t:])
    return min(1.0, 2 * min(lower, upper) / 2 ** len(weights))


def signed_rank_p(n, t):
    """The exact two-sided p-value of T = @t of n differences without
    ties (signed_rank_tail_p() of the ranks 1..n)."""
    return signed_rank_tail_p(range(1, n + 1), int(t))


def signed_rank_critical(n, alpha):
    """The largest k >= 1 with P(T <= k - 1) <= alpha / 2 (0 when none):
    [W(k), W(M + 1 - k)] of the M = n(n+1)/2 sorted Walsh averages is the
    Hodges-Lehmann interval at 1 - alpha."""
    counts = signed_rank_counts(n)
    total = 2 ** n
    cum, k = 0, 0
    for c in counts:
        if (cum + c) / total > alpha / 2:
            break
        cum += c
        k += 1
    return k


def wilcoxon_p(d):
    """Exact two-sided p of the Wilcoxon signed-rank test of @d (nonzero
    values, no two of the same size) against 0: scipy.stats.wilcoxon, the
    reference signed_rank_test() is checked against (tools/stats-check).
    scipy's exact method assumes no ties; with ties it is not exact."""
    try:
        res = stats.wilcoxon(d, zero_method="wilcox",
                             alternative="two-sided", method="exact")
    except TypeError:                       # scipy before method=
        res = stats.wilcoxon(d, zero_method="wilcox",
                             alternative="two-sided", mode="exact")
    return min(1.0, float(res.pvalue))


def signed_rank_test(scaled):
    """The exact signed-rank test of ratios in millionths (@scaled, none
    exactly RATIO_SCALE), as lib/signed_rank.c computes it: |log r|
    ranked by comparing r / 1 or 1 / r as exact fractions (no floating
    point, so 0.8 and 1.25 tie), ties sharing their mean rank (kept
    doubled), the exact null distribution of the doubled rank sum of the
    ratios above 1 over the 2^n sign patterns, two-sided p twice the
    smaller tail, at most 1. A dict: t2, p, up (the rank sum above its
    mean: the ratios above 1 weigh more)."""
    devs = [Fraction(max(r, RATIO_SCALE), min(r, RATIO_SCALE))
            for r in scaled]
    weights = [2 * sum(d < x for d in devs) + sum(d == x for d in devs) + 1
               for x in devs]
    n = len(scaled)
    t2 = sum(w for w, r in zip(weights, scaled) if r > RATIO_SCALE)
    return {"t2": t2, "p": signed_rank_tail_p(weights, t2),
            "up": 2 * t2 > n * (n + 1)}


def hodges_lehmann(scaled, alpha=ALPHA):
    """The centre of ratios in millionths (@scaled, none exactly
    RATIO_SCALE) and its interval, as lib/signed_rank.c: the Walsh
    averages of log r are the geometric means sqrt(r_i r_j), i <= j,
    floored; the centre their integer median, the interval the k-th from
    each end (signed_rank_critical()). (centre, [lo, hi] or None), in
    millionths."""
    walsh = sorted(math.isqrt(a * b) for i, a in enumerate(scaled)
                   for b in scaled[i:])
    if not walsh:
        return RATIO_SCALE, None
    k = signed_rank_critical(len(scaled), alpha) if len(scaled) > 1 else 0
    ci = [walsh[k - 1], walsh[len(walsh) - k]] if k else None
    return int_median(walsh), ci


def process_pairs(before, after, alpha=ALPHA):
    """The paired test of two strategies measured in the same processes:
    @before and @after their process medians (integer ns, process k of
    one beside process k of the other). Per process the ratio r_k =
    before / after in millionths (rounded down, as lib/verdict.c);
    processes with r_k exactly 1 are left out; the exact signed-rank test
    of log r_k against 0 (signed_rank_test()); the speed-up and its
    interval are Hodges-Lehmann's (hodges_lehmann()). A dict: ratios
    (floats), speedup, nonzero (processes with r_k != 1), p, up, ci
    ([low, high] or None), testable, significant and, when not testable,
    why."""
    if len(before) != len(after) or not before or \
            min(before + after) <= 0:
        return {"ratios": [], "speedup": None, "nonzero": 0, "p": None,
                "ci": None, "testable": False, "significant": False,
                "up": False, "why": "no process medians to pair"}
    scaled = [b * RATIO_SCALE // a for b, a in zip(before, after)]
    moved = [r for r in scaled if r != RATIO_SCALE]
    centre, ci = hodges_lehmann(moved, alpha)
    out = {"ratios": [r / RATIO_SCALE for r in scaled],
           "speedup": centre / RATIO_SCALE, "up": False,
           "p": None, "ci": None, "testable": False, "significant": False}
    n = out["nonzero"] = len(moved)
    if n > PROCESSES_MAX:
        out["why"] = f"more than {PROCESSES_MAX} processes"
        return out
    if not n or 2 / 2 ** n >= alpha:
        # 2 / 2^n: the smallest two-sided p n processes can give.
        out["why"] = (f"too few processes to reach significance "
                      f"({n} of {len(scaled)} with a ratio other than 1; "
                      f"at least {min_processes(alpha)})")
        return out
    test = signed_rank_test(moved)
    out["p"], out["up"] = test["p"], test["up"]
    out["testable"] = True
    out["significant"] = out["p"] < alpha
    if ci:
        out["ci"] = [ci[0] / RATIO_SCALE, ci[1] / RATIO_SCALE]
    return out


def min_processes(alpha=ALPHA):
    """The fewest processes (with a ratio other than 1) whose exact
    signed-rank test can reach p < alpha: 6 at alpha = 0.05."""
    n = 1
    while 2 / 2 ** n >= alpha:
        n += 1
    return n
