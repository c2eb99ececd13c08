# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.mitigation: what the return thunk costs a build of
the kernel's code, recomputed from the metric lines of the build and of
its twin with plain returns, with its interval or the reason it has
none; the thunk read from the build's "# kernel-object" line;
--check-verdicts against the log's own "# mitigation" lines; the
model's rows against each kernel code (reportlib.model_over_kernel);
the report's section and --json; a build from a kernel_patch= file
(kp_*) beside them, in no pair; and the fleet's table of them, by CPU
model and microcode. tools/report --selftest runs them."""
import json
import os
import sqlite3
import subprocess
import tempfile
import unittest

from reportlib import fleet
from reportlib.logs import parse_log
from reportlib.mitigation import check, mitigations, section
from reportlib.model_over_kernel import check as check_model_over_kernel
from reportlib.model_over_kernel import model_over_kernel
from reportlib.own_lines import problems
from reportlib.synth import ZEN5, fixed3, synth_log
from reportlib.tables import json_report, markdown_report
from reportlib.verdict_words import SCOPE_PROCESS, SCOPE_PROCESSES

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPORT = os.path.join(TOOLS, "report")

# The kernel's code 1.3 times slower on its return thunk than with plain
# returns, and the model as fast as the plain one.
THUNKED = [("slow", 64, "fsdax", 100e6), ("kernel", 64, "fsdax", 130e6),
           ("kernel_ret", 64, "fsdax", 100e6)]
THUNK = "jmp_ret"
THUNK_FROM = ("indirect_target_selection: Mitigation: Aligned "
              "branch/return thunks")
# What each build's runner says it ran, once a process (kunit_diag()
# indents it inside a case).
OBJECTS = [
    "    # kernel-object strategy=kernel mm_init.o 6.12.57+deb13-amd64 "
    "patches=0 patches_sha256=e3b0 fentry=3 return_sites=168 "
    f'alternatives=12 jump_labels=3 static_calls=0 return_thunk={THUNK} '
    f'return_thunk_from="{THUNK_FROM}"',
    "    # kernel-object strategy=kernel_ret mm_init.o 6.12.57+deb13-amd64 "
    "patches=0 patches_sha256=e3b0 fentry=3 return_sites=168 "
    "alternatives=12 jump_labels=3 static_calls=0 return_thunk=ret "
    'return_thunk_from="plain returns asked, in place of the boot\'s '
    f'{THUNK} ({THUNK_FROM})"',
]


def with_lines(lines, memmap=THUNKED, objects=OBJECTS, **kw):
    """synth_log() of @memmap with @objects and @lines before its
    summary, parsed."""
    text = synth_log(7, ZEN5, memmap, **kw).replace(
        "ntboot: 2 passed", "\n".join(objects + lines)
        + "\nntboot: 2 passed")
    return parse_log(text, "t", "T")


def own_line(r, **change):
    """The "# mitigation" line ntbench prints for @r (mitigations())."""
    ci = r["ci"] or [None, None]
    keys = {"kernel_code": r["kernel_code"], "ret_code": r["ret_code"],
            "return_thunk": r["return_thunk"],
            "return_thunk_from": f'"{r["return_thunk_from"]}"',
            "thunk_ns": r["thunk_ns"], "ret_ns": r["ret_ns"],
            "cost": fixed3(r["cost"]), "ci_low": fixed3(ci[0]),
            "ci_high": fixed3(ci[1]), "scope": r["scope"],
            "processes": r["processes"]}
    if r["reason"]:
        keys["reason"] = r["reason"]
    keys.update(change)
    return (f"    # mitigation suite=bench_memmap_init {r['config']} "
            + " ".join(f"{k}={v}" for k, v in keys.items()))


def faithful(**kw):
    """A log with the "# mitigation" line its metric lines give."""
    (r,) = mitigations(with_lines([], **kw))
    return with_lines([own_line(r)], **kw), r


class Recomputed(unittest.TestCase):
    def test_one_process(self):
        log = with_lines([])
        (r,) = mitigations(log)
        self.assertEqual((r["kernel_code"], r["ret_code"]),
                         ("kernel", "kernel_ret"))
        self.assertEqual((r["config"], r["page_size"], r["mode"]),
                         ("page_size=64 mode=fsdax", 64, "fsdax"))
        self.assertEqual(r["scope"], SCOPE_PROCESS)
        # the two medians, and the build over its twin: thunk over ret
        named = {m["strategy"]: m["median_ns"] for m in log.metrics}
        self.assertEqual((r["thunk_ns"], r["ret_ns"]),
                         (named["kernel"], named["kernel_ret"]))
        self.assertAlmostEqual(r["cost"], named["kernel"]
                               / named["kernel_ret"])
        self.assertAlmostEqual(r["cost"], 1.3, delta=0.1)
        self.assertLess(r["ci"][0], r["cost"])
        self.assertGreater(r["ci"][1], r["cost"])
        self.assertIsNone(r["reason"])

    def test_the_thunk_is_the_kernel_objects(self):
        (r,) = mitigations(with_lines([]))
        self.assertEqual((r["return_thunk"], r["return_thunk_from"]),
                         (THUNK, THUNK_FROM))
        # the first line of a build; a process's repeat changes nothing
        log = with_lines([], objects=OBJECTS + [OBJECTS[0].replace(
            THUNK, "srso_return_thunk")])
        self.assertEqual(log.kernel_objects["kernel"]["return_thunk"],
                         THUNK)
        self.assertEqual(log.kernel_objects["kernel_ret"]["return_thunk"],
                         "ret")
        # a failed worker's lines, after the runner's prefix, are not read
        log = with_lines([], objects=["# process 1/6: " + OBJECTS[0]])
        self.assertEqual(log.kernel_objects, {})
        self.assertIsNone(mitigations(log)[0]["return_thunk"])

    def test_processes(self):
        (r,) = mitigations(with_lines([], n=10, processes=6, cv=0.02))
        self.assertEqual((r["scope"], r["processes"]), (SCOPE_PROCESSES, 6))
        self.assertAlmostEqual(r["cost"], 1.3, delta=0.05)
        self.assertTrue(r["ci"][0] < r["cost"] < r["ci"][1])

    def test_no_interval_and_its_reason(self):
        (r,) = mitigations(with_lines([], n=10, processes=3))
        self.assertEqual((r["scope"], r["ci"], r["reason"]),
                         (SCOPE_PROCESSES, None, "processes=3"))
        (r,) = mitigations(with_lines([], n=3))
        self.assertEqual((r["scope"], r["ci"], r["reason"]),
                         (SCOPE_PROCESS, None, "runs=3+3"))
        text = "\n".join(section([with_lines([], n=3)]))
        self.assertRegex(text, r"\| +- \| one-process \(runs=3\+3\) \|")

    def test_no_twin_no_row(self):
        # a CPU whose kernel returns plainly: the twin is skipped
        log = with_lines([], memmap=THUNKED[:2])
        self.assertEqual(mitigations(log), [])
        self.assertEqual(section([log]), [])
        self.assertNotIn("mitigations", json.loads(json_report([log]))[0])

    def test_section_and_json(self):
        log = with_lines([])
        text = markdown_report([log])
        self.assertIn("## Mitigations", text)
        self.assertLess(text.index("## The model's cost over the kernel's"),
                        text.index("## Mitigations"))
        self.assertIn("| log | configuration           | kernel code | "
                      "thunk   |", text)
        self.assertIn("| t   | page_size=64 mode=fsdax | kernel      | "
                      "jmp_ret |", text)
        (item,) = json.loads(json_report([log]))
        self.assertEqual(item["mitigations"][0]["return_thunk"], THUNK)
        self.assertEqual(item["mitigations"][0]["ret_code"], "kernel_ret")
        self.assertIs(item["mitigations"][0]["cpus_choice"], True)

    def test_on_the_page(self):
        try:
            from reportlib.html import render_markdown
        except ImportError:
            self.skipTest("no python3-markdown")
        out = render_markdown(markdown_report([with_lines([])]))
        self.assertIn('<h2 id="mitigations">Mitigations</h2>', out)
        self.assertIn('<td style="text-align: left;">jmp_ret</td>', out)


class Checked(unittest.TestCase):
    def test_faithful_line_agrees(self):
        log, r = faithful()
        self.assertEqual(check(log), [])
        # --check-verdicts holds it beside the model's lines
        lines = [own_line(r)] + [mok_line(m)
                                 for m in model_over_kernel(log)]
        self.assertEqual(problems(with_lines(lines)), [])
        self.assertEqual(len(problems(with_lines(lines[1:]))), 1)
        log, _ = faithful(n=10, processes=3)
        self.assertEqual(check(log), [])

    def test_wrong_cost(self):
        (r,) = mitigations(with_lines([]))
        problems_ = check(with_lines([own_line(r, cost="1.100")]))
        self.assertEqual(len(problems_), 1, problems_)
        self.assertIn("mitigation page_size=64 mode=fsdax "
                      "kernel_code=kernel: cost here 1.1", problems_[0])
        # within half a unit of the third decimal
        near = f"{r['cost'] + 0.0005:.4f}"
        self.assertEqual(check(with_lines([own_line(r, cost=near)])), [])

    def test_wrong_thunk(self):
        (r,) = mitigations(with_lines([]))
        for key, value in (("return_thunk", "srso_return_thunk"),
                           ("return_thunk_from", '"Mitigation: Safe RET"'),
                           ("ret_code", "kernel_series_ret"),
                           ("scope", "processes"),
                           ("reason", "runs=3+3")):
            with self.subTest(key=key):
                found = check(with_lines([own_line(r, **{key: value})]))
                self.assertEqual(len(found), 1, found)
                self.assertIn(f": {key} here", found[0])

    def test_no_kernel_object_line(self):
        (r,) = mitigations(with_lines([]))
        found = check(with_lines([own_line(r)], objects=OBJECTS[1:]))
        self.assertEqual(len(found), 1, found)
        self.assertIn("no kernel-object line of strategy=kernel", found[0])

    def test_missing_and_extra_lines(self):
        log, r = faithful()
        self.assertEqual(check(with_lines([])),
                         ["no mitigation line for page_size=64 "
                          "mode=fsdax kernel_code=kernel"])
        other = own_line(r).replace("fsdax", "devdax1g")
        found = check(with_lines([own_line(r), other]))
        self.assertEqual(found, ["a mitigation line the metric lines do "
                                 "not give: page_size=64 mode=devdax1g "
                                 "kernel_code=kernel"])
        # a line where the twin did not run
        found = check(with_lines([own_line(r)], memmap=THUNKED[:2]))
        self.assertEqual(len(found), 1, found)
        self.assertIn("a mitigation line the metric lines do not give",
                      found[0])


def mok_line(r, kernel_code=True):
    """The "# model_over_kernel" line ntbench prints for @r; without
    kernel_code= as a build before the twin printed it."""
    ci = r["ci"] or [None, None]
    code = f"kernel_code={r['kernel_code']} " if kernel_code else ""
    return (f"    # model_over_kernel suite=bench_memmap_init {r['config']} "
            f"{code}model=slow model_kernel={r['model_kernel']} "
            f"model_over_kernel={fixed3(r['model_over_kernel'])} "
            f"ci_low={fixed3(ci[0])} ci_high={fixed3(ci[1])} "
            f"scope={r['scope']} processes={r['processes']} "
            f"in_band={r['in_band']}"
            + (f" reason={r['reason']}" if r["reason"] else ""))


class ModelOverEachKernelCode(unittest.TestCase):
    def test_a_row_per_kernel_code(self):
        rows = model_over_kernel(with_lines([]))
        self.assertEqual([r["kernel_code"] for r in rows],
                         ["kernel", "kernel_ret"])
        self.assertAlmostEqual(rows[0]["model_over_kernel"], 1 / 1.3,
                               delta=0.08)
        self.assertAlmostEqual(rows[1]["model_over_kernel"], 1.0,
                               delta=0.08)

    def test_lines_keyed_by_kernel_code(self):
        rows = model_over_kernel(with_lines([]))
        lines = [mok_line(r) for r in rows]
        self.assertEqual(check_model_over_kernel(with_lines(lines)), [])
        # kernel_ret's line missing, then its figure wrong
        found = check_model_over_kernel(with_lines(lines[:1]))
        self.assertEqual(found, ["no model_over_kernel line for "
                                 "page_size=64 mode=fsdax "
                                 "kernel_code=kernel_ret"])
        bad = lines[1].replace(
            f"model_over_kernel={fixed3(rows[1]['model_over_kernel'])}",
            "model_over_kernel=0.500")
        found = check_model_over_kernel(with_lines([lines[0], bad]))
        self.assertEqual(len(found), 1, found)
        self.assertIn("kernel_code=kernel_ret: model_over_kernel here 0.5",
                      found[0])

    def test_an_old_line_is_the_kernels(self):
        # A build before the twin: no kernel_code=, no kernel_ret line.
        log = with_lines([], memmap=THUNKED[:2], objects=[])
        (r,) = model_over_kernel(log)
        self.assertEqual(r["kernel_code"], "kernel")
        old = with_lines([mok_line(r, kernel_code=False)],
                         memmap=THUNKED[:2], objects=[])
        self.assertEqual(check_model_over_kernel(old), [])


# A build of the kernel's code from a kernel_patch= file (kp_<stem>, in
# no manifest) beside the manifest's builds: its lines as ntbench prints
# them, a kernel-object line with the file's name and SHA-256 where a
# manifest build has patches_sha256=, and no model_over_kernel or
# mitigation line (it has no model: and no twin).
PATCHED = THUNKED + [("kp_comment", 64, "fsdax", 120e6)]
PATCH_OBJECTS = OBJECTS + [
    "    # kernel-object strategy=kp_comment mm_init.o 6.12.118 patches=1 "
    "file=comment.patch sha256=0123456789abcdef fentry=3 return_sites=168 "
    f"alternatives=12 jump_labels=3 static_calls=0 return_thunk={THUNK} "
    f'return_thunk_from="{THUNK_FROM}"',
    "    # kernel-patch strategy=kp_comment file=comment.patch "
    "sha256=0123456789abcdef objects=differ differ=mm_init.o",
    "    # kernel-memmap: suite=bench_memmap_init strategy=kp_comment "
    "page_size=64 mode=fsdax map=dev kernel=6.12 pfns=8388608 "
    "pageblocks=16384 identical=1 model=slow model_kernel=6.12 timed=yes "
    "runs=3",
]


class PatchContender(unittest.TestCase):
    """A kp_* contender counts as the kernel's code, and no name list
    turns it away: its kernel-object line is read, its row is in the
    table and --json; it is in no pair (no row of the model's cost or
    of a thunk's), so --check-verdicts holds the log's lines as they
    are, and passes."""

    def setUp(self):
        self.bare = with_lines([], memmap=PATCHED, objects=PATCH_OBJECTS)
        self.mit = mitigations(self.bare)
        self.mok = model_over_kernel(self.bare)
        self.log = with_lines([own_line(r) for r in self.mit]
                              + [mok_line(m) for m in self.mok],
                              memmap=PATCHED, objects=PATCH_OBJECTS)

    def test_read_and_shown(self):
        self.assertEqual(self.log.warnings, [])
        self.assertEqual([m["strategy"] for m in self.log.metrics],
                         ["slow", "kernel", "kernel_ret", "kp_comment"])
        obj = self.log.kernel_objects["kp_comment"]
        self.assertEqual((obj["file"], obj["sha256"], obj["return_thunk"]),
                         ("comment.patch", "0123456789abcdef", THUNK))
        self.assertRegex(markdown_report([self.log]),
                         r"(?m)^\| kp_comment +\| 1[12]\d\.\d\d ms \|")
        (item,) = json.loads(json_report([self.log]))
        self.assertIn("kp_comment", [m["strategy"] for m in item["metrics"]])

    def test_in_no_pair(self):
        self.assertEqual([r["kernel_code"] for r in self.mok],
                         ["kernel", "kernel_ret"])
        self.assertEqual([r["kernel_code"] for r in self.mit], ["kernel"])
        self.assertEqual(problems(self.log), [])

    def test_check_verdicts_through_the_command(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "kp.log")
            with open(path, "w") as f:
                f.write(synth_log(7, ZEN5, PATCHED).replace(
                    "ntboot: 2 passed", "\n".join(
                        PATCH_OBJECTS + [own_line(r) for r in self.mit]
                        + [mok_line(m) for m in self.mok])
                    + "\nntboot: 2 passed"))
            res = subprocess.run([REPORT, "--check-verdicts", path],
                                 capture_output=True, text=True,
                                 check=False)
        self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
        self.assertIn("1 mitigation lines agree", res.stdout)


class Fleet(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "fleet.db")

    def tearDown(self):
        self.tmp.cleanup()

    def log(self, seed, ucode):
        text = synth_log(seed, ZEN5, THUNKED).replace(
            "smp=2", f"vendor=AuthenticAMD family=26 model=68 stepping=0 "
            f"ucode={ucode} smp=2").replace(
            "ntboot: 2 passed", "\n".join(OBJECTS) + "\nntboot: 2 passed")
        return text, parse_log(text, f"m{seed}.log", "A")

    def test_stored_and_read_by_cpu_and_microcode(self):
        db = fleet.connect(self.path)
        for seed, ucode in ((1, "0xb404023"), (2, "0xb404023"),
                            (3, "0xb404035")):
            text, log = self.log(seed, ucode)
            self.assertEqual(fleet.add(db, log.name, text.encode(), log,
                                       [], [], mitigations(log)), "added")
        rows = fleet.mitigation_rows(db)
        self.assertEqual(len(rows), 3)
        want = mitigations(self.log(1, "0xb404023")[1])[0]
        got = rows[0]
        for key in ("page_size", "mode", "map", "kernel", "kernel_code",
                    "ret_code", "return_thunk", "return_thunk_from",
                    "thunk_ns", "ret_ns", "cost", "scope", "processes"):
            self.assertEqual(got[key], want[key], key)
        self.assertEqual((got["ci_low"], got["ci_high"]), tuple(want["ci"]))
        self.assertEqual((got["cpu_model"], got["microcode"]),
                         ("AuthenticAMD 26/68/0", "0xb404023"))
        self.assertEqual([(r["cpu_model"], r["microcode"]) for r in rows],
                         [("AuthenticAMD 26/68/0", "0xb404023")] * 2
                         + [("AuthenticAMD 26/68/0", "0xb404035")])
        summary = fleet.mitigation_summary(rows)
        self.assertEqual([(s["microcode"], s["runs"]) for s in summary],
                         [("0xb404023", 2), ("0xb404035", 1)])
        self.assertTrue(summary[0]["lowest"] <= summary[0]["cost"]
                        <= summary[0]["highest"])

    def test_a_thunk_a_variable_chose_is_not_the_cpus(self):
        """A run as another CPU's kernel (NTB_KERNEL_VULNERABILITIES)
        or with its thunk forced is not stored under this CPU."""
        db = fleet.connect(self.path)
        text, _ = self.log(1, "0xb404023")
        text = text.replace(f'return_thunk_from="{THUNK_FROM}"',
                            'return_thunk_from="NTB_KERNEL_VULNERABILITIES='
                            '/tmp/v: spec_rstack_overflow: Mitigation: '
                            'Safe RET"', 1)
        log = parse_log(text, "v.log", "A")
        (r,) = mitigations(log)
        self.assertFalse(r["cpus_choice"])
        self.assertIn("| kernel      | jmp_ret (set by a variable) |",
                      "\n".join(section([log])))
        self.assertFalse(
            json.loads(json_report([log]))[0]["mitigations"][0][
                "cpus_choice"])
        self.assertEqual(fleet.add(db, log.name, text.encode(), log, [], [],
                                   [r]), "added")
        self.assertEqual(fleet.mitigation_rows(db), [])

    def test_an_old_history_gains_the_table(self):
        with sqlite3.connect(self.path) as old:
            old.execute("CREATE TABLE logs (id INTEGER PRIMARY KEY, "
                        "sha256 TEXT UNIQUE NOT NULL, name TEXT NOT NULL, "
                        "cpu_model TEXT NOT NULL, cpu_brand TEXT, "
                        "microcode TEXT, machine TEXT NOT NULL, build TEXT, "
                        "header TEXT NOT NULL, added TEXT)")
        self.assertEqual(fleet.mitigation_rows(fleet.connect(self.path)), [])

    def test_through_the_command(self):
        paths = []
        for seed in (1, 2):
            path = os.path.join(self.tmp.name, f"m{seed}.log")
            with open(path, "w") as f:
                f.write(self.log(seed, "0xb404023")[0])
            paths.append(path)
        res = subprocess.run([REPORT, "--db", self.path, "add", *paths],
                             capture_output=True, text=True, check=False)
        self.assertEqual(res.returncode, 0, res.stderr)
        res = subprocess.run([REPORT, "--db", self.path, "fleet"],
                             capture_output=True, text=True, check=False)
        self.assertIn("## Mitigations by CPU model and microcode",
                      res.stdout)
        self.assertIn("| AuthenticAMD 26/68/0 | 0xb404023 | "
                      "page_size=64 mode=fsdax | kernel      | jmp_ret |",
                      res.stdout)


if __name__ == "__main__":
    unittest.main()
