# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.lava: python3 -m unittest discover -s tools/reportlib
-t tools"""
import glob
import json
import os
import re
import subprocess
import tempfile
import unittest

import yaml

from reportlib import lava, logs
from reportlib.test_kcidb import WHOLE as KCIDB_LOG

BOOT = """# ntboot 0.1 cpu="Xeon" vendor=GenuineIntel family=6 model=167 stepping=1
KTAP version 1
1..2
ok 1 first
ok 2 second "quoted"
# metric suite=bench_limit strategy=limit_nt64 bytes=4096 median_ns=100 samples_ns=99,100,101
# metric suite=ntboot results=4
ntboot: 2 passed, 0 failed, 0 skipped
"""


def entry(lvl, msg):
    return {"dt": "2026-12-03T10:00:00", "lvl": lvl, "msg": msg}


def job_log(boots, results, style="lines", noise=False, end="poweroff",
            closed=False):
    """A job log of @boots (console texts); @results: per boot, how many
    results LAVA recorded for it (of 4); @end: the console's last line,
    after them (the shutdown's words; what the console held when the
    connection closed; None: nothing); @closed: LAVA's own result of a
    job whose connection closed follows it, as it does."""
    entries = [entry("info", "start: 0 validate")]
    for i, (text, n) in enumerate(zip(boots, results), 1):
        entries.append(entry("info", f"start: boot {i}"))
        for line in text.splitlines():
            entries.append(entry("target", line.replace('"', '\\"')))
        for c in ["first", "second", "suite_bench_limit",
                  "suite_ntboot"][:n]:
            entries.append(entry("results", {"definition": f"ntboot-{i}",
                                             "case": c, "result": "pass"}))
    if end is not None:
        entries.append(entry("target", end.replace('"', '\\"')))
    if closed:
        entries.append(entry("results", {
            "definition": "lava", "case": "job", "result": "fail",
            "error_msg": "Connection closed"}))
    if style == "list":
        return "".join("- " + json.dumps(e) + "\n" for e in entries)
    lines = [json.dumps(e) for e in entries]
    if noise:
        lines.insert(2, "lava-run: a word of its own")
    return "\n".join(lines) + "\n"


class JobLog(unittest.TestCase):
    def test_boots_in_both_forms(self):
        for style in ("lines", "list"):
            text = job_log([BOOT, BOOT], [4, 4], style)
            self.assertTrue(lava.looks_like_job_log(text.encode()))
            got = lava.boots(text)
            self.assertEqual([g[0] for g in got], ["boot-1", "boot-2"])
            self.assertEqual(got[0][1], BOOT)       # quotes restored
            self.assertEqual(got[1][2], (2, 0, 0))
            self.assertEqual(len(got[1][3]), 4)
            self.assertIsNone(lava.check_boot(got[1][1], got[1][3]))

    def test_a_dropped_result_is_named(self):
        got = lava.boots(job_log([BOOT, BOOT], [4, 3]))
        self.assertIsNone(lava.check_boot(got[0][1], got[0][3]))
        self.assertEqual(lava.check_boot(got[1][1], got[1][3]),
                         "LAVA recorded 3 results, the image printed 4")

    def test_an_unfinished_boot_is_a_part(self):
        cut = BOOT.split("# metric suite=ntboot")[0]
        got = lava.boots(job_log([BOOT, cut], [4, 2]))
        self.assertEqual(len(got), 2)
        self.assertIsNone(got[1][2])
        self.assertIn("does not say how many",
                      lava.check_boot(got[1][1], got[1][3]))

    def test_a_console_cut_inside_a_line_is_read_as_cut(self):
        # The console stopped one digit into median_ns=1200, and LAVA
        # wrote what it held as an entry of its own: the boot never
        # reached its summary, so its last line is not read as whole.
        whole = BOOT.split("# metric suite=bench_limit")[0]
        cut_line = "# metric suite=bench_limit strategy=limit_nt64 " \
            "bytes=4096 median_ns=1"
        cut = whole + cut_line
        (name, part, counts, _), = lava.boots(job_log(
            [whole], [2], end=cut_line, closed=True))
        self.assertIsNone(counts)
        self.assertEqual(part, cut)             # no newline after the cut
        log = logs.parse_log(part, name, "A")
        self.assertEqual(log.metrics, [])
        self.assertIn("ends mid-line", " ".join(log.warnings))
        # A boot that reached its summary keeps its lines whole, and so
        # does the text after it when no boot began there.
        self.assertEqual(lava.boots(job_log([BOOT], [4]))[0][1], BOOT)

    def test_a_line_lava_recorded_is_whole(self):
        # A lava-run killed outright logs whole lines only: its last is
        # a result line LAVA's monitor matched, newline and all.
        whole = BOOT.split("# metric suite=bench_limit")[0]
        (_, part, counts, _), = lava.boots(job_log([whole], [2], end=None))
        self.assertIsNone(counts)
        self.assertEqual(part, whole)

    def test_lines_that_are_not_entries_are_counted(self):
        entries, skipped = lava.entries_of(job_log([BOOT], [4], noise=True))
        self.assertEqual(skipped, 1)

    def test_a_console_capture_is_not_a_job_log(self):
        self.assertFalse(lava.looks_like_job_log(BOOT.encode()))
        with self.assertRaises(lava.NotAJobLog):
            lava.entries_of(BOOT)
        with self.assertRaises(lava.NotAJobLog):
            lava.entries_of('- {"dt": 1}\n')


TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A line of several processes, as ntbench prints it, and the same line
# as one process of a build before processes= printed it.
PROCESS_LINE = (
    "# metric suite=bench_memmap_init strategy=tmpl_nt_fixed page_size=64 "
    "layout=64 mode=fsdax map=dev pages=2063872 written=2063872 "
    "bytes=132087808 runs=4 first_ns=9000 median_ns=6000 min_ns=5900 "
    "max_ns=6100 mean_ns=6000 stddev_ns=50 ns_per_page=0.003 gbps=22.01 "
    "drain=on node=0 processes=3 proc_medians_ns=6000,5950,6050 "
    "proc_spread=0.017 samples_ns=6000,5990,6010,5950,5900,5960,6050,"
    "6040,6100")
ONE_PROCESS_LINE = re.sub(r" processes=.*samples_ns=", " samples_ns=",
                          PROCESS_LINE)


class CaseNames(unittest.TestCase):
    """The job definitions' monitor pattern names a metric line's test
    case after its key=value words up to the first measured one: the keys
    of several processes come after runs= and take no part, so a line of
    one process and of several are the same case."""

    def patterns(self):
        out = []
        for path in glob.glob(os.path.join(TOOLS, "lava", "*-job.yaml")):
            with open(path) as f:
                job = yaml.safe_load(f)
            for action in job["actions"]:
                for mon in action.get("test", {}).get("monitors", []):
                    out.append((os.path.basename(path), mon["pattern"]))
        self.assertTrue(out, "no monitor pattern in tools/lava/*-job.yaml")
        return out

    def test_process_keys_are_not_in_the_case_name(self):
        for name, pattern in self.patterns():
            rx = re.compile(pattern)
            many = rx.search(PROCESS_LINE + "\n").groupdict()
            one = rx.search(ONE_PROCESS_LINE + "\n").groupdict()
            self.assertEqual(many["test_case_id"], one["test_case_id"],
                             name)
            self.assertNotIn("proc", many["test_case_id"], name)
            self.assertEqual((many["measurement"], many["units"]),
                             ("6000", "ns"), name)

    def test_a_boot_keeps_its_process_lines(self):
        # ntbench's "# process k/P" diagnostics go along with the boot.
        text = BOOT.replace("ok 1 first", "# process 1/3 seed=7 pid=99\n"
                            "ok 1 first")
        got = lava.boots(job_log([text], [4]))
        self.assertEqual(got[0][1], text)
        self.assertIsNone(lava.check_boot(got[0][1], got[0][3]))


def bench_boot(median):
    """A boot of the image with one memmap line at @median ns."""
    samples = ",".join(str(median + d) for d in (-3, -1, 0, 2, 4))
    return "\n".join([
        '# ntboot 0.1 cpu="Xeon" vendor=GenuineIntel family=6 model=167 '
        'stepping=1 platform=image',
        "KTAP version 1", "1..1", "ok 1 first",
        "# metric suite=bench_memmap_init strategy=tmpl_nt_fixed "
        f"page_size=64 mode=fsdax median_ns={median} samples_ns={samples}",
        "# metric suite=ntboot results=4",
        "ntboot: 1 passed, 0 failed, 0 skipped", ""])


class ThroughTheCommand(unittest.TestCase):
    """tools/report reads a job log as the boots it holds."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def job(self, name, medians, results):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(job_log([bench_boot(m) for m in medians], results))
        return path

    def report(self, *args):
        return subprocess.run([os.path.join(TOOLS, "report"), *args],
                              capture_output=True, text=True, check=False)

    def test_db_adds_each_boot(self):
        job = self.job("a.log", [1000, 1010], [4, 3])
        db = os.path.join(self.tmp.name, "h.db")
        res = self.report("--db", db, "add", job)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("a.log#boot-1: added", res.stderr)
        self.assertIn("a.log#boot-2: added", res.stderr)
        self.assertIn("a.log#boot-2: LAVA recorded 3 results, the image "
                      "printed 4", res.stderr)
        again = self.report("--db", db, "add", job)
        self.assertEqual(again.stderr.count("not added again"), 2)

    def test_a_cut_boot_gives_no_figure_and_is_not_added(self):
        # The console closed one digit into median_ns=1200.
        before, at = KCIDB_LOG.split("median_ns=1200")[0].rsplit("\n", 1)
        path = os.path.join(self.tmp.name, "cut.log")
        with open(path, "w") as f:
            f.write(job_log([before + "\n"], [1],
                            end=at + "median_ns=1", closed=True))
        res = self.report("--kcidb", path)
        self.assertEqual(res.returncode, 0, res.stderr)
        tests = json.loads(res.stdout)["tests"]
        self.assertFalse([t for t in tests
                          if t["path"].startswith("ntboot.bench_x.")],
                         [t["path"] for t in tests])
        self.assertNotIn(tests[0]["status"], ("PASS", None), tests[0])
        self.assertIn("ends mid-line", res.stderr)
        db = os.path.join(self.tmp.name, "h.db")
        res = self.report("--db", db, "add", path)
        self.assertEqual(res.returncode, 1, res.stderr)
        self.assertIn("cut.log#boot-1: not added: the log has no summary "
                      "line", res.stderr)
        whole = self.job("whole.log", [1200], [4])
        res = self.report("--db", db, "add", whole)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("whole.log#boot-1: added", res.stderr)

    def test_compare_two_jobs_across_their_boots(self):
        a = self.job("a.log", [1000, 1003, 998, 1001], [4] * 4)
        b = self.job("b.log", [1100, 1104, 1098, 1101], [4] * 4)
        res = self.report("--compare", "--json", a, b)
        self.assertEqual(res.returncode, 0, res.stderr)
        rows = json.loads(res.stdout)
        self.assertEqual(len(rows), 1)
        self.assertEqual(len(rows[0]["runs_a"]), 4)
        self.assertTrue(rows[0]["significant"])
        self.assertAlmostEqual(rows[0]["ratio"], 1.1, delta=0.01)


if __name__ == "__main__":
    unittest.main()
