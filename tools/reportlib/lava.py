# SPDX-License-Identifier: GPL-2.0-only
"""Reading a LAVA job's log: each boot's console, and the results LAVA
recorded for it.

A lab keeps what a job printed as its log: one entry per line, as
lava-dispatcher writes it (lava-run's output, a JSON object a line) or as
the server exports it (`lavacli jobs logs --raw JOB`, a YAML list of the
same objects). The DUT's console is the entries of level "target", a
line each, a double quote written as \\"; the results are the entries of
level "results", each naming its test suite ("definition": the monitor,
ntboot-1 .. ntboot-N in a job that boots N times, tools/lava/lava-check
repeat). The console is cut after each boot's summary line ("ntboot: N
passed, ..."), and each part is a log as the serial console gave it: its
header names the CPU, its "# metric" lines carry the samples, which
LAVA's own results (a median a line) do not.
"""
import re

import yaml

SUMMARY_RE = re.compile(r"^[ \t]*ntboot: (\d+) passed, (\d+) failed, "
                        r"(\d+) skipped", re.M)


RESULTS_RE = re.compile(r"^[ \t]*# metric suite=ntboot results=(\d+)", re.M)


class NotAJobLog(ValueError):
    pass


def looks_like_job_log(data):
    """True when @data (bytes) begins as a LAVA job log does."""
    head = data.lstrip()[:64]
    return head.startswith(b'{"dt"') or head.startswith(b'- {"dt"') or \
        head.startswith(b"- {dt:") or head.startswith(b"- dt:")


def entries_of(text):
    """The log's entries (dicts with lvl and msg) and how many lines were
    not entries (lava-dispatcher's own output beside its log). Each line
    of lava-run's log is a YAML flow mapping (not JSON: a null is written
    ! "null"). NotAJobLog when nothing in @text is an entry, or an entry
    lacks lvl or msg."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if text.lstrip().startswith("-"):
        try:
            entries = yaml.load(text, Loader=loader)
        except yaml.YAMLError as e:
            raise NotAJobLog(f"not a LAVA job log (YAML): {e}") from None
        if not isinstance(entries, list):
            raise NotAJobLog("not a LAVA job log: not a list of entries")
        skipped = 0
    else:
        entries, skipped = [], 0
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                entry = yaml.load(line, Loader=loader) \
                    if line.startswith("{") else None
            except yaml.YAMLError:
                entry = None
            if isinstance(entry, dict):
                entries.append(entry)
            else:
                skipped += 1
    if not entries:
        raise NotAJobLog("no LAVA log entry in it")
    bad = [i for i, e in enumerate(entries, 1)
           if not isinstance(e, dict) or "lvl" not in e or "msg" not in e]
    if bad:
        raise NotAJobLog(f"entry {bad[0]} has no lvl and msg "
                         f"({len(bad)} such)")
    return entries, skipped


# A boot begins with the image's header or its KTAP stream.
BOOT_START_RE = re.compile(r"^[ \t]*(?:# ntboot |KTAP version)", re.M)


def console_of(entries):
    """The console the log's "target" entries hold, a line each. LAVA
    logs a line once its newline has come, and what the console held
    when its connection closed as an entry of its own, whole or not: the
    last line of a boot that never reached its summary line is therefore
    read as cut (no newline after it, as a plain log that stopped
    mid-line), and reportlib.logs names it and leaves it unread; nor
    does the monitor pattern match it. Unless a test monitor's result
    was recorded after it: the monitor matches whole lines only, so that
    line had its newline (a lava-run killed outright logs nothing at
    close). LAVA's own results (suite "lava": its actions, the job) are
    no such sign."""
    lines = [(i, str(e["msg"]).replace('\\"', '"'))
             for i, e in enumerate(entries) if e["lvl"] == "target"]
    console = "".join(msg + "\n" for _, msg in lines)
    if not lines or any(monitor_result(e)
                        for e in entries[lines[-1][0] + 1:]):
        return console
    return console[:-1] if unfinished(console) else console


def summaries(console):
    """[(the console up to and including a summary line's newline, the
    summary's counts)] of each boot that reached its summary; and where
    the rest begins."""
    parts, at = [], 0
    for m in SUMMARY_RE.finditer(console):
        nl = console.find("\n", m.end())
        stop = len(console) if nl < 0 else nl + 1
        parts.append((console[at:stop], tuple(int(x) for x in m.groups())))
        at = stop
    return parts, at


def unfinished(console, at=None):
    """What follows the last summary (from @at, where summaries() has
    found it) is a boot that never finished: it began (the image's
    header or its KTAP start), else it is the shutdown's words."""
    if at is None:
        _, at = summaries(console)
    return BOOT_START_RE.search(console[at:]) is not None


def monitor_result(entry):
    """The entry is a result a test monitor recorded (not one of LAVA's
    own suite, "lava")."""
    msg = entry["msg"]
    return (entry["lvl"] == "results" and isinstance(msg, dict)
            and msg.get("definition") not in (None, "lava"))


def results_of(entries):
    """{test suite (definition): [result dict]} in the order recorded."""
    out = {}
    for e in entries:
        msg = e["msg"]
        if e["lvl"] == "results" and isinstance(msg, dict) and \
                msg.get("definition"):
            out.setdefault(msg["definition"], []).append(msg)
    return out


def boots(text):
    """[(part name, console text, summary counts or None, results LAVA
    recorded for that boot or None)] of a job log: a part per boot,
    through its summary line; what follows the last summary (a boot that
    never finished) is a part of its own without counts, when it began. The results are
    those of the ntboot monitor (ntboot or ntboot-I), matched to the
    boots in order."""
    entries, _ = entries_of(text)
    console = console_of(entries)
    suites = [v for k, v in results_of(entries).items()
              if k == "ntboot" or re.fullmatch(r"ntboot-\d+", k)]
    parts, at = summaries(console)
    if unfinished(console, at):
        parts.append((console[at:], None))
    return [(f"boot-{i}", part, counts,
             suites[i - 1] if i <= len(suites) else None)
            for i, (part, counts) in enumerate(parts, 1)]


def check_boot(text, recorded):
    """A sentence when LAVA's results for a boot are not as many as the
    image said it printed ("# metric suite=ntboot results=N", that line
    included), else None: the job dropped or added results. None too
    when the log has no results for the boot (a console capture)."""
    if recorded is None:
        return None
    said = RESULTS_RE.findall(text)
    if not said:
        return ("no '# metric suite=ntboot results=N' line: the boot "
                "does not say how many results it printed")
    if int(said[-1]) != len(recorded):
        return (f"LAVA recorded {len(recorded)} results, the image "
                f"printed {said[-1]}")
    return None


def runs_of(name, data):
    """What one input of tools/report stands for: [(name, text, bytes)],
    the input itself when it is a log, or each boot of a LAVA job log
    (named NAME#boot-I, its bytes those of its console part), and the
    sentences to warn of: a boot whose recorded results are not as
    many as it printed, a job log that does not read."""
    text = data.decode("utf-8", errors="replace")
    if not looks_like_job_log(data):
        return [(name, text, data)], []
    try:
        parts = boots(text)
    except NotAJobLog as e:
        return [(name, text, data)], [f"{name}: read as a log, not as a "
                                      f"LAVA job log: {e}"]
    if not parts:
        return [], [f"{name}: a LAVA job log with no ntboot boot in it"]
    runs, warnings = [], []
    for part, console, counts, recorded in parts:
        label = f"{name}#{part}"
        runs.append((label, console, console.encode()))
        if counts is None:
            warnings.append(f"{label}: the boot did not finish (no "
                            "summary line)")
        why = check_boot(console, recorded)
        if why:
            warnings.append(f"{label}: {why}")
    return runs, warnings
