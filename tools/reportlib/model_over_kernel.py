# SPDX-License-Identifier: GPL-2.0-only
"""The model's cost over the kernel's (docs/kernel-memmap.md): in each
bench_memmap_init configuration that has a strategy=slow line and a
strategy=kernel line (the kernel's own compiled
memmap_init_zone_device()), slow over kernel, judged as a claim's two
sides are (reportlib.verdicts: over the process medians where several
processes ran, else over the runs), with its interval; whether it lies
in the band where the model's figure is the kernel's; and the log's own
"# model_over_kernel" lines held to it. Where kernel's twin with plain
returns (kernel_ret) ran too, slow is set against it the same way, a
row of its own (kernel_code=): the model has no return thunk, so the
twin says how much of the distance the thunk alone makes."""

from reportlib import manifest
from reportlib.formatting import fmt_ci, fmt_num, md_table
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
# The kernel's code the model is set against: KERNEL, and its twin with
# plain returns where the manifest names one (kernel_code=, in this order).
KERNEL_CODES = [KERNEL] + [twin for base, twin in
                           manifest.plain_return_pairs() if base == KERNEL]
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


def lines_of(named, *names):
    """The metric lines of @names among one configuration's contenders
    (@named, contenders()'s), or None where one of them did not run or
    its median_ns= is no number (a line cut or garbled): nothing to
    judge."""
    lines = [named[n][0] for n in names if n in named]
    if len(lines) < len(names) or not all(
            isinstance(r.get("median_ns"), (int, float)) for r in lines):
        return None
    return lines


def judged(log, before, after):
    """The metric line @before over @after of @log, judged as a claim's
    two sides are, against no posted figure: sides() with its interval,
    scope and processes, and n_before, n_after."""
    v = sides(log, before, after)
    judge_sides(v, before, after, None)
    return v


def ratio_pairs(t, key, value, ci):
    """value_problems()' pairs of a ratio printed as @key= with its
    interval (ci_low=, ci_high=; "-" for none) on the line @t, against
    @value and @ci recomputed: printed with 3 decimals, they may differ
    by half a unit of the last."""
    ci = ci or [None, None]
    return [(key, parsed_float(t.get(key)), value, 0.0006),
            ("ci_low", parsed_float(t.get("ci_low")), ci[0], 0.0006),
            ("ci_high", parsed_float(t.get("ci_high")), ci[1], 0.0006)]


def model_over_kernel(log):
    """[dict] per configuration and kernel code that ran (KERNEL_CODES):
    config, kernel_code, model_kernel, scope, processes, model_ns,
    kernel_ns, model_over_kernel, ci, in_band and reason (why there is
    no interval, or None)."""
    out = []
    for config, named in sorted(contenders(log).items()):
        for code in KERNEL_CODES:
            pair = lines_of(named, MODEL, code)
            if pair:
                out.append(row(log, config, code, *pair))
    return out


def row(log, config, code, model, kernel):
    """model_over_kernel()'s row of the lines @model over @kernel (that
    of the kernel code @code) in @config."""
    v = judged(log, model, kernel)
    return {"config": config, "kernel_code": code,
            "model_kernel": str(model.get("kernel", "base")),
            "scope": v["scope"], "processes": v["processes"],
            "model_ns": v["before_ns"], "kernel_ns": v["after_ns"],
            "model_over_kernel": v["speedup"], "ci": v["speedup_ci"],
            "in_band": (in_band(v["speedup_ci"])
                        if v["speedup"] is not None else None),
            "reason": no_interval_reason(v)}


def with_reason(word, r):
    """@word, and after it in brackets why the row @r has no interval."""
    return word + (f" ({r['reason']})" if r["reason"] else "")


def section(logs):
    """Markdown lines: one row per log, configuration and kernel code, or
    none."""
    # (a median of 0 ns has nothing to divide: no ratio)
    rows = [[log.name, r["config"], r["kernel_code"], r["model_kernel"],
             fmt_num(r["model_over_kernel"], 3),
             fmt_ci(r["ci"], lambda x: fmt_num(x, 3)), r["scope"],
             with_reason(r["in_band"], r)]
            for log in logs for r in model_over_kernel(log)
            if r["model_over_kernel"] is not None]
    if not rows:
        return []
    return ["", "## The model's cost over the kernel's", "",
            "slow (the model's slow path, at the run's kernel=) over "
            "kernel (Debian 6.12's compiled memmap_init_zone_device(), "
            "patched as its boot patches it on the CPU that ran it), and "
            "over kernel_ret where it ran (the same object with every "
            "return site a plain ret, not the CPU's return thunk); "
            f"in band: yes where the interval lies inside "
            f"{BAND[0]}..{BAND[1]}, no where wholly outside, unsure where "
            "it crosses an edge, untested where there is no interval (too "
            "few processes or runs: the estimate alone says nothing) "
            "(docs/kernel-memmap.md).", "",
            md_table(["log", "configuration", "kernel code",
                      "model kernel=", "model/kernel", "95% CI", "over",
                      "in band"], rows, align="lllrrrll")]


def check(log):
    """[problem] between the log's "# model_over_kernel" lines and
    model_over_kernel(log), a line per configuration and kernel code (a
    line without kernel_code=, of a build before the twin, is KERNEL's)."""
    ours = {(r["config"], f"kernel_code={r['kernel_code']}"): r
            for r in model_over_kernel(log)}
    theirs = {(config_of(t), f"kernel_code={t.get('kernel_code', KERNEL)}"):
              t for t in log.own_model_over_kernel}

    def compare(what, v, t):
        band, reason = v["in_band"], v["reason"]
        if reason and "reason" not in t and v["model_over_kernel"]:
            # A build before the rule judged the estimate where there
            # was no interval, and printed no reason=.
            band = in_band([v["model_over_kernel"]] * 2)
            reason = None
        return value_problems(f"model_over_kernel {what}", ratio_pairs(
            t, "model_over_kernel", v["model_over_kernel"], v["ci"]) + [
            ("scope", t.get("scope"), v["scope"], None),
            ("in_band", t.get("in_band"), band, None),
            ("reason", t.get("reason"), reason, None),
        ])
    return keyed_problems("model_over_kernel", ours, theirs, compare)
