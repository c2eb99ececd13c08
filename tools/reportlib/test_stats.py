# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.stats against answers known beforehand
(docs/statistics.md, "How the self-test knows the answers"): the exact U
distribution, p-values and intervals worked out by hand, the tests' size
and power on seeded synthetic samples, and the drift of a run within
itself. tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import math
import random
import unittest

from scipy import stats

from reportlib import level
from reportlib.stats import (
    EXACT_MAX,
    chi2_sf,
    compare_samples,
    geomean,
    kruskal_wallis,
    line_blocks,
    log_drift,
    mann_whitney,
    median_ci,
    min_processes,
    process_pairs,
    signed_rank_counts,
    signed_rank_critical,
    signed_rank_p,
    time_blocks,
    u_counts,
    u_critical,
    wilcoxon_p,
)
from reportlib.synth import drifting_run, synth_samples


# The trials draw their samples from seeded generators, several trials in
# turn from one generator. A test whose trials come after others on the
# same generator replays those others' draws first (replay()), so that
# it sees the very samples its thresholds were set on, whichever order
# the tests run in.

def replay(*trials):
    """Draw every sample of @trials (generators of trials) and drop it."""
    for t in trials:
        for _ in t:
            pass


def identical_pairs(rng, n, trials):
    """Two runs of one build, @n samples each, CV 10%."""
    for _ in range(trials):
        yield (synth_samples(rng, 200e6, 0.10, n),
               synth_samples(rng, 200e6, 0.10, n))


def shifted_pairs(rng, trials):
    """A run and one 10% faster, 15 samples each, CV 7%."""
    for _ in range(trials):
        yield (synth_samples(rng, 200e6, 0.07, 15),
               synth_samples(rng, 180e6, 0.07, 15))


def steady_runs(rng, trials):
    """Runs of 15 samples on a steady machine, CV 10%."""
    for _ in range(trials):
        yield synth_samples(rng, 200e6, 0.10, 15)


def drifting_pairs(rng, trials, med_b):
    """Runs of 15 samples, 2% apart, on a machine whose speed steps by 8%
    between quarters: a run of median 50e6 and one of @med_b."""
    for _ in range(trials):
        yield (drifting_run(rng, 50e6, 0.02, 15, (1.0, 1.08)),
               drifting_run(rng, med_b, 0.02, 15, (1.0, 1.08)))


def steady_triples(rng, trials):
    """A run, one 10% faster and one of the same build, CV 7%."""
    for _ in range(trials):
        a = synth_samples(rng, 200e6, 0.07, 15)
        yield (a, synth_samples(rng, 180e6, 0.07, 15),
               synth_samples(rng, 200e6, 0.07, 15))


# The drift trials share this generator, in the order of the tests of
# Drift below: steady runs, one build and a real change on a drifting
# machine, the steady machine through the guard.
DRIFT_SEED = 20261203


class UDistribution(unittest.TestCase):
    def test_exact_counts_add_up_and_are_symmetric(self):
        for m, n in ((1, 1), (3, 3), (3, 4), (5, 7), (10, 10)):
            with self.subTest(m=m, n=n):
                c = u_counts(m, n)
                self.assertTrue(sum(c) == math.comb(m + n, m)
                                and c == c[::-1] and len(c) == m * n + 1,
                                f"U distribution of {m}+{n}")

    def test_exact_counts_of_3_and_3_by_hand(self):
        self.assertEqual(u_counts(3, 3), [1, 1, 2, 3, 3, 3, 3, 2, 1, 1],
                         f"U counts of 3+3 by hand, got {u_counts(3, 3)}")

    def test_exact_counts_match_scipys_exact_p_values(self):
        # The counts behind the intervals' critical values, on random
        # deals.
        rng = random.Random(5)
        for m, n in ((5, 5), (7, 9), (12, 15), (20, 25)):
            with self.subTest(m=m, n=n):
                pool = rng.sample(range(1000), m + n)
                a, b = pool[:m], pool[m:]
                k = int(stats.mannwhitneyu(b, a).statistic)
                c = u_counts(m, n)
                total = math.comb(m + n, m)
                mine = min(1.0, 2 * min(sum(c[:k + 1]), sum(c[k:])) / total)
                ref = stats.mannwhitneyu(b, a, method="exact").pvalue
                self.assertTrue(abs(mine - ref) < 1e-12,
                                f"U counts {m}+{n} at U={k}: p {mine}, "
                                f"scipy {ref}")

    def test_size_of_the_exact_test_is_at_most_alpha(self):
        # Under no difference, the U values it calls significant have a
        # probability of at most alpha together.
        for m in (5, 7, 10, 15, 20):
            with self.subTest(m=m):
                k = u_critical(m, m, level.ALPHA, True)
                size = 2 * sum(u_counts(m, m)[:k]) / math.comb(2 * m, m)
                self.assertTrue(0 < size <= level.ALPHA,
                                f"size of the exact test, {m}+{m}: {size}")


class SignedRank(unittest.TestCase):
    """The exact null distribution of the signed-rank statistic counted
    here (it gives the Hodges-Lehmann interval's critical values) against
    scipy's exact p-values, and the paired test of process medians."""

    def test_counts_add_up_and_are_symmetric(self):
        for n in range(1, 16):
            c = signed_rank_counts(n)
            self.assertEqual(sum(c), 2 ** n)
            self.assertEqual(len(c), n * (n + 1) // 2 + 1)
            self.assertEqual(c, c[::-1], f"n={n} symmetric")

    def test_counts_of_3_by_hand(self):
        # Subsets of {1, 2, 3} by their sum: {} {1} {2} {3},{1,2} {1,3}
        # {2,3} {1,2,3}.
        self.assertEqual(signed_rank_counts(3), [1, 1, 1, 2, 1, 1, 1])

    def test_exact_p_values_match_scipys_without_ties(self):
        rng = random.Random(34)
        for n in range(6, 16):
            for _ in range(12):
                # Distinct sizes, random signs: no ties, no zeros.
                sizes = rng.sample(range(1, 1000), n)
                d = [x / 1000 * rng.choice((-1, 1)) for x in sizes]
                ranks = {x: i + 1 for i, x in enumerate(sorted(sizes))}
                t = sum(ranks[x] for x, v in zip(sizes, d) if v > 0)
                want = float(stats.wilcoxon(d, zero_method="wilcox",
                                            method="exact").pvalue)
                self.assertAlmostEqual(signed_rank_p(n, t), want, places=12,
                                       msg=f"n={n} T={t}")
                self.assertAlmostEqual(wilcoxon_p(d), want, places=12)

    def test_size_of_the_exact_test_is_at_most_alpha(self):
        for n in range(1, 21):
            c = signed_rank_counts(n)
            size = sum(x for t, x in enumerate(c)
                       if signed_rank_p(n, t) < 0.05) / 2 ** n
            self.assertLessEqual(size, 0.05, f"n={n}")

    def test_six_processes_are_the_fewest_that_can_be_significant(self):
        self.assertEqual(min_processes(0.05), 6)
        self.assertEqual(signed_rank_p(6, 0), 2 / 64)
        self.assertEqual(signed_rank_p(5, 0), 2 / 32)
        self.assertEqual(signed_rank_critical(6, 0.05), 1)
        self.assertEqual(signed_rank_critical(5, 0.05), 0)

    def test_critical_values_against_the_table(self):
        # The two-sided 5% critical values of T (reject at T <= value)
        # in the usual tables: n=8: 3, n=10: 8, n=15: 25, n=20: 52. The
        # interval's k is one more.
        for n, table in ((8, 3), (10, 8), (15, 25), (20, 52)):
            self.assertEqual(signed_rank_critical(n, 0.05), table + 1,
                             f"n={n}")

    def test_paired_processes_in_integer_millionths(self):
        # Before 3 ms, after 2 ms in each of 6 processes, but for one
        # process that ran them alike (ratio 1: left out, so 5 remain).
        before = [3000, 3003, 2997, 3010, 2990, 2000]
        after = [2000, 2001, 1999, 2003, 1995, 2000]
        pt = process_pairs(before, after)
        self.assertEqual(pt["nonzero"], 5)
        self.assertFalse(pt["testable"])
        self.assertIn("too few processes", pt["why"])
        self.assertEqual(pt["ratios"][0], 1.5)
        # 3003 / 2001 = 1.500749..., rounded down in millionths.
        self.assertEqual(pt["ratios"][1], 1.500749)
        pt = process_pairs(before[:5] + [2950], after)
        self.assertTrue(pt["testable"] and pt["significant"])
        self.assertEqual(pt["p"], 2 / 64)
        # Speed-up: the integer median of the millionths.
        ms = sorted(b * 10 ** 6 // a for b, a in zip(before[:5] + [2950],
                                                    after))
        self.assertEqual(pt["speedup"], (ms[2] + ms[3]) // 2 / 10 ** 6)
        # n = 6: k = 1, the interval is the smallest and the largest
        # ratio.
        self.assertEqual(pt["ci"], [ms[0] / 10 ** 6, ms[-1] / 10 ** 6])


class MannWhitney(unittest.TestCase):
    def test_exact_p_values_by_hand(self):
        # No overlap of 3 against 3 is 1 deal in C(6, 3) = 20 each way:
        # p = 2/20; 4 against 4: 2/70; a=[1,2,5], b=[3,4,6,7]: U = 10 of
        # 12, P(U >= 10) = (2+1+1)/35, p = 8/35.
        for a, b, want in (([1, 2, 3], [4, 5, 6], 0.1),
                           ([5, 6, 7, 8], [1, 2, 3, 4], 2 / 70),
                           ([1, 2, 5], [3, 4, 6, 7], 8 / 35),
                           ([1, 3, 5], [2, 4, 6], 0.7)):
            with self.subTest(a=a, b=b):
                t = mann_whitney(a, b)
                self.assertTrue(t["method"] == "exact"
                                and abs(t["p"] - want) < 1e-12,
                                f"exact p of {a} vs {b}: want {want:.5f}, "
                                f"got {t['p']:.5f}")

    def test_normal_approximation_by_hand(self):
        # 25 against 25 interleaved: U = 325, mean 312.5, sd = sqrt(625 *
        # 51 / 12) = 51.539, z = (12.5 - 0.5) / sd = 0.23283, p = 0.81589.
        t = mann_whitney([2 * i for i in range(25)],
                         [2 * i + 1 for i in range(25)], "normal")
        self.assertTrue(t["method"] == "normal" and t["u"] == 325
                        and abs(t["p"] - 0.81589) < 1e-4,
                        f"normal p, 25+25: got {t}")

    def test_tie_corrected_p_by_hand(self):
        # a=[1,2,2,3], b=[2,3,3,4]: U = 13, tie groups of 3 and 3, var =
        # 16/12 * (9 - 48/56) = 10.857, z = (5 - 0.5) / 3.2950 = 1.36570,
        # p = 0.17203.
        t = mann_whitney([1, 2, 2, 3], [2, 3, 3, 4])
        self.assertTrue(t["ties"] and t["u"] == 13
                        and abs(t["p"] - 0.17203) < 1e-4,
                        f"tie-corrected p: got {t}")

    def test_normal_approximation_agrees_with_exact_at_29_a_side(self):
        # runs=30, no ties: the p-values agree to within 0.01.
        rng = random.Random(20260501)
        worst = 0
        for _ in range(50):
            a = synth_samples(rng, 200e6, 0.1, 29)
            b = synth_samples(rng, 210e6, 0.1, 29)
            worst = max(worst, abs(mann_whitney(a, b, "exact")["p"]
                                   - mann_whitney(a, b, "normal")["p"]))
        self.assertTrue(worst < 0.01,
                        f"normal vs exact p, 29+29: off by {worst:.4f}")


class GeometricMean(unittest.TestCase):
    def test_by_hand(self):
        self.assertAlmostEqual(geomean([2, 8]), 4.0)
        self.assertAlmostEqual(geomean([1.5]), 1.5)
        # the callers pick the values: none, or one not above 0, is theirs
        self.assertRaises(ZeroDivisionError, geomean, [])
        self.assertRaises(ValueError, geomean, [2, 0])


class MedianInterval(unittest.TestCase):
    def test_median_interval_of_10_by_hand(self):
        # n = 10 -> [x(2), x(9)], coverage 1 - 22/1024.
        ci = median_ci(list(range(10, 0, -1)))
        self.assertTrue(ci and ci[:2] == (2, 9)
                        and abs(ci[2] - (1 - 22 / 1024)) < 1e-12,
                        f"median CI of 10 by hand, got {ci}")

    def test_no_95_percent_interval_from_5_samples(self):
        self.assertIsNone(median_ci([1, 2, 3, 4, 5]),
                          "no 95% CI from 5 samples")

    def test_median_interval_covers_the_true_median_as_promised(self):
        # At least as often as it promises, give or take the trials' own
        # noise.
        rng = random.Random(15)
        replay(identical_pairs(rng, 15, 1000), shifted_pairs(rng, 200))
        covered = 0
        for xs in steady_runs(rng, 400):
            lo, hi, _ = median_ci(xs)
            covered += lo <= 200e6 <= hi
        self.assertTrue(covered >= 0.93 * 400,
                        f"median CI covers the median in {covered} of 400 "
                        "trials")


class CompareSamples(unittest.TestCase):
    def test_identical_distributions_are_rarely_significant(self):
        # The spread seen on real machines: at least 95% of the trials
        # must come out not significant (7 a side: the test's true rate
        # is 3.8%; 15 a side: 4.5%); the ratio's interval holds 1 exactly
        # where the exact test finds nothing.
        for n, trials in ((7, 2000), (15, 1000)):
            with self.subTest(n=n):
                sig = agree = 0
                for a, b in identical_pairs(random.Random(n), n, trials):
                    st = compare_samples(a, b)
                    sig += st["significant"]
                    lo, hi = st["ratio_ci"]
                    agree += st["significant"] == (not lo <= 1 <= hi)
                self.assertTrue(sig <= 0.05 * trials,
                                f"identical distributions, n={n}: {sig} of "
                                f"{trials} trials significant (at most 5% "
                                "allowed)")
                if n + n <= EXACT_MAX:
                    self.assertTrue(agree == trials,
                                    f"ratio CI and exact test agree in "
                                    f"{agree} of {trials} trials")

    def test_a_10_percent_shift_is_found_and_its_ratio_covered(self):
        # CV 7%, 15 a side: significant in most trials, in the right
        # direction, and the ratio's interval covers the true 0.9 about
        # as often as it promises.
        rng = random.Random(15)
        replay(identical_pairs(rng, 15, 1000))
        sig = right = covered = 0
        trials = 200
        for a, b in shifted_pairs(rng, trials):
            st = compare_samples(a, b)
            sig += st["significant"]
            right += st["significant"] and st["ratio"] < 1
            covered += st["ratio_ci"][0] <= 0.9 <= st["ratio_ci"][1]
        self.assertTrue(sig >= 0.85 * trials and right == sig,
                        f"10% shift: {sig} of {trials} significant ({right} "
                        "faster)")
        self.assertTrue(covered >= 0.92 * trials,
                        f"ratio CI covers the true ratio in {covered} of "
                        f"{trials}")

    def test_too_few_samples_give_no_verdict(self):
        # Whatever the difference.
        st = compare_samples([1, 2, 3, 4], [10, 11, 12, 13])
        self.assertTrue(not st["testable"] and not st["significant"]
                        and "too few" in st["why"],
                        f"4 samples a side: no test, got {st}")


class Drift(unittest.TestCase):
    def test_chi_squared_tails_at_known_points(self):
        # The 95% points of 1, 3 and 5 degrees of freedom, and
        # exp(-x/2) for 2.
        for x, df, want in ((3.841459, 1, 0.05), (7.814728, 3, 0.05),
                            (7.2, 2, math.exp(-3.6)), (11.070498, 5, 0.05)):
            with self.subTest(x=x, df=df):
                got = chi2_sf(x, df)
                self.assertTrue(abs(got - want) < 1e-6,
                                f"chi-squared tail of {x} at {df} df: want "
                                f"{want}, got {got}")

    def test_chi_squared_tails_at_hundreds_of_degrees_of_freedom(self):
        # A run of 200 lines: far in the tail the p-value is tiny, not 1;
        # at the mean (x = df) about a half.
        self.assertTrue(chi2_sf(3301.8, 600) < 1e-100
                        and chi2_sf(2000, 1000) < 1e-50
                        and 0.45 < chi2_sf(600, 600) < 0.51
                        and 0.45 < chi2_sf(601, 601) < 0.51,
                        f"chi-squared tails at 600 and 1000 df: "
                        f"{chi2_sf(3301.8, 600)}, {chi2_sf(600, 600)}")

    def test_kruskal_wallis_of_three_groups_apart_by_hand(self):
        # Rank sums 6, 15, 24: H = 12 / 90 * (36 + 225 + 576) / 3 - 30 =
        # 7.2.
        kw = kruskal_wallis([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        self.assertTrue(abs(kw["h"] - 7.2) < 1e-12
                        and abs(kw["p"] - math.exp(-3.6)) < 1e-12,
                        f"Kruskal-Wallis of three groups apart: {kw}")

    def test_quarters_from_12_samples_halves_from_6_nothing_below(self):
        self.assertTrue(time_blocks(list(range(15)))
                        == [[0, 1, 2], [3, 4, 5, 6], [7, 8, 9, 10],
                            [11, 12, 13, 14]]
                        and len(time_blocks(list(range(7)))) == 2
                        and time_blocks([1, 2, 3, 4, 5]) is None,
                        "quarters from 12 samples, halves from 6, nothing "
                        "below")

    @staticmethod
    def six_process_lines(rng, step=1.0):
        """Four lines of six processes (processes=6), 15 warm runs each
        at 2% scatter, the processes at offsets 20% apart; @step: each
        process's second half that much slower than its first."""
        offsets = (1.0, 1.2, 1.05, 1.15, 1.1, 1.0)
        recs = []
        for med in (300e6, 82e6, 184e6, 124e6):
            xs = []
            for off in offsets:
                xs += [round(x * (step if i >= 8 else 1)) for i, x in
                       enumerate(synth_samples(rng, med * off, 0.02, 15))]
            recs.append({"processes": 6, "samples_ns": xs})
        return recs

    def test_processes_apart_but_each_steady_are_not_drift(self):
        # At most 6% of trials, as for steady runs of one process.
        rng = random.Random(DRIFT_SEED)
        trials = 100
        logs = [self.six_process_lines(rng) for _ in range(trials)]
        # The premise: quarters cut across the pooled samples straddle
        # the processes and call every line drifted.
        self.assertTrue(all(log_drift([{"samples_ns": r["samples_ns"]}])
                            ["drifted"] for r in logs[0]),
                        "the premise: the pooled samples' quarters drift")
        first = log_drift(logs[0])
        self.assertTrue(first["lines"] == 4 and first["df"] == 4 * 6 * 3
                        and all(len(line_blocks(r)) == 6 for r in logs[0]),
                        f"each process's quarters: {first}")
        drifted = sum(log_drift(recs)["drifted"] for recs in logs)
        self.assertTrue(drifted <= 0.06 * trials,
                        f"six steady processes 20% apart called drifted: "
                        f"{drifted} of {trials}")

    def test_a_drift_within_each_process_is_still_seen(self):
        rng = random.Random(DRIFT_SEED)
        trials = 20
        drifted = sum(log_drift(self.six_process_lines(rng, step=1.1))
                      ["drifted"] for _ in range(trials))
        self.assertEqual(drifted, trials,
                         "each process 10% slower in its second half")

    def test_a_line_not_cut_into_its_processes_tells_no_drift(self):
        rec = {"processes": 6, "samples_ns": list(range(1, 90))}
        self.assertTrue(line_blocks(rec) == []
                        and log_drift([rec]) is None,
                        "89 samples do not cut into 6 processes")

    def test_steady_runs_are_rarely_called_drifted(self):
        # At most 6% of trials: alpha, and the chi-squared
        # approximation's slack on quarters of 3 and 4 samples.
        rng = random.Random(DRIFT_SEED)
        trials = 1000
        drifted = sum(log_drift([{"samples_ns": xs}])["drifted"]
                      for xs in steady_runs(rng, trials))
        self.assertTrue(drifted <= 0.06 * trials,
                        f"steady runs called drifted: {drifted} of {trials}")


if __name__ == "__main__":
    unittest.main()
