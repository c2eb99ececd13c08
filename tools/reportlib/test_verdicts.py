# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.verdicts: the postings' claims judged on a Zen 5
class log (one claim reversed there) and on a log without samples, in
the Markdown and JSON reports, and --check-verdicts against the log's
own "# verdict" lines. tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import json
import unittest

from reportlib.logs import parse_log
from reportlib.synth import (
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    own_verdict_line,
    sample_image_a,
    synth_log,
)
from reportlib.tables import json_report, markdown_report
from reportlib.verdicts import (
    CONFIRMED,
    NOT_CONFIRMED,
    REVERSED,
    UNTESTED,
    check_verdicts,
    verdicts,
)

ZEN5_LOG = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)


class Judging(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.zen = parse_log(ZEN5_LOG, "z", "Z")
        cls.got = {(v["before"], v["after"]): v for v in verdicts(cls.zen)}

    def test_zen5_verdicts_one_claim_reversed(self):
        want = {("slow", "tmpl_nt_fixed"): CONFIRMED,
                ("tmpl_memcpy", "tmpl_nt_fixed"): REVERSED,
                ("tmpl_nt_generic", "tmpl_nt_fixed"): CONFIRMED,
                ("copy_clean_clwb", "nocache"): NOT_CONFIRMED}
        got = self.got
        self.assertEqual({k: v["verdict"] for k, v in got.items()}, want,
                         f"Zen 5 verdicts: "
                         f"{[(k, v['verdict']) for k, v in got.items()]}")

    def test_the_reversal_has_its_interval_below_1(self):
        v = self.got.get(("tmpl_memcpy", "tmpl_nt_fixed"))
        self.assertTrue(v and 0.6 < v["speedup"] < 0.75
                        and v["speedup_ci"][1] < 1 and v["cpu"] == ZEN5,
                        f"the reversal, with its CI: {v}")

    def test_posted_and_measured_ratios_side_by_side(self):
        v = self.got.get(("tmpl_nt_generic", "tmpl_nt_fixed"))
        self.assertTrue(v and abs(v["posted_speedup"] - 150.83 / 96.79) < 1e-9
                        and v["speedup_ci"][0] > 1 and "posted_in_ci" in v,
                        f"posted and measured ratios side by side: {v}")

    def test_a_log_without_samples_is_untested_not_judged(self):
        vs = verdicts(sample_image_a())
        self.assertTrue(vs and all(v["verdict"] == UNTESTED for v in vs),
                        "a log without samples: untested, not a verdict")


class Reports(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.zen = parse_log(ZEN5_LOG, "z", "Z")

    def test_the_verdict_section_names_the_cpu_claims_and_words(self):
        md = markdown_report([self.zen])
        self.assertTrue(f"### {ZEN5}" in md
                        and "**reversed on this CPU**" in md
                        and "**not confirmed**" in md
                        and "x86/string: extend memcpy_flushcache() "
                            "fixed-size fastpaths" in md,
                        "the verdict section names the CPU, the claims and "
                        "the words")

    def test_verdicts_in_json(self):
        data = json.loads(json_report([self.zen]))
        self.assertEqual(data[0]["verdicts"][0]["verdict"], CONFIRMED,
                         "verdicts in --json")


class CheckVerdicts(unittest.TestCase):
    """--check-verdicts: the log's own verdict lines, as the image prints
    them (indented, a carriage return), agree; a changed word, a changed
    p, a missing line are each found."""

    @classmethod
    def setUpClass(cls):
        cls.vs = verdicts(parse_log(ZEN5_LOG, "z", "Z"))
        cls.lines = [own_verdict_line(v) for v in cls.vs]

    def test_the_logs_own_verdict_lines_agree(self):
        own = parse_log(ZEN5_LOG + "\n".join(self.lines) + "\n", "own", "O")
        self.assertTrue(len(own.own_verdicts) == 4
                        and not check_verdicts(own),
                        f"own verdict lines agree: {check_verdicts(own)}")

    def test_a_changed_word_is_found(self):
        bad = [own_verdict_line(v, REVERSED if i == 0 else None)
               for i, v in enumerate(self.vs)]
        probs = check_verdicts(parse_log(ZEN5_LOG + "\n".join(bad), "bad",
                                         "X"))
        self.assertTrue(len(probs) == 1
                        and "verdict here reversed" in probs[0],
                        f"a changed word is found: {probs}")

    def test_a_missing_line_and_a_changed_p_are_found(self):
        probs = check_verdicts(parse_log(
            ZEN5_LOG + "\n".join(self.lines[1:]).replace(" p=", " p=0.5", 1),
            "b2", "Y"))
        self.assertTrue(len(probs) == 2
                        and any("no verdict line" in x for x in probs)
                        and any(": p here" in x for x in probs),
                        f"a missing line and a changed p are found: {probs}")


if __name__ == "__main__":
    unittest.main()
