# SPDX-License-Identifier: GPL-2.0-only
"""An ntboot log as KernelCI's KCIDB I/O data (schema v5.3, docs/kcidb.md):
a checkout for the commit, a build for the image or the hosted program,
a test per KTAP result (suite and case) and per "# metric" line, and one
for the run ("ntboot").

The log is read as far as it holds: a result line is believed only when it
was printed whole, a suite or a run the log never finished is ERROR (MISS
after a "Bail out!"), and each thing that could not be read is named with
its file and line. Nothing here judges the format itself (tools/ktap-check
does); what cannot be turned into tests without guessing stops the log with
a KcidbError.
"""
import hashlib
import re

from reportlib.compare import identity, primary
from reportlib.ktap import (
    BAIL_PREFIX,
    PLAN_RE,
    RESULT_RE,
    SUBTEST_PREFIX,
    SUMMARY_RE,
    VERSION_LINE,
    result_parts,
)
from reportlib.logs import (
    CONTROL_RE,
    HEADER_PREFIX,
    METRIC_PREFIX,
    OPTIONS_PREFIX,
    LogfmtError,
    options_set,
    parse_header,
    parse_logfmt,
    typed_metric,
    whole_lines,
)

VERSION = {"major": 5, "minor": 3}
DEFAULT_ORIGIN = "ntboot"
ORIGIN_RE = re.compile(r"[a-z0-9_]+")
BUILD_PREFIX = "# build "
STARTING_RE = re.compile(r"ntboot (\S+): starting")
# "    # case: duration_us=N" and "    # case: unexpected CPU exception ..."
# (lib/kunit.c), both printed before the case's result line.
DURATION_RE = re.compile(r"# (\S+): duration_us=(\d+)")
FAULT_RE = re.compile(r"# (\S+): unexpected CPU exception")
PATH_PART_RE = re.compile(r"[^A-Za-z0-9_-]+")
# KCIDB's own order, highest first: a run's status is its tests' highest.
PRIORITY = ("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP")
EXCERPT_MAX = 16384
# A figure the case could not measure here (bench_pollution's
# evicted_pct=na where a flushed buffer reads no slower than a warm one).
NOT_AVAILABLE = "na"


class KcidbError(ValueError):
    """The log cannot be written as KCIDB data: FILE:LINE: why."""

    def __init__(self, name, lineno, why):
        where = f"{name}:{lineno}" if lineno else name
        super().__init__(f"{where}: {why}")


def highest(statuses):
    return min(statuses, key=PRIORITY.index) if statuses else None


def path_part(value):
    """A value as one component of a KCIDB path ([A-Za-z0-9_-]+): each run
    of other characters becomes one '_'."""
    return PATH_PART_RE.sub("_", str(value)) or "_"


def name_path(name):
    """A KTAP name as path components: its dots divide them ("MP+nt.sep":
    the test MP_nt in its layout sep)."""
    return ".".join(path_part(p) for p in name.split("."))


class Result:
    """A KTAP result line: a suite (depth 0) or a case (depth 1)."""

    def __init__(self, lineno, depth, status, rest, fault):
        self.name, directive, reason = result_parts(rest)
        self.lineno = lineno
        self.depth = depth
        if not self.name:
            raise ValueError("result has no test name")
        if directive and directive != "SKIP":
            raise ValueError(f"unknown directive '# {directive}'")
        if directive:
            self.status, self.comment = "SKIP", reason or ""
        elif status == "ok":
            self.status, self.comment = "PASS", None
        elif fault:
            # The case's code took a CPU exception: it did not complete,
            # and what it tests is not known (KCIDB's ERROR).
            self.status, self.comment = "ERROR", fault
        else:
            self.status, self.comment = "FAIL", None
        self.duration_us = None
        self.excerpt = None
        self.reported = True        # False: named, its result never came


class Suite:
    def __init__(self, lineno):
        self.lineno = lineno
        self.name = None
        self.planned = None
        self.cases = []
        self.result = None
        self.metrics = []


class Metric:
    def __init__(self, lineno, fields, case):
        self.lineno = lineno
        self.fields = fields
        self.case = case


class Run:
    """One report of a log (a boot or a hosted run), read as far as it
    was printed whole."""

    def __init__(self, name, index, warnings):
        self.name = name
        self.index = index          # the log's first report is 0
        self.header = None
        self.header_lineno = None
        self.build = None
        self.options = None
        self.planned = None
        self.suites = []
        self.metrics = []           # outside any suite
        self.summary = None
        self.bail = None            # (lineno, reason)
        self.end_lineno = 0         # the last line read whole
        self.ktap_text = []         # the lines read, for the run's id
        # "ntboot VERSION: starting" (boot/efi_main.c), before the KTAP
        # stream: what names an image that stopped before its header.
        self.starting = None
        self.warnings = warnings    # the log's, shared by its runs

    def warn(self, lineno, why):
        self.warnings.append(f"{self.name}:{lineno}: {why}")


def split_whole_lines(text, name, warnings):
    """The log's lines that ended (logs.whole_lines()), cleaned, with
    numbers; the warning for one that did not goes to @warnings."""
    raw, cut = whole_lines(text, name)
    if cut:
        warnings.append(cut)
    return [(i + 1, CONTROL_RE.sub("", line).rstrip())
            for i, line in enumerate(raw)]


def read_runs(text, name):
    """The Runs of one log's text, a report each (a log of a job that
    booted several times holds several), and the log's warnings.
    KcidbError where one cannot be read."""
    warnings = []
    lines = split_whole_lines(text, name, warnings)
    # A report opens with "KTAP version 1" at the start of a line, or
    # after firmware text left without its newline; a suite's is indented.
    starts = [i for i, (_, line) in enumerate(lines)
              if line.endswith(VERSION_LINE) and not line.startswith(" ")]
    if not starts:
        raise KcidbError(name, None, f"no '{VERSION_LINE}' line in "
                         f"{len(lines)} whole lines: not an ntboot log")
    runs = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        before = lines[starts[k - 1] if k else 0:start]
        runs.append(read_run(name, k, warnings, before, lines[start:end]))
    if len(runs) > 1:
        warnings.append(f"{name}: {len(runs)} reports (the machine "
                        "started again): each is a run of its own")
    return runs, warnings


def read_run(name, index, warnings, before, lines):
    """One report: `lines` from its "KTAP version 1" to the next report's
    or the log's end; `before`, the text in front of it."""
    run = Run(name, index, warnings)
    for _, line in before:
        if m := STARTING_RE.search(line):
            run.starting = m.group(1)
    start_lineno = lines[0][0]
    plan_at = next((i for i in range(1, len(lines))
                    if lines[i][1].strip() and
                    not lines[i][1].lstrip().startswith("#")), None)
    plan = plan_at is not None and PLAN_RE.fullmatch(lines[plan_at][1])
    if not plan:
        lineno = lines[plan_at][0] if plan_at is not None else start_lineno
        raise KcidbError(name, lineno, f"no KTAP plan '1..N' after "
                         f"'{VERSION_LINE}' (line {start_lineno}): "
                         "the log does not say what it was to run")
    run.planned = int(plan.group(1))
    run.ktap_text = [VERSION_LINE]
    walk(run, lines[1:])
    if run.header is None and (run.bail is None or run.starting is None):
        raise KcidbError(name, start_lineno, "no '# ntboot VERSION ...' "
                         "header in the report that starts here: the log "
                         "does not say what built it")
    if run.header is not None and run.build is None:
        run.warn(run.header_lineno, "no '# build' line after the header "
                 "(a log of ntboot before its builds named themselves): "
                 "the build is named by its version alone, with no "
                 "compiler and no commit hash")
    return run


def walk(run, lines):
    suite = None
    pending = {"durations": {}, "faults": {}, "excerpt": []}
    for lineno, line in lines:
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 2
        run.end_lineno = lineno
        if not body:
            continue
        run.ktap_text.append(line)
        if body.startswith(BAIL_PREFIX):
            # What follows is the report's count and its summary.
            run.bail = (lineno, body[len(BAIL_PREFIX):].strip())
            continue
        if depth == 0 and (m := SUMMARY_RE.match(body)):
            run.summary = tuple(int(x) for x in m.groups())
            break
        if suite is not None:
            pending["excerpt"].append(line)
        if body.startswith(METRIC_PREFIX):
            read_metric(run, suite, lineno, body)
        elif body == VERSION_LINE and depth == 1:
            if suite is not None and suite.result is None:
                raise KcidbError(run.name, lineno, "a suite opens inside "
                                 f"suite '{suite.name}' (line "
                                 f"{suite.lineno}) before its result")
            suite = Suite(lineno)
            run.suites.append(suite)
            pending = {"durations": {}, "faults": {}, "excerpt": []}
        elif body.startswith(SUBTEST_PREFIX) and suite and depth == 1:
            suite.name = body[len(SUBTEST_PREFIX):].strip()
        elif depth == 1 and suite and suite.planned is None and \
                (m := PLAN_RE.fullmatch(body)):
            suite.planned = int(m.group(1))
        elif depth == 0 and PLAN_RE.fullmatch(body) and not run.suites:
            pass                        # the plan, read by read_run()
        elif m := RESULT_RE.fullmatch(body):
            suite = read_result(run, suite, lineno, depth, m, pending)
        elif m := DURATION_RE.fullmatch(body):
            pending["durations"][m.group(1)] = (lineno, int(m.group(2)))
        elif m := FAULT_RE.match(body):
            pending["faults"][m.group(1)] = (lineno, body[2:])
        elif body.startswith(HEADER_PREFIX) and run.header is None:
            read_header(run, lineno, body)
        elif body.startswith(BUILD_PREFIX) and run.build is None:
            try:
                run.build = parse_logfmt(body[len(BUILD_PREFIX):])
            except LogfmtError as e:
                raise KcidbError(run.name, lineno,
                                 f"bad '# build' line ({e})") from e
        elif body.startswith(OPTIONS_PREFIX) and ' set="' in body:
            run.options = options_set(body)
            if run.options is None:
                run.warn(lineno, f"options line cut short, not read: "
                         f"'{body[:60]}'")
        elif not body.startswith("#"):
            run.warn(lineno, f"not a KTAP line, not read: '{body[:60]}'")
    if suite is not None and suite.result is None:
        # The log names the case it ended in (its exception or its
        # duration came before the result that never did): ERROR.
        for case, (lineno, text) in {**pending["durations"],
                                     **pending["faults"]}.items():
            why = text if isinstance(text, str) else \
                "the log ends before its result"
            case = Result(lineno, 1, "not ok", case, why)
            case.reported = False
            suite.cases.append(case)


def read_metric(run, suite, lineno, body):
    try:
        fields, bad = typed_metric(parse_logfmt(body[len(METRIC_PREFIX):]))
    except LogfmtError as e:
        raise KcidbError(run.name, lineno, f"bad metric line ({e})") from e
    if bad:
        raise KcidbError(run.name, lineno, f"{', '.join(bad)}: not a list "
                         "of integers")
    metric = Metric(lineno, fields, None)
    (suite.metrics if suite and suite.result is None
     else run.metrics).append(metric)


def read_result(run, suite, lineno, depth, m, pending):
    """A result line: a case of the open suite or a suite's own."""
    try:
        name = result_parts(m.group(3))[0]
        fault = pending["faults"].pop(name, (None, None))[1]
        result = Result(lineno, depth, m.group(1), m.group(3), fault)
    except ValueError as e:
        raise KcidbError(run.name, lineno, str(e)) from e
    if depth == 1 and suite is not None and suite.result is None:
        result.duration_us = pending["durations"].pop(result.name,
                                                      (None, None))[1]
        if result.status in ("FAIL", "ERROR"):
            result.excerpt = "\n".join(pending["excerpt"]) + "\n"
        pending["excerpt"].clear()
        suite.cases.append(result)
        # The metric lines printed before a case's result are its own.
        for metric in suite.metrics:
            if metric.case is None:
                metric.case = result.name
        return suite
    if depth != 0:
        raise KcidbError(run.name, lineno, f"result at indent {2 * depth} "
                         "outside a suite: deeper nesting than suite and "
                         "case is not read")
    if suite is None or suite.result is not None:
        # A top-level test without cases of its own.
        suite = Suite(lineno)
        run.suites.append(suite)
    elif suite.name is not None and suite.name != result.name:
        raise KcidbError(run.name, lineno, f"result names '{result.name}' "
                         f"but its suite was '{suite.name}'")
    suite.name = result.name
    suite.result = result
    if suite.planned is not None and len(suite.cases) != suite.planned:
        run.warn(lineno, f"suite '{suite.name}' reports {len(suite.cases)} "
                 f"of its {suite.planned} planned cases")
        result.status = highest([result.status, "ERROR"])
        result.comment = (f"{len(suite.cases)} of its {suite.planned} "
                          "planned cases reported")
    return suite


def read_header(run, lineno, body):
    try:
        run.header = parse_header(body)
    except LogfmtError as e:
        raise KcidbError(run.name, lineno, f"bad header ({e})") from e
    run.header_lineno = lineno


class Objects:
    """The checkouts, builds and tests of several logs, each object once
    by its id."""

    def __init__(self, origin=DEFAULT_ORIGIN):
        if not ORIGIN_RE.fullmatch(origin):
            raise ValueError(f"origin '{origin}' is not [a-z0-9_]+")
        self.origin = origin
        self.checkouts = {}
        self.builds = {}
        self.tests = {}

    def report(self):
        return {"version": dict(VERSION),
                "checkouts": list(self.checkouts.values()),
                "builds": list(self.builds.values()),
                "tests": list(self.tests.values())}

    def add_run(self, run):
        build_id, target = self.add_build(run)
        # The log's second report is another run even where its text is
        # the first's.
        text = "\n".join(run.ktap_text + [f"#{run.index}"] * bool(run.index))
        run_id = hashlib.sha256(text.encode()).hexdigest()[:16]
        common = {"origin": self.origin, "build_id": build_id}
        if run.header is not None:
            # As printed: "uefi=2.10" is not the number 2.1.
            env = {k: v for k, v in run.header.items()
                   if k not in ("version", "cpu")}
            env.setdefault("platform", target)
            common["environment"] = {"comment": run.header.get("cpu", "?"),
                                     "misc": env}
        prefix = f"{build_id}:{run_id}"

        ids = set()     # this run's: the same run sent again replaces

        def add(path, status, lineno, **fields):
            test = dict(common, id=f"{prefix}:{path}", path=path,
                        status=status, **fields)
            n = 2
            while test["id"] in ids:
                test["id"] = f"{prefix}:{path}#{n}"
                n += 1
            ids.add(test["id"])
            test["misc"] = dict(test.get("misc", {}), log=run.name,
                                line=lineno)
            if run.options is not None:
                test["misc"]["options"] = run.options
            self.tests[test["id"]] = test
            return test

        statuses = []
        for suite in run.suites:
            statuses += self.add_suite(add, run, suite)
        for metric in run.metrics:
            self.add_metric(add, run, "ntboot", metric)
        status, lineno, fields = run_status(run, statuses)
        add("ntboot", status, lineno, **fields)

    def add_suite(self, add, run, suite):
        base = f"ntboot.{name_path(suite.name)}"
        statuses = []
        for case in suite.cases:
            fields = {}
            if case.duration_us is not None:
                fields["duration"] = case.duration_us / 1e6
            if case.comment:
                fields["comment"] = case.comment
            if case.excerpt:
                fields["log_excerpt"] = case.excerpt[-EXCERPT_MAX:]
            add(f"{base}.{name_path(case.name)}", case.status, case.lineno,
                misc={"name": case.name}, **fields)
            statuses.append(case.status)
        for metric in suite.metrics:
            where = base if metric.case is None else \
                f"{base}.{name_path(metric.case)}"
            self.add_metric(add, run, where, metric,
                            metric.case is None and suite.result is None)
        if suite.result is not None:
            fields = {"comment": suite.result.comment} \
                if suite.result.comment else {}
            add(base, suite.result.status, suite.result.lineno, **fields)
            statuses.append(suite.result.status)
        else:
            planned = suite.planned if suite.planned is not None else "?"
            done = sum(1 for case in suite.cases if case.reported)
            why = (f"the log ends after {done} of its {planned} cases; "
                   "the case after them never reported")
            if run.bail:
                why = (f"stopped after {done} of its {planned} cases: "
                       f"{BAIL_PREFIX} {run.bail[1]}")
            add(base, "ERROR", suite.lineno, comment=why)
            statuses.append("ERROR")
        return statuses

    def add_metric(self, add, run, where, metric, orphan=False):
        """A metric line's test; an orphan's case never reported."""
        key, value = number_of(metric.fields)
        if key is None:
            raise KcidbError(run.name, metric.lineno, "metric line without "
                             "a number (no median_ns=, evicted_pct= or "
                             "other measured value)")
        parts = [f"{path_part(k)}-{path_part(v)}"
                 for k, v in identity(metric.fields)
                 if k not in ("suite", key)]
        path = ".".join([where] + parts + [path_part(key)])
        extra = {}
        if orphan:
            extra["comment"] = ("measured by a case that never reported "
                                "its result")
        if value == NOT_AVAILABLE:
            # The case printed why (e.g. no cache to evict under TCG).
            add(path, "SKIP", metric.lineno, misc=metric.fields,
                comment=f"{key}={value}: not measurable on this machine")
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise KcidbError(run.name, metric.lineno, f"the metric's "
                             f"figure {key}={value} is not a number")
        number = {"value": value}
        if unit := unit_of(key):
            number["unit"] = unit
        add(path, "DONE", metric.lineno, number=number, misc=metric.fields,
            **extra)

    def add_build(self, run):
        """The run's build and its checkout, each added once; returns the
        build's id and its target (image or host)."""
        h, b = run.header or {}, run.build or {}
        version = h.get("version", run.starting)
        commit = b.get("commit", "")
        dirty = str(b.get("dirty", "")) == "1" or version.endswith("-dirty")
        checkout = {"origin": self.origin, "valid": True,
                    "git_commit_name": version,
                    "comment": f"ntboot {version}",
                    "misc": {"dirty": dirty}}
        if re.fullmatch(r"[0-9a-f]{40}", commit):
            # A dirty tree: the commit it was built on, changes uncommitted.
            checkout_id = f"{self.origin}:{commit}" + \
                ("-dirty" if dirty else "")
            checkout["git_commit_hash"] = commit
        else:
            checkout_id = f"{self.origin}:{version}"
        checkout = dict(id=checkout_id, **checkout)
        self.checkouts.setdefault(checkout_id, checkout)
        target = b.get("target", "host" if h.get("platform") == "host"
                       else "image")
        config = b.get("config", target)
        compiler = b.get("compiler", "").strip()
        flags = b.get("flags")
        build_id = f"{checkout_id}:{config}"
        if compiler:
            build_id += f":{compiler}"
        if flags is not None:
            build_id += ":" + hashlib.sha256(flags.encode()).hexdigest()[:8]
        build = {"id": build_id, "origin": self.origin,
                 "checkout_id": checkout_id, "architecture": "x86_64",
                 "config_name": config, "status": "PASS",
                 "comment": f"ntboot {version}, {config}",
                 "misc": {"target": target}}
        if compiler:
            build["compiler"] = compiler
        if flags is not None:
            build["misc"]["flags"] = flags
        self.builds.setdefault(build_id, build)
        return build_id, target


def number_of(fields):
    """The line's figure: compare.primary()'s (the median, the evicted
    share), else its one value besides suite= (suite=ntboot results=N)."""
    key, value = primary(fields)
    if key is None:
        rest = [(k, v) for k, v in fields.items() if k != "suite"]
        if len(rest) == 1 and isinstance(rest[0][1], (int, float)) and \
                not isinstance(rest[0][1], bool):
            key, value = rest[0]
    return key, value


def unit_of(key):
    if key.endswith("_ns"):
        return "ns"
    if key.endswith("_pct"):
        return "%"
    return None


def run_status(run, statuses):
    """The run's own test: its tests' highest status, and ERROR for a log
    that ends before the summary (MISS after a Bail out: the harness
    stopped, the tests did not run)."""
    done = sum(1 for s in run.suites if s.result is not None)
    if run.bail:
        statuses = statuses + ["MISS"]
        comment = (f"{BAIL_PREFIX} {run.bail[1]} (line {run.bail[0]}), "
                   f"after {done} of {run.planned} suites")
    elif run.summary is None:
        statuses = statuses + ["ERROR"]
        comment = (f"the log ends at line {run.end_lineno} after {done} of "
                   f"{run.planned} suites, with no summary line")
    else:
        comment = "{} passed, {} failed, {} skipped".format(*run.summary)
        if done != run.planned:
            statuses = statuses + ["ERROR"]
            comment += f"; {done} of {run.planned} suites reported"
    return highest(statuses) or "MISS", run.end_lineno, \
        {"comment": comment}
