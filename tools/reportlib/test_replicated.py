# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.replicated: python3 -m unittest discover -s
tools/reportlib -t tools"""
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


def fill_pairs(ratios, line_ratio, line_ci):
    """[(row, stats)]: fills at @ratios and one memmap line."""
    pairs = [({"suite": "bench_limit"},
              {"testable": True, "ratio": r, "significant": False})
             for r in ratios]
    pairs.append(({"suite": "bench_memmap_init"},
                  {"testable": True, "ratio": line_ratio,
                   "ratio_ci": line_ci, "significant": True}))
    return pairs


class MachineGuard(unittest.TestCase):
    def test_fills_that_moved_together_hold_a_line(self):
        pairs = fill_pairs([1.05, 1.06, 1.07, 1.04, 1.06, 1.08],
                           1.06, (1.03, 1.09))
        move = replicated.machine_move(pairs)
        self.assertTrue(move["moved"])
        self.assertEqual(move["bound"], 1.08)
        self.assertEqual(replicated.hold_to_machine(pairs, move), 1)
        self.assertTrue(pairs[-1][1]["within_machine"])
        self.assertFalse(pairs[-1][1]["significant"])

    def test_a_line_beyond_the_fills_stays_significant(self):
        pairs = fill_pairs([1.05, 1.06, 1.07, 1.04, 1.06, 1.08],
                           1.30, (1.20, 1.40))
        move = replicated.machine_move(pairs)
        self.assertEqual(replicated.hold_to_machine(pairs, move), 0)
        self.assertTrue(pairs[-1][1]["significant"])

    def test_a_line_the_other_way_stays_significant(self):
        pairs = fill_pairs([1.05, 1.06, 1.07, 1.04, 1.06, 1.08],
                           0.95, (0.93, 0.97))
        move = replicated.machine_move(pairs)
        self.assertEqual(replicated.hold_to_machine(pairs, move), 0)

    def test_fills_both_ways_are_no_move(self):
        pairs = fill_pairs([1.05, 0.95, 1.02, 0.97, 1.01, 0.99],
                           1.03, (1.01, 1.05))
        move = replicated.machine_move(pairs)
        self.assertFalse(move["moved"])
        self.assertEqual(replicated.hold_to_machine(pairs, move), 0)
        self.assertTrue(pairs[-1][1]["significant"])


class Header:
    def __init__(self, name, header, options=None):
        self.name, self.header, self.options = name, header, options


def model_of(h):
    if "cpu" not in h:
        raise ValueError("no cpu")
    return h["cpu"]


def machine_of(h):
    return h.get("machine", "?")


class Machines(unittest.TestCase):
    def test_one_machine_says_nothing(self):
        a = [Header(f"a{i}", {"cpu": "X", "machine": "m"}) for i in range(3)]
        b = [Header(f"b{i}", {"cpu": "X", "machine": "m"}) for i in range(3)]
        self.assertEqual(replicated.machines(a, b, model_of, machine_of), [])

    def test_two_models_are_named(self):
        a = [Header("a", {"cpu": "Xeon", "machine": "m"})] * 2
        b = [Header("b", {"cpu": "EPYC", "machine": "n"})] * 2
        notes = replicated.machines(a, b, model_of, machine_of)
        self.assertEqual(len(notes), 1)
        self.assertIn("2 CPU models (EPYC, Xeon)", notes[0])

    def test_two_machines_of_one_model(self):
        a = [Header("a", {"cpu": "X", "machine": "m"})] * 2
        b = [Header("b", {"cpu": "X", "machine": "m"}),
             Header("c", {"cpu": "X", "machine": "n"})]
        notes = replicated.machines(a, b, model_of, machine_of)
        self.assertIn("2 machines of one CPU model", notes[0])

    def test_a_log_without_header_is_named(self):
        a = [Header("a", {"cpu": "X"}), Header("bare.log", {})]
        notes = replicated.machines(a, a, model_of, machine_of)
        self.assertTrue(any("`bare.log` has no header" in n for n in notes))

    def test_options_asked_differently_are_named(self):
        h = {"cpu": "X", "machine": "m"}
        a = [Header("a1", h, "runs=15"), Header("a2", h, "runs=15")]
        b = [Header("b1", h, "runs=15 namespace=1G"),
             Header("b2", h, "runs=15 namespace=1G")]
        notes = replicated.machines(a, b, model_of, machine_of)
        self.assertEqual(len(notes), 1, notes)
        self.assertIn("2 different sets of options", notes[0])
        self.assertIn("B: `runs=15 namespace=1G`", notes[0])
        self.assertEqual(replicated.machines(a, a, model_of, machine_of),
                         [])

    def test_options_unknown_on_one_side(self):
        h = {"cpu": "X", "machine": "m"}
        a = [Header("a1", h, "")]
        b = [Header("b1", h, None)]
        notes = replicated.machines(a, b, model_of, machine_of)
        self.assertEqual(len(notes), 1, notes)
        self.assertIn("1 runs do not say", notes[0])


def guard_log(scale, seed, options):
    """A log with six limit fills and one memmap line, all at @scale
    times their base, each run's medians wobbling by 0.2%."""
    import random
    rng = random.Random(seed)
    lines = ['# ntboot 0.1 cpu="Example Xeon" vendor=GenuineIntel '
             'family=6 model=167 stepping=1 platform=host',
             f'# options argv set="{options}"']
    for what, base in (("fill_nt", 10e6), ("fill_rep_stos", 11e6),
                       ("fill_movdir64b", 9e6), ("fill_cached", 12e6),
                       ("fill_avx", 8e6), ("fill_mov", 13e6),
                       (None, 30e6)):
        m = int(base * scale * (1 + rng.uniform(-0.002, 0.002)))
        ident = (f"suite=bench_limit fill={what}" if what else
                 "suite=bench_memmap_init strategy=tmpl_nt_fixed")
        lines.append(f"# metric {ident} page_size=64 mode=fsdax "
                     f"median_ns={m} samples_ns={m},{m},{m}")
    return "\n".join(lines + ["ntboot: 1 passed, 0 failed, 0 skipped", ""])


class GuardThroughTheCommand(unittest.TestCase):
    def compare(self, scale_b, options_b="runs=15"):
        import os
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            paths = {}
            for side, scale in (("a", 1.0), ("b", scale_b)):
                paths[side] = []
                for k in range(3):
                    path = os.path.join(tmp, f"{side}{k}.log")
                    with open(path, "w") as f:
                        f.write(guard_log(scale, hash((side, k)) & 0xffff,
                                          "runs=15" if side == "a"
                                          else options_b))
                    paths[side].append(path)
            return subprocess.run(
                [os.path.join(TOOLS, "report"), "--compare", *paths["a"],
                 "--", *paths["b"]],
                capture_output=True, text=True, check=False)

    def test_a_move_of_the_machine_is_not_a_change(self):
        res = self.compare(1.05)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("The machine moved: 6 of 6 limit fills slower",
                      res.stdout)
        self.assertIn("1 lines held to that move", res.stdout)
        self.assertIn("~ machine", res.stdout)
        self.assertIn("6 of 7 lines differ significantly", res.stdout)
        self.assertNotIn("Note:", res.stdout)

    def test_options_asked_differently_are_noted(self):
        res = self.compare(1.0, "runs=15 namespace=1G")
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("Note: the runs were asked 2 different sets",
                      res.stdout)


if __name__ == "__main__":
    unittest.main()
