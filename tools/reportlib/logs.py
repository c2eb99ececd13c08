# SPDX-License-Identifier: GPL-2.0-only
"""Reading ntboot logs (the image's serial console or ntbench's stdout):
terminal escapes and control characters removed, the "# ntboot" header,
the logfmt "# metric" lines (values typed), the "# verdict" lines, the
machine's states and what was judged in them ("# state",
"# state-verdict" and "# follows" lines, the "# states:" sentences), the
summary line, what ran as the kernel's own code ("# kernel-object"
lines, the first of each build), and the litmus and memmap_smp
observations matched to their cases. The hosted runner's "# process k/P"
lines (which process ran with which seed, and a failed worker's last
lines after that prefix) are diagnostics and not read, nor are the
"# kernel-memmap:" and "# kernel-patch" lines (a build's check against
the model, a kernel_patch= file's build: its "# kernel-object" line
names the file too). No line is held to the manifest's names: a
contender built from a kernel_patch= file (kp_<stem>) is in none.
"""
import re
import sys

from reportlib.ktap import SUMMARY_RE

# Terminal escapes (firmware screen handling) and other control characters.
CONTROL_RE = re.compile(r"\x1b\[[0-9;=?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")
METRIC_PREFIX = "# metric "
VERDICT_PREFIX = "# verdict "
# A contender's states, a claim judged in one of them, whether a fill or
# the probe follows a strategy's states, and the sentence that says so
# (lib/verdict.c). None of them starts with VERDICT_PREFIX.
STATE_PREFIX = "# state "
STATE_VERDICT_PREFIX = "# state-verdict "
FOLLOWS_PREFIX = "# follows "
VS_SLOW_PREFIX = "# vs_slow "
STATES_SAID_PREFIX = "# states: "
# The model's cost over the kernel's (reportlib.model_over_kernel).
MODEL_OVER_KERNEL_PREFIX = "# model_over_kernel "
# What a build's return thunk costs it (reportlib.mitigation).
MITIGATION_PREFIX = "# mitigation "
# What runs as a build of the kernel's code (strategy=): its object, its
# patching and which return thunk its return sites go through; each
# process prints the same line, once a build. A build from a
# kernel_patch= file (kp_<stem>) says file= and sha256= where one of
# the manifest's kernels: says patches_sha256=.
KERNEL_OBJECT_PREFIX = "# kernel-object "
# What each is kept as on a Log: the lines about the machine's states,
# and all of a log's own lines of results besides its verdicts.
STATE_LINES = ((STATE_PREFIX, "own_states"),
               (STATE_VERDICT_PREFIX, "own_state_verdicts"),
               (FOLLOWS_PREFIX, "own_follows"),
               (VS_SLOW_PREFIX, "own_vs_slow"))
OWN_LINES = STATE_LINES + ((MODEL_OVER_KERNEL_PREFIX,
                            "own_model_over_kernel"),
                           (MITIGATION_PREFIX, "own_mitigations"))
HEADER_PREFIX = "# ntboot "
# "# options ... set=\"runs=5 namespace=1G\"": the options a word set.
OPTIONS_PREFIX = "# options "
INT_RE = re.compile(r"-?\d+")
# The keys of a line measured in several processes (processes=P,
# proc_medians_ns=, proc_spread=). They say how a line was measured and
# what came of it, not what was measured: a line of one process and the
# same line of six measure the same thing, as a line of 5 runs and one of
# 30 do (runs=). So none of them is part of a line's identity, processes=
# included: an older log's line lacks it (one process), and would
# otherwise never match the same line of a newer log.
PROCESS_KEYS = ("processes", "proc_medians_ns", "proc_spread")
# Metric keys whose value is a comma-separated list of integers (ns).
LIST_KEYS = ("samples_ns", "proc_medians_ns")
DEC_RE = re.compile(r"-?\d+\.\d+")


class LogfmtError(ValueError):
    pass


def parse_logfmt(text):
    """key=value words into a dict (in order). Quoted values may hold
    spaces and \\" or \\\\ escapes; a bare word is a key with value ""."""
    out = {}
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] == " ":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in " =":
            i += 1
        key = text[start:i]
        if not key:
            raise LogfmtError(f"empty key at column {start + 1}")
        if i >= n or text[i] == " ":
            out[key] = ""
            continue
        i += 1                                  # the '='
        if i < n and text[i] == '"':
            i += 1
            value = []
            while True:
                if i >= n:
                    raise LogfmtError(f"unterminated quote in {key}=")
                c = text[i]
                if c == "\\" and i + 1 < n:
                    value.append(text[i + 1])
                    i += 2
                    continue
                if c == '"':
                    i += 1
                    break
                value.append(c)
                i += 1
            if i < n and text[i] != " ":
                raise LogfmtError(f"junk after the quoted value of {key}")
            out[key] = "".join(value)
        else:
            start = i
            while i < n and text[i] != " ":
                i += 1
            out[key] = text[start:i]
    return out


def in_64_bits(x):
    """Whether the integer @x fits 64 bits, signed or not: no ntboot
    field is beyond."""
    return -2 ** 63 <= x < 2 ** 64


def typed(value):
    """'42' -> 42, '0.91' -> 0.91, anything else stays text. A number
    beyond 64 bits (in_64_bits()) stays text too."""
    if INT_RE.fullmatch(value):
        v = int(value) if len(value) <= 21 else None
        return v if v is not None and in_64_bits(v) else value
    if DEC_RE.fullmatch(value):
        return float(value)
    return value


def header_version(line):
    """The VERSION of a "# ntboot VERSION ..." header line."""
    return line[len(HEADER_PREFIX):].partition(" ")[0]


def options_set(line):
    """The set="..." value of an "# options" line, or None where the line
    was cut short. set= comes last; load="..." before it is the
    firmware's text, printed as it came, so the line is not read as
    logfmt."""
    value = line.rpartition(' set="')[2]
    return value[:-1] if value.endswith('"') else None


def parse_header(line):
    """The "# ntboot VERSION key=value..." header: its fields as printed,
    "version" added (LogfmtError where they cannot be read)."""
    rest = line[len(HEADER_PREFIX):].partition(" ")[2]
    header = parse_logfmt(rest)
    header["version"] = header_version(line)
    if "cpu" in header:     # CPUID pads the brand string
        header["cpu"] = header["cpu"].strip()
    return header


def typed_metric(fields):
    """A metric line's fields typed: numbers, and lists of integers for
    samples_ns=, the other series a line carries (warm_samples_ns=,
    cold_samples_ns=) and the process medians (proc_medians_ns=). Returns
    the record and the list keys whose value is not such a list (left
    out of it)."""
    rec = {k: typed(v) for k, v in fields.items()}
    bad = []
    for key in [k for k in fields if k in LIST_KEYS
                or k.endswith("_samples_ns")]:
        try:
            xs = [int(x) for x in fields[key].split(",") if x != ""]
            # beyond 64 bits, as typed() takes it: no time ntboot prints
            if not all(map(in_64_bits, xs)):
                raise ValueError(key)
            rec[key] = xs
        except ValueError:
            bad.append(key)
            del rec[key]
    return rec, bad


class Log:
    """The metric lines and the header of one log."""

    def __init__(self, name, label):
        self.name = name
        self.label = label
        self.header = {}
        self.metrics = []
        self.failed = None
        self.warnings = []
        # The "# verdict ..." lines the image (or ntbench) printed itself.
        self.own_verdicts = []
        # Its "# state", "# state-verdict", "# follows", "# vs_slow",
        # "# model_over_kernel" and "# mitigation" lines (dicts,
        # OWN_LINES) and its "# states:" sentences (text).
        for _, attr in OWN_LINES:
            setattr(self, attr, [])
        self.own_states_said = []
        # {strategy: its "# kernel-object" line's fields}: the first line
        # of each build (the processes print the same one).
        self.kernel_objects = {}
        # Litmus outcomes of the suite's own cases (not of its engine's
        # self-tests): {case: {"verdict", "count", "iters"}}.
        self.litmus = {}
        # The options a word set (the "# options" line's set=), or None
        # for a log from a build that did not print them.
        self.options = None

    def describe(self):
        h = self.header
        parts = []
        if "cpu" in h:
            parts.append(f'cpu="{h["cpu"]}"')
        parts.append("platform=" + h.get("platform", "image" if h else "?"))
        if "hypervisor" in h:
            parts.append("hypervisor=" + h["hypervisor"])
        if "version" in h:
            parts.append("ntboot " + h["version"])
        return " ".join(parts)


LITMUS_RE = re.compile(r"^# litmus test=(\S+) layout=(\S+) .*?iters=(\d+) "
                       r"outcome=\S+ count=(\d+) (allowed|forbidden)$")
CASE_RE = re.compile(r"^(?:not )?ok \d+ (\S+)")
# suite=memmap_smp: a stale struct page at the hand-off flag is the
# relaxed outcome; rounds are its iterations.
MEMMAP_SMP_RE = re.compile(
    r"^# memmap_smp strategy=(\S+) page_size=(\d+) mode=(\S+) "
    r"cpus=\S+ pair=(\S+) .*?rounds=(\d+) drain=(on|off) .*?"
    r"stale_rounds=(\d+) .*(allowed|forbidden)$")


def litmus_case(test, layout):
    return test if layout == "one" else f"{test}.{layout}"


def whole_lines(text, name):
    """(the lines of @text that ended, without their "\n", and a warning
    or None). A capture that stopped mid-line leaves a last line whose
    end is unknown: a value cut short (median_ns=12 of 1234), "ok 3 x"
    of "ok 3 x # SKIP why"; it is not read, and the warning names it."""
    lines = text.split("\n")
    last = CONTROL_RE.sub("", lines.pop()).strip()
    if not last:
        return lines, None
    return lines, (f"{name}:{len(lines) + 1}: the log ends mid-line; its "
                   f"last line is not read: {last[:80]}")


def fields_of(log, line, prefix, where):
    """The logfmt fields of @line after @prefix ("# metric ", ...), or
    None where they cannot be read: a warning on @log then names the
    line, at @where ("name:lineno"), by the prefix's word."""
    try:
        return parse_logfmt(line[len(prefix):])
    except LogfmtError as e:
        log.warnings.append(f"{where}: bad {prefix[2:-1]} line ({e}): "
                            f"{line[:80]}")
        return None


def parse_log(text, name, label):
    log = Log(name, label)
    pending = []        # litmus lines waiting for the result of their case
    lines, cut = whole_lines(text, name)
    if cut:
        log.warnings.append(cut)
    for lineno, raw in enumerate(lines, 1):
        line = CONTROL_RE.sub("", raw).strip()
        m = LITMUS_RE.match(line)
        if m:
            pending.append(m.groups())
            continue
        m = MEMMAP_SMP_RE.match(line)
        if m:
            strategy, size, mode, pair, rounds, drain, stale, word = \
                m.groups()
            key = (f"memmap_smp {strategy} {size} {mode} "
                   f"drain={drain} ({pair})")
            row = log.litmus.setdefault(key, {"verdict": word, "count": 0,
                                              "iters": 0})
            row["count"] += int(stale)
            row["iters"] += int(rounds)
            continue
        m = CASE_RE.match(line)
        if m:
            # A case's lines come before its result; only the lines of
            # the test the case is named after are its observations.
            for test, layout, iters, count, verdict in pending:
                if litmus_case(test, layout) == m.group(1):
                    log.litmus[m.group(1)] = {
                        "verdict": verdict, "count": int(count),
                        "iters": int(iters)}
            pending = []
        if line.startswith(METRIC_PREFIX):
            fields = fields_of(log, line, METRIC_PREFIX, f"{name}:{lineno}")
            if fields is None:
                continue
            rec, bad = typed_metric(fields)
            for key in bad:
                log.warnings.append(f"{name}:{lineno}: {key}= is not "
                                    "a list of integers; ignored")
            rec.setdefault("suite", "unknown")
            rec["_log"] = label
            log.metrics.append(rec)
        elif line.startswith(VERDICT_PREFIX):
            fields = fields_of(log, line, VERDICT_PREFIX, f"{name}:{lineno}")
            if fields is not None:
                log.own_verdicts.append(fields)
        elif line.startswith(STATES_SAID_PREFIX):
            log.own_states_said.append(line[len(STATES_SAID_PREFIX):])
        elif line.startswith(KERNEL_OBJECT_PREFIX):
            fields = fields_of(log, line, KERNEL_OBJECT_PREFIX,
                               f"{name}:{lineno}")
            if fields is not None:
                log.kernel_objects.setdefault(fields.get("strategy"),
                                              fields)
        elif own := next((x for x in OWN_LINES if line.startswith(x[0])),
                         None):
            fields = fields_of(log, line, own[0], f"{name}:{lineno}")
            if fields is not None:
                getattr(log, own[1]).append(fields)
        elif line.startswith(HEADER_PREFIX) and not log.header:
            try:
                log.header = parse_header(line)
            except LogfmtError:
                log.header = {"version": header_version(line)}
        elif line.startswith(OPTIONS_PREFIX) and ' set="' in line:
            log.options = options_set(line)
            if log.options is None:
                log.warnings.append(f"{name}:{lineno}: options line cut "
                                    f"short: {line[:80]}")
        else:
            m = SUMMARY_RE.match(line)
            if m:
                log.failed = int(m.group(2))
    if log.options is not None and log.header:
        log.header["options"] = log.options
    return log


def read_log(path, label):
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, errors="replace") as f:
                text = f.read()
    except OSError as e:
        raise SystemExit(f"report: cannot read {path}: {e.strerror}") from e
    return parse_log(text, path, label)
