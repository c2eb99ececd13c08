# SPDX-License-Identifier: GPL-2.0-only
"""What the CPU's return thunk costs the kernel's own code
(docs/kernel-memmap.md): a build of manifest/strategies.yaml's kernels:
that names a twin (plain_returns:, e.g. kernel and kernel_ret) runs the
same object twice, its return sites once through the return thunk its
boot patches in and once as a plain ret. In each bench_memmap_init
configuration where both ran, the build over its twin, judged as a
claim's two sides are (reportlib.verdicts: over the process medians
where several processes ran, else over the runs), with its interval, is
what the thunk costs there; which thunk, and why the boot chose it, is
what the build's "# kernel-object" line says (return_thunk=,
return_thunk_from=), since the cost means nothing without it. The log's
own "# mitigation" lines are held to this. Where an environment
variable, not the CPU's kernel, chose the thunk (return_thunk_from=
begins with SET_BY_VARIABLE: NTB_KERNEL_RETURN_THUNK, another CPU's
files), the row says so (cpus_choice), and the fleet does not store it
as the CPU's."""

from reportlib import manifest
from reportlib.formatting import ci_title, fmt_ci, fmt_ns, fmt_num, md_table
from reportlib.model_over_kernel import (
    judged,
    lines_of,
    no_interval_reason,
    ratio_pairs,
    with_reason,
)
from reportlib.verdicts import (
    config_of,
    contenders,
    keyed_problems,
    value_problems,
)

# How a "# kernel-object" line's return_thunk_from= begins where an
# environment variable, not the CPU's kernel, chose the return sites
# (tools/kernel-memmap/patch.c).
SET_BY_VARIABLE = "NTB_KERNEL_"


def mitigations(log):
    """[dict] per configuration and build (manifest.plain_return_pairs())
    where the build and its twin both ran: config, kernel_code (the
    build), ret_code (its twin), return_thunk and return_thunk_from (the
    build's "# kernel-object" line's; None where it printed none),
    cpus_choice (False where a variable chose the thunk: return_thunk_from
    begins with SET_BY_VARIABLE), scope,
    processes, thunk_ns and ret_ns (the two medians), cost (thunk over
    ret), ci and reason (why there is no interval, or None); and the
    configuration's parts, page_size, mode, map and kernel (the model's
    kernel=, None where the run named none), for the fleet to store."""
    out = []
    for config, named in sorted(contenders(log).items()):
        # (a build from a kernel_patch= file, kp_<stem>, has no twin)
        for base, twin in manifest.plain_return_pairs():
            pair = lines_of(named, base, twin)
            if not pair:
                continue
            thunk = pair[0]
            v = judged(log, *pair)
            obj = log.kernel_objects.get(base, {})
            chosen_by = obj.get("return_thunk_from") or ""
            out.append({"config": config,
                        **{k: thunk.get(k) for k in ("page_size", "mode",
                                                     "map")},
                        "kernel": (str(thunk["kernel"])
                                   if "kernel" in thunk else None),
                        "kernel_code": base,
                        "ret_code": twin,
                        "return_thunk": obj.get("return_thunk"),
                        "return_thunk_from": obj.get("return_thunk_from"),
                        "cpus_choice":
                        not chosen_by.startswith(SET_BY_VARIABLE),
                        "scope": v["scope"], "processes": v["processes"],
                        "thunk_ns": v["before_ns"], "ret_ns": v["after_ns"],
                        "cost": v["speedup"], "ci": v["speedup_ci"],
                        "reason": no_interval_reason(v)})
    return out


def section(logs):
    """Markdown lines: one row per log, configuration and build, or
    none."""
    # (a median of 0 ns has nothing to divide: no cost)
    rows = [[log.name, r["config"], r["kernel_code"],
             (r["return_thunk"] or "-")
             + ("" if r["cpus_choice"] else " (set by a variable)"),
             fmt_ns(r["thunk_ns"]), fmt_ns(r["ret_ns"]), fmt_num(r["cost"], 3),
             fmt_ci(r["ci"], lambda x: fmt_num(x, 3)),
             with_reason(r["scope"], r)]
            for log in logs for r in mitigations(log) if r["cost"] is not None]
    if not rows:
        return []
    return ["", "## Mitigations", "",
            "What the return thunk costs the kernel's own code: the "
            "build's median with its return sites through the thunk its "
            "boot chose on the CPU that ran it (with thunk) over the same "
            "object with every return site a plain ret (plain ret), "
            "judged as a claim's two sides are; 1.000 is no cost. No "
            "interval where too few processes or runs were measured (the "
            "reason in brackets). A thunk \"set by a variable\" is not the "
            "CPU's kernel's choice (NTB_KERNEL_RETURN_THUNK, another CPU's "
            "vulnerabilities files) (docs/kernel-memmap.md).", "",
            md_table(["log", "configuration", "kernel code", "thunk",
                      "with thunk", "plain ret", "cost", ci_title(), "over"],
                     rows, align="llllrrrrl")]


def check(log):
    """[problem] between the log's "# mitigation" lines and
    mitigations(log); a line whose build printed no "# kernel-object"
    line is one too (its thunk is then unknown)."""
    ours = {(r["config"], f"kernel_code={r['kernel_code']}"): r
            for r in mitigations(log)}
    theirs = {(config_of(t), f"kernel_code={t.get('kernel_code')}"): t
              for t in log.own_mitigations}

    def compare(what, r, t):
        what = f"mitigation {what}"
        if r["kernel_code"] not in log.kernel_objects:
            return [f"{what}: no kernel-object line of "
                    f"strategy={r['kernel_code']}: its return thunk is "
                    "unknown"]
        return value_problems(what, ratio_pairs(t, "cost", r["cost"],
                                                r["ci"]) + [
            (key, t.get(key), str(r[key]) if key == "processes" else r[key],
             None)
            for key in ("ret_code", "return_thunk", "return_thunk_from",
                        "scope", "processes", "reason")])
    return keyed_problems("mitigation", ours, theirs, compare)
