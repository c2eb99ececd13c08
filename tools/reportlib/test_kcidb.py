# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.kcidb: the statuses of KTAP results, the metric
tests' numbers, stable ids, and logs that end early, bail out, have no
plan or come from a build that did not name itself. tools/report
--selftest runs them; the schema is checked where python3-jsonschema is.
"""
import json
import os
import unittest

from reportlib.kcidb import KcidbError, Objects, read_runs

COMMIT = "0123456789abcdef0123456789abcdef01234567"
HEAD = """BdsDxe: starting Boot0001
KTAP version 1
1..3
# ntboot 0.1+g0123456789ab cpu="Test CPU  " vendor=GenuineIntel family=6 \
model=106 stepping=6 ucode=0xd0003a5 uefi=2.10 smp=2
"""
BUILD = ('# build target=image config=image compiler="gcc 12.2.0" '
         f"commit={COMMIT} dirty=0\n")
OPTIONS = '# options load="" cfg=none set="runs=5"\n'
BODY = """  KTAP version 1
  # Subtest: bench_x
  1..3
    # metric suite=bench_x strategy=slow page_size=64 runs=5 median_ns=1200 \
samples_ns=1100,1300
    # one: duration_us=1500
  ok 1 one
    # two: unexpected CPU exception #GP (vector 13); case aborted
    # two: duration_us=20
  not ok 2 two
    # MP+nt.sep: duration_us=7
  ok 3 MP+nt.sep # SKIP one CPU: every litmus test needs two
  # bench_x: pass:1 fail:1 skip:1 total:3
not ok 1 bench_x
  KTAP version 1
  # Subtest: pollution
  1..1
    # metric suite=bench_pollution strategy=slow buffer=half_llc \
warm_ns=10 evicted_pct=na
    # p: duration_us=3
  ok 1 p
  # pollution: pass:1 fail:0 skip:0 total:1
ok 2 pollution
  KTAP version 1
  # Subtest: last
  1..2
    # l1: duration_us=3
  ok 1 l1
    # l2: duration_us=4
  not ok 2 l2
  # last: pass:1 fail:1 skip:0 total:2
not ok 3 last
# metric suite=ntboot results=12
ntboot: 3 passed, 2 failed, 1 skipped
"""
WHOLE = HEAD + BUILD + OPTIONS + BODY


def report(*texts):
    objects = Objects()
    for i, text in enumerate(texts):
        for run in read_runs(text, f"log{i}")[0]:
            objects.add_run(run)
    return objects.report()


def tests_by_path(rep):
    return {t["path"]: t for t in rep["tests"]}


class Statuses(unittest.TestCase):
    def test_results_and_metrics(self):
        t = tests_by_path(report(WHOLE))
        self.assertEqual(t["ntboot.bench_x.one"]["status"], "PASS")
        self.assertEqual(t["ntboot.bench_x.one"]["duration"], 0.0015)
        # A case that took a CPU exception did not complete: ERROR.
        self.assertEqual(t["ntboot.bench_x.two"]["status"], "ERROR")
        self.assertIn("#GP", t["ntboot.bench_x.two"]["comment"])
        self.assertIn("not ok 2 two", t["ntboot.bench_x.two"]["log_excerpt"])
        skip = t["ntboot.bench_x.MP_nt.sep"]
        self.assertEqual(skip["status"], "SKIP")
        self.assertEqual(skip["misc"]["name"], "MP+nt.sep")
        self.assertEqual(t["ntboot.last.l2"]["status"], "FAIL")
        self.assertEqual(t["ntboot.bench_x"]["status"], "FAIL")
        self.assertEqual(t["ntboot.pollution"]["status"], "PASS")
        self.assertEqual(t["ntboot"]["status"], "FAIL")
        metric = t["ntboot.bench_x.one.strategy-slow.page_size-64.median_ns"]
        self.assertEqual(metric["status"], "DONE")
        self.assertEqual(metric["number"], {"value": 1200, "unit": "ns"})
        self.assertEqual(metric["misc"]["samples_ns"], [1100, 1300])
        self.assertEqual(metric["misc"]["options"], "runs=5")
        na = t["ntboot.pollution.p.strategy-slow.buffer-half_llc."
               "evicted_pct"]
        self.assertEqual(na["status"], "SKIP")
        self.assertNotIn("number", na)
        self.assertEqual(t["ntboot.results"]["number"], {"value": 12})
        self.assertEqual(len(t), 13)

    def test_environment_and_build(self):
        rep = report(WHOLE)
        test = rep["tests"][0]
        self.assertEqual(test["environment"]["comment"], "Test CPU")
        misc = test["environment"]["misc"]
        self.assertEqual(misc["ucode"], "0xd0003a5")
        self.assertEqual(misc["uefi"], "2.10")       # as printed
        (checkout,), (build,) = rep["checkouts"], rep["builds"]
        self.assertEqual(checkout["git_commit_hash"], COMMIT)
        self.assertEqual(checkout["id"], f"ntboot:{COMMIT}")
        self.assertEqual(build["compiler"], "gcc 12.2.0")
        self.assertEqual(build["config_name"], "image")
        self.assertEqual(build["checkout_id"], checkout["id"])

    def test_metric_without_number_stops(self):
        text = WHOLE.replace("runs=5 median_ns=1200 samples_ns=1100,1300",
                             "runs=5")
        with self.assertRaisesRegex(KcidbError, r"^log0:10: metric line "
                                    "without a number"):
            report(text)


class Ids(unittest.TestCase):
    def test_same_log_same_objects(self):
        self.assertEqual(report(WHOLE), report(WHOLE))
        # Other firmware text before the KTAP stream: the same run (its
        # lines numbered from the file's start).
        self.assertEqual([t["id"] for t in report(WHOLE)["tests"]],
                         [t["id"] for t in
                          report("Shell> x\n" + WHOLE)["tests"]])

    def test_two_runs_of_one_build_share_it(self):
        other = WHOLE.replace("median_ns=1200", "median_ns=1300")
        rep = report(WHOLE, other)
        self.assertEqual(len(rep["checkouts"]), 1)
        self.assertEqual(len(rep["builds"]), 1)
        self.assertEqual(len(rep["tests"]), 26)
        self.assertEqual(len({t["id"] for t in rep["tests"]}), 26)
        # The same log sent twice adds nothing.
        self.assertEqual(len(report(WHOLE, WHOLE)["tests"]), 13)


class Truncated(unittest.TestCase):
    def test_cut_mid_line(self):
        cut = WHOLE[:WHOLE.index("ok 1 l1") + len("ok 1 l")]
        warnings = read_runs(cut, "cut.log")[1]
        self.assertEqual(len(warnings), 1)
        self.assertRegex(warnings[0],
                         r"^cut\.log:\d+: the log ends mid-line")
        t = tests_by_path(report(cut))
        self.assertNotIn("ntboot.last.l", t)
        # Its duration line named it: ERROR, never PASS.
        self.assertEqual(t["ntboot.last.l1"]["status"], "ERROR")
        self.assertEqual(t["ntboot.last"]["status"], "ERROR")
        self.assertIn("0 of its 2 cases", t["ntboot.last"]["comment"])
        self.assertEqual(t["ntboot"]["status"], "FAIL")  # bench_x failed
        passing = cut.replace("not ok 2 two", "ok 2 two").replace(
            "not ok 1 bench_x", "ok 1 bench_x").replace(
            "# two: unexpected", "# two: expected")
        self.assertEqual(tests_by_path(report(passing))["ntboot"]["status"],
                         "ERROR")

    def test_cut_between_suites(self):
        cut = WHOLE[:WHOLE.index("ok 2 pollution\n") + 15]
        t = tests_by_path(report(cut.replace("not ok", "ok")))
        self.assertEqual(t["ntboot.pollution"]["status"], "PASS")
        self.assertEqual(t["ntboot"]["status"], "ERROR")
        self.assertIn("after 2 of 3 suites", t["ntboot"]["comment"])

    def test_metric_of_a_case_that_never_reported(self):
        cut = WHOLE[:WHOLE.index("    # one: duration_us")]
        t = tests_by_path(report(cut))
        metric = t["ntboot.bench_x.strategy-slow.page_size-64.median_ns"]
        self.assertEqual(metric["status"], "DONE")
        self.assertIn("never reported", metric["comment"])
        self.assertEqual(t["ntboot.bench_x"]["status"], "ERROR")

    def test_bail_out(self):
        # As the image bails on a bad option: before its header.
        text = ("ntboot 0.1+g0123456789ab: starting\nKTAP version 1\n"
                "1..0\nBail out! bad option 'bogus=1'\n"
                "ntboot: 0 passed, 0 failed, 0 skipped\n")
        rep = report(text)
        t = tests_by_path(rep)
        self.assertEqual(list(t), ["ntboot"])
        self.assertEqual(t["ntboot"]["status"], "MISS")
        self.assertIn("bogus=1", t["ntboot"]["comment"])
        self.assertNotIn("environment", t["ntboot"])
        self.assertEqual(rep["builds"][0]["id"],
                         "ntboot:0.1+g0123456789ab:image")
        with self.assertRaisesRegex(KcidbError, r"^b\.log:1: no '# ntboot"):
            read_runs(text.split("\n", 1)[1], "b.log")

    def test_bail_out_inside_a_suite(self):
        cut = WHOLE[:WHOLE.index("    # l1:")] + "Bail out! watchdog\n"
        t = tests_by_path(report(cut))
        self.assertEqual(t["ntboot.last"]["status"], "ERROR")
        self.assertIn("Bail out! watchdog", t["ntboot.last"]["comment"])
        # A suite cut short ranks above the harness's MISS.
        self.assertEqual(t["ntboot"]["status"], "FAIL")
        self.assertIn("Bail out! watchdog", t["ntboot"]["comment"])

    def test_case_named_before_the_end(self):
        # The exception's line names the case; its result never came.
        cut = WHOLE[:WHOLE.index("    # l1:")] + \
            "    # l1: unexpected CPU exception #PF (vector 14); case " \
            "aborted\n"
        t = tests_by_path(report(cut))
        self.assertEqual(t["ntboot.last.l1"]["status"], "ERROR")
        self.assertIn("#PF", t["ntboot.last.l1"]["comment"])
        cut = WHOLE[:WHOLE.index("  ok 1 l1")]
        t = tests_by_path(report(cut))
        self.assertEqual(t["ntboot.last.l1"]["status"], "ERROR")
        self.assertNotIn("duration", t["ntboot.last.l1"])

    def test_suite_short_of_its_plan(self):
        text = WHOLE.replace("  1..2\n", "  1..3\n")
        runs, warnings = read_runs(text, "s.log")
        self.assertRegex(warnings[0], r"^s\.log:\d+: suite 'last' reports "
                         "2 of its 3 planned cases")
        pollution = WHOLE.replace("  1..1\n", "  1..2\n")
        t = tests_by_path(report(pollution))
        self.assertEqual(t["ntboot.pollution"]["status"], "ERROR")

    def test_comment_before_the_plan(self):
        text = WHOLE.replace("KTAP version 1\n1..3\n",
                             "KTAP version 1\n# console: no UART\n1..3\n")
        self.assertEqual(len(report(text)["tests"]), 13)

    def test_two_reports_in_one_log(self):
        # A job that booted twice: each report a run of its own.
        runs, warnings = read_runs(WHOLE + WHOLE, "two.log")
        self.assertEqual(len(runs), 2)
        self.assertIn("2 reports", warnings[-1])
        rep = report(WHOLE + WHOLE)
        self.assertEqual(len(rep["tests"]), 26)
        self.assertEqual(len(rep["builds"]), 1)
        # Restarted inside a suite: the first run's suite never ended.
        cut = WHOLE[:WHOLE.index("    # l1:")] + WHOLE
        t = [x for x in report(cut)["tests"] if x["path"] == "ntboot.last"]
        self.assertEqual(sorted(x["status"] for x in t), ["ERROR", "FAIL"])

    def test_no_plan(self):
        text = "KTAP version 1\n# ntboot 0.1 cpu=x\nok 1 a\n"
        with self.assertRaisesRegex(KcidbError, r"^p\.log:3: no KTAP plan"):
            read_runs(text, "p.log")

    def test_not_ktap(self):
        with self.assertRaisesRegex(KcidbError, r"^x\.log: no 'KTAP"):
            read_runs("hello\n", "x.log")

    def test_options_cut_short(self):
        cut = OPTIONS.replace('"runs=5"', '"runs=5')
        runs, warnings = read_runs(HEAD + BUILD + cut + BODY, "o.log")
        self.assertIsNone(runs[0].options)
        self.assertRegex(warnings[0], r"^o\.log:6: options line cut short")

    def test_older_build(self):
        warnings = read_runs(HEAD + BODY, "old.log")[1]
        self.assertEqual(warnings,
                         ["old.log:4: no '# build' line after the header "
                          "(a log of ntboot before its builds named "
                          "themselves): the build is named by its version "
                          "alone, with no compiler and no commit hash"])
        rep = report(HEAD + BODY)
        (checkout,), (build,) = rep["checkouts"], rep["builds"]
        self.assertNotIn("git_commit_hash", checkout)
        self.assertNotIn("compiler", build)
        self.assertEqual(build["id"], "ntboot:0.1+g0123456789ab:image")


class Schema(unittest.TestCase):
    def test_valid(self):
        try:
            import jsonschema
        except ImportError:
            self.skipTest("no jsonschema (apt-get install "
                          "python3-jsonschema)")
        path = os.path.join(os.path.dirname(__file__), "..", "kcidb",
                            "schema-v5.3.json")
        with open(path) as f:
            schema = json.load(f)
        cls = jsonschema.Draft7Validator
        v = cls(schema, format_checker=cls.FORMAT_CHECKER)
        cut = WHOLE[:WHOLE.index("ok 1 l1")]
        for text in (WHOLE, HEAD + BODY, cut):
            v.validate(report(text))
        bad = report(WHOLE)
        bad["tests"][0]["status"] = "OK"
        self.assertFalse(v.is_valid(bad))


if __name__ == "__main__":
    unittest.main()
