# SPDX-License-Identifier: GPL-2.0-only
"""The model's cost over the kernel's (docs/kernel-memmap.md): in each
bench_memmap_init configuration, for each build of the kernel's own
compiled memmap_init_zone_device() (manifest/strategies.yaml's kernels:)
whose line is there beside the line of the model's strategy it names
(model:; slow for kernel, tmpl_nt_fixed for kernel_series), the model
over the build, judged as a claim's two sides are (reportlib.verdicts:
over the process medians where several processes ran, else over the
runs), with its interval; whether it lies in the band where the model's
figure is the kernel's; and the log's own "# model_over_kernel" lines
held to it. Where a build's twin with plain returns (kernel_ret,
kernel_series_ret) ran too, the same model is set against it the same
way, a row of its own (kernel_code=): the model has no return thunk, so
the twin says how much of the distance the thunk alone makes."""

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

# The kernel as Debian ships it (the first of manifest/strategies.yaml's
# kernels:): a line of a build before kernel_code= was printed is its.
KERNEL = manifest.kernels()[0]["name"]
# (kernel code, the model's strategy set against it), in the manifest's
# order, as the C run pairs them: each build and its plain-returns twin.
# A build from a kernel_patch= file (kp_<stem>) is the kernel's code too
# but in no manifest, with no model: of its own: ntbench prints no line
# of it, and a row here would have --check-verdicts ask for one.
PAIRS = manifest.model_pairs()
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
    """[dict] per configuration and pair (PAIRS) whose two sides ran:
    config, model (the model's strategy), kernel_code, model_kernel,
    scope, processes, model_ns, kernel_ns, model_over_kernel, ci, in_band
    and reason (why there is no interval, or None)."""
    out = []
    for config, named in sorted(contenders(log).items()):
        for code, strategy in PAIRS:
            pair = lines_of(named, strategy, code)
            if pair:
                out.append(row(log, config, strategy, code, *pair))
    return out


def row(log, config, strategy, code, model, kernel):
    """model_over_kernel()'s row of the lines @model (of the model's
    @strategy) over @kernel (of the kernel code @code) in @config."""
    v = judged(log, model, kernel)
    return {"config": config, "model": strategy, "kernel_code": code,
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
    rows = [[log.name, r["config"], r["model"], r["kernel_code"],
             r["model_kernel"], fmt_num(r["model_over_kernel"], 3),
             fmt_ci(r["ci"], lambda x: fmt_num(x, 3)), r["scope"],
             with_reason(r["in_band"], r)]
            for log in logs for r in model_over_kernel(log)
            if r["model_over_kernel"] is not None]
    if not rows:
        return []
    return ["", "## The model's cost over the kernel's", "",
            "The model's strategy (at the run's kernel=) over the build of "
            "the kernel's code it is measured against "
            "(manifest/strategies.yaml's kernels:, model:): slow over "
            "kernel (Debian 6.12's compiled memmap_init_zone_device(), "
            "patched as its boot patches it on the CPU that ran it), "
            "tmpl_nt_fixed over kernel_series (the same with the series "
            "backported to it), and over each build's twin where it ran "
            "(the same object with every return site a plain ret, not the "
            "CPU's return thunk); "
            f"in band: yes where the interval lies inside "
            f"{BAND[0]}..{BAND[1]}, no where wholly outside, unsure where "
            "it crosses an edge, untested where there is no interval (too "
            "few processes or runs: the estimate alone says nothing) "
            "(docs/kernel-memmap.md).", "",
            md_table(["log", "configuration", "model", "kernel code",
                      "model kernel=", "model/kernel", "95% CI", "over",
                      "in band"], rows, align="llllrrrll")]


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
            ("model", t.get("model"), v["model"], None),
            ("scope", t.get("scope"), v["scope"], None),
            ("in_band", t.get("in_band"), band, None),
            ("reason", t.get("reason"), reason, None),
        ])
    return keyed_problems("model_over_kernel", ours, theirs, compare)
