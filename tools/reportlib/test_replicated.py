# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.replicated: python3 -m unittest discover tools/reportlib"""
import math
import random
import unittest

from reportlib import replicated


class Log:
    def __init__(self, metrics):
        self.metrics = metrics


class Compare(unittest.TestCase):
    def test_one_run_a_side_is_not_tested(self):
        out = replicated.compare([100.0], [120.0])
        self.assertFalse(out["testable"])
        self.assertIn("between-process variance is unknown", out["why"])

    def test_identical_runs_are_not_tested(self):
        out = replicated.compare([5.0] * 4, [5.0] * 4)
        self.assertFalse(out["testable"])
        self.assertEqual(out["ratio"], 1.0)

    def test_known_ratio_and_interval(self):
        a = [100.0, 101.0, 99.0, 100.5, 99.5]
        b = [v * 1.2 for v in a]
        out = replicated.compare(a, b)
        self.assertTrue(out["significant"])
        self.assertAlmostEqual(out["ratio"], 1.2, places=9)
        lo, hi = out["ratio_ci"]
        self.assertLess(lo, 1.2)
        self.assertGreater(hi, 1.2)
        self.assertLess(out["mde"], 0.05)

    def test_a_a_false_positive_rate(self):
        # Same distribution both sides: about alpha of the tests fire.
        rng = random.Random(7)
        fired = sum(replicated.compare(
            [rng.lognormvariate(0, 0.03) for _ in range(5)],
            [rng.lognormvariate(0, 0.03) for _ in range(5)])["significant"]
            for _ in range(2000))
        self.assertLess(fired / 2000, 0.08)
        self.assertGreater(fired / 2000, 0.02)

    def test_mde_is_what_is_found(self):
        # An effect of the printed MDE is found about 80% of the time.
        rng = random.Random(11)
        spread = 0.02
        mde = replicated.compare(
            [math.exp(rng.gauss(0, spread)) for _ in range(6)],
            [math.exp(rng.gauss(0, spread)) for _ in range(6)])["mde"]
        found = sum(replicated.compare(
            [math.exp(rng.gauss(0, spread)) for _ in range(6)],
            [(1 + mde) * math.exp(rng.gauss(0, spread))
             for _ in range(6)])["significant"] for _ in range(1000))
        self.assertGreater(found / 1000, 0.5)


class RepTable(unittest.TestCase):
    def test_lines_every_log_has(self):
        logs = [Log([{"k": 1, "v": 10}, {"k": 2, "v": 20}]),
                Log([{"k": 1, "v": 11}])]
        table, missing = replicated.rep_table(
            logs, lambda r: r["k"], lambda r: r["v"])
        self.assertEqual(table, {1: [10, 11]})
        self.assertEqual(missing, 1)


if __name__ == "__main__":
    unittest.main()


TOOLS = __import__("os").path.dirname(__import__("os").path.dirname(
    __import__("os").path.abspath(__file__)))


def fake_runner(path, median, seed):
    """An executable that prints what ntbench prints for two lines, the
    second line's median @median (ns) with a fresh process's wobble."""
    import os
    with open(path, "w") as f:
        f.write(f"""#!/bin/sh
# a fake ntbench for tools/ab
# a fixed wobble per run (the k-th run of this runner), so the test is
# the same every time
k=$(cat "$0.count" 2>/dev/null || echo 0); echo $((k + 1)) > "$0.count"
r=$(( (k * 7919 + {seed} * 104729) % 65536 ))
m=$(( {median} + r % 2000 ))
n=$(( 500000 + r % 1500 ))
echo '# ntboot 0.1 cpu="Example Xeon" platform=host'
echo "# metric suite=bench_memmap_init strategy=slow page_size=64 mode=fsdax median_ns=$n samples_ns=$n,$n,$n,$n,$n"
echo "# metric suite=bench_memmap_init strategy=tmpl_nt_fixed page_size=64 mode=fsdax median_ns=$m samples_ns=$m,$m,$m,$m,$m"
echo 'ntboot: 1 passed, 0 failed, 0 skipped'
""")
    os.chmod(path, 0o755)


class EndToEnd(unittest.TestCase):
    """tools/ab over two fake runners, and tools/report across runs."""

    def run_ab(self, median_b, repeat=5):
        import os
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            fake_runner(a, 100000, 1)
            fake_runner(b, median_b, 2)
            res = subprocess.run(
                [os.path.join(TOOLS, "ab"), "--repeat", str(repeat),
                 "--out", os.path.join(tmp, "out"), "--json", a, b, "--",
                 "suite=bench_memmap_init"],
                capture_output=True, text=True, check=False)
            with open(os.path.join(tmp, "out", "order.txt")) as f:
                order = [ln.split()[1] for ln in f]
        self.assertEqual(res.returncode, 0, res.stderr)
        return __import__("json").loads(res.stdout), order

    def test_interleaved_order(self):
        _, order = self.run_ab(100000, repeat=3)
        self.assertEqual(order, ["A1", "B1", "B2", "A2", "A3", "B3"])

    def test_change_found_and_same_build_not(self):
        rows, _ = self.run_ab(115000)
        fixed = [r for r in rows if "tmpl_nt_fixed" in r["what"]][0]
        self.assertTrue(fixed["significant"], fixed)
        self.assertAlmostEqual(fixed["ratio"], 1.15, delta=0.03)
        self.assertIn("mde", fixed)
        slow = [r for r in rows if "slow" in r["what"]][0]
        self.assertFalse(slow["significant"], slow)
