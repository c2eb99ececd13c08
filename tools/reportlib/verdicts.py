# SPDX-License-Identifier: GPL-2.0-only
"""The patch postings' claims, judged on one log.

CLAIMS lists them; claim_pairs() finds each claim's two lines in a log
(a pair per struct page size or per drain setting), verdicts() tests
them and gives each pair one word (judge()). What the word may say
depends on what replicates in the log (its scope):

  - processes: lines measured in several processes (processes=P, P >= 2)
    are judged by their processes, paired (both strategies ran in each):
    the exact Wilcoxon signed-rank test of the log ratios of the process
    medians, the median ratio, a Hodges-Lehmann interval. Words:
    confirmed, reversed on this CPU, split between processes, not
    confirmed, untested.
  - one-process (ntbench, one process) and one-boot (the image): the
    samples of one process are not independent of it, so the U test of
    its samples says what was seen there and no more: seen (reversed) in
    one process / boot, not confirmed, untested.

verdict_section() is the report's Markdown section of them;
check_verdicts() (--check-verdicts) holds the log's own "# verdict"
lines, which the image and ntbench print (lib/verdict.c), to the same
verdicts; a line without scope= (an older build) is held to the words
that build gave the same outcome (confirmed and reversed on this CPU
for what is now seen, or seen reversed, in one process or boot).
"""
from reportlib import level
from reportlib.compare import identity
from reportlib.formatting import ci_title, fmt_ci, fmt_ns, fmt_p, md_table
from reportlib.logs import PROCESS_KEYS
from reportlib.stats import (
    MIN_SAMPLES,
    compare_samples,
    int_median,
    min_processes,
    process_blocks,
    process_medians,
    process_pairs,
    processes_of,
    samples_of,
)


# Each claim of the patch postings, as a ratio of two figures this project
# measures: speed-up = time before / time after (for a throughput claim,
# MB/s after / MB/s before: the same bytes in both). Both suites print the
# time of each line; the verdict tests the samples of the two lines.

CLAIMS = [
    {"subject": "mm: use memcpy_nt() in zone-device template copies",
     "what": "memmap init on rebind, fsdax (nd_pmem)",
     "suite": "bench_memmap_init", "key": "strategy", "mode": "fsdax",
     "before": "slow", "after": "tmpl_nt_fixed",
     "posted": "244.28 ms -> 96.79 ms", "ratio": 244.28 / 96.79},
    {"subject": "mm: use memcpy_nt() in zone-device template copies",
     "what": "memmap init on rebind, devdax 2 MiB (dax_pmem)",
     "suite": "bench_memmap_init", "key": "strategy", "mode": "devdax2m",
     "before": "slow", "after": "tmpl_nt_fixed",
     "posted": "273.31 ms -> 119.04 ms", "ratio": 273.31 / 119.04},
    {"subject": "mm: use memcpy_nt() in zone-device template copies",
     "what": "its own step: the template copied with non-temporal "
             "stores rather than memcpy(), fsdax",
     "suite": "bench_memmap_init", "key": "strategy", "mode": "fsdax",
     "before": "tmpl_memcpy", "after": "tmpl_nt_fixed",
     "posted": "faster (no figure of its own)", "ratio": None},
    {"subject": "x86/string: extend memcpy_flushcache() fixed-size "
                "fastpaths",
     "what": "generic __memcpy_flushcache() -> inline fixed-size MOVNTI, "
             "fsdax (nd_pmem)",
     "suite": "bench_memmap_init", "key": "strategy", "mode": "fsdax",
     "before": "tmpl_nt_generic", "after": "tmpl_nt_fixed",
     "posted": "150.83 ms -> 96.79 ms", "ratio": 150.83 / 96.79},
    {"subject": "x86/string: extend memcpy_flushcache() fixed-size "
                "fastpaths",
     "what": "generic __memcpy_flushcache() -> inline fixed-size MOVNTI, "
             "devdax 2 MiB (dax_pmem)",
     "suite": "bench_memmap_init", "key": "strategy", "mode": "devdax2m",
     "before": "tmpl_nt_generic", "after": "tmpl_nt_fixed",
     "posted": "153.55 ms -> 119.04 ms", "ratio": 153.55 / 119.04},
    {"subject": "use nocache copy in copy_from_iter_nocache()",
     "what": "copy-then-flush -> nocache copy, 4 KiB chunks",
     "suite": "bench_nocache_copy", "key": "method", "chunk": 4096,
     "before": None, "after": "nocache",
     "posted": "641 MB/s -> 2134 MB/s", "ratio": 2134 / 641},
]

CONFIRMED = "confirmed"
NOT_CONFIRMED = "not confirmed"
REVERSED = "reversed on this CPU"
UNTESTED = "untested"
SPLIT = "split between processes"
SEEN_PROCESS = "seen in one process"
SEEN_REVERSED_PROCESS = "seen reversed in one process"
SEEN_BOOT = "seen in one boot"
SEEN_REVERSED_BOOT = "seen reversed in one boot"

# What replicates: the process (processes=P, P >= 2), or nothing beyond
# the one process of ntbench or the one boot of the image.
SCOPE_PROCESSES = "processes"
SCOPE_PROCESS = "one-process"
SCOPE_BOOT = "one-boot"

# Within one process or boot: (significant and the claimed way,
# significant and the other way).
SEEN = {SCOPE_PROCESS: (SEEN_PROCESS, SEEN_REVERSED_PROCESS),
        SCOPE_BOOT: (SEEN_BOOT, SEEN_REVERSED_BOOT)}
# The word a build before scope= printed for the same outcome.
OLD_WORD = {SEEN_PROCESS: CONFIRMED, SEEN_BOOT: CONFIRMED,
            SEEN_REVERSED_PROCESS: REVERSED, SEEN_REVERSED_BOOT: REVERSED}


def one_replicate(word):
    """True for a word that says what one process or boot showed: a
    single observation, never a replicated finding."""
    return word in OLD_WORD


def scope_of(log, processes):
    """The scope of a pair of lines measured in @processes processes."""
    if processes >= 2:
        return SCOPE_PROCESSES
    return SCOPE_PROCESS if log.header.get("platform") == "host" \
        else SCOPE_BOOT


def claim_pairs(claim, records):
    """[(before line, after line)] of one log for a claim: one pair per
    struct page size (memmap) or per drain setting (nocache)."""
    recs = [r for r in records if r["suite"] == claim["suite"]
            and isinstance(r.get("median_ns"), (int, float))]
    if "mode" in claim:
        recs = [r for r in recs if r.get("mode") == claim["mode"]]
        # The postings ran map=dev; a log from before map= was printed
        # ran without an altmap, and is judged as it is.
        recs = [r for r in recs if r.get("map", "dev") == "dev"]
    if "chunk" in claim:
        recs = [r for r in recs if r.get("chunk") == claim["chunk"]]
    key = claim["key"]

    def rest(r):
        # processes=, proc_*: how each line was measured, not what
        # (reportlib.logs.PROCESS_KEYS); a pair that disagrees on them
        # is judged untested, not left out.
        return tuple((k, v) for k, v in identity(r)
                     if k != key and k not in PROCESS_KEYS)

    pairs = []
    for after in [r for r in recs if r.get(key) == claim["after"]]:
        # copy-then-flush: the method the line itself names as the one
        # the kernel would use (copy_clean=).
        want = claim["before"] or after.get("copy_clean")
        before = [r for r in recs if r.get(key) == want
                  and rest(r) == rest(after)]
        if before:
            pairs.append((before[-1], after))
    return pairs


def judge(st, posted_ratio, scope=None):
    """One word for a comparison of before/after samples (@st: the U
    test of compare_samples(), after against before). @scope: one-process
    or one-boot says what was seen there; None, the words of a build
    before scope= (confirmed, reversed on this CPU)."""
    if not st["testable"]:
        return UNTESTED
    if not st["significant"]:
        return NOT_CONFIRMED
    faster = st["ratio"] is not None and st["ratio"] < 1
    claimed_faster = posted_ratio is None or posted_ratio > 1
    same, other = SEEN.get(scope, (CONFIRMED, REVERSED))
    return same if faster == claimed_faster else other


def judge_processes(pt, posted_ratio):
    """One word for the paired test of the process medians (@pt:
    process_pairs(), ratios before / after)."""
    if not pt["testable"]:
        return UNTESTED
    ratios = pt["ratios"]
    if not pt["significant"]:
        if min(ratios) < 1 < max(ratios):
            return SPLIT
        return NOT_CONFIRMED
    # The direction the test found (its rank sums), not a median's.
    faster = pt["up"]
    claimed_faster = posted_ratio is None or posted_ratio > 1
    return CONFIRMED if faster == claimed_faster else REVERSED


def judge_one(v, before, after, sb, sa, posted_ratio):
    """The U test of the pooled samples of one process or boot, into
    @v."""
    if not (sb and sa):
        v["why"] = "no samples_ns= on these lines"
        return judge({"testable": False}, posted_ratio, v["scope"])
    # The test of after against before; the speed-up is the inverse
    # of the time ratio after / before.
    st = compare_samples(sb, sa, level.ALPHA)
    v["n_before"], v["n_after"] = st["n_a"], st["n_b"]
    v["p"] = st["p"]
    v["test"] = st.get("test")
    v["significant"] = st["significant"]
    if st.get("ratio_ci"):
        lo, hi = st["ratio_ci"]
        v["speedup_ci"] = [1 / hi, 1 / lo]
    if not st["testable"]:
        v["why"] = st["why"]
    return judge(st, posted_ratio, v["scope"])


def judge_by_process(v, before, after, sb, sa, posted_ratio):
    """The paired test of the two lines' process medians, into @v."""
    if sb and sa:
        v["n_before"], v["n_after"] = len(sb), len(sa)
    pb, pa = processes_of(before), processes_of(after)
    if pb != pa:
        v["why"] = (f"the lines ran in {pb} and {pa} processes: nothing "
                    f"to pair")
        return UNTESTED
    mb, ma = process_medians(before), process_medians(after)
    if not (mb and ma):
        v["why"] = (f"samples_ns= does not cut into {pa} processes' "
                    f"blocks, and no proc_medians_ns=")
        return UNTESTED
    pt = process_pairs(mb, ma, level.ALPHA)
    v["process_speedups"] = pt["ratios"]
    if pt["speedup"] is not None:
        v["speedup"] = pt["speedup"]
    v["p"] = pt["p"]
    v["significant"] = pt["significant"]
    v["speedup_ci"] = pt["ci"]
    if pt["testable"]:
        v["test"] = "signed-rank"
    else:
        v["why"] = pt["why"]
    return judge_processes(pt, posted_ratio)


def verdicts(log):
    """The claims met in one log, as dicts (also the JSON form)."""
    out = []
    for claim in CLAIMS:
        for before, after in claim_pairs(claim, log.metrics):
            sb, sa = samples_of(before), samples_of(after)
            processes = max(processes_of(before), processes_of(after))
            v = {"subject": claim["subject"], "what": claim["what"],
                 "suite": claim["suite"],
                 "before": before.get(claim["key"]),
                 "after": after.get(claim["key"]),
                 "page_size": after.get("page_size"),
                 "mode": after.get("mode"), "chunk": after.get("chunk"),
                 "map": after.get("map"), "written": after.get("written"),
                 "bytes": after.get("bytes"),
                 "posted": claim["posted"],
                 "posted_speedup": claim["ratio"],
                 "before_ns": before["median_ns"],
                 "after_ns": after["median_ns"],
                 "speedup": (before["median_ns"] / after["median_ns"]
                             if after["median_ns"] else None),
                 "speedup_ci": None, "p": None, "n_before": None,
                 "n_after": None, "significant": False,
                 "scope": scope_of(log, processes),
                 "processes": processes, "test": None,
                 "cpu": log.header.get("cpu")}
            v = {k: x for k, x in v.items() if x is not None
                 or k in ("speedup_ci", "p", "posted_speedup", "cpu",
                          "speedup", "test")}
            judge_pair = (judge_by_process if v["scope"] == SCOPE_PROCESSES
                          else judge_one)
            v["verdict"] = judge_pair(v, before, after, sb, sa,
                                      claim["ratio"])
            ci = v["speedup_ci"]
            if ci and claim["ratio"]:
                v["posted_in_ci"] = ci[0] <= claim["ratio"] <= ci[1]
            if v.get("speedup") and claim["ratio"]:
                v["measured_over_posted"] = v["speedup"] / claim["ratio"]
            out.append(v)
    return out


def fmt_x(v):
    return "-" if v is None else f"{v:.2f}x"


def unit_of(v):
    """What replicates in a verdict, as the report says it."""
    if v.get("scope") == SCOPE_PROCESSES:
        return f"{v['processes']} processes"
    return "one boot" if v.get("scope") == SCOPE_BOOT else "one process"


def verdict_section(logs):
    """The Markdown section that puts each claim beside this machine."""
    out = ["", "## Verdicts on the postings' claims", "",
           "Each claim as a speed-up (time before / time after; for MB/s "
           "the inverse, same bytes) beside the one measured here, with "
           f"its {ci_title()} and a test at alpha={level.ALPHA:g}. "
           "Where the log ran each strategy in several processes (unit: "
           "N processes), the process is what replicates: each gives the "
           "ratio of its two medians; the speed-up and its interval are "
           "Hodges-Lehmann's on those ratios (the median of the geometric "
           "means of pairs), the test the exact Wilcoxon signed-rank test "
           "of their "
           f"logs (at least {min_processes(level.ALPHA)} processes whose "
           f"ratio is not 1): **{CONFIRMED}** (significant, the claimed "
           f"direction), **{REVERSED}** (significant, the other), "
           f"**{SPLIT}** (not significant, processes on both sides of 1), "
           f"**{NOT_CONFIRMED}**, {UNTESTED}. Where it ran one process "
           "(ntbench) or one boot (the image), its samples are not "
           "independent of that process: the Hodges-Lehmann interval of "
           "the pairwise ratios of the samples and a two-sided "
           "Mann-Whitney U test say what was seen there and no more: "
           f"**{SEEN_PROCESS}** / **{SEEN_BOOT}**, "
           f"**{SEEN_REVERSED_PROCESS}** / **{SEEN_REVERSED_BOOT}**, "
           f"**{NOT_CONFIRMED}**, {UNTESTED} (no samples, or fewer than "
           f"{MIN_SAMPLES} a side). "
           "The direction is what is judged; in CI says whether the "
           "posting's ratio lies inside the interval measured here."]
    any_rows = False
    for log in logs:
        vs = verdicts(log)
        if not vs:
            continue
        any_rows = True
        cpu = log.header.get("cpu", "unknown CPU")
        tag = f"{log.label}: " if len(logs) > 1 else ""
        out += ["", f"### {tag}{cpu}", ""]
        table = []
        for v in vs:
            where = (f"page_size={v['page_size']}" if "page_size" in v
                     else f"chunk={v.get('chunk')}")
            if v.get("map"):
                where += f" map={v['map']}"
            if v.get("written"):
                where += f" written={v['written']}"
            mop = v.get("measured_over_posted")
            mop = "-" if mop is None else f"{mop:.2f}"
            here = (f"{fmt_ns(v['before_ns'])} -> "
                    f"{fmt_ns(v['after_ns'])}")
            if "MB/s" in v["posted"] and v.get("bytes"):
                here = " -> ".join(f"{v['bytes'] * 1000 / t:.0f} MB/s"
                                   if t else "-"
                                   for t in (v["before_ns"], v["after_ns"]))
            n = (f"{v['n_before']}+{v['n_after']}"
                 if v.get("n_before") is not None else "-")
            inci = ("-" if "posted_in_ci" not in v
                    else "yes" if v["posted_in_ci"] else "no")
            table.append([v["subject"], v["what"],
                          f"{v['before']} -> {v['after']} {where}",
                          v["posted"], fmt_x(v["posted_speedup"]), here,
                          fmt_x(v["speedup"]), mop,
                          fmt_ci(v["speedup_ci"], fmt_x),
                          fmt_p(v["p"]), n, unit_of(v), inci,
                          f"**{v['verdict']}**"])
        out.append(md_table(["claim", "what", "lines here", "posted",
                             "posted x", "here", "here x", "here/posted",
                             ci_title(), "p", "n", "unit", "in CI",
                             "verdict"],
                            table, "llllrrrrrrrlll"))
    return out if any_rows else []


# ------------------------------------------- the image's verdicts vs ours
#
# The image and ntbench judge the claims themselves (lib/verdict.c, in
# integer arithmetic) and print "# verdict ..." lines. --check-verdicts
# recomputes each from the log's metric lines and says where they differ
# beyond the rounding of the printed figures. A line with scope= is held
# to its scope, its processes= and (scope=processes) its test= as well;
# one without (an older build) to the words that build used.

def verdict_key(subject, before, after, where):
    return (subject, str(before), str(after), where)


def where_of(v):
    if v.get("page_size") is not None and v.get("mode") is not None:
        return f"page_size={v['page_size']} mode={v['mode']}"
    return f"chunk={v.get('chunk')}"


def parsed_float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def close(a, b, tol):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol + 1e-6 * abs(b)


def check_verdicts(log):
    """[problem] between the log's own verdict lines and verdicts(log)."""
    ours = {}
    for v in verdicts(log):
        ours[verdict_key(v["subject"], v["before"], v["after"],
                         where_of(v))] = v
    theirs = {}
    for t in log.own_verdicts:
        where = (f"page_size={t['page_size']} mode={t['mode']}"
                 if "mode" in t else f"chunk={t.get('chunk')}")
        theirs[verdict_key(t.get("claim"), t.get("before"), t.get("after"),
                           where)] = t
    problems = []
    for key in ours.keys() - theirs.keys():
        problems.append(f"no verdict line for {key[1]} -> {key[2]} "
                        f"{key[3]} ({key[0]})")
    for key in theirs.keys() - ours.keys():
        problems.append(f"a verdict line the metric lines do not give: "
                        f"{key[1]} -> {key[2]} {key[3]} ({key[0]})")
    for key in sorted(ours.keys() & theirs.keys()):
        v, t = ours[key], theirs[key]
        what = f"{key[1]} -> {key[2]} {key[3]}"
        ci = v["speedup_ci"] or [None, None]
        word = v["verdict"]
        extra = []
        if "scope" in t:
            extra = [("scope", t["scope"], v["scope"], None),
                     ("processes", t.get("processes"), str(v["processes"]),
                      None)]
            if v["scope"] == SCOPE_PROCESSES or \
                    t["scope"] == SCOPE_PROCESSES:
                extra.append(("test", t.get("test"), v.get("test") or "-",
                              None))
        else:
            word = OLD_WORD.get(word, word)
        # Printed with 3 decimals (ratios) and 6 (p): half a unit of the
        # last digit, and the normal tail's own error (2e-7 per side).
        pairs = extra + [
            ("verdict", t.get("verdict"), word, None),
            ("n", t.get("n"), f"{v['n_before']}+{v['n_after']}"
             if v.get("n_before") is not None else None, None),
            ("speedup", parsed_float(t.get("speedup")), v["speedup"],
             0.0006),
            ("ci_low", parsed_float(t.get("ci_low")), ci[0], 0.0006),
            ("ci_high", parsed_float(t.get("ci_high")), ci[1], 0.0006),
            ("p", parsed_float(t.get("p")), v["p"], 1e-6),
        ]
        for name, got, want, tol in pairs:
            same = got == want if tol is None else close(got, want, tol)
            if not same:
                problems.append(f"{what}: {name} here {got}, from the "
                                f"metric lines {want}")
    return problems + check_process_lines(log)


def check_process_lines(log):
    """[problem] where a metric line's proc_medians_ns= or proc_spread=
    is not what its samples_ns= blocks give (the integer median of each
    process's block; (max - min) / median of those, 3 decimals)."""
    problems = []
    for rec in log.metrics:
        said = rec.get("proc_medians_ns")
        if processes_of(rec) < 2 or said is None:
            continue
        blocks = process_blocks(rec)
        name = " ".join(f"{k}={v}" for k, v in identity(rec)
                        if k not in PROCESS_KEYS)
        if not blocks:
            problems.append(f"{name}: samples_ns= does not cut into "
                            f"processes={rec['processes']} blocks")
            continue
        meds = [int_median(b) for b in blocks]
        if said != meds:
            problems.append(f"{name}: proc_medians_ns= here {said}, from "
                            f"samples_ns= {meds}")
        spread = rec.get("proc_spread")
        mid = int_median(meds)
        want = (max(meds) - min(meds)) / mid if mid else None
        if isinstance(spread, (int, float)) and want is not None and \
                not close(spread, want, 0.0006):
            problems.append(f"{name}: proc_spread= here {spread}, from "
                            f"samples_ns= {want:.3f}")
    return problems


def check_verdicts_main(logs):
    status = 0
    for log in logs:
        if not log.own_verdicts:
            print(f"report: {log.name}: no '# verdict' lines")
            status = 1
            continue
        problems = check_verdicts(log)
        for text in problems:
            print(f"report: {log.name}: {text}")
        if problems:
            status = 1
        else:
            print(f"report: {log.name}: the {len(log.own_verdicts)} verdict "
                  "lines agree with the metric lines")
    return status
