# SPDX-License-Identifier: GPL-2.0-only
"""tools/report --selftest: each section of the report held to answers
known beforehand, on the sample and synthetic logs of reportlib.synth:
reading logs, the tables, the statistics, a run's drift, --compare,
the verdicts and the charts, counted check by check; then the modules'
unit tests (tools/reportlib/test_*.py).
"""
import csv
import io
import json
import math
import os
import random
import re
import shutil
import sys
import tempfile
import unittest

from scipy import stats

from reportlib.charts import (
    chart_axis,
    chart_data,
    chart_path,
    compare_chart_data,
    draw_chart,
    write_png,
)
from reportlib.compare import (
    compare_json,
    compare_report,
    compare_rows,
    compare_stats,
    sign_test,
)
from reportlib.formatting import BYTES_NOTE
from reportlib import level
from reportlib.logs import LogfmtError, parse_log, parse_logfmt, typed
from reportlib.stats import (
    EXACT_MAX,
    chi2_sf,
    compare_runs,
    compare_samples,
    kruskal_wallis,
    mann_whitney,
    median_ci,
    run_drift,
    samples_of,
    time_blocks,
    u_counts,
    u_critical,
)
from reportlib.synth import (
    SAMPLE_HOST,
    SAMPLE_IMAGE_A,
    SAMPLE_IMAGE_B,
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    drifting_run,
    own_verdict_line,
    synth_log,
    synth_samples,
)
from reportlib.tables import (
    FORBIDDEN_SEEN,
    NOT_OBSERVED,
    OBSERVED,
    csv_report,
    json_report,
    limit_context,
    litmus_section,
    markdown_report,
    rec_ci,
)
from reportlib.verdicts import (
    CONFIRMED,
    NOT_CONFIRMED,
    REVERSED,
    UNTESTED,
    check_verdicts,
    verdicts,
)


def stats_selftest(check):
    """The statistics against answers known beforehand."""
    rng = random.Random(20260501)
    # Exact U distribution: counts add up to C(m + n, m) and are
    # symmetric.
    for m, n in ((1, 1), (3, 3), (3, 4), (5, 7), (10, 10)):
        c = u_counts(m, n)
        check(sum(c) == math.comb(m + n, m) and c == c[::-1]
              and len(c) == m * n + 1, f"U distribution of {m}+{n}")
    check(u_counts(3, 3) == [1, 1, 2, 3, 3, 3, 3, 2, 1, 1],
          f"U counts of 3+3 by hand, got {u_counts(3, 3)}")

    # p-values worked out by hand: no overlap of 3 against 3 is 1 deal in
    # C(6, 3) = 20 each way: p = 2/20; 4 against 4: 2/70; a=[1,2,5],
    # b=[3,4,6,7]: U = 10 of 12, P(U >= 10) = (2+1+1)/35, p = 8/35.
    for a, b, want in (([1, 2, 3], [4, 5, 6], 0.1),
                       ([5, 6, 7, 8], [1, 2, 3, 4], 2 / 70),
                       ([1, 2, 5], [3, 4, 6, 7], 8 / 35),
                       ([1, 3, 5], [2, 4, 6], 0.7)):
        t = mann_whitney(a, b)
        check(t["method"] == "exact" and abs(t["p"] - want) < 1e-12,
              f"exact p of {a} vs {b}: want {want:.5f}, got {t['p']:.5f}")
    # Normal approximation, 25 against 25 interleaved: U = 325, mean
    # 312.5, sd = sqrt(625 * 51 / 12) = 51.539, z = (12.5 - 0.5) / sd =
    # 0.23283, p = 0.81589.
    t = mann_whitney([2 * i for i in range(25)],
                     [2 * i + 1 for i in range(25)], "normal")
    check(t["method"] == "normal" and t["u"] == 325
          and abs(t["p"] - 0.81589) < 1e-4,
          f"normal p, 25+25: got {t}")
    # Ties: a=[1,2,2,3], b=[2,3,3,4]: U = 13, tie groups of 3 and 3,
    # var = 16/12 * (9 - 48/56) = 10.857, z = (5 - 0.5) / 3.2950 =
    # 1.36570, p = 0.17203.
    t = mann_whitney([1, 2, 2, 3], [2, 3, 3, 4])
    check(t["ties"] and t["u"] == 13 and abs(t["p"] - 0.17203) < 1e-4,
          f"tie-corrected p: got {t}")

    # The normal approximation against the exact distribution, 29 a side
    # (runs=30), no ties: the p-values agree to within 0.01.
    worst = 0
    for _ in range(50):
        a = synth_samples(rng, 200e6, 0.1, 29)
        b = synth_samples(rng, 210e6, 0.1, 29)
        worst = max(worst, abs(mann_whitney(a, b, "exact")["p"]
                               - mann_whitney(a, b, "normal")["p"]))
    check(worst < 0.01, f"normal vs exact p, 29+29: off by {worst:.4f}")

    # Median intervals: n = 10 -> [x(2), x(9)], coverage 1 - 22/1024;
    # 5 samples cannot reach 95%.
    ci = median_ci(list(range(10, 0, -1)))
    check(ci and ci[:2] == (2, 9) and abs(ci[2] - (1 - 22 / 1024)) < 1e-12,
          f"median CI of 10 by hand, got {ci}")
    check(median_ci([1, 2, 3, 4, 5]) is None, "no 95% CI from 5 samples")

    # The exact test's size: under no difference, the U values it calls
    # significant have a probability of at most alpha together.
    for m in (5, 7, 10, 15, 20):
        k = u_critical(m, m, level.ALPHA, True)
        size = 2 * sum(u_counts(m, m)[:k]) / math.comb(2 * m, m)
        check(0 < size <= level.ALPHA,
              f"size of the exact test, {m}+{m}: {size}")

    # Identical distributions with the spread seen on real machines:
    # at least 95% of the trials must come out not significant (7 a side:
    # the test's true rate is 3.8%; 15 a side: 4.5%). Seeded: the same
    # trials every run.
    for n, trials in ((7, 2000), (15, 1000)):
        rng = random.Random(n)
        sig = agree = 0
        for _ in range(trials):
            a = synth_samples(rng, 200e6, 0.10, n)
            b = synth_samples(rng, 200e6, 0.10, n)
            st = compare_samples(a, b)
            sig += st["significant"]
            lo, hi = st["ratio_ci"]
            agree += st["significant"] == (not lo <= 1 <= hi)
        check(sig <= 0.05 * trials,
              f"identical distributions, n={n}: {sig} of {trials} trials "
              "significant (at most 5% allowed)")
        if n + n <= EXACT_MAX:
            check(agree == trials, f"ratio CI and exact test agree in "
                  f"{agree} of {trials} trials")
    # A 10% shift with CV 7%, 15 a side: significant in most trials, in
    # the right direction, and the ratio's interval covers the true 0.9
    # about as often as it promises.
    sig = right = covered = 0
    trials = 200
    for _ in range(trials):
        a = synth_samples(rng, 200e6, 0.07, 15)
        b = synth_samples(rng, 180e6, 0.07, 15)
        st = compare_samples(a, b)
        sig += st["significant"]
        right += st["significant"] and st["ratio"] < 1
        covered += st["ratio_ci"][0] <= 0.9 <= st["ratio_ci"][1]
    check(sig >= 0.85 * trials and right == sig,
          f"10% shift: {sig} of {trials} significant ({right} faster)")
    check(covered >= 0.92 * trials,
          f"ratio CI covers the true ratio in {covered} of {trials}")
    # The median's interval covers the true median (200e6) at least as
    # often as it promises, give or take the trials' own noise.
    covered = 0
    for _ in range(400):
        lo, hi, _ = median_ci(synth_samples(rng, 200e6, 0.1, 15))
        covered += lo <= 200e6 <= hi
    check(covered >= 0.93 * 400,
          f"median CI covers the median in {covered} of 400 trials")
    # Too few samples: no verdict, whatever the difference.
    st = compare_samples([1, 2, 3, 4], [10, 11, 12, 13])
    check(not st["testable"] and not st["significant"]
          and "too few" in st["why"], f"4 samples a side: no test, got {st}")


def drift_selftest(check):
    """The drift guard of --compare against answers known beforehand."""
    # Chi-squared tails: the 95% points of 1 and 3 degrees of freedom,
    # and exp(-x/2) for 2.
    for x, df, want in ((3.841459, 1, 0.05), (7.814728, 3, 0.05),
                        (7.2, 2, math.exp(-3.6)), (11.070498, 5, 0.05)):
        got = chi2_sf(x, df)
        check(abs(got - want) < 1e-6,
              f"chi-squared tail of {x} at {df} df: want {want}, got {got}")
    # Hundreds of degrees of freedom (a run of 200 lines): far in the
    # tail the p-value is tiny, not 1; at the mean (x = df) about a half.
    check(chi2_sf(3301.8, 600) < 1e-100 and chi2_sf(2000, 1000) < 1e-50
          and 0.45 < chi2_sf(600, 600) < 0.51
          and 0.45 < chi2_sf(601, 601) < 0.51,
          f"chi-squared tails at 600 and 1000 df: {chi2_sf(3301.8, 600)}, "
          f"{chi2_sf(600, 600)}")
    # Kruskal-Wallis by hand: three groups apart, rank sums 6, 15, 24:
    # H = 12 / 90 * (36 + 225 + 576) / 3 - 30 = 7.2.
    kw = kruskal_wallis([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    check(abs(kw["h"] - 7.2) < 1e-12 and abs(kw["p"] - math.exp(-3.6))
          < 1e-12, f"Kruskal-Wallis of three groups apart: {kw}")
    check(typed("9" * 400) == "9" * 400 and typed("18446744073709551615")
          == 2 ** 64 - 1 and typed("-12") == -12,
          "numbers beyond 64 bits stay text (found by readers_fuzz)")
    # The exact U counts behind the intervals' critical values against
    # scipy's exact distribution, on random deals.
    rng_u = random.Random(5)
    for m, n in ((5, 5), (7, 9), (12, 15), (20, 25)):
        pool = rng_u.sample(range(1000), m + n)
        a, b = pool[:m], pool[m:]
        k = int(stats.mannwhitneyu(b, a).statistic)
        c = u_counts(m, n)
        total = math.comb(m + n, m)
        mine = min(1.0, 2 * min(sum(c[:k + 1]), sum(c[k:])) / total)
        ref = stats.mannwhitneyu(b, a, method="exact").pvalue
        check(abs(mine - ref) < 1e-12,
              f"U counts {m}+{n} at U={k}: p {mine}, scipy {ref}")
    check(time_blocks(list(range(15))) == [[0, 1, 2], [3, 4, 5, 6],
                                           [7, 8, 9, 10], [11, 12, 13, 14]]
          and len(time_blocks(list(range(7)))) == 2
          and time_blocks([1, 2, 3, 4, 5]) is None,
          "quarters from 12 samples, halves from 6, nothing below")
    # A run whose second half is 10% slower drifted, by 10%.
    d = run_drift([100] * 8 + [110] * 8)
    check(d["drifted"] and abs(d["drift"] - 0.1) < 1e-9,
          f"a 10% step within a run: {d}")
    rng = random.Random(20261203)
    # A steady machine: a run is called drifted in at most 6% of trials
    # (alpha, and the chi-squared approximation's slack on quarters of 3
    # and 4 samples).
    trials = 1000
    drifted = sum(run_drift(synth_samples(rng, 200e6, 0.10, 15))["drifted"]
                  for _ in range(trials))
    check(drifted <= 0.06 * trials,
          f"steady runs called drifted: {drifted} of {trials}")
    # Two runs of one build on a machine whose speed steps by 8% between
    # quarters (the regimes seen on a shared VM), samples otherwise 2%
    # apart: the U test alone calls many of them different; with the
    # guard at most 5% are.
    plain = guarded = 0
    trials = 400
    for _ in range(trials):
        a = drifting_run(rng, 50e6, 0.02, 15, (1.0, 1.08))
        b = drifting_run(rng, 50e6, 0.02, 15, (1.0, 1.08))
        st = compare_runs(a, b)
        plain += st["p"] < level.ALPHA
        guarded += st["significant"]
    check(plain > 0.2 * trials and guarded <= 0.05 * trials,
          f"one build on a drifting machine: {plain} of {trials} "
          f"significant by the U test, {guarded} with the drift guard")
    # A real 20% change on the same drifting machine stays significant.
    sig = 0
    trials = 200
    for _ in range(trials):
        a = drifting_run(rng, 50e6, 0.02, 15, (1.0, 1.08))
        b = drifting_run(rng, 60e6, 0.02, 15, (1.0, 1.08))
        sig += compare_runs(a, b)["significant"]
    check(sig >= 0.95 * trials,
          f"a 20% change on a drifting machine: {sig} of {trials} "
          "significant")
    # The steady machine of the test, through the guard: a 10%
    # shift with a 7% spread is still found in at least 85% of trials,
    # and identical runs stay within 5%.
    sig = same = 0
    for _ in range(trials):
        a = synth_samples(rng, 200e6, 0.07, 15)
        sig += compare_runs(a, synth_samples(rng, 180e6, 0.07, 15))[
            "significant"]
        same += compare_runs(a, synth_samples(rng, 200e6, 0.07, 15))[
            "significant"]
    check(sig >= 0.85 * trials and same <= 0.05 * trials,
          f"steady machine through the guard: 10% shift {sig} of {trials} "
          f"significant, no shift {same}")


def compare_selftest(check):
    """--compare of a build with itself and with a real change."""
    a = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE), "a", "A")
    same = parse_log(synth_log(2, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE), "b",
                     "B")
    check(len(a.metrics) == 6 and len(samples_of(a.metrics[0])) == 15,
          "samples_ns= parsed as a list")
    text, n = compare_report(a, same)
    rows, _, _, _ = compare_rows(a, same)
    data = compare_json(rows)
    # Two runs of one build: a line may come out significant by chance
    # (alpha of them, by design), not more.
    check(n == 6 and all(d["testable"] for d in data)
          and sum(d["significant"] for d in data) <= 1,
          "two runs of one build: at most one line of six significant, "
          f"got {[(d['what'], d['p']) for d in data]}")
    text, n = compare_report(a, a)
    data = compare_json(compare_rows(a, a)[0])
    check(n == 6 and all(not d["significant"] and d["p"] == 1
                         for d in data), "a log against itself: p = 1")
    check(all(re.search(r"\| +~ \|", line) for line in text.splitlines()
              if line.startswith("| bench_")),
          "a log against itself: every change is ~")
    check(all(d["ratio_ci"][0] <= 1 <= d["ratio_ci"][1] for d in data),
          "a log against itself: every ratio CI holds 1")
    faster = [(s, z, m, med * (0.8 if s == "tmpl_nt_fixed" else 1))
              for s, z, m, med in ZEN5_MEMMAP]
    b = parse_log(synth_log(3, ZEN5, faster, ZEN5_NOCACHE), "b", "B")
    rows, _, _, _ = compare_rows(a, b)
    data = {d["what"]: d for d in compare_json(rows)}
    d = data.get("strategy=tmpl_nt_fixed")
    check(d and d["significant"] and d["ratio"] < 1
          and d["ratio_ci"][1] < 1 and d["n_a"] == 15 and d["n_b"] == 15
          and set(d) >= {"median_a", "median_b", "ratio", "ratio_ci",
                         "significant", "p"},
          f"a 20% faster line is significant: {d}")
    check(sum(x["significant"] for w, x in data.items()
              if w != "strategy=tmpl_nt_fixed") <= 1,
          "the unchanged lines: at most one significant by chance")
    text, _ = compare_report(a, b)
    check(re.search(r"strategy=tmpl_nt_fixed: 1\d\d\.\d\d ms -> "
                    r"\d+\.\d\d ms \(-\d+\.\d%, p=\S+ n=15\+15\)", text),
          "a line as the postings write it, with p and n")
    # Two runs of one build; the machine was 10% slower during the first
    # half of run A and steady during B: the U test alone calls every
    # line different, the drift guard none (A drifted by about 10% on
    # every line); a 25% faster line is still found.
    a = parse_log(synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02,
                            drift=(1.1, 1.1, 1, 1)), "a", "A")
    b = parse_log(synth_log(6, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02),
                  "b", "B")
    rows = compare_rows(a, b)[0]
    data = compare_json(rows)
    plain = sum(d["p"] < level.ALPHA for d in data)
    check(all(d["run_drifted_a"] and not d["run_drifted_b"] for d in data)
          and plain >= 5 and not any(d["significant"] for d in data)
          and sum(d["within_drift"] for d in data) == plain,
          f"one build, drifting machine: {plain} of {len(data)} lines "
          "significant by the U test, none with the drift guard: "
          f"{[(d['what'], d['p'], d['drift_bound']) for d in data]}")
    text, _ = compare_report(a, b)
    check("A drifted during its run" in text and "B held steady" in text
          and "| ~ drift |" in text
          and f"0 of {len(data)} lines differ significantly; {plain} more"
          in text, "the report says which run drifted")
    faster = [(s, z, m, med * (0.75 if s == "tmpl_nt_fixed" else 1))
              for s, z, m, med in ZEN5_MEMMAP]
    b = parse_log(synth_log(7, ZEN5, faster, ZEN5_NOCACHE, cv=0.02), "b",
                  "B")
    data = {d["what"]: d for d in compare_json(compare_rows(a, b)[0])}
    d = data["strategy=tmpl_nt_fixed"]
    check(d["significant"] and not d["within_drift"] and d["ratio"] < 0.8,
          f"a 25% faster line on a drifting machine: {d}")
    # The machine 8% slower for all of run B, the fills with it: they
    # moved together (6 of 6 slower, sign test p = 2/64), and every line
    # within their move is "~ machine"; a line 25% slower on top, or 20%
    # faster against the machine's move, is still found.
    fills = [("limit_cached", "tmpl_mov_64", 65e6),
             ("limit_stosb", "rep_stosb", 55e6),
             ("limit_nt64", "tmpl_movnti_64", 66e6),
             ("limit_nt128", "tmpl_sse2_64", 60e6),
             ("limit_nt256", "tmpl_avx_64", 57e6),
             ("limit_nt512", "tmpl_avx512_64", 58e6)]
    a = parse_log(synth_log(9, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02,
                            limit=fills), "a", "A")
    b = parse_log(synth_log(10, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02,
                            drift=(1.08,) * 4, limit=fills), "b", "B")
    text, _ = compare_report(a, b)
    data = compare_json(compare_rows(a, b)[0])
    plain = sum(d["p"] < level.ALPHA for d in data)
    check(re.search(r"limit fills \(6 bench_limit lines.*moved by "
                    r"\+[789]\.\d% .*6 slower, 0 faster, sign test "
                    r"p=0\.031.*Of all 12 lines, 12 are slower in B and 0 "
                    r"faster\. The fills moved together", text)
          and plain >= 10 and not any(d["significant"] for d in data)
          and all(d["machine_moved"] for d in data)
          and sum(d["within_machine"] for d in data) == plain
          and "| ~ machine |" in text,
          f"a machine 8% slower in B: {plain} lines significant by the U "
          "test, none once the fills show the machine moved: "
          f"{[(d['what'], d['ratio'], d['significant']) for d in data]}")
    for factor, why in ((1.25, "25% slower on top"),
                        (0.8, "20% faster against the machine's move")):
        changed = [(st, z, m, med * (factor if st == "tmpl_nt_fixed"
                                     else 1))
                   for st, z, m, med in ZEN5_MEMMAP]
        b = parse_log(synth_log(10, ZEN5, changed, ZEN5_NOCACHE, cv=0.02,
                                drift=(1.08,) * 4, limit=fills), "b", "B")
        data = {d["what"]: d for d in compare_json(compare_rows(a, b)[0])}
        d = data["strategy=tmpl_nt_fixed"]
        check(d["significant"] and not d["within_machine"]
              and d["machine_moved"],
              f"a line {why} on a machine that moved: {d}")
    b = parse_log(synth_log(11, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE, cv=0.02,
                            limit=fills), "b", "B")
    text, _ = compare_report(a, b)
    data = compare_json(compare_rows(a, b)[0])
    check("limit fills (6 bench_limit lines" in text
          and "moved together" not in text
          and not any(d["machine_moved"] or d["within_machine"]
                      for d in data),
          "a steady machine: the fills did not move")
    check(abs(sign_test(6, 0) - 2 / 64) < 1e-12
          and abs(sign_test(5, 1) - 14 / 64) < 1e-12
          and sign_test(3, 3) == 1.0 and sign_test(0, 0) == 1.0,
          "sign test by hand: 6-0 is 2/64, 5-1 is 14/64")
    steady = parse_log(synth_log(8, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                 cv=0.02), "c", "C")
    data = compare_json(compare_rows(steady, steady)[0])
    check(not any(d["run_drifted_a"] or d["drift_bound"] for d in data),
          f"a steady run is not called drifted: {data[0]}")
    # A strategy faster than every fill is flagged in the table, both
    # from beats_limit=1 and, for older logs, from limit_frac above 1.
    zen = parse_log(synth_log(14, ZEN5, ZEN5_MEMMAP), "z", "Z")
    zen.metrics[1]["limit_frac"], zen.metrics[1]["beats_limit"] = 1.071, 1
    zen.metrics[2]["limit_frac"] = 1.02
    zen.metrics[3]["limit_frac"], zen.metrics[3]["beats_limit"] = 0.97, 0
    md = markdown_report([zen])
    check(re.search(r"\| tmpl_memcpy +\|.*\| 107\.1% \*\*beats the "
                    r"limit\*\* \|", md)
          and re.search(r"\| tmpl_nt_generic +\|.*\| 102\.0% \*\*beats",
                        md)
          and re.search(r"\| tmpl_nt_fixed +\|.*\| +97\.0% \|", md)
          and "tmpl_memcpy, tmpl_nt_generic wrote these bytes faster than "
              "every fill" in md,
          "limit_frac above 1 is flagged, 0.97 is not")
    few = parse_log(synth_log(4, ZEN5, ZEN5_MEMMAP, n=3), "c", "C")
    text, _ = compare_report(few, few)
    check("too few samples" in text and "| ~ |" not in text,
          "3 samples: no verdict, a reason")


def verdict_selftest(check, old):
    """Verdicts on a Zen 5 class log and on a log without samples."""
    text = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)
    zen = parse_log(text, "z", "Z")
    # --check-verdicts: the log's own verdict lines, as the image prints
    # them (indented, a carriage return), agree; a changed word, a changed
    # p, a missing line are each found.
    lines = [own_verdict_line(v) for v in verdicts(zen)]
    own = parse_log(text + "\n".join(lines) + "\n", "own", "O")
    check(len(own.own_verdicts) == 4 and not check_verdicts(own),
          f"own verdict lines agree: {check_verdicts(own)}")
    bad = [own_verdict_line(v, REVERSED if i == 0 else None)
           for i, v in enumerate(verdicts(zen))]
    probs = check_verdicts(parse_log(text + "\n".join(bad), "bad", "X"))
    check(len(probs) == 1 and "verdict here reversed" in probs[0],
          f"a changed word is found: {probs}")
    probs = check_verdicts(parse_log(
        text + "\n".join(lines[1:]).replace(" p=", " p=0.5", 1), "b2", "Y"))
    check(len(probs) == 2 and any("no verdict line" in x for x in probs)
          and any(": p here" in x for x in probs),
          f"a missing line and a changed p are found: {probs}")
    vs = verdicts(zen)
    got = {(v["before"], v["after"]): v for v in vs}
    want = {("slow", "tmpl_nt_fixed"): CONFIRMED,
            ("tmpl_memcpy", "tmpl_nt_fixed"): REVERSED,
            ("tmpl_nt_generic", "tmpl_nt_fixed"): CONFIRMED,
            ("copy_clean_clwb", "nocache"): NOT_CONFIRMED}
    check({k: v["verdict"] for k, v in got.items()} == want,
          f"Zen 5 verdicts: {[(k, v['verdict']) for k, v in got.items()]}")
    v = got.get(("tmpl_memcpy", "tmpl_nt_fixed"))
    check(v and 0.6 < v["speedup"] < 0.75 and v["speedup_ci"][1] < 1
          and v["cpu"] == ZEN5, f"the reversal, with its CI: {v}")
    v = got.get(("tmpl_nt_generic", "tmpl_nt_fixed"))
    check(v and abs(v["posted_speedup"] - 150.83 / 96.79) < 1e-9
          and v["speedup_ci"][0] > 1 and "posted_in_ci" in v,
          f"posted and measured ratios side by side: {v}")
    md = markdown_report([zen])
    check(f"### {ZEN5}" in md and "**reversed on this CPU**" in md
          and "**not confirmed**" in md
          and "x86/string: extend memcpy_flushcache() fixed-size "
              "fastpaths" in md,
          "the verdict section names the CPU, the claims and the words")
    chart = chart_data(zen.metrics)[0]
    fixed = next(r for r in zen.metrics
                 if r.get("strategy") == "tmpl_nt_fixed")
    lo, hi = rec_ci(fixed)
    v, wlo, whi = dict(chart["series"])["64 B fsdax"]["tmpl_nt_fixed"]
    check(abs(wlo - lo / 26214400) < 1e-3 and abs(whi - hi / 26214400) < 1e-3
          and wlo < v < whi, f"chart whiskers: the median's CI, {wlo, whi}")
    slow = next(r for r in zen.metrics if r.get("strategy") == "slow")
    check(abs(chart["limits"]["64 B fsdax"] - 60e6 / 26214400) < 1e-2,
          f"chart limit line: {chart['limits']}")
    marks = {m[3]: m[2] for m in chart["marks"]}
    want = slow["median_ns"] / (244.28 / 96.79) / 26214400
    check(abs(marks.get("posted slow -> tmpl_nt_fixed: 2.52x", 0) - want)
          < 1e-2 and len(marks) == 2, f"chart marks: {marks}")
    chart = chart_data(old.metrics)[0]
    _, wlo, whi = dict(chart["series"])["64 B fsdax"]["tmpl_nt_fixed"]
    check(abs(wlo - 3.692 * 95.0 / 96.79) < 1e-9
          and abs(whi - 3.692 * 98.0 / 96.79) < 1e-9
          and "min..max" in chart["title"], "no samples: min/max whiskers")
    data = json.loads(json_report([zen]))
    check(data[0]["verdicts"][0]["verdict"] == CONFIRMED,
          "verdicts in --json")
    vs = verdicts(old)
    check(vs and all(v["verdict"] == UNTESTED for v in vs),
          "a log without samples: untested, not a verdict")


def run():
    """Every check, then the unit tests: 0 when all passed, else 1 with
    each failure printed."""
    checks = failures = 0

    def check(cond, what):
        nonlocal checks, failures
        checks += 1
        if not cond:
            failures += 1
            print(f"report: selftest FAILED: {what}")

    a = parse_log(SAMPLE_IMAGE_A, "sample-a.log", "A")
    b = parse_log(SAMPLE_IMAGE_B, "sample-b.log", "B")
    h = parse_log(SAMPLE_HOST, "sample-host.log", "H")

    # Litmus lines: a case's own lines count, its engine self-test's
    # (another case, iters=4) do not; a forbidden outcome seen comes
    # first; an emulated CPU says it shows nothing.
    lit = parse_log('# ntboot 0.1 cpu="Example Xeon" smp=2\n'
                    "  # litmus test=MP+nt layout=sep cpus=0,1 pair=core "
                    "iters=4 outcome=1:x=0,1:y=1 count=4 allowed\n"
                    "  ok 1 engine_counts\n"
                    "    # litmus test=MP+nt layout=sep cpus=0,1 pair=core "
                    "iters=1000 outcome=1:x=0,1:y=1 count=7 allowed\n"
                    "  ok 2 MP+nt.sep\n"
                    "    # litmus test=CoWWx+nt layout=one cpus=0,1 "
                    "pair=core iters=1000 outcome=x=1 count=1 forbidden\n"
                    "  not ok 3 CoWWx+nt\n"
                    "    # litmus test=SB layout=sep cpus=0,1 pair=core "
                    "iters=1000 outcome=0:y=0,1:x=0 count=0 allowed\n"
                    "  ok 4 SB.sep\n", "lit.log", "L")
    check(lit.litmus.get("MP+nt.sep", {}).get("count") == 7 and
          lit.litmus["MP+nt.sep"]["iters"] == 1000,
          f"litmus: the case's own lines only: {lit.litmus}")
    sec = "\n".join(litmus_section([lit]))
    rows = [ln for ln in sec.splitlines() if ln.startswith("| ")][1:]
    check(rows and "CoWWx+nt" in rows[0] and FORBIDDEN_SEEN in rows[0],
          f"litmus: a forbidden outcome seen is not first:\n{sec}")
    check(any("SB.sep" in r and NOT_OBSERVED in r for r in rows) and
          "1 of 2 allowed relaxations observed" in sec,
          f"litmus: allowed but unseen, and the count:\n{sec}")
    qemu = parse_log('# ntboot 0.1 cpu="QEMU TCG CPU version 2.5+"\n'
                     "    # litmus test=SB layout=sep cpus=0,1 pair=core "
                     "iters=10 outcome=0:y=0,1:x=0 count=0 allowed\n"
                     "  ok 1 SB.sep\n", "q.log", "Q")
    check("emulated CPU" in "\n".join(litmus_section([qemu])),
          "litmus: a QEMU log does not say TCG shows nothing")
    # memmap_smp lines join the same table, summed over logs of one CPU.
    smp_line = ("    # memmap_smp strategy=tmpl_nt_fixed page_size=64 "
                "mode=fsdax cpus=1,0 pair=core pfns=512 place=fixed "
                "noise=0 check_pages=16 rounds=20000 drain=off nt=1 "
                "write_ns=1 round_ns=2 stale_rounds={} stale_pages=3 "
                "max_stale=1 verifies=3 verify_fails=0 {}\n")
    smp = [parse_log('# ntboot 0.1 cpu="Example Xeon"\n'
                     + smp_line.format(n, "allowed")
                     + smp_line.format(0, "allowed").replace(
                         "tmpl_nt_fixed", "fill_movnti")
                     + smp_line.format(k, "forbidden").replace(
                         "drain=off", "drain=on"),
                     f"s{n}.log", "S") for n, k in ((5, 0), (2, 1))]
    sec = "\n".join(litmus_section(smp))
    rows = [ln for ln in sec.splitlines() if ln.startswith("| ")][1:]
    check(rows and "drain=on" in rows[0] and FORBIDDEN_SEEN in rows[0]
          and "1/40000" in rows[0],
          f"memmap_smp: a forbidden stale page is not first:\n{sec}")
    check(any("tmpl_nt_fixed 64 fsdax drain=off" in r and "7/40000" in r
              and OBSERVED in r for r in rows)
          and any("fill_movnti" in r and NOT_OBSERVED in r for r in rows),
          f"memmap_smp: rows summed over logs:\n{sec}")

    # Parsing: carriage returns, escapes, indentation, quotes, bad lines.
    check(len(a.metrics) == 6, f"6 metrics in sample A, got {len(a.metrics)}")
    check(a.header.get("cpu") == "SAMPLE CPU @ 2.00GHz",
          f"quoted header value, got {a.header.get('cpu')!r}")
    check(a.metrics[1]["median_ns"] == 244280000
          and isinstance(a.metrics[1]["gbps"], float),
          "typed values")
    custom = [r for r in h.metrics if r["suite"] == "custom_probe"]
    check(custom and custom[0]["what"] == "two words"
          and custom[0]["quote"] == 'say "hi"',
          f"quoted logfmt values, got {custom}")
    check(len(h.warnings) == 1 and "unterminated" in h.warnings[0],
          f"a bad line is a warning, got {h.warnings}")
    check(h.failed == 1, "failed count from the summary line")
    check(a.metrics[0].get("eff_mhz") == 2401,
          f"eff_mhz where measured, got {a.metrics[0].get('eff_mhz')!r}")
    check(all("eff_mhz" not in r for r in h.metrics),
          "eff_mhz absent where nothing measured it")
    check(len([r for r in h.metrics if r["suite"] == "bench_pollution"])
          == 3, "indented metric lines")
    try:
        parse_logfmt('a="x"b')
        check(False, "junk after a quoted value is an error")
    except LogfmtError:
        check(True, "")

    # Tables.
    md = markdown_report([a])
    check("## bench_memmap_init" in md and "## bench_limit" in md,
          "suite sections")
    check(md.index("## bench_memmap_init") < md.index("## bench_limit"),
          "memmap table first")
    check("| tmpl_nt_fixed |" in md.replace("  ", " ")
          or re.search(r"\| tmpl_nt_fixed +\|", md), "strategy rows")
    check(re.search(r"\| tmpl_nt_fixed +\| +96\.79 ms \| +- \| +- \| "
                    r"+1\.27 s \| +3\.692 \| +17\.33 \| +2\.52x \| "
                    r"+82\.6% \|", md),
          "memmap row: median, CI, n, first, ns/page, GB/s, vs slow, "
          "% of limit")
    check("Lines without samples_ns=" in md, "older logs: CIs need samples")
    check("### page_size=80 mode=fsdax pages=26214400" in md,
          "one table per page size and mode")
    check(re.search(r"\| tmpl_nt_fixed +\| +120\.00 ms .* 2\.50x", md),
          "vs slow within the 80-byte group")
    check(md.count(BYTES_NOTE) >= 2, "bytes counted note in every suite")
    mdh = markdown_report([h])
    check(re.search(r"\| nocache +\| +186 \(0\.88x\) \| +11185 \(2\.67x\) \|",
                    mdh), "nocache pivot: chunks as columns")
    check(re.search(r"\| method +\| +64 B chunk \| +4 KiB chunk \|", mdh),
          "nocache pivot header, chunks sorted")
    check(re.search(r"\| tmpl_nt_fixed +\| +1\.9% \| +- \|", mdh)
          and re.search(r"\| slow +\| +100\.0% \| +na \|", mdh),
          "pollution pivot")
    check("**1 failed tests**" in mdh, "failed tests flagged")
    check("## custom_probe" in mdh and "two words" in mdh,
          "other suites: generic table")
    md2 = markdown_report([a, h])
    check("- A: `sample-a.log`" in md2 and "### A: page_size=64" in md2,
          "several logs are labelled")

    # Machine output.
    data = json.loads(json_report([a, h]))
    check(len(data) == 2 and data[0]["metrics"][0]["suite"] == "bench_limit"
          and "_log" not in data[0]["metrics"][0], "JSON")
    rows = list(csv.reader(io.StringIO(csv_report([a]))))
    check(rows[0][:3] == ["log", "suite", "strategy"] and len(rows) == 7,
          f"CSV header and rows, got {rows[0][:3]} x {len(rows)}")

    # Compare: the figures of "mm: use memcpy_nt() in zone-device template
    # copies".
    text, n = compare_report(a, b)
    check(n == 6, f"6 matching lines, got {n}")
    check("244.28 ms -> 96.79 ms (-60.4% ?, not tested: no samples_ns= "
          "in A and B)" in text,
          "a line as the postings write it, runs= ignored for matching, "
          "untested")
    check(re.search(r"\| bench_memmap_init \| strategy=tmpl_nt_fixed "
                    r"page_size=64 layout=64 bytes=1677721600 +\| +"
                    r"96\.79 ms \| +80\.00 ms \| +0\.827 \| "
                    r"+-17\.3% \? \| +- \| +- \|", text),
          "compare table row")
    check("6 of 6 lines were not tested" in text,
          "without samples, the comparison says it tested nothing")
    check("A: no samples_ns= on its lines (an older build)" in text,
          "without samples, no claim about drift")
    check("- bench_memmap_init: mode=fsdax pages=26214400 written=26214400 "
          "drain=on" in text, "shared keys listed once")
    text, n = compare_report(h, h)
    check("100.0% -> 100.0% (+0.0 pts ?" in text, "evicted share compared")
    md = markdown_report([a])
    check(re.search(r"\| limit_nt512 +\| bench_limit alone +\|", md),
          "a fill timed by bench_limit alone says so")
    rec = dict(a.metrics[-1], **{"for": "bench_memmap_init",
                                 "page_size": 64, "mode": "fsdax"})
    check(limit_context(rec) == "bench_memmap_init rounds, page_size=64 "
          "mode=fsdax", "a fill timed in the memmap rounds says so")
    pol = next(r for r in h.metrics if r.get("strategy") == "tmpl_nt_fixed"
               and r.get("buffer") == "l2")
    check(pol["warm_samples_ns"] == [35000, 34000, 36000, 35500]
          and pol["cold_samples_ns"][0] == 300000
          and pol["samples_ns"][-1] == 40500,
          "the pollution line's warm, cold and after series are lists")

    stats_selftest(check)
    drift_selftest(check)
    compare_selftest(check)
    verdict_selftest(check, a)

    # Charts: one per struct page size and mode; the --compare chart.
    two = parse_log(synth_log(12, ZEN5, ZEN5_MEMMAP + [
        ("slow", 64, "devdax2m", 90e6), ("tmpl_nt_fixed", 64, "devdax2m",
                                         40e6)]), "a", "A")
    charts = chart_data(two.metrics)
    check([c["suffix"] for c in charts] == ["64-fsdax", "64-devdax2m"]
          and charts[1]["cats"] == ["slow", "tmpl_nt_fixed"]
          and "64-byte struct pages, devdax2m" in charts[1]["title"],
          f"one chart per page size and mode: {[c['suffix'] for c in charts]}")
    ymax, cut = chart_axis(charts[0])
    tallest = max(v for _, vals in charts[0]["series"]
                  for v, _, _ in vals.values())
    check(ymax and abs(ymax - 1.25 * tallest) < 1e-9 and not cut,
          f"chart axis: a quarter above the tallest bar, got {ymax}")
    slowest = [(st, z, m, med * (40 if st == "tmpl_nt_generic" else 1))
               for st, z, m, med in ZEN5_MEMMAP]
    ymax, cut = chart_axis(chart_data(parse_log(synth_log(
        13, ZEN5, slowest), "a", "A").metrics)[0])
    check(ymax and ymax < 20 and [c[0] for c in cut] == ["tmpl_nt_generic"],
          f"a bar 40 times the others is cut, not the axis: {ymax} {cut}")
    check(chart_path("/x/chart.png", "64-fsdax") == "/x/chart-64-fsdax.png"
          and chart_path("/x/chart.png", None) == "/x/chart.png",
          "chart file names")
    za = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE), "a", "A")
    faster = [(st, z, m, med * (0.8 if st == "tmpl_nt_fixed" else 1))
              for st, z, m, med in ZEN5_MEMMAP]
    zb = parse_log(synth_log(3, ZEN5, faster, ZEN5_NOCACHE), "b", "B")
    rows = compare_rows(za, zb)[0]
    cmp_chart = compare_chart_data(rows, compare_stats(rows)[0], za, zb)
    sig = dict(cmp_chart["series"]).get("significant", {})
    r, lo, hi = sig.get("memmap_init tmpl_nt_fixed", (0, 0, 0))
    check(cmp_chart["cats"][3] == "memmap_init tmpl_nt_fixed"
          and lo < r < hi < 1 and abs(r - 0.8) < 0.1
          and cmp_chart["hline"][0] == 1.0,
          f"compare chart: the faster line with its interval below 1: "
          f"{cmp_chart['cats']}, {sig}")
    with tempfile.TemporaryDirectory(prefix="ntboot-report-test.") as tmp:
        png = os.path.join(tmp, "chart.png")
        err, written = write_png(a.metrics, png)
        if shutil.which("gnuplot"):
            def is_png(path):
                if not os.path.exists(path):
                    return False
                with open(path, "rb") as f:
                    return f.read(8) == b"\x89PNG\r\n\x1a\n"
            want = [os.path.join(tmp, f"chart-{z}-fsdax.png")
                    for z in (64, 80)]
            check(err is None and written == want
                  and all(is_png(w) for w in want),
                  f"PNG charts written, one per page size: {written} ({err})")
            err, written = write_png(h.metrics, png)
            check(err is None, f"nocache chart ({err})")
            err, written = write_png(two.metrics, png)
            want = [os.path.join(tmp, f"chart-64-{m}.png")
                    for m in ("fsdax", "devdax2m")]
            check(err is None and written == want
                  and all(is_png(w) for w in want),
                  f"two charts, one per mode: {written} ({err})")
            cpng = os.path.join(tmp, "compare.png")
            err = draw_chart(cmp_chart, cpng)
            check(err is None and is_png(cpng), f"compare chart ({err})")
        else:
            check(err and "apt-get install gnuplot-nox" in err,
                  "no gnuplot: a clear message")
            print("report: selftest: gnuplot not installed, chart drawing "
                  "not exercised")
        err, written = write_png([], png)
        check(err and not written and not os.path.exists(png + ".x"),
              "nothing to chart: a message")

    # The modules' own tests (tools/reportlib/test_*.py).
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(
        here, top_level_dir=os.path.dirname(here))
    result = unittest.TextTestRunner(stream=sys.stderr,
                                     verbosity=0).run(suite)
    check(result.wasSuccessful() and result.testsRun > 0,
          f"reportlib unit tests: {len(result.failures)} failed, "
          f"{len(result.errors)} errors of {result.testsRun}")

    if failures:
        print(f"report: selftest: {failures} of {checks} checks failed")
        return 1
    print(f"report: selftest passed ({checks} checks, "
          f"{result.testsRun} unit tests)")
    return 0
