# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the verdicts in the machine's states (reportlib.verdicts, as
lib/verdict.c judges them): a machine planted in two states, where the
headline claim is reversed in the faster and short of the posted in the
slower, each over its own rounds, held to Holm's steps; what chooses
the rounds (the probe that follows, else the majority of the other
contenders, else a compared side, "seen" at most); the scopes a state's
verdict may have; the probe that follows the states and the fills that
do not; runs whose groups are whole processes, which are no states;
logs of one state, whose report is what it was before states were
looked for; --check-verdicts against the "# state", "# state-verdict",
"# follows" and "# states:" lines; and the probe in --compare's machine
guard.
tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import json
import random
import re
import unittest
from unittest import mock

from reportlib import verdicts as verdicts_mod
from reportlib.compare import compare_report, compare_rows, compare_stats
from reportlib.logs import parse_log
from reportlib.states import States, find_states
from reportlib.stats import int_median
from reportlib.synth import (
    STATES_MEMMAP,
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    own_state_lines,
    own_state_verdict_line,
    own_verdict_line,
    samples_line,
    states_log,
    states_rounds,
    synth_log,
)
from reportlib.tables import json_report, markdown_report
from reportlib.verdict_words import (
    BEYOND,
    CONFIRMED,
    FASTER,
    REVERSED,
    SCOPE_PROCESS,
    SCOPE_PROCESSES,
    SCOPE_ROUNDS,
    SHORT,
    TOO_FEW,
    UNTESTED,
    WORDS,
)
from reportlib.verdicts import (
    check_verdicts,
    follows,
    holm_judged,
    processes_differ,
    state_vs_slow,
    verdicts,
)


def parsed(text):
    return parse_log(text, "t", "T")


def headline(log):
    """The verdict of slow -> tmpl_nt_fixed (fsdax) in @log."""
    return next(v for v in verdicts(log) if v["before"] == "slow")


def in_state(rounds, which, s):
    return [x for x, w in zip(rounds, which) if w == s]


def with_line(text, strategy, runs, processes=6):
    """@text (states_log()) with the bench_memmap_init line of @strategy
    measured as @runs, added where it has none."""
    new = samples_line(STATES_MEMMAP.format(strategy), runs, processes,
                       ("page", 1031680))
    lines = text.splitlines()
    at = [i for i, x in enumerate(lines)
          if x.startswith("# metric " + STATES_MEMMAP.format(strategy))]
    if at:
        lines[at[0]] = new
    else:
        lines.insert(-1, new)
    return "\n".join(lines) + "\n"


# The fills that follow the states where states_rounds() is told to.
FILLS = ("limit_nt64", "limit_nt128")


class PlantedStates(unittest.TestCase):
    """tests/states_test.c's machine in 8 processes: slow 1.76x apart
    between its states, the series 0.74x in the faster and 1.17x in the
    slower, the rounds of each chosen by the probe, which follows them.
    (In 6 processes Holm's steps leave both states untested:
    SixProcesses.)"""

    @classmethod
    def setUpClass(cls):
        cls.runs, cls.slower = states_rounds(processes=8)
        cls.log = parsed(states_log(processes=8))
        cls.v = headline(cls.log)

    def test_the_states_are_the_planted_rounds(self):
        st = self.v["states"]
        self.assertEqual((st["side"], st["by"], st["chosen"], st["voters"],
                          st["nr"]), ("slow", "probe_rfo", "probe", 0, 2))
        planted = [int(s) for s in self.slower]
        self.assertEqual(find_states(self.runs["slow"], 8).which, planted)
        # The probe's own states, which choose the rounds, are the
        # planted ones too.
        self.assertEqual(find_states(self.runs["probe_rfo"], 8).which,
                         planted)
        self.assertEqual([sv["rounds"] for sv in st["verdicts"]],
                         [48 - sum(self.slower), sum(self.slower)])
        self.assertEqual([sv["rounds"] for sv in st["verdicts"]], [28, 20])
        self.assertEqual({(sv["by"], sv["chosen"])
                          for sv in st["verdicts"]}, {("probe_rfo", "probe")})

    def test_reversed_in_the_faster_short_in_the_slower(self):
        fast, slow = self.v["states"]["verdicts"]
        self.assertEqual((fast["state"], fast["nr_states"], fast["verdict"],
                          fast["scope"], fast["processes"], fast["test"]),
                         (1, 2, REVERSED, SCOPE_PROCESSES, 8, "signed-rank"))
        self.assertTrue(0.72 < fast["speedup"] < 0.76, fast)
        # 1.17x against a posted 2.52x: a speed-up, short of the posted
        self.assertEqual((slow["state"], slow["verdict"], slow["scope"],
                          slow["processes"], slow["test"]),
                         (2, SHORT, SCOPE_PROCESSES, 8, "signed-rank"))
        self.assertTrue(1.14 < slow["speedup"] < 1.20, slow)
        self.assertEqual((slow["n_before"], slow["n_after"]), (20, 20))
        # Holm's steps: both at the signed-rank test's smallest p in 8
        # processes (2/256); the faster first (by state where equal) at
        # 0.05 / 2, the slower then at 0.05.
        self.assertEqual([(sv["p"], sv["alpha"]) for sv in (fast, slow)],
                         [(2 / 256, 0.025), (2 / 256, 0.05)])
        # Over every round the two states' answers mix: between them,
        # reversed, though in the slower state it is a speed-up (in 6
        # processes into neither: SixProcesses).
        self.assertEqual(self.v["verdict"], REVERSED)
        self.assertTrue(fast["speedup"] < self.v["speedup"] < 1, self.v)

    def test_rounds_pair_by_index(self):
        which = [int(s) for s in self.slower]
        for sv in self.v["states"]["verdicts"]:
            s = sv["state"] - 1
            self.assertEqual(
                (sv["before_ns"], sv["after_ns"]),
                (int_median(in_state(self.runs["slow"], which, s)),
                 int_median(in_state(self.runs["tmpl_nt_fixed"], which,
                                     s))))
        # Process by process: each process's ratio of its own rounds.
        fast = self.v["states"]["verdicts"][0]
        want = []
        for k in range(8):
            blk = range(6 * k, 6 * k + 6)
            b = [self.runs["slow"][i] for i in blk if not self.slower[i]]
            a = [self.runs["tmpl_nt_fixed"][i] for i in blk
                 if not self.slower[i]]
            want.append(int_median(b) * 1000000 // int_median(a) / 1e6)
        self.assertEqual(fast["process_speedups"], want)

    def test_the_before_sides_states_come_first(self):
        # tmpl_nt_fixed has states of its own (108 and 120 ms), which
        # cut the rounds otherwise.
        self.assertEqual(find_states(self.runs["tmpl_nt_fixed"], 8).nr, 2)
        self.assertEqual(self.v["states"]["side"], "slow")
        # Without slow's, the after side's are taken; the probe follows
        # them and chooses the rounds.
        v = headline(parsed(states_log(processes=8, flat=("slow",))))
        self.assertEqual((v["states"]["side"], v["states"]["by"]),
                         ("tmpl_nt_fixed", "probe_rfo"))
        self.assertEqual(sum(sv["rounds"] for sv in v["states"]["verdicts"]),
                         48)
        self.assertTrue(v["states"]["sentence"].startswith(
            "tmpl_nt_fixed ran in 2 states, 1.12x apart"))

    def test_the_sentence(self):
        self.assertEqual(
            self.v["states"]["sentence"],
            "slow ran in 2 states, 1.76x apart (page_size=64 mode=fsdax "
            "map=dev); rounds by probe_rfo, the probe; slow -> "
            "tmpl_nt_fixed: in the faster (28 rounds) 0.74x, reversed on "
            "this CPU; in the slower (20 rounds) 1.17x, faster, short of "
            "the posted")

    def test_the_section_shows_each_state(self):
        md = markdown_report([self.log])
        self.assertIn("#### In the machine's states", md)
        self.assertIn(f"- {self.v['states']['sentence']}", md)
        # By what chose the rounds, at the level of Holm's step.
        self.assertRegex(md, r"\| probe_rfo 1/2 +\| 28 +\|[^\n]*"
                         r"\| +0\.025 \| 8 processes +\|")
        self.assertRegex(md, r"\| probe_rfo 2/2 +\| 20 +\|[^\n]*"
                         r"\| +0\.05 \| 8 processes +\|")
        self.assertIn("**reversed on this CPU**", md)
        # The fills and the probe against the states of the side in
        # states (slow), whatever chose the rounds.
        self.assertIn("Against slow's states (page_size=64 mode=fsdax "
                      "map=dev)", md)
        self.assertIn("following: probe_rfo 1.41x", md)
        data = json.loads(json_report([self.log]))
        v = next(x for x in data[0]["verdicts"] if x["before"] == "slow")
        self.assertEqual([sv["verdict"] for sv in v["states"]["verdicts"]],
                         [REVERSED, SHORT])
        self.assertEqual((v["states"]["side"], v["states"]["by"],
                          v["states"]["chosen"]),
                         ("slow", "probe_rfo", "probe"))
        self.assertTrue(any(f["name"] == "probe_rfo"
                            and f["follows"] == "yes"
                            for f in data[0]["follows"]))


class SixProcesses(unittest.TestCase):
    """The planted machine in 6 processes, as tests/states_test.c has
    it: the signed-rank test's smallest p in 6 processes is 2/64
    (0.03125), below 0.05 but above 0.025, the level Holm's steps give
    the first of two states; that one is untested there, and so the
    other is judged at the same level, untested too."""

    def test_both_states_untested_at_half_the_level(self):
        v = headline(parsed(states_log()))
        self.assertEqual((v["states"]["by"], v["states"]["chosen"]),
                         ("probe_rfo", "probe"))
        self.assertEqual(
            [(sv["rounds"], sv["chosen"], sv["scope"], sv["processes"],
              sv["alpha"], sv["verdict"], sv["test"], sv["p"])
             for sv in v["states"]["verdicts"]],
            [(21, "probe", SCOPE_PROCESSES, 6, 0.025, UNTESTED, None, None),
             (15, "probe", SCOPE_PROCESSES, 6, 0.025, UNTESTED, None,
              None)])
        self.assertTrue(v["states"]["sentence"].endswith(
            "in the faster (21 rounds) 0.74x, untested; in the slower "
            "(15 rounds) 1.17x, untested"), v["states"]["sentence"])
        # Over every round the two states' answers mix into neither.
        self.assertNotIn(v["verdict"],
                         (CONFIRMED, SHORT, BEYOND, FASTER, REVERSED))


class Holm(unittest.TestCase):
    """holm_judged(): every state judged at 0.05, then those tested by
    p, at 0.05 / m, 0.05 / (m - 1), ..., each after one that found
    nothing at that one's level."""

    @staticmethod
    def judged(ps):
        """holm_judged() of a judge that finds p < alpha, of states whose
        p is @ps (None: untested)."""
        def judge(s, alpha):
            p = ps[s]
            return {"p": p, "alpha": alpha,
                    "verdict": UNTESTED if p is None else "judged",
                    "significant": p is not None and p < alpha}
        return [(sv["alpha"], sv["significant"])
                for sv in holm_judged(judge, len(ps))]

    def test_the_steps(self):
        # By p: state 2 at 0.05 / 3, state 3 at 0.05 / 2, state 1 at
        # 0.05.
        self.assertEqual(self.judged([0.03, 0.01, 0.02]),
                         [(0.05, True), (0.016666666, True),
                          (0.025, True)])
        # State 1 not found at 0.05 / 2: state 3, after it, at that same
        # 0.025 (at 0.05 its 0.04 would have been found).
        self.assertEqual(self.judged([0.03, 0.01, 0.04]),
                         [(0.025, False), (0.016666666, True),
                          (0.025, False)])

    def test_untested_states_are_not_counted(self):
        # One state tested: its level stays 0.05.
        self.assertEqual(self.judged([None, 0.04]),
                         [(0.05, False), (0.05, True)])
        # Equal p: by state.
        self.assertEqual(self.judged([0.02, 0.02, None]),
                         [(0.025, True), (0.05, True), (0.05, False)])


class ChosenRounds(unittest.TestCase):
    """What chooses a state's rounds where the probe does not follow:
    the majority of the other contenders whose own runs have as many
    states (here the limit fills, made to follow them), a tie leaving a
    round in no state; where none have, the side in states itself, a
    compared side, whose rounds are judged by the U test alone."""

    def states(self, **kw):
        return headline(parsed(states_log(processes=8, **kw)))["states"]

    def test_the_probe_that_follows_comes_first(self):
        st = self.states(follow=FILLS)
        self.assertEqual((st["by"], st["chosen"], st["voters"]),
                         ("probe_rfo", "probe", 0))

    def test_the_majority_of_the_fills(self):
        st = self.states(flat=("probe_rfo",), follow=FILLS)
        self.assertEqual((st["side"], st["by"], st["chosen"], st["voters"]),
                         ("slow", "majority", "majority", 2))
        self.assertEqual(
            [(sv["by"], sv["chosen"], sv["rounds"], sv["scope"],
              sv["processes"], sv["verdict"]) for sv in st["verdicts"]],
            [("majority", "majority", 28, SCOPE_PROCESSES, 8, REVERSED),
             ("majority", "majority", 20, SCOPE_PROCESSES, 8, SHORT)])
        self.assertIn("; rounds by the majority of 2 other contenders; ",
                      st["sentence"])

    def test_one_fill_is_named(self):
        st = self.states(flat=("probe_rfo",), follow=FILLS[:1])
        self.assertEqual((st["by"], st["chosen"], st["voters"]),
                         ("limit_nt64", "majority", 1))
        self.assertIn("; rounds by the majority of 1 other contender; ",
                      st["sentence"])

    def test_a_tie_is_in_no_state(self):
        """limit_nt128 runs the first process's 6 rounds in the other
        state than the machine's: 1 vote each, those rounds in neither
        state, and the first process in neither."""
        runs, slower = states_rounds(processes=8, follow=FILLS, astray=6)
        self.assertEqual(find_states(runs["limit_nt128"], 8).which,
                         [int(s != (i < 6)) for i, s in enumerate(slower)])
        st = self.states(flat=("probe_rfo",), follow=FILLS, astray=6)
        self.assertEqual((st["by"], st["chosen"], st["voters"]),
                         ("majority", "majority", 2))
        self.assertEqual(sum(slower[:6]), 3)
        self.assertEqual(
            [(sv["rounds"], sv["processes"]) for sv in st["verdicts"]],
            [(48 - 6 - sum(slower[6:]), 7), (sum(slower[6:]), 7)])
        self.assertEqual([sv["rounds"] for sv in st["verdicts"]], [25, 17])
        which = [None] * 6 + [int(s) for s in slower[6:]]
        for sv in st["verdicts"]:
            self.assertEqual(
                sv["before_ns"],
                int_median(in_state(runs["slow"], which, sv["state"] - 1)))

    def test_a_compared_side_is_seen_at_most(self):
        """Neither the probe nor a fill follows, and the after side may
        not vote: slow's own states choose its rounds, judged by the U
        test of the rounds though 8 processes have some."""
        st = self.states(flat=("probe_rfo",))
        self.assertEqual((st["side"], st["by"], st["chosen"], st["voters"]),
                         ("slow", "slow", "compared", 0))
        self.assertEqual(
            [(sv["rounds"], sv["chosen"], sv["scope"], sv["processes"],
              sv["verdict"], sv["test"]) for sv in st["verdicts"]],
            [(28, "compared", SCOPE_ROUNDS, 8,
              WORDS["reversed"][SCOPE_ROUNDS], "exact"),
             (20, "compared", SCOPE_ROUNDS, 8,
              WORDS["short"][SCOPE_ROUNDS], "exact")])
        self.assertIn("; rounds by slow, a compared side: seen at most; ",
                      st["sentence"])


class StateScopes(unittest.TestCase):
    """What a state's verdict may stand on: too few rounds, the rounds of
    too few processes, one process. Where slow's own slower rounds are
    cut short (slow_kept), the probe stays (flat) and nothing else
    follows: slow, a compared side, chooses the rounds."""

    def slow_state(self, kept):
        v = headline(parsed(states_log(slow_kept=kept,
                                       flat=("probe_rfo",))))
        self.assertEqual((v["states"]["by"], v["states"]["chosen"]),
                         ("slow", "compared"))
        return v["states"]["verdicts"][1]

    def test_too_few_rounds(self):
        slow = self.slow_state(4)
        self.assertEqual((slow["rounds"], slow["verdict"], slow["p"],
                          slow["test"]), (4, TOO_FEW, None, None))
        # The rounds of the 2 processes that had one there.
        self.assertEqual((slow["scope"], slow["processes"]),
                         (SCOPE_ROUNDS, 2))

    def test_five_rounds_are_too_few(self):
        slow = self.slow_state(5)
        self.assertEqual((slow["rounds"], slow["verdict"]), (5, TOO_FEW))

    def test_six_rounds_are_judged(self):
        slow = self.slow_state(6)
        self.assertEqual((slow["rounds"], slow["scope"], slow["verdict"]),
                         (6, SCOPE_ROUNDS, WORDS["short"][SCOPE_ROUNDS]))

    def test_the_rounds_of_too_few_processes(self):
        slow = self.slow_state(8)
        self.assertEqual((slow["rounds"], slow["scope"], slow["processes"],
                          slow["verdict"], slow["test"]),
                         (8, SCOPE_ROUNDS, 3, WORDS["short"][SCOPE_ROUNDS],
                          "exact"))

    def test_the_probes_rounds_of_too_few_processes(self):
        """Rounds the probe chose, but in 2 processes: fewer than the
        signed-rank test's 6, the U test of the rounds."""
        v = headline(parsed(states_log(processes=2, runs=18)))
        self.assertEqual((v["states"]["by"], v["states"]["chosen"]),
                         ("probe_rfo", "probe"))
        self.assertEqual(
            [(sv["rounds"], sv["scope"], sv["processes"], sv["verdict"],
              sv["test"]) for sv in v["states"]["verdicts"]],
            [(22, SCOPE_ROUNDS, 2, WORDS["reversed"][SCOPE_ROUNDS],
              "exact"),
             (14, SCOPE_ROUNDS, 2, WORDS["short"][SCOPE_ROUNDS], "exact")])

    def test_one_process(self):
        v = headline(parsed(states_log(processes=1, runs=36)))
        self.assertEqual((v["states"]["by"], v["states"]["chosen"]),
                         ("probe_rfo", "probe"))
        fast, slow = v["states"]["verdicts"]
        self.assertEqual((slow["scope"], slow["processes"], slow["verdict"]),
                         (SCOPE_PROCESS, 1, WORDS["short"][SCOPE_PROCESS]))
        self.assertEqual(fast["rounds"] + slow["rounds"], 36)


class ProcessesDiffer(unittest.TestCase):
    """slow's runs differ between processes only (process k around 80 ms
    or 100 ms by its parity, 1.5% within, no state switching): two
    groups, whole processes, which are no states; the "# states:"
    sentence says so and --check-verdicts holds the log to it."""

    @classmethod
    def setUpClass(cls):
        rng = random.Random(1)
        cls.runs = [round((100e6 if k % 2 else 80e6)
                          * (1 + 0.015 * rng.gauss(0, 1)))
                    for k in range(6) for _ in range(6)]
        cls.text = with_line(states_log(slow_below=0), "slow", cls.runs)
        cls.log = parsed(cls.text)

    def test_the_groups_are_no_states(self):
        # As one process's runs they would be two states.
        self.assertEqual(find_states(self.runs).nr, 2)
        st = find_states(self.runs, 6)
        self.assertEqual((st.nr, st.groups, st.groups_apart),
                         (1, 2, 1250481))
        self.assertTrue(all("states" not in v for v in verdicts(self.log)))
        self.assertEqual(follows(self.log), [])

    def test_the_sentence(self):
        self.assertEqual(
            processes_differ(self.log),
            ["slow's runs fall into 2 groups, 1.25x apart (page_size=64 "
             "mode=fsdax map=dev): the processes differ (no process saw "
             "both)"])

    def test_its_own_lines_agree(self):
        lines = own_state_lines(self.log)
        self.assertEqual(lines[0], "    # states: "
                         + processes_differ(self.log)[0])
        own = parsed(self.text + "\n".join(lines) + "\n")
        self.assertEqual(own.own_states_said, processes_differ(self.log))
        self.assertEqual(check_verdicts(own), [])

    def test_a_dropped_sentence_is_found(self):
        lines = own_state_lines(self.log)[1:]
        probs = check_verdicts(parsed(self.text + "\n".join(lines) + "\n"))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("no processes-differ \"# states:\" line for slow's "
                      "runs fall into 2 groups", probs[0])
        # And one the metric lines do not give.
        lines = own_state_lines(self.log)
        lines[0] = lines[0].replace("1.25x", "1.30x")
        probs = check_verdicts(parsed(self.text + "\n".join(lines) + "\n"))
        self.assertEqual(len(probs), 2, probs)
        self.assertIn("a processes-differ \"# states:\" line the metric "
                      "lines do not give: slow's runs fall into 2 groups, "
                      "1.30x apart", probs[1])


class Follows(unittest.TestCase):
    def test_the_probe_follows_and_the_fills_do_not(self):
        fl = {(f["name"], f["states_of"]): f
              for f in follows(parsed(states_log()))}
        probe = fl[("probe_rfo", "slow")]
        self.assertEqual((probe["kind"], probe["follows"], probe["rounds"]),
                         ("probe", "yes", [21, 15]))
        self.assertTrue(1.3 < probe["ratio"] < 1.5 and probe["p"] < 1e-5)
        for fill in ("limit_nt64", "limit_nt128"):
            self.assertEqual((fl[(fill, "slow")]["kind"],
                              fl[(fill, "slow")]["follows"]), ("fill", "no"))

    def test_a_probe_that_stays_does_not_follow(self):
        fl = follows(parsed(states_log(flat=("probe_rfo",))))
        self.assertEqual({f["follows"] for f in fl
                          if f["name"] == "probe_rfo"}, {"no"})

    def test_too_few_rounds_a_side_are_untested(self):
        fl = follows(parsed(states_log(slow_kept=4)))
        f = next(x for x in fl if x["name"] == "probe_rfo"
                 and x["states_of"] == "slow")
        self.assertEqual((f["rounds"], f["follows"], f["p"]),
                         ([32, 4], "untested", None))


def one_state(ns, processes=1):
    """find_states() that finds no states, in any number of
    @processes."""
    ns = list(ns)
    return States(n=len(ns), nr=1 if ns else 0,
                  states=[(len(ns), 0, min(ns), max(ns))] if ns else [],
                  which=[0] * len(ns), groups=1 if ns else 0)


class OneState(unittest.TestCase):
    """Logs whose runs have one state: the report is what it was before
    states were looked for, to the character."""

    LOGS = {
        "zen5 one process": synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE),
        "zen5 8 processes": synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE,
                                      n=10, cv=0.05, processes=8,
                                      machine_cv=0.10, placement_cv=0.02),
        "no slower rounds": states_log(slow_below=0),
    }

    def test_nothing_changes(self):
        for name, text in self.LOGS.items():
            log = parsed(text)
            got = (markdown_report([log]), json_report([log]))
            with mock.patch.object(verdicts_mod, "find_states",
                                   one_state):
                want = (markdown_report([log]), json_report([log]))
            self.assertEqual(got, want, name)
            self.assertNotIn("state", got[0].split("## Verdicts")[1], name)
            self.assertTrue(all("states" not in v for v in verdicts(log)))
            self.assertNotIn('"follows"', got[1], name)

    def test_its_own_lines_are_checked_as_before(self):
        log = parsed(self.LOGS["zen5 8 processes"])
        lines = [own_verdict_line(v) for v in verdicts(log)]
        own = parsed(self.LOGS["zen5 8 processes"] + "\n".join(lines) + "\n")
        self.assertEqual(check_verdicts(own), [])
        self.assertEqual(own_state_lines(log), lines)


class CheckStateLines(unittest.TestCase):
    """--check-verdicts holds the log's "# state", "# state-verdict",
    "# follows" and "# vs_slow" lines to the report's computation (the
    planted machine in 8 processes, where the states' verdicts are
    found)."""

    @classmethod
    def setUpClass(cls):
        cls.text = states_log(processes=8)
        cls.log = parsed(cls.text)
        cls.lines = own_state_lines(cls.log)
        cls.v = headline(cls.log)

    def check(self, lines):
        return check_verdicts(parsed(self.text + "\n".join(lines) + "\n"))

    def test_its_own_lines_agree(self):
        log = parsed(self.text + "\n".join(self.lines) + "\n")
        self.assertEqual((len(log.own_states), len(log.own_state_verdicts),
                          len(log.own_follows), len(log.own_states_said),
                          len(log.own_verdicts), len(log.own_vs_slow)),
                         (6, 2, 3, 1, 1, 2))
        self.assertEqual(check_verdicts(log), [])

    def replaced(self, old, new, which=0):
        """self.lines with @old made @new in the @which-th line that has
        it."""
        hits = [i for i, x in enumerate(self.lines) if old in x]
        out = list(self.lines)
        out[hits[which]] = out[hits[which]].replace(old, new, 1)
        return out

    def test_a_changed_word_is_found(self):
        lines = [x if "state=1/2 rounds" not in x else
                 own_state_verdict_line(self.v,
                                        self.v["states"]["verdicts"][0],
                                        word=CONFIRMED)
                 for x in self.lines]
        probs = self.check(lines)
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("state=1/2", probs[0])
        self.assertIn("verdict here confirmed, from the metric lines "
                      "reversed on this CPU", probs[0])

    def test_a_changed_speedup_is_found(self):
        sv = self.v["states"]["verdicts"][1]
        lines = [x if "state=2/2 rounds" not in x else
                 own_state_verdict_line(self.v, sv,
                                        speedup=sv["speedup"] + 0.002)
                 for x in self.lines]
        probs = self.check(lines)
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("speedup here", probs[0])

    def test_a_changed_map_is_found(self):
        lines = [x.replace("map=dev", "map=mem")
                 if "# state-verdict" in x and "state=1/2" in x else x
                 for x in self.lines]
        probs = self.check(lines)
        self.assertEqual(len(probs), 2, probs)
        self.assertIn("no state-verdict line for slow -> tmpl_nt_fixed "
                      "page_size=64 mode=fsdax map=dev state=1/2", probs[0])
        self.assertIn("a state-verdict line the metric lines do not give: "
                      "slow -> tmpl_nt_fixed page_size=64 mode=fsdax "
                      "map=mem state=1/2", probs[1])

    def test_changed_rounds_and_a_missing_line_are_found(self):
        probs = self.check(self.replaced(" rounds=20 ", " rounds=19 "))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("rounds here 19", probs[0])
        probs = self.check([x for x in self.lines
                            if "state=2/2 rounds" not in x])
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("no state-verdict line", probs[0])

    def test_a_changed_alpha_chosen_or_by_is_found(self):
        """The state-verdict lines say what chose the rounds (by=,
        chosen=) and the level of Holm's step (alpha=)."""
        mine = [x for x in self.lines if "# state-verdict" in x]
        self.assertIn(" by=probe_rfo chosen=probe state=1/2 rounds=28 "
                      "alpha=0.025 ", mine[0])
        self.assertIn(" by=probe_rfo chosen=probe state=2/2 rounds=20 "
                      "alpha=0.05 ", mine[1])
        for old, new, found in (
                ("alpha=0.025", "alpha=0.05", "alpha here 0.05, from the "
                 "metric lines 0.025"),
                ("alpha=0.05 ", "alpha=0.0125 ", "alpha here 0.0125, from "
                 "the metric lines 0.05"),
                ("chosen=probe", "chosen=majority", "chosen here majority, "
                 "from the metric lines probe"),
                ("by=probe_rfo chosen", "by=slow chosen", "by here slow, "
                 "from the metric lines probe_rfo")):
            probs = self.check(self.replaced(old, new))
            self.assertEqual(len(probs), 1, (old, probs))
            self.assertIn(found, probs[0])
            self.assertIn("slow -> tmpl_nt_fixed", probs[0])

    def test_a_build_before_chosen_is_not_held_to_them(self):
        """A log whose state-verdict lines have no chosen= (nor alpha=)
        is an older build's, which found states by the runs alone: its
        state lines are not held to today's rule."""
        old = [re.sub(r" alpha=\S+", "", x.replace(" chosen=probe", ""))
               for x in self.replaced("state_runs=20", "state_runs=21")]
        self.assertEqual(self.check(old), [])
        # With chosen= the changed line is found.
        self.assertEqual(len(self.check(self.replaced(
            "state_runs=20", "state_runs=21"))), 1)

    def test_a_changed_follows_line_is_found(self):
        probs = self.check(self.replaced("follows=yes", "follows=no"))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("probe probe_rfo slow", probs[0])
        self.assertIn("follows here no", probs[0])

    def test_a_changed_vs_slow_is_found(self):
        """The planted machine's vs_slow: 0.74x in the faster state,
        1.17x in the slower; one changed, one dropped."""
        mine = [x for x in self.lines if "# vs_slow" in x]
        self.assertIn("state=1/2 tmpl_nt_fixed=0.7", mine[0])
        self.assertIn("state=2/2 tmpl_nt_fixed=1.1", mine[1])
        probs = self.check(self.replaced("state=2/2 tmpl_nt_fixed=1.1",
                                         "state=2/2 tmpl_nt_fixed=1.3"))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("tmpl_nt_fixed here 1.3", probs[0])
        probs = self.check([x for x in self.lines if x != mine[0]])
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("no vs_slow line", probs[0])

    def test_a_strategy_on_one_side_only_is_found(self):
        mine = [x for x in self.lines if "# vs_slow" in x]
        probs = self.check(self.replaced(mine[1], mine[1].replace(
            " rounds=", " tmpl_extra=1.000 rounds=")))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("strategies here tmpl_extra tmpl_nt_fixed, from the "
                      "metric lines tmpl_nt_fixed", probs[0])

    def test_vs_slow_of_a_zero_median(self):
        """Where slow's median over a state's rounds is 0, the C prints
        "-" (no ratio), and a line without the strategy is found."""
        text = states_log(flat=("slow",))
        runs, _ = states_rounds(flat=("slow",))
        which = find_states(runs["tmpl_nt_fixed"], 6).which
        text = with_line(text, "slow", [0 if w else x for x, w in
                                        zip(runs["slow"], which)])
        log = parsed(text)
        rs = state_vs_slow(log)
        self.assertEqual([(r["by"], r["state"]) for r in rs],
                         [("tmpl_nt_fixed", "1/2"), ("tmpl_nt_fixed", "2/2")])
        self.assertIsNotNone(rs[0]["ratios"]["tmpl_nt_fixed"])
        self.assertIsNone(rs[1]["ratios"]["tmpl_nt_fixed"])
        lines = own_state_lines(log)
        said = next(x for x in lines if "# vs_slow" in x
                    and "state=2/2" in x)
        self.assertIn(" tmpl_nt_fixed=- rounds=", said)
        self.assertEqual(
            check_verdicts(parsed(text + "\n".join(lines) + "\n")), [])
        for wrong, found in (("tmpl_nt_fixed=0.000", "tmpl_nt_fixed here 0"),
                             ("", "strategies here -, from the metric "
                              "lines tmpl_nt_fixed")):
            bad = [x.replace("tmpl_nt_fixed=- ", wrong + " " if wrong else "")
                   if x == said else x for x in lines]
            probs = check_verdicts(parsed(text + "\n".join(bad) + "\n"))
            self.assertEqual(len(probs), 1, probs)
            self.assertIn(found, probs[0])

    def test_no_vs_slow_where_slow_ran_in_other_rounds(self):
        """slow measured in fewer rounds than the side in states: the C
        prints no "# vs_slow" line (print_vs_slow())."""
        runs, _ = states_rounds(processes=8)
        text = with_line(self.text, "tmpl_memcpy", runs["slow"], 8)
        text = with_line(text, "slow", runs["slow"][:42], processes=7)
        log = parsed(text)
        self.assertIn("tmpl_memcpy", [v["states"]["side"] for v in
                                      verdicts(log) if "states" in v])
        self.assertEqual(state_vs_slow(log), [])

    def test_a_changed_state_line_is_found(self):
        probs = self.check(self.replaced("state_runs=20", "state_runs=21"))
        self.assertEqual(len(probs), 1, probs)
        self.assertIn("state_runs here 21", probs[0])

    def test_an_older_builds_log_is_not_held_to_them(self):
        text = "".join(x + "\n" for x in self.text.splitlines()
                       if "bench_probe" not in x)
        vs = verdicts(parsed(text))
        own = parsed(text + "\n".join(own_verdict_line(v) for v in vs)
                     + "\n")
        self.assertEqual(check_verdicts(own), [])


class ProbeInTheGuard(unittest.TestCase):
    """--compare's machine guard takes the probe where it follows the
    states, and says so; where it was not shown to, it leaves it out."""

    def guard(self, a, b):
        rows = compare_rows(parsed(a), parsed(b))[0]
        _, mv = compare_stats(rows)
        return rows, mv

    def test_a_probe_that_follows_is_used(self):
        a, b = states_log(), states_log(seed=11)
        rows, mv = self.guard(a, b)
        probe = next(r for r in rows if r["suite"] == "bench_probe")
        self.assertEqual(probe["probe_follows"],
                         [("T", "slow")] * 2)
        self.assertEqual((mv["fills"], mv["probes"]), (3, 1))
        text, _ = compare_report(parsed(a), parsed(b))
        self.assertIn("of its 2 limit fills and 1 probe line", text)
        self.assertIn("follows the machine's states there", text)
        self.assertIn("so the guard uses it beside the fills: B/A", text)

    def test_a_probe_that_does_not_is_not(self):
        a = states_log(flat=("probe_rfo",))
        b = states_log(seed=11, flat=("probe_rfo",))
        rows, mv = self.guard(a, b)
        self.assertEqual((mv["fills"], mv["probes"]), (2, 0))
        text, _ = compare_report(parsed(a), parsed(b))
        self.assertIn("the probe was not shown to follow the states here",
                      text.replace("The probe was", "the probe was"))
        self.assertNotIn("uses it beside the fills", text)

    def test_a_follows_line_without_states_of(self):
        a = states_log() + (
            "    # follows probe=probe_rfo page_size=64 mode=fsdax map=dev "
            "rounds=21+15 fast_median_ns=1 slow_median_ns=2 ratio=2.000 "
            "p=0.000001 follows=yes\n")
        rows, _ = self.guard(a, states_log(seed=11))
        probe = next(r for r in rows if r["suite"] == "bench_probe")
        self.assertEqual(probe["probe_follows"], [("T", "slow")] * 2)
        text, _ = compare_report(parsed(a), parsed(states_log(seed=11)))
        self.assertIn("so the guard uses it beside the fills", text)

    def test_untested_the_probe_is_counted_as_a_probe(self):
        a = states_log(processes=1, runs=36)
        b = states_log(processes=1, runs=36, seed=11)
        text, _ = compare_report(parsed(a), parsed(b))
        self.assertIn("The limit fills and the probe (2 bench_limit lines "
                      "and 1 bench_probe line, the same code", text)
        a = states_log(processes=1, runs=36, flat=("probe_rfo",))
        b = states_log(processes=1, runs=36, seed=11, flat=("probe_rfo",))
        text, _ = compare_report(parsed(a), parsed(b))
        self.assertIn("The limit fills (2 bench_limit lines, the same code",
                      text)

    def test_no_states_no_word_of_the_probe(self):
        a = states_log(slow_below=0)
        b = states_log(slow_below=0, seed=11)
        rows, mv = self.guard(a, b)
        self.assertNotIn("probe_follows",
                         next(r for r in rows if r["suite"] == "bench_probe"))
        text, _ = compare_report(parsed(a), parsed(b))
        self.assertNotIn("The probe", text)


if __name__ == "__main__":
    unittest.main()
