# SPDX-License-Identifier: GPL-2.0-only
"""The variance at each level, on samples with planted components."""
import math
import random
import unittest

from reportlib import variance


def blocks(procs, runs, within, between, seed):
    """@procs processes of @runs samples: log-normal, the process means
    spread by @between and the runs by @within (standard deviations)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(procs):
        centre = math.log(1e8) + rnd.gauss(0, between)
        out.append([round(math.exp(centre + rnd.gauss(0, within)))
                    for _ in range(runs)])
    return out


class Levels(unittest.TestCase):
    def test_planted_components(self):
        # 1% between runs, 10% between processes: both found.
        b = blocks(2000, 6, 0.01, 0.10, 1)
        s1, _, t2 = variance.components(b)
        self.assertAlmostEqual(math.sqrt(s1), 0.01, delta=0.001)
        self.assertAlmostEqual(math.sqrt(t2), 0.10, delta=0.01)
        # The processes dominate: one run each is best, whatever a
        # process costs within reason.
        self.assertEqual(variance.optimal_runs(s1, t2, 3), 1)

    def test_no_process_component(self):
        # The processes add nothing: more runs, fewer processes.
        b = blocks(200, 6, 0.05, 0.0, 2)
        s1, _, t2 = variance.components(b)
        self.assertAlmostEqual(math.sqrt(s1), 0.05, delta=0.003)
        self.assertLess(t2, 0.05 ** 2 / 20)
        self.assertGreater(variance.optimal_runs(s1, max(t2, 1e-9), 3), 5)
        self.assertIsNone(variance.optimal_runs(s1, 0.0, 3))

    def test_blocks_of_a_line(self):
        rec = {"processes": 3, "samples_ns": [1, 2, 3, 4, 5, 6]}
        self.assertEqual(variance.process_blocks(rec),
                         [[1, 2], [3, 4], [5, 6]])
        self.assertIsNone(variance.process_blocks(
            {"processes": 1, "samples_ns": [1, 2]}))
        self.assertIsNone(variance.process_blocks(
            {"processes": 4, "samples_ns": [1, 2, 3, 4, 5, 6]}))
        self.assertIsNone(variance.process_blocks(
            {"processes": 3, "samples_ns": [1, 2, 3]}))


class Claims(unittest.TestCase):
    def test_speedup_spread_between_processes(self):
        from reportlib.logs import parse_log

        def line(strategy, blocks_):
            flat = [x for b in blocks_ for x in b]
            return ("# metric suite=bench_memmap_init strategy="
                    f"{strategy} page_size=64 layout=64 mode=fsdax map=dev "
                    f"runs={len(blocks_[0]) + 1} median_ns={flat[0]} "
                    f"processes={len(blocks_)} samples_ns="
                    + ",".join(map(str, flat)))
        # The same load on both lines cancels; a speed-up that itself
        # moves between processes (1.2x, then 0.8x) does not.
        load = [1.0, 1.5, 1.0, 1.5, 1.0, 1.5]
        after = [[round(1e8 * f * (1 + 0.001 * j)) for j in range(5)]
                 for f in load]
        steady = [[round(x * 1.1) for x in b] for b in after]
        moving = [[round(x * (1.2 if p % 2 else 0.8)) for x in b]
                  for p, b in enumerate(after)]
        for before, wide in ((steady, False), (moving, True)):
            text = "\n".join(["# ntboot 0.1 platform=host cpu=\"X\"",
                              line("slow", before),
                              line("tmpl_nt_fixed", after)]) + "\n"
            rows = variance.claim_rows([parse_log(text, "t", "A")])
            self.assertEqual(len(rows), 1)
            self.assertEqual(wide, rows[0]["ratio_spread"] >
                             10 * rows[0]["from_runs"])
