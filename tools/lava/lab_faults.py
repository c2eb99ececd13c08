# SPDX-License-Identifier: GPL-2.0-only
"""tools/lava/lab faults: what a lab does to a job, and what the server
keeps of it, read back with nothing invented.

On a lab that `tools/lava/lab up` started, three jobs of the QEMU job
(tools/lava/qemu-job.yaml) run through the same server, in order:

  console-cut    the device's QEMU command behind tools/lava/console-cut
                 (a device dictionary of its own, for this job only): the
                 console closes one digit into the median_ns= value of a
                 "# metric" line. The job must end without completing; the
                 server must hold one result for each whole result line
                 before the cut (K of K) and nothing of the cut line. What
                 the console passed is build/lab/job-ID/serial.log, the cut
                 line last. Broken on purpose: the same results with the
                 cut line's record added must fail, naming it.
                 tools/report --kcidb of the job's log gives no test for
                 the cut line and no PASS; tools/report --db adds no run.
  worker-killed  once the server has stored a result of the job, the
                 worker's whole process family (lava-worker, lava-run,
                 QEMU) gets SIGKILL, as when its machine dies, and
                 lava-worker starts again. The job must reach a final
                 state (cancelled, and said so, if the server still calls
                 it Running RUNNING_LIMIT seconds after the worker is
                 back); its stored results: K >= 1 of W, none invented.
  retry          the plain job once more: "N of N results stored", N at
                 least MIN_RESULTS: the worker is back and the device
                 takes jobs. tools/report --db stores its log as one run,
                 and once only.

Each prints "lab: fault NAME: job ID: ..." the moment it is judged. Every
wait has a limit and names what it waited for when it gives up.
"""
import json
import os
import re
import signal
import sqlite3
import sys
import time

# The Kth "# metric" line with a median_ns= of two digits or more is cut:
# the third leaves results before it on every build of the image.
CUT_AT_METRIC = 3
# Seconds a fault's job may take once scheduled (the plain job takes
# about a minute under TCG; the job's own timeout is 30 minutes).
FAULT_LIMIT = 600
# Seconds the server may call a job Running after its worker is back.
RUNNING_LIMIT = 120
# The image prints this many results at least (a default run: 584).
MIN_RESULTS = 200

CUT_LINE_RE = re.compile(r"[ \t]*# metric .* median_ns=[0-9]")


def report(lab, *args):
    """tools/report ARGS under this Python (Debian's, with scipy):
    (exit status, stdout, stderr)."""
    return lab.execute([sys.executable,
                        os.path.join(lab.ROOT, "tools", "report"), *args],
                       f"tools/report {' '.join(args)}", lab.READY_LIMIT)


# -- console-cut ---------------------------------------------------------

def keep_path(lab):
    return os.path.join(lab.STATE_DIR, "console-cut.serial.log")


def filter_path(lab):
    return os.path.join(lab.HERE, "console-cut")


def rendered(lab, job):
    """The device's configuration as the server renders it for the job
    (its context chooses the QEMU command: arch)."""
    import yaml
    return yaml.safe_load(lab.lavacli(
        "devices", "dict", "get", "--render", "--context",
        json.dumps(job.get("context") or {}), lab.DEVICE))


def qemu_parameters(lab, device):
    try:
        return device["actions"]["boot"]["methods"]["qemu"]["parameters"]
    except (KeyError, TypeError):
        raise lab.Failed(f"device {lab.DEVICE}: the server's rendering has "
                         f"no actions.boot.methods.qemu.parameters")


def filter_options(lab, command):
    """console-cut's own words, the first of the device's options."""
    return (f"--metric {CUT_AT_METRIC} --keep {keep_path(lab)} "
            f"--command {command} --")


def cut_dictionary(lab, command):
    """The lab's device dictionary with the QEMU command behind the
    filter: LAVA's qemu_method block as the template renders it, the
    command's line replaced, and the filter's words first among the
    options. set_cut_dictionary() holds the server's rendering to it."""
    text = lab.dictionary_text()
    block = ("{% block qemu_method %}{{ super() | replace("
             f"'            {command}\\n', "
             f"'            {filter_path(lab)}\\n') }}}}"
             "{% endblock qemu_method %}\n")
    return text.replace("{% block qemu_options %}\n",
                        block + "{% block qemu_options %}\n"
                        f"          - {filter_options(lab, command)}\n")


def set_cut_dictionary(lab, job):
    command = qemu_parameters(lab, rendered(lab, job))["command"]
    path = os.path.join(lab.STATE_DIR, "device-console-cut.jinja2")
    with open(path, "w") as f:
        f.write(cut_dictionary(lab, command))
    lab.lavacli("devices", "dict", "set", lab.DEVICE, path)
    got = qemu_parameters(lab, rendered(lab, job))
    want = [filter_options(lab, command)] + lab.qemu_options(
        lab.qemu_device())
    if got["command"] != filter_path(lab) or got["options"] != want:
        raise lab.Failed(f"device {lab.DEVICE}: the console-cut dictionary "
                         f"renders command {got['command']!r}, options "
                         f"{got['options']}; want {filter_path(lab)!r}, "
                         f"{want}")


def restore_dictionary(lab):
    lab.lavacli("devices", "dict", "set", lab.DEVICE, lab.DICTIONARY)
    lab.check_rendered()


def record_as_stored(rec):
    """A record of lava-check's monitor model as the server stores it."""
    return {"case": rec["case"], "result": rec["result"],
            "measurement": rec.get("measurement"),
            "units": rec.get("units") or ""}


def console_cut(lab, job, monitors):
    keep = keep_path(lab)
    if os.path.exists(keep):
        os.remove(keep)
    try:
        set_cut_dictionary(lab, job)
        read = lab.submit(job, monitors, lab.QUEUE_LIMIT + FAULT_LIMIT)
    finally:
        # whatever happened: no later job runs behind the filter
        restore_dictionary(lab)
    name = f"job {read.id}"
    if not os.path.exists(keep):
        raise lab.Failed(f"{name}: console-cut kept no console ({keep}): "
                         f"the device did not run it; "
                         f"{lab.lava_said(read)}")
    serial_path = os.path.join(read.dir, "serial.log")
    os.replace(keep, serial_path)
    with open(serial_path, errors="replace") as f:
        serial = f.read()
    if read.complete:
        raise lab.Failed(f"{name}: Complete, though its console was cut "
                         f"({os.path.relpath(serial_path, lab.ROOT)})")
    last = serial.rsplit("\n", 1)[-1]
    if not CUT_LINE_RE.fullmatch(last.replace("\r", "")):
        raise lab.Failed(f"{name}: serial.log does not end inside a metric "
                         f"line's value: {last[-80:]!r}")
    line, k, w = lab.partial_verdict(read, monitors)
    serial_whole = lab.whole_results(monitors[0], serial)
    if not 1 <= k == w == len(serial_whole):
        raise lab.Failed(f"{line}: serial.log holds {len(serial_whole)} "
                         f"whole result lines; the server must hold one "
                         f"result for each (K = W, at least 1)")
    lab.say(f"fault console-cut: {line}")
    invented_on_purpose(lab, read, monitors, serial, serial_whole)
    cut_reports(lab, read, last)
    return read


def invented_on_purpose(lab, read, monitors, serial, serial_whole):
    """The read-back must fail for the server's results with the cut
    line's record added (its figure: the digit the console passed), and
    name that record."""
    as_whole = lab.whole_results(monitors[0], serial + "\n")
    if len(as_whole) != len(serial_whole) + 1:
        raise lab.Failed(f"job {read.id}: the cut line read as whole gives "
                         f"{len(as_whole) - len(serial_whole)} records, "
                         f"not 1: nothing to add on purpose")
    invented = record_as_stored(as_whole[-1])
    name = monitors[0]["name"]
    stored = dict(read.stored)
    stored[name] = list(stored[name] or []) + [invented]
    try:
        lab.partial_verdict(read, monitors, stored)
    except lab.Failed as e:
        if invented["case"] not in str(e):
            raise lab.Failed(f"a record the console never printed whole: "
                             f"the failure does not name it: {e}")
        lab.say(f"broken on purpose, a record the console never printed "
                f"whole (median_ns={invented['measurement']}): fails as it "
                f"must ({e})")
        return
    raise lab.Failed(f"job {read.id}: a record the console never printed "
                     f"whole ({invented['case']}) passed the read-back")


def cut_reports(lab, read, last):
    """tools/report of the cut job's log: --kcidb gives no test for the
    cut line and no PASS for the run."""
    status, out, err = report(lab, "--kcidb", read.log)
    if status != 0:
        raise lab.Failed(f"tools/report --kcidb {read.log}: exit {status}: "
                         f"{err.strip()[-300:]}")
    with open(read.log) as f:
        parts = lab.joblog.boots(f.read())
    cut_part = parts[-1][1]
    cut_lineno = cut_part.count("\n") + 1
    tests = json.loads(out)["tests"]
    from_cut = [t["path"] for t in tests
                if t.get("misc", {}).get("line") == cut_lineno]
    run = [t for t in tests if t["path"] == "ntboot"]
    if from_cut or not run or run[-1]["status"] == "PASS":
        raise lab.Failed(f"tools/report --kcidb {read.log}: "
                         + (f"a test from the cut line {last.strip()[:60]!r}"
                            f": {from_cut}" if from_cut else
                            f"the run's status is "
                            f"{run[-1]['status'] if run else 'missing'}"))
    lab.say(f"job {read.id}: tools/report --kcidb: no test from the cut "
            f"line, the run {run[-1]['status']}")


# -- worker-killed -------------------------------------------------------

def stored_count(lab, job_id, monitors):
    return sum(len(r or []) for r in lab.stored_results(
        job_id, [m["name"] for m in monitors]).values())


def wait_for_a_result(lab, job_id, monitors):
    """Until the server has stored a result of the job; Failed (the job
    cancelled) when it finishes first or after QUEUE_LIMIT + FAULT_LIMIT
    seconds."""
    limit = lab.QUEUE_LIMIT + FAULT_LIMIT
    end = time.monotonic() + limit
    while True:
        state = lab.job_state(job_id)["state"]
        n = stored_count(lab, job_id, monitors)
        if n:
            return n
        if state == "Finished":
            raise lab.Failed(f"job {job_id}: finished before the server "
                             f"stored any result: no worker to kill "
                             f"mid-job")
        if time.monotonic() > end:
            lab.cancel(job_id)
            raise lab.Failed(f"job {job_id}: no result stored after "
                             f"{limit}s (still {state})")
        time.sleep(lab.POLL / 2)


def worker_entry(lab, state):
    for entry in state["pids"]:
        if entry["name"] == "lava-worker":
            return entry
    return None


def kill_worker(lab):
    """SIGKILL to the worker's whole process family, then lava-worker
    started again: (the processes killed, in words; the time.time() at
    which none of them was left)."""
    state = lab.load_state()
    entry = worker_entry(lab, state)
    if entry is None:
        # Debian's unit (untested: the CI machines run no systemd): all
        # of its control group, lava-run and QEMU with it; the unit may
        # restart itself (Restart=), so it is restarted whatever it is.
        main = lab.run(["systemctl", "show", "-p", "MainPID", "--value",
                        "lava-worker"], "lava-worker",
                       timeout=lab.READY_LIMIT).strip()
        lab.run(["systemctl", "kill", "--signal=SIGKILL", "lava-worker"],
                "lava-worker", timeout=lab.READY_LIMIT)
        end = time.monotonic() + lab.STOP_LIMIT
        while main.isdigit() and os.path.exists(f"/proc/{main}"):
            if time.monotonic() > end:
                raise lab.Failed(f"lava-worker: pid {main} survives SIGKILL "
                                 f"{lab.STOP_LIMIT}s")
            time.sleep(0.2)
        gone = time.time()
        lab.run(["systemctl", "restart", "lava-worker"], "lava-worker",
                timeout=lab.READY_LIMIT)
        return "the lava-worker unit's control group", gone
    members = lab.family(entry)
    names = sorted({comm(pid) for pid in members})
    if left := lab.signal_and_wait(members, signal.SIGKILL, lab.KILL_LIMIT):
        raise lab.Failed(f"lava-worker: pids {sorted(left)} survive "
                         f"SIGKILL")
    gone = time.time()
    state["pids"].remove(entry)
    lab.save_state(state)
    argv = dict(lab.services())["lava-worker"]
    lab.start_service(state, "lava-worker", argv)
    return f"{len(members)} processes: " + ", ".join(names), gone


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def wait_final(lab, job_id, back):
    """The job's final state once its worker is back (since @back); a job
    still Running RUNNING_LIMIT seconds on is cancelled, and said so."""
    cancelled_at = None
    while True:
        job = lab.job_state(job_id)
        if job["state"] == "Finished":
            return job
        now = time.monotonic()
        if cancelled_at is None and now - back > RUNNING_LIMIT:
            lab.say(f"job {job_id}: still {job['state']} {RUNNING_LIMIT}s "
                    f"after the worker came back: cancelling it")
            lab.cancel(job_id)
            cancelled_at = now
        elif cancelled_at is not None and now - cancelled_at > RUNNING_LIMIT:
            raise lab.Failed(f"job {job_id}: still {job['state']} "
                             f"{RUNNING_LIMIT}s after it was cancelled")
        time.sleep(lab.POLL)


def worker_killed(lab, job, monitors):
    job_id = lab.send(job)
    n = wait_for_a_result(lab, job_id, monitors)
    killed, gone = kill_worker(lab)
    lab.say(f"job {job_id}: {n} results stored; worker killed with "
            f"SIGKILL ({killed}), lava-worker started again")
    lab.wait_for(f"lava-worker {lab.WORKER}: a ping the server answered "
                 f"after the kill", lambda: lab.pinged_since(gone),
                 "lava-worker")
    final = wait_final(lab, job_id, time.monotonic())
    read = lab.JobRead(job_id, final, monitors)
    line, k, w = lab.partial_verdict(read, monitors)
    if read.complete or k < 1:
        raise lab.Failed(f"{line}: a job whose worker was killed mid-job "
                         f"must stop with a result stored at least")
    lab.say(f"fault worker-killed: {line}")
    return read


# -- retry and the fleet -------------------------------------------------

def retry(lab, job, monitors):
    read, line = lab.put_through(job, monitors)
    n = sum(len(read.stored[m["name"]]) for m in monitors)
    if n < MIN_RESULTS:
        raise lab.Failed(f"{line}: fewer than {MIN_RESULTS} results")
    lab.say(f"fault retry: {line}")
    return read


def fleet(lab, cut, whole):
    """tools/report --db of the cut job's log (no run), then the retry's
    (one run), then the retry's again (nothing)."""
    db = os.path.join(lab.STATE_DIR, "faults.db")
    if os.path.exists(db):
        os.remove(db)
    steps = [(cut.log, 1, "not added: the log has no summary line"),
             (whole.log, 0, ": added"),
             (whole.log, 0, "not added again")]
    for path, want, needle in steps:
        status, _, err = report(lab, "--db", db, "add", path)
        if status != want or needle not in err:
            raise lab.Failed(f"tools/report --db {db} add {path}: exit "
                             f"{status} (want {want}), said "
                             f"{err.strip()[-300:]!r}, not {needle!r}")
    with sqlite3.connect(db) as conn:
        runs = conn.execute("SELECT name FROM logs").fetchall()
    if [r[0] for r in runs] != [f"{whole.log}#boot-1"]:
        raise lab.Failed(f"{db}: holds {runs}, want the retry's one run")
    lab.say(f"fleet: the cut job's log not added (no summary line), the "
            f"retry's stored once ({os.path.relpath(db, lab.ROOT)})")


def run(lab):
    """`tools/lava/lab faults` on a lab that is up; @lab: the lab's
    module."""
    lab.need_root()
    if lab.load_state() is None:
        raise lab.Failed("the lab is not up (tools/lava/lab up)")
    start = time.monotonic()
    job, monitors = lab.job_of(None)
    cut = console_cut(lab, job, monitors)
    worker_killed(lab, job, monitors)
    whole = retry(lab, job, monitors)
    fleet(lab, cut, whole)
    lab.say(f"faults: console cut, worker killed, retry in "
            f"{time.monotonic() - start:.0f}s")
