# SPDX-License-Identifier: GPL-2.0-only
"""Results from many machines in one SQLite file (tools/report --db).

    tools/report --db FILE add LOG...   store each log's header and claims
    tools/report --db FILE fleet        one table per claim, a row per CPU

A log is stored once: its bytes' SHA-256 is its key, and adding it again
says so and changes nothing. A log without a usable "# ntboot" header
(no CPU named) is refused, naming the log, and nothing of it is stored;
the other logs of the same call still are. The CPU model is the header's
vendor, family, model and stepping (with the brand string beside it);
a machine is told apart by its header's machine= (or runs_id=), else by
what the header says of it: brand, CPUs, features, memory, firmware and
hypervisor, and the TSC frequency where CPUID gave it (one measured
against a timer differs by a few kHz between boots). Two builds of one
machine are two runs of one machine.

Per claim and CPU model the fleet table gives the runs, the machines and
builds they came from, what replicates (unit), the measured speed-up
(the geometric mean of the runs' speed-ups), its interval, the verdict
and measured/posted. A verdict word judges the claim's size, not only its
direction (manifest/verdicts.yaml, reportlib.verdict_words): where the after
side is significantly faster, the posted speed-up R against the interval
[lo, hi] says confirmed (lo <= R <= hi), beyond the posted (R < lo) or
faster, short of the posted (hi < R); faster where the claim has no R or
the verdict no interval.

  - one run: that run's own interval and verdict (reportlib.verdicts):
    replicated over its processes where it ran several; where it ran one
    process or one boot, what was seen there (seen in one process, seen
    faster, short of the posted in one process, seen reversed in one
    boot, ...), one observation and never "confirmed".
    A run stored before verdicts had a scope was judged within its one
    process or boot: its confirmed / reversed read as seen / seen
    reversed there;
  - several runs: Welch's interval of the runs' log speed-ups (the run
    being the unit of replication, as tools/ab). Where it lies on the
    posted side of 1, the word by where the stored posted speed-up lies
    against it, as above (faster where none was posted); reversed on this
    CPU where it lies on the other side, not confirmed where it holds 1.
    The runs' own words take no part.

Beside the claims, each log's mitigations (reportlib.mitigation, from
its metric lines: what the return thunk cost a build of the kernel's
code, over the same object with plain returns) are stored with the
log's CPU model and microcode, since those decide which thunk the
kernel picks (not those whose thunk a variable chose: cpus_choice
False); mitigation_rows() reads them back, and the fleet lists them by
both (mitigation_summary()).

Each verdict row stores the rule it was judged under (rule): "size" for
every verdict stored now. A row with none (NULL) was stored by a build
that judged the direction only, whose confirmed (seen in one process,
...) said nothing of the size: its word is shown as it was stored,
marked "(old rule: direction only)" (OLD_RULE_MARK), and is never read,
shown or counted as the size rule's confirmed. Its other words
(reversed, not confirmed, untested, split) mean what they mean now.
"""
import hashlib
import json
import math
import sqlite3

from scipy import stats

from reportlib import verdict_words as words
from reportlib.stats import geomean

SCHEMA = """
CREATE TABLE IF NOT EXISTS logs (
    id INTEGER PRIMARY KEY,
    sha256 TEXT UNIQUE NOT NULL,
    name TEXT NOT NULL,
    cpu_model TEXT NOT NULL,
    cpu_brand TEXT,
    microcode TEXT,
    machine TEXT NOT NULL,
    build TEXT,
    header TEXT NOT NULL,
    added TEXT DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS metrics (
    log_id INTEGER NOT NULL REFERENCES logs(id),
    suite TEXT NOT NULL,
    ident TEXT NOT NULL,
    value REAL
);
CREATE TABLE IF NOT EXISTS verdicts (
    log_id INTEGER NOT NULL REFERENCES logs(id),
    subject TEXT NOT NULL,
    what TEXT NOT NULL,
    page_size INTEGER,
    mode TEXT,
    map TEXT,
    before TEXT,
    after TEXT,
    speedup REAL,
    ci_low REAL,
    ci_high REAL,
    p REAL,
    verdict TEXT,
    posted_speedup REAL,
    scope TEXT,
    processes INTEGER,
    rule TEXT,
    source TEXT NOT NULL DEFAULT 'model'
);
CREATE TABLE IF NOT EXISTS mitigations (
    log_id INTEGER NOT NULL REFERENCES logs(id),
    page_size INTEGER,
    mode TEXT,
    map TEXT,
    kernel TEXT,
    kernel_code TEXT NOT NULL,
    ret_code TEXT NOT NULL,
    return_thunk TEXT,
    return_thunk_from TEXT,
    thunk_ns INTEGER,
    ret_ns INTEGER,
    cost REAL,
    ci_low REAL,
    ci_high REAL,
    scope TEXT,
    processes INTEGER
);
"""
# Columns added since the first schema: (table, column, type). A history
# made before them gets them (NULL in its rows: a verdict without scope,
# or judged under the old rule; source: "model", the only pairs judged
# before it).
ADDED_COLUMNS = [("verdicts", "scope", "TEXT"),
                 ("verdicts", "processes", "INTEGER"),
                 ("verdicts", "rule", "TEXT"),
                 ("verdicts", "source", "TEXT NOT NULL DEFAULT 'model'")]

# The rule a stored verdict was judged under: its size against the posted
# speed-up (vs_posted=). NULL: a build that judged the direction only.
RULE_SIZE = "size"
RULE_DIRECTION = "direction"
# How a word stored under the old rule is shown.
OLD_RULE_MARK = "{} (old rule: direction only)"
# The words whose meaning the size rule changed: a significant speed-up's
# word in each scope (confirmed, seen in one process, ...), which the old
# rule gave whatever the size.
OLD_RULE_WORDS = set(words.OLD_SIZE_WORD.values())
# QEMU's TCG makes NT stores ordinary stores: its ratios are no evidence
# about any CPU's, whatever their intervals say.
EMULATED = "no verdict: emulated CPU (TCG)"


class BrokenHeader(ValueError):
    pass


def cpu_model(header):
    """'GenuineIntel 6/167/1' from the header; BrokenHeader without one."""
    if not header.get("cpu"):
        raise BrokenHeader("no '# ntboot' header naming the CPU")
    parts = [header.get(k) for k in ("vendor", "family", "model",
                                     "stepping")]
    if all(parts):
        return f"{parts[0]} {parts[1]}/{parts[2]}/{parts[3]}"
    return header["cpu"]


def machine_of(header):
    for key in ("machine", "runs_id"):
        if header.get(key):
            return header[key]
    # A TSC frequency measured against a timer (tsc_source= hpet,
    # pmtimer, clock_monotonic) differs by a few kHz from boot to boot of
    # one machine: only CPUID's (cpuid15) names the machine.
    tsc = header.get("tsc_khz", "") \
        if header.get("tsc_source", "cpuid15") == "cpuid15" else ""
    seen = "|".join([str(header.get("cpu", "")), str(tsc)] + [
        str(header.get(k, "")) for k in
        ("smp", "features", "platform", "mem_mib", "firmware", "fw_rev",
         "hypervisor")])
    return "h:" + hashlib.sha256(seen.encode()).hexdigest()[:12]


def emulated(header_json):
    """True for a log whose header names QEMU's TCG as the hypervisor
    (the image prints CPUID's hypervisor signature, TCGTCGTCGTCG)."""
    try:
        header = json.loads(header_json or "{}")
    except ValueError:
        return False
    return "TCG" in str(header.get("hypervisor", ""))


def connect(path):
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for table, column, kind in ADDED_COLUMNS:
        have = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
        if column not in have:
            with db:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    return db


def add(db, path, data, log, verdicts, metric_lines, mitigations):
    """Store one log; @metric_lines: (suite, identity as JSON, the figure
    compared) per metric line; @mitigations: reportlib.mitigation's rows
    of it (what the return thunk cost, kept with the log's CPU model and
    microcode, which decide the thunk; not those whose thunk a variable
    chose: cpus_choice False). Returns 'added', 'duplicate';
    BrokenHeader when its header cannot say which CPU it ran on."""
    digest = hashlib.sha256(data).hexdigest()
    if db.execute("SELECT 1 FROM logs WHERE sha256 = ?",
                  (digest,)).fetchone():
        return "duplicate"
    model = cpu_model(log.header)
    with db:
        cur = db.execute(
            "INSERT INTO logs (sha256, name, cpu_model, cpu_brand, "
            "microcode, machine, build, header) VALUES (?,?,?,?,?,?,?,?)",
            (digest, path, model, log.header.get("cpu"),
             log.header.get("ucode") or log.header.get("microcode"),
             machine_of(log.header),
             log.header.get("version"), json.dumps(log.header)))
        log_id = cur.lastrowid
        db.executemany("INSERT INTO metrics VALUES (?,?,?,?)",
                       [(log_id, suite, ident, value)
                        for suite, ident, value in metric_lines])
        for v in verdicts:
            ci = v.get("speedup_ci") or (None, None)
            db.execute(
                "INSERT INTO verdicts (log_id, subject, what, page_size, "
                "mode, map, before, after, speedup, ci_low, ci_high, p, "
                "verdict, posted_speedup, scope, processes, rule, "
                "source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (log_id, v["subject"], v["what"], v.get("page_size"),
                 v.get("mode"), v.get("map"), str(v.get("before")),
                 str(v.get("after")), v.get("speedup"), ci[0], ci[1],
                 v.get("p"), v.get("verdict"), v.get("posted_speedup"),
                 v.get("scope"), v.get("processes"),
                 # verdicts() gives vs_posted (None too) since the size
                 # rule.
                 RULE_SIZE if "vs_posted" in v else None,
                 v["source"]))
        for m in mitigations:
            # a thunk a variable chose (NTB_KERNEL_RETURN_THUNK, another
            # CPU's files) is not what this CPU's kernel picks
            if not m["cpus_choice"]:
                continue
            ci = m["ci"] or (None, None)
            db.execute(
                "INSERT INTO mitigations (log_id, page_size, mode, map, "
                "kernel, kernel_code, ret_code, return_thunk, "
                "return_thunk_from, thunk_ns, ret_ns, cost, ci_low, "
                "ci_high, scope, processes) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (log_id, m["page_size"], m["mode"], m["map"], m["kernel"],
                 m["kernel_code"], m["ret_code"], m["return_thunk"],
                 m["return_thunk_from"], m["thunk_ns"], m["ret_ns"],
                 m["cost"], ci[0], ci[1], m["scope"], m["processes"]))
    return "added"


def mitigation_rows(db):
    """[dict] of every stored mitigation (the table's columns) with its
    log's name, CPU model, brand, microcode, machine and build, in the
    order of CPU model and microcode (a return thunk is the kernel's
    choice for a CPU model and its microcode)."""
    db.row_factory = sqlite3.Row
    rows = db.execute(
        "SELECT m.*, l.name, l.cpu_model, l.cpu_brand, l.microcode, "
        "l.machine, l.build FROM mitigations m "
        "JOIN logs l ON l.id = m.log_id "
        "ORDER BY l.cpu_model, l.microcode, m.page_size, m.mode, "
        "m.map, m.kernel, m.kernel_code, l.id").fetchall()
    db.row_factory = None
    return [dict(r) for r in rows]


def mitigation_summary(rows):
    """mitigation_rows() by CPU model, microcode, configuration, build
    and return thunk: [dict] of those keys (config in words, as the
    run's report names it, with the model's kernel= where the run named
    one) with runs, machines, cost (the geometric mean of the runs'),
    lowest and highest."""
    # (reportlib.verdicts imports this module, through compare)
    from reportlib.verdicts import config_of
    groups = {}
    for r in rows:
        config = config_of(r) + (
            f" kernel={r['kernel']}" if r["kernel"] is not None else "")
        key = (r["cpu_model"], r["microcode"], config, r["kernel_code"],
               r["return_thunk"])
        groups.setdefault(key, []).append(r)
    out = []
    for (model, ucode, config, code, thunk), runs in groups.items():
        costs = [r["cost"] for r in runs if r["cost"] and r["cost"] > 0]
        out.append({
            "cpu_model": model, "microcode": ucode, "config": config,
            "kernel_code": code, "return_thunk": thunk,
            "runs": len(runs), "machines": len({r["machine"] for r in runs}),
            "cost": geomean(costs) if costs else None,
            "lowest": min(costs, default=None),
            "highest": max(costs, default=None)})
    return out


def scope_of(row):
    """A stored verdict's scope; for one stored before scope= (NULL),
    that of its run, judged within its one process (ntbench) or boot."""
    if row["scope"]:
        return row["scope"]
    try:
        header = json.loads(row["header"] or "{}")
    except ValueError:
        header = {}
    return "one-process" if header.get("platform") == "host" \
        else "one-boot"


def rule_of(row):
    """The rule a stored verdict was judged under: RULE_SIZE, or
    RULE_DIRECTION for one stored without (rule NULL, or a history from
    before the column)."""
    rule = row["rule"] if "rule" in row.keys() else None
    return rule or RULE_DIRECTION


def one_run_word(row):
    """The word of a claim measured in one run: its own, where a run
    stored before scope= said confirmed / reversed within its one process
    or boot, what that run saw there. A word of a significant speed-up
    stored under the old rule (direction only) is marked so: never the
    size rule's confirmed."""
    word = row["verdict"] or words.UNTESTED
    scope = scope_of(row)
    if scope in words.SEEN and word in (words.CONFIRMED, words.REVERSED):
        word = words.SEEN[scope][word == words.REVERSED]
    if rule_of(row) != RULE_SIZE and word in OLD_RULE_WORDS:
        word = OLD_RULE_MARK.format(word)
    return word


def unit_of(rows):
    """What replicates behind a fleet row: its runs, or the processes of
    its one run, or nothing beyond one process or boot."""
    if len(rows) > 1:
        return f"{len(rows)} runs"
    scope = scope_of(rows[0])
    if scope == "processes":
        return f"{rows[0]['processes']} processes"
    return "one boot" if scope == "one-boot" else "one process"


def combine(rows, alpha):
    """The runs of one claim on one CPU model: (speed-up, (lo, hi) or
    None, verdict)."""
    ups = [r["speedup"] for r in rows if r["speedup"] and r["speedup"] > 0]
    posted = rows[0]["posted_speedup"]
    if not ups:
        return None, None, words.UNTESTED
    geo = geomean(ups)
    if len(ups) == 1:
        # One run is one replicate: its own word, never promoted.
        r = next(r for r in rows if r["speedup"] and r["speedup"] > 0)
        ci = (r["ci_low"], r["ci_high"]) if r["ci_low"] else None
        return geo, ci, one_run_word(r)
    logs = [math.log(x) for x in ups]
    sd = stats.tstd(logs) if len(set(logs)) > 1 else 0.0
    q = stats.t.ppf(1 - alpha / 2, len(logs) - 1)
    half = q * sd / math.sqrt(len(logs))
    mean = sum(logs) / len(logs)
    ci = (math.exp(mean - half), math.exp(mean + half))
    if ci[0] <= 1 <= ci[1]:
        return geo, ci, words.NOT_CONFIRMED
    # As reportlib.verdicts.judge(): the direction first, then the size.
    return geo, ci, words.significant_word(ci[0] > 1, posted, ci,
                                           words.SCOPE_PROCESSES)


def fleet(db, alpha=0.05):
    """[(claim title, [row dict])], one row per CPU model."""
    db.row_factory = sqlite3.Row
    rows = db.execute(
        "SELECT v.*, l.cpu_model, l.cpu_brand, l.machine, l.build, "
        "l.header "
        "FROM verdicts v JOIN logs l ON l.id = v.log_id "
        "ORDER BY v.subject, v.what, v.page_size, v.mode, v.source DESC, "
        "l.cpu_model").fetchall()
    db.row_factory = None
    claims = {}
    for r in rows:
        # the model's and the kernel's code are judged apart
        key = (r["subject"], r["what"], r["page_size"], r["mode"],
               r["map"], r["source"])
        claims.setdefault(key, {}).setdefault(r["cpu_model"], []).append(r)
    out = []
    for (subject, what, size, mode, map_, source), by_cpu in claims.items():
        table = []
        for model, runs in by_cpu.items():
            geo, ci, word = combine(runs, alpha)
            if any(emulated(r["header"]) for r in runs):
                word = EMULATED
            posted = runs[0]["posted_speedup"]
            # Several runs are judged here, now; one keeps its own word,
            # and the rule it was judged under.
            measured = [r for r in runs if r["speedup"] and r["speedup"] > 0]
            table.append({
                "cpu_model": model, "cpu": runs[0]["cpu_brand"],
                "rule": rule_of(measured[0]) if len(measured) == 1
                else RULE_SIZE,
                "runs": len(runs), "unit": unit_of(runs),
                "machines": len({r["machine"] for r in runs}),
                "builds": len({r["build"] for r in runs}),
                "speedup": geo, "ci": ci, "verdict": word,
                "posted": posted,
                "measured_over_posted": geo / posted
                if geo and posted else None})
        title = f"{subject}: {what}" + "".join(
            f" {k}={v}" for k, v in (("page_size", size), ("mode", mode),
                                     ("map", map_), ("source", source))
            if v is not None)
        out.append((title, table))
    return out


def spreads(db, model):
    """The between-run spread this history has measured on CPU model
    @model: {line identity (JSON): (standard deviation of the log
    figures, degrees of freedom)}, pooled over the groups of runs of one
    build on one machine that have two or more runs of the line."""
    rows = db.execute(
        "SELECT l.machine, l.build, m.ident, m.value FROM metrics m "
        "JOIN logs l ON l.id = m.log_id WHERE l.cpu_model = ? "
        "AND m.value > 0", (model,)).fetchall()
    groups = {}
    for machine, build, ident, value in rows:
        groups.setdefault((ident, machine, build), []).append(
            math.log(value))
    pooled = {}
    for (ident, _, _), logs in groups.items():
        if len(logs) < 2:
            continue
        ss, df = pooled.get(ident, (0.0, 0))
        mean = sum(logs) / len(logs)
        pooled[ident] = (ss + sum((x - mean) ** 2 for x in logs),
                         df + len(logs) - 1)
    return {k: (math.sqrt(ss / df), df) for k, (ss, df) in pooled.items()}


def within_spread(ratio, spread, alpha=0.05):
    """Is B/A = @ratio no larger than two single runs of one build
    differ, given the between-run standard deviation @spread (of the
    logs)? The difference of two runs spreads by sqrt(2) times that."""
    z = stats.norm.isf(alpha / 2)
    return abs(math.log(ratio)) <= z * math.sqrt(2) * spread
