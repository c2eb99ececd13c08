# SPDX-License-Identifier: GPL-2.0-only
"""The model's cost over the kernel's (docs/kernel-memmap.md): in each
bench_memmap_init configuration that has a strategy=slow line and a
strategy=kernel line (the kernel's own compiled
memmap_init_zone_device()), slow over kernel, judged as a claim's two
sides are (reportlib.verdicts: over the process medians where several
processes ran, else over the runs), with its interval; whether it lies
in the band where the model's figure is the kernel's; and the log's own
"# model_over_kernel" lines held to it."""

from reportlib import manifest
from reportlib.formatting import md_table
from reportlib.stats import RATIO_SCALE, whole_millionths
from reportlib.verdicts import (
    config_of,
    contenders,
    judge_sides,
    keyed_problems,
    parsed_float,
    sides,
    value_problems,
)

# the model's slow path, and the kernel as Debian ships it (the first of
# manifest/strategies.yaml's kernels:, as the C run pairs them)
MODEL, KERNEL = "slow", manifest.kernels()[0]["name"]
# Within this band the model's cost is taken as the kernel's.
BAND = (0.97, 1.03)


def millionths(x):
    """@x cut to whole millionths, as lib/verdict.c holds a ratio."""
    return whole_millionths(x) / RATIO_SCALE


def in_band(ci):
    """"yes" (the interval lies in BAND), "no" (wholly outside it),
    "unsure" (across an edge) or "untested" (no interval: an estimate
    alone says nothing of where the ratio lies); judged in millionths, as
    lib/verdict.c's verdict_in_band() judges it."""
    if not ci:
        return "untested"
    lo, hi = map(millionths, ci)
    if lo >= BAND[0] and hi <= BAND[1]:
        return "yes"
    if hi < BAND[0] or lo > BAND[1]:
        return "no"
    return "unsure"


def no_interval_reason(v):
    """Why the judged pair @v has no interval, as the line's reason= says
    it (verdict_no_interval_reason()): "processes=3", "runs=3+3"; None
    where it has one."""
    if v["speedup_ci"]:
        return None
    if v["scope"] == "processes":
        return f"processes={v['processes']}"
    return f"runs={v.get('n_before') or 0}+{v.get('n_after') or 0}"


def model_over_kernel(log):
    """[dict] per configuration: config, model_kernel, scope, processes,
    model_ns, kernel_ns, model_over_kernel, ci, in_band and reason (why
    there is no interval, or None)."""
    out = []
    for config, named in sorted(contenders(log).items()):
        if MODEL not in named or KERNEL not in named:
            continue
        model, kernel = named[MODEL][0], named[KERNEL][0]
        v = sides(log, model, kernel)
        judge_sides(v, model, kernel, None)
        out.append({"config": config,
                    "model_kernel": str(model.get("kernel", "base")),
                    "scope": v["scope"], "processes": v["processes"],
                    "model_ns": v["before_ns"], "kernel_ns": v["after_ns"],
                    "model_over_kernel": v["speedup"],
                    "ci": v["speedup_ci"],
                    "in_band": (in_band(v["speedup_ci"])
                                if v["speedup"] else None),
                    "reason": no_interval_reason(v)})
    return out


def section(logs):
    """Markdown lines: one row per log and configuration, or none."""
    rows = []
    for log in logs:
        for r in model_over_kernel(log):
            if r["model_over_kernel"] is None:
                continue  # a median of 0 ns: nothing to divide
            ci = r["ci"]
            rows.append([log.name, r["config"], r["model_kernel"],
                         f"{r['model_over_kernel']:.3f}",
                         f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "-",
                         r["scope"], r["in_band"]
                         + (f" ({r['reason']})" if r["reason"] else "")])
    if not rows:
        return []
    return ["", "## The model's cost over the kernel's", "",
            "slow (the model's slow path, at the run's kernel=) over "
            "kernel (Debian 6.12's compiled memmap_init_zone_device(), "
            "patched as its boot patches it on the CPU that ran it); "
            f"in band: yes where the interval lies inside "
            f"{BAND[0]}..{BAND[1]}, no where wholly outside, unsure where "
            "it crosses an edge, untested where there is no interval (too "
            "few processes or runs: the estimate alone says nothing) "
            "(docs/kernel-memmap.md).", "",
            md_table(["log", "configuration", "model kernel=",
                      "model/kernel", "95% CI", "over", "in band"], rows,
                     align="llrrrll")]


def check(log):
    """[problem] between the log's "# model_over_kernel" lines and
    model_over_kernel(log)."""
    ours = {r["config"]: r for r in model_over_kernel(log)}
    theirs = {config_of(t): t for t in log.own_model_over_kernel}

    def compare(what, v, t):
        ci = v["ci"] or [None, None]
        band, reason = v["in_band"], v["reason"]
        if reason and "reason" not in t and v["model_over_kernel"]:
            # A build before the rule judged the estimate where there
            # was no interval, and printed no reason=.
            band = in_band([v["model_over_kernel"]] * 2)
            reason = None
        # printed with 3 decimals: half a unit of the last
        return value_problems(f"model_over_kernel {what}", [
            ("model_over_kernel", parsed_float(t.get("model_over_kernel")),
             v["model_over_kernel"], 0.0006),
            ("ci_low", parsed_float(t.get("ci_low")), ci[0], 0.0006),
            ("ci_high", parsed_float(t.get("ci_high")), ci[1], 0.0006),
            ("scope", t.get("scope"), v["scope"], None),
            ("in_band", t.get("in_band"), band, None),
            ("reason", t.get("reason"), reason, None),
        ])
    return keyed_problems("model_over_kernel", ours, theirs, compare,
                          lambda k: k)
