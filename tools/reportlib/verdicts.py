# SPDX-License-Identifier: GPL-2.0-only
"""The patch postings' claims, judged on one log.

CLAIMS lists them; claim_pairs() finds each claim's two lines in a log
(a pair per struct page size or per drain setting), verdicts() tests
them and gives each pair one word (judge()). What the word may say
depends on what replicates in the log (its scope):

  - processes: lines measured in several processes (processes=P, P >= 2)
    are judged by their processes, paired (both strategies ran in each):
    the exact Wilcoxon signed-rank test of the log ratios of the process
    medians, the median ratio, a Hodges-Lehmann interval. Words: a
    speed-up's (below), reversed on this CPU, split between processes,
    not confirmed, untested.
  - one-process (ntbench, one process) and one-boot (the image): the
    samples of one process are not independent of it, so the U test of
    its samples says what was seen there and no more: seen ... in one
    process / boot, not confirmed, untested.

A significant speed-up's word judges its size: where the claim's posted
speed-up R lies against the interval (vs_posted()): confirmed (inside),
beyond the posted (below it), faster, short of the posted (above it),
faster (no R, or no interval); "seen in one process", "seen faster,
short of the posted in one process", ... in one process or boot. The
words of every scope are manifest/verdicts.yaml's (reportlib.verdict_words), as
lib/verdict.c's are.

Where a side's runs fall into separate states (reportlib.states, the
rule of lib/states.c), the claim is judged again in each state of that
side (the before side's first), over the rounds whose run of it fell
there, both sides' runs of a round together (state_verdicts(), as
lib/verdict.c's verdict_judge_state()): fewer than STATE_MIN_ROUNDS
rounds are too few; a state seen in at least 6 processes is judged by
them as above; in fewer, the U test of its rounds (scope rounds: seen,
or seen reversed, in one state's rounds). follows() tests whether each
fill and the probe of a memmap configuration is slower in the slowest
state's rounds than in the fastest's, for each strategy whose states a
claim was judged in.

verdict_section() is the report's Markdown section of them;
check_verdicts() (--check-verdicts) holds the log's own "# verdict"
lines, which the image and ntbench print (lib/verdict.c), to the same
verdicts; a line without scope= (an older build) is held to the words
that build gave the same outcome (confirmed and reversed on this CPU
for what is now seen, or seen reversed, in one process or boot), and a
line without vs_posted= to the words of a build that judged the
direction only (confirmed, or seen in one process, for a speed-up of
any size). It
holds the log's "# state", "# state-verdict" and "# follows" lines to
the same computation.
"""
import functools

from reportlib import level, manifest
from reportlib.compare import identity
from reportlib.formatting import (ci_title, fixed_half_up, fmt_alpha, fmt_ci,
                                  fmt_ns, fmt_p, md_table)
from reportlib.logs import PROCESS_KEYS, STATE_LINES
from reportlib.states import MAX_RUNS, find_states, states_apart, states_of
from reportlib.stats import (
    MIN_SAMPLES,
    RATIO_SCALE,
    compare_samples,
    int_median,
    min_processes,
    process_blocks,
    process_medians,
    process_pairs,
    processes_of,
    ratio_interval_millionths,
    samples_of,
)
from reportlib.verdict_words import (
    BEYOND,
    CONFIRMED,
    FASTER,
    NOT_CONFIRMED,
    OLD_SIZE_WORD,
    OLD_WORD,
    REVERSED,
    SCOPE_BOOT,
    SCOPE_PROCESS,
    SCOPE_PROCESSES,
    SCOPE_ROUNDS,
    SEEN_BOOT,
    SEEN_PROCESS,
    SEEN_REVERSED_PROCESS,
    SEEN_REVERSED_ROUNDS,
    SEEN_ROUNDS,
    SHORT,
    SPLIT,
    TOO_FEW,
    UNTESTED,
    VS_WITHIN,
    WORDS,
    posted_of,
    significant_word,
    vs_posted,
)


# Each claim of the patch postings, as a ratio of two figures this project
# measures: speed-up = time before / time after (for a throughput claim,
# MB/s after / MB/s before: the same bytes in both). Both suites print the
# time of each line; the verdict tests the samples of the two lines.

CLAIMS = manifest.claims()  # manifest/claims.yaml

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


def judge(st, posted, scope=None, ci=None):
    """One word for a comparison of before/after samples (@st: the U
    test of compare_samples(), after against before; @ci: the speed-up's
    interval; @posted: the claim's posted speed-up, posted_of()). @scope:
    one-process or one-boot says what was seen there; None, the words of
    a build before scope= (confirmed, reversed on this CPU)."""
    if not st["testable"]:
        return UNTESTED
    if not st["significant"]:
        return NOT_CONFIRMED
    faster = st["ratio"] is not None and st["ratio"] < 1
    return significant_word(faster, posted, ci, scope)


def judge_processes(pt, posted):
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
    return significant_word(pt["up"], posted, pt["ci"], SCOPE_PROCESSES)


def judge_one(v, before, after, sb, sa, posted, alpha=None):
    """The U test of the pooled samples of one process or boot, into
    @v, at @alpha (level.ALPHA where None)."""
    alpha = level.ALPHA if alpha is None else alpha
    if not (sb and sa):
        v["why"] = "no samples_ns= on these lines"
        return judge({"testable": False}, posted, v["scope"])
    # The test of after against before; the speed-up is the inverse
    # of the time ratio after / before.
    st = compare_samples(sb, sa, alpha)
    v["n_before"], v["n_after"] = st["n_a"], st["n_b"]
    v["p"] = st["p"]
    v["test"] = st.get("test")
    v["significant"] = st["significant"]
    if st.get("ratio_ci"):
        lo, hi = st["ratio_ci"]
        # In whole millionths as lib/verdict.c holds it, so that the size
        # is judged on the same figures (a float can land a millionth
        # above the C's, across a posted figure at an edge).
        m = ratio_interval_millionths(sb, sa, alpha)
        v["speedup_ci"] = ([m[0] / RATIO_SCALE, m[1] / RATIO_SCALE] if m
                           else [1 / hi, 1 / lo])
    if not st["testable"]:
        v["why"] = st["why"]
    return judge(st, posted, v["scope"], v["speedup_ci"])


def judge_by_process(v, before, after, sb, sa, posted):
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
    return judge_pairs(v, mb, ma, posted)


def judge_pairs(v, mb, ma, posted, alpha=None):
    """The paired test of the process medians @mb (before) and @ma
    (after), into @v, at @alpha (level.ALPHA where None): its word
    (judge_processes())."""
    pt = process_pairs(mb, ma, level.ALPHA if alpha is None else alpha)
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
    return judge_processes(pt, posted)


def judge_sides(v, before, after, posted):
    """Judge the metric line @before against @after into @v (which has
    its keys, scope among them): over the processes' medians where
    several ran, else over the runs. Returns the word."""
    judge_pair = (judge_by_process if v["scope"] == SCOPE_PROCESSES
                  else judge_one)
    return judge_pair(v, before, after, samples_of(before),
                      samples_of(after), posted)


def sides(log, before, after):
    """The keys every comparison of two metric lines starts from."""
    processes = max(processes_of(before), processes_of(after))
    return {"before_ns": before["median_ns"],
            "after_ns": after["median_ns"],
            "speedup": (before["median_ns"] / after["median_ns"]
                        if after["median_ns"] else None),
            "speedup_ci": None, "scope": scope_of(log, processes),
            "processes": processes}


def verdicts(log):
    """The claims met in one log, as dicts (also the JSON form)."""
    out = []
    for claim in CLAIMS:
        for before, after in claim_pairs(claim, log.metrics):
            both = sides(log, before, after)
            v = {"subject": claim["subject"], "what": claim["what"],
                 "suite": claim["suite"], "source": claim["source"],
                 "before": before.get(claim["key"]),
                 "after": after.get(claim["key"]),
                 "page_size": after.get("page_size"),
                 "mode": after.get("mode"), "chunk": after.get("chunk"),
                 "map": after.get("map"), "written": after.get("written"),
                 "bytes": after.get("bytes"),
                 "posted": claim["posted"],
                 "posted_speedup": claim["ratio"],
                 **both,
                 "p": None, "n_before": None,
                 "n_after": None, "significant": False, "test": None,
                 "cpu": log.header.get("cpu")}
            v = {k: x for k, x in v.items() if x is not None
                 or k in ("speedup_ci", "p", "posted_speedup", "cpu",
                          "speedup", "test")}
            v["verdict"] = judge_sides(v, before, after, posted_of(claim))
            ci = v["speedup_ci"]
            v["vs_posted"] = vs_posted(ci, posted_of(claim))
            if v["vs_posted"]:
                v["posted_in_ci"] = v["vs_posted"] == VS_WITHIN
            if v.get("speedup") and claim["ratio"]:
                v["measured_over_posted"] = v["speedup"] / claim["ratio"]
            states = state_verdicts(log, claim, before, after, v)
            if states:
                v["states"] = states
            out.append(v)
    return out


# ------------------------------------------------------ the machine's states
#
# lib/verdict.c judges a claim again in each state of one side's runs
# (verdict_judge_state(), publish_in_states()) and tests the fills and the
# probe against each strategy's states (verdict_follows()); these are the
# same rules, on the same samples, so that --check-verdicts can hold the
# log's lines to them.

# The fewest rounds a state is judged on (VERDICT_STATE_MIN_ROUNDS).
STATE_MIN_ROUNDS = 6
# The signed-rank test's bounds in lib/signed_rank.h: the fewest
# processes it is run on (SR_MIN_N) and the most (SR_MAX).
SR_MIN_N = 6
SR_MAX = 32


def config_of(rec):
    """The configuration a metric line (or a "# state"/"# follows" line)
    was measured in, as lib/verdict.c's lines name it: "page_size=64
    mode=fsdax map=dev" or "chunk=4096"."""
    if rec.get("page_size") is not None and rec.get("mode") is not None:
        return (f"page_size={rec['page_size']} mode={rec['mode']}"
                + (f" map={rec['map']}" if rec.get("map") else ""))
    return f"chunk={rec.get('chunk')}"


def contenders(log):
    """{configuration: {name: (line, kind)}}: the lines a benchmark fed
    to lib/verdict.c together, with their samples: the strategies of a
    bench_memmap_init configuration (kind "strategy"), the fills that
    gave its limit ("fill") and its probe ("probe"); the methods of a
    bench_nocache_copy chunk size ("strategy")."""
    out = {}
    for rec in log.metrics:
        suite = rec["suite"]
        if suite == "bench_memmap_init":
            name, kind = rec.get("strategy"), "strategy"
        elif suite == "bench_nocache_copy":
            name, kind = rec.get("method"), "strategy"
        elif suite in ("bench_limit", "bench_probe") and \
                rec.get("for") == "bench_memmap_init":
            name = rec.get("strategy")
            kind = "fill" if suite == "bench_limit" else "probe"
        else:
            continue
        if name is not None and samples_of(rec):
            out.setdefault(config_of(rec), {})[name] = (rec, kind)
    return out


def state_lines(log):
    """{(configuration, name): States} of every contender whose runs fall
    into several states: what the log's "# state" lines name."""
    out = {}
    for where, cs in contenders(log).items():
        for name, (rec, _) in cs.items():
            st = states_of_line(rec)
            if st.nr >= 2:
                out[(where, name)] = st
    return out


def states_of_line(rec):
    """The States of a metric line's runs, its processes' blocks apart
    (find_states()): found once a line, however many of a log's
    readings (its state lines, the claims' chosen rounds, its
    sentences) ask for them."""
    samples = samples_of(rec)
    return _states(tuple(samples) if samples else None, processes_of(rec))


@functools.lru_cache(maxsize=4096)
def _states(samples, processes):
    # (a shared States: its readers never change it)
    return find_states(list(samples) if samples else None, processes)


# The end of the "# states:" sentence of runs whose groups are whole
# processes (lib/verdict.c's print_processes_differ()).
PROCESSES_DIFFER = "the processes differ (no process saw both)"


def processes_differ(log):
    """The "# states:" sentences of every contender whose runs fall into
    groups that are whole processes: no state, the processes differing
    (lib/verdict.c's print_processes_differ())."""
    out = []
    for where, cs in contenders(log).items():
        for name, (rec, _) in cs.items():
            st = states_of_line(rec)
            if st.nr == 1 and st.groups > 1:
                out.append(f"{name}'s runs fall into {st.groups} groups, "
                           f"{fixed_half_up(st.groups_apart, RATIO_SCALE, 2)}"
                           f"x apart ({where}): {PROCESSES_DIFFER}")
    return out


def paired(x, y):
    """Whether the lines @x and @y ran in the same rounds, so that their
    runs pair up by index (paired() of lib/verdict.c): as many runs, at
    most MAX_RUNS, in as many processes."""
    sx, sy = samples_of(x), samples_of(y)
    return (bool(sx and sy) and len(sx) == len(sy) <= MAX_RUNS
            and processes_of(x) == processes_of(y))


def rounds_in(xs, which, s):
    """The runs of @xs in the rounds whose state (@which, each round's)
    is @s, in round order (runs_in())."""
    return [x for x, w in zip(xs, which) if w == s]


def follow(x, y, st, alpha=None):
    """Whether the line @y, measured in the same rounds as @x, follows
    @x's States @st: its runs in the rounds of the slowest state against
    those in the fastest, by the U test (verdict_follows()). A dict
    (rounds: [fast, slow], fast_ns, slow_ns: their integer medians,
    ratio: slow / fast in millionths rounded down, as a float; p; follows:
    "yes" when significantly slower in the slowest state, "no", or
    "untested" under MIN_SAMPLES runs a side), or None where the two
    cannot be compared."""
    if not paired(x, y) or st.nr < 2:
        return None
    sy = samples_of(y)
    fast = rounds_in(sy, st.which, 0)
    slow = rounds_in(sy, st.which, st.nr - 1)
    t = compare_samples(fast, slow, level.ALPHA if alpha is None else alpha)
    f = {"rounds": [len(fast), len(slow)],
         "fast_ns": int_median(fast) or 0, "slow_ns": int_median(slow) or 0,
         "ratio": None, "p": t["p"], "follows": "untested"}
    if f["fast_ns"]:
        f["ratio"] = f["slow_ns"] * RATIO_SCALE // f["fast_ns"] / RATIO_SCALE
    if t["testable"]:
        f["follows"] = ("yes" if t["significant"]
                        and f["slow_ns"] > f["fast_ns"] else "no")
    return f


def judged_states(log, vs=None):
    """Each strategy a claim was judged in the states of (the "side" of
    state_verdicts()), once a configuration, as publish_in_states()
    takes them: (where, by, mine: contenders(log)[where], st: the States
    of by's runs). @vs: verdicts(log), where the caller has them."""
    cs = contenders(log)
    done = set()
    for v in verdicts(log) if vs is None else vs:
        where = config_of(v)
        by = v.get("states", {}).get("side")
        mine = cs.get(where, {})
        if by is None or (where, by) in done or by not in mine:
            continue
        done.add((where, by))
        yield where, by, mine, states_of_line(mine[by][0])


def follows(log, vs=None):
    """Each fill and probe of a configuration against the states of each
    strategy there that a claim was judged in (judged_states()): [dict]
    of follow() with kind ("fill" or "probe"), name, states_of (the
    strategy) and where (its configuration). @vs: verdicts(log), where
    the caller has them."""
    out = []
    for where, by, mine, st in judged_states(log, vs):
        for yname, (y, ykind) in mine.items():
            f = follow(mine[by][0], y, st) if ykind != "strategy" else None
            if f:
                f.update(kind=ykind, name=yname, states_of=by, where=where)
                out.append(f)
    return out


def vs_slow_ratio(slow, x):
    """slow's integer median over @x's, in millionths rounded down, as a
    float; None where lib/verdict.c prints "-" (x's median 0, or a
    ratio that rounds down to 0)."""
    mx = int_median(x) or 0
    r = (int_median(slow) or 0) * RATIO_SCALE // mx if mx else 0
    return r / RATIO_SCALE if r else None


def state_vs_slow(log, vs=None):
    """Each strategy's speed-up over slow in each state of each strategy
    a claim was judged in (judged_states(), as print_vs_slow(): nothing
    where slow did not run in the same rounds): [dict] of where, by,
    state ("1/2"), rounds and ratios ({strategy: vs_slow_ratio() over the
    state's rounds; None where not comparable})."""
    out = []
    for where, by, mine, st in judged_states(log, vs):
        slow = mine.get("slow", (None,))[0]
        if slow is None or not paired(slow, mine[by][0]):
            continue
        ss = samples_of(slow)
        for s in range(st.nr):
            ratios, rounds = {}, 0
            for name, (rec, kind) in mine.items():
                if kind != "strategy" or name == "slow":
                    continue
                ratios[name], rounds = None, 0
                if not paired(slow, rec):
                    continue
                a = rounds_in(ss, st.which, s)
                rounds = len(a)
                ratios[name] = vs_slow_ratio(
                    a, rounds_in(samples_of(rec), st.which, s))
            out.append({"where": where, "by": by,
                        "state": f"{s + 1}/{st.nr}", "rounds": rounds,
                        "ratios": ratios})
    return out


def probe_follows(log):
    """{configuration: {strategy}}: where a strategy of @log ran in
    states, the strategies whose states the probe was shown to follow
    there, by the log's own "# follows" lines (follows=yes, with a
    states_of=) or by follows(); an empty set where it was not shown to
    follow any."""
    out = {}
    for f in follows(log):
        out.setdefault(f["where"], set())
        if f["kind"] == "probe" and f["follows"] == "yes":
            out[f["where"]].add(f["states_of"])
    for t in log.own_follows:
        where = config_of(t)
        out.setdefault(where, set())
        if "probe" in t and t.get("follows") == "yes" and \
                t.get("states_of"):
            out[where].add(t["states_of"])
    return out


def judge_state(log, claim, v, sb, sa, processes, rounds, s, alpha):
    """The claim of verdict @v judged over the rounds in state @s
    (0-based) of @rounds (choose_rounds(): by, chosen, which: each
    round's state, nr), both sides' runs of those rounds (@sb, @sa,
    @processes processes, block after block), at the level @alpha, as
    verdict_judge_state(): a dict like a verdict's, with by, chosen,
    state (1-based), nr_states, rounds and alpha. Rounds a compared side
    chose are judged by the U test of the rounds alone ("seen" at
    most)."""
    which, nr = rounds["which"], rounds["nr"]
    np_ = max(processes, 1)
    per = len(sb) // np_
    b, a = rounds_in(sb, which, s), rounds_in(sa, which, s)

    def block(xs, p):
        return xs[p * per:(p + 1) * per]

    # The processes with a round in this state.
    procs = [p for p in range(np_) if s in block(which, p)] \
        if np_ > 1 else []
    sv = {k: v[k] for k in ("subject", "what", "suite", "source", "before",
                            "after", "page_size", "mode", "chunk", "map",
                            "written", "bytes", "posted", "posted_speedup",
                            "cpu")
          if k in v}
    sv.update(by=rounds["by"], chosen=rounds["chosen"], state=s + 1,
              nr_states=nr, rounds=len(b), alpha=alpha,
              before_ns=int_median(b), after_ns=int_median(a),
              speedup=None, speedup_ci=None, p=None,
              n_before=len(b), n_after=len(a), significant=False,
              scope=scope_of(log, 1),
              processes=len(procs) if np_ > 1 else 1, test=None)
    if sv["after_ns"]:
        sv["speedup"] = sv["before_ns"] / sv["after_ns"]
    if np_ > 1:
        sv["scope"] = SCOPE_ROUNDS
    if len(b) < STATE_MIN_ROUNDS:
        sv["why"] = (f"{len(b)} rounds in this state, fewer than "
                     f"{STATE_MIN_ROUNDS}")
        sv["verdict"] = TOO_FEW
    elif 1 < np_ <= SR_MAX and per and len(sb) % np_ == 0 and \
            len(procs) >= SR_MIN_N and rounds["chosen"] != CHOSEN_COMPARED:
        sv["scope"] = SCOPE_PROCESSES

        def meds(xs):
            return [int_median(rounds_in(block(xs, p), block(which, p), s))
                    for p in procs]

        sv["verdict"] = judge_pairs(sv, meds(sb), meds(sa),
                                    posted_of(claim), alpha)
    else:
        sv["verdict"] = judge_one(sv, None, None, b, a, posted_of(claim),
                                  alpha)
    sv["vs_posted"] = vs_posted(sv["speedup_ci"], posted_of(claim))
    if sv.get("speedup") and claim["ratio"]:
        sv["measured_over_posted"] = sv["speedup"] / claim["ratio"]
    return sv


def state_name(s, nr):
    """How state @s (1-based) of @nr reads in a sentence."""
    if nr == 2:
        return "the slower" if s == 2 else "the faster"
    return f"state {s}/{nr}"


# What chose the rounds of a claim's states (lib/verdict.h's enum
# verdict_chosen): the probe, the majority of the other contenders, or a
# compared side (whose own noise picks its slow rounds: "seen" at most).
CHOSEN_PROBE, CHOSEN_MAJORITY, CHOSEN_COMPARED = (
    "probe", "majority", "compared")


def choose_rounds(mine, side, srec, st, before, after):
    """The rounds of a claim's states where its side @side (its line
    @srec, of the configuration whose contenders are @mine:
    contenders(log)[where]) ran in the States @st, as
    lib/verdict.c's choose_rounds(): the probe's own states where it
    follows @side's (follow()) and has as many; else each round's state
    by the majority of the contenders that are neither side (@before,
    @after) nor the probe, ran in the same rounds and have as many states
    of their own (a tie: None, the round in no state); else @side's own.
    A dict: by (a name, or "majority" of several), chosen, which, nr,
    voters (how many voted)."""
    out = {"by": side, "chosen": CHOSEN_COMPARED, "which": list(st.which),
           "nr": st.nr, "voters": 0}
    for name, (rec, kind) in mine.items():
        if kind != "probe":
            continue
        sp = states_of_line(rec)
        f = follow(srec, rec, st) if sp.nr == st.nr else None
        if f and f["follows"] == "yes":
            out.update(by=name, chosen=CHOSEN_PROBE,
                       which=[states_of(sp, x) for x in samples_of(rec)])
            return out
    voters = []
    for name, (rec, kind) in mine.items():
        if kind == "probe" or name in (before, after) or \
                not paired(rec, srec):
            continue
        sx = states_of_line(rec)
        if sx.nr == st.nr:
            voters.append((name, samples_of(rec), sx))
    if not voters:
        return out
    which = []
    for i in range(len(samples_of(srec))):
        votes = [0] * st.nr
        for _, xs, sx in voters:
            votes[states_of(sx, xs[i])] += 1
        top = [s for s in range(st.nr) if votes[s] == max(votes)]
        which.append(top[0] if len(top) == 1 else None)
    out.update(by=voters[0][0] if len(voters) == 1 else "majority",
               chosen=CHOSEN_MAJORITY, which=which, voters=len(voters))
    return out


def chosen_words(rounds):
    """What chose the rounds, as the "# states:" sentence says it."""
    if rounds["chosen"] == CHOSEN_PROBE:
        return f"{rounds['by']}, the probe"
    if rounds["chosen"] == CHOSEN_MAJORITY:
        n = rounds["voters"]
        return (f"the majority of {n} other "
                f"{'contender' if n == 1 else 'contenders'}")
    return f"{rounds['by']}, a compared side: seen at most"


def holm_judged(judge, nr):
    """[judge(s, alpha) for each of @nr states], held to Holm's steps as
    lib/verdict.c's judge_states(): judged at the level first; then the
    states tested, by p (in parts per 10^9, then by state), each again at
    alpha / m, alpha / (m - 1), ..., and each after one that found nothing
    at that one's level. p is taken in millionths, as the lines print it
    (the C's p_ppb and this float agree to that, not to the ppb), so
    that two states at p ~ 0 tie and go by state in both."""
    alpha_ppb = round(level.ALPHA * 1e9)
    svs = [judge(s, alpha_ppb / 1e9) for s in range(nr)]
    tested = sorted((s for s in range(nr)
                     if svs[s]["verdict"] not in (UNTESTED, TOO_FEW)),
                    key=lambda s: (int(svs[s]["p"] * 1e6 + 0.5), s))
    m, held, at = len(tested), True, alpha_ppb
    for k, s in enumerate(tested if m > 1 else []):
        if held:
            at = alpha_ppb // (m - k)
        svs[s] = judge(s, at / 1e9)
        held = held and svs[s]["significant"]
    return svs


def state_verdicts(log, claim, before, after, v):
    """The claim of verdict @v (lines @before, @after) judged in each
    state of its before side's runs, else of its after side's, over the
    rounds choose_rounds() gives, as publish_in_states(): a dict (side,
    by, chosen, voters, nr, apart, states: [[runs, median, low, high]] of
    the side's, verdicts: judge_state() of each, held to Holm's steps,
    sentence: the "# states:" line's words), or None where neither side
    has states or the rounds do not pair."""
    if not paired(before, after):
        return None
    sb, sa = samples_of(before), samples_of(after)
    side, st = before, states_of_line(before)
    if st.nr < 2:
        side, st = after, states_of_line(after)
    if st.nr < 2:
        return None
    name = side.get(claim["key"])
    mine = contenders(log).get(config_of(before), {})
    rounds = choose_rounds(mine, name, side, st, v["before"], v["after"])
    svs = holm_judged(
        lambda s, alpha: judge_state(log, claim, v, sb, sa,
                                     processes_of(before), rounds, s,
                                     alpha), st.nr)
    apart = states_apart(st) / RATIO_SCALE
    said = "; ".join(
        f"in {state_name(sv['state'], st.nr)} ({sv['rounds']} rounds) "
        f"{sv['speedup'] or 0:.2f}x, {sv['verdict']}" for sv in svs)
    return {"side": name, "by": rounds["by"], "chosen": rounds["chosen"],
            "voters": rounds["voters"], "nr": st.nr, "apart": apart,
            "states": [list(x) for x in st.states], "verdicts": svs,
            "sentence": f"{name} ran in {st.nr} states, {apart:.2f}x apart "
                        f"({config_of(before)}); rounds by "
                        f"{chosen_words(rounds)}; {v['before']} -> "
                        f"{v['after']}: {said}"}


def fmt_x(v):
    return "-" if v is None else f"{v:.2f}x"


def unit_of(v):
    """What replicates in a verdict, as the report says it."""
    if v.get("scope") == SCOPE_PROCESSES:
        return f"{v['processes']} processes"
    if v.get("scope") == SCOPE_ROUNDS:
        return f"rounds of {v['processes']} processes"
    return "one boot" if v.get("scope") == SCOPE_BOOT else "one process"


def states_part(log, vs):
    """The verdicts of @vs (one log's) judged in each state of a side in
    states, and whether the fills and the probe follow those states:
    Markdown, nothing where no side has states."""
    ins = [v for v in vs if "states" in v]
    if not ins:
        return []
    out = ["", "#### In the machine's states", "",
           "Where one side's runs fall into separate states, some "
           "process seeing two (the before side's taken first; "
           "docs/statistics.md, \"States\"), the claim is judged again "
           "in each, both sides' runs of a round together. The rounds of "
           "each state are chosen by what the claim does not compare: the "
           "probe where it follows the states, else the majority of the "
           "other contenders in as many states; only where neither can, "
           "by the side itself, and then no more than \"seen\". A state "
           f"is judged by the processes with a round in it where "
           f"{SR_MIN_N} or more have one, else by the U test of its "
           f"rounds (**{SEEN_ROUNDS}**, **{SEEN_REVERSED_ROUNDS}**), and "
           f"under {STATE_MIN_ROUNDS} rounds not at all (**{TOO_FEW}**); "
           "the states' tests are held to Holm's steps for their number "
           "(the level column). The verdict over every round, above, "
           "stands beside them.", ""]
    out += [f"- {v['states']['sentence']}" for v in ins]
    table = []
    for v in ins:
        for sv in v["states"]["verdicts"]:
            table.append([
                f"{v['before']} -> {v['after']} {where_of(v)}",
                f"{sv['by']} {sv['state']}/{sv['nr_states']}",
                str(sv["rounds"]),
                f"{fmt_ns(sv['before_ns'])} -> {fmt_ns(sv['after_ns'])}",
                fmt_x(sv["speedup"]), fmt_ci(sv["speedup_ci"], fmt_x),
                fmt_p(sv["p"]), fmt_alpha(sv["alpha"]), unit_of(sv),
                f"**{sv['verdict']}**"])
    out += ["", md_table(["lines", "state", "rounds", "here", "here x",
                          ci_title(), "p", "level", "unit", "verdict"],
                         table, "lllrrrrrll")]
    fl = follows(log, vs)
    said = []
    for v in ins:
        where, by = config_of(v), v["states"]["side"]
        if (where, by) in said:
            continue
        said.append((where, by))
        mine = [f for f in fl if f["where"] == where
                and f["states_of"] == by]
        if not mine:
            continue
        words = []
        for word, title in (("yes", "following"), ("no", "not following"),
                            ("untested", "untested")):
            some = [f"{f['name']} {fmt_x(f['ratio'])}"
                    + (f" (p={fmt_p(f['p'])})" if f["p"] is not None
                       else "")
                    for f in mine if f["follows"] == word]
            if some:
                words.append(f"{title}: {', '.join(some)}")
        out += ["", f"Against {by}'s states ({where}), the fills' and the "
                "probe's runs in its slowest state's rounds over those in "
                "its fastest (U test): " + "; ".join(words) + "."]
    for r in state_vs_slow(log, vs):
        out += ["", f"vs_slow in {r['by']}'s state {r['state']} "
                f"({r['where']}, {r['rounds']} rounds): "
                + ", ".join(f"{name} {fmt_x(x)}"
                            for name, x in r["ratios"].items()) + "."]
    return out


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
           "ratio is not 1). Where the test finds the after side faster, "
           "the word judges the size: where the posted speed-up R lies "
           f"against the interval: **{CONFIRMED}** (R inside it), "
           f"**{BEYOND}** (R below it: faster than posted), **{SHORT}** (R "
           f"above it: a speed-up, smaller than posted), **{FASTER}** (no "
           f"posted figure, or no interval); **{REVERSED}** (significant, "
           f"the other way), **{SPLIT}** (not significant, processes on "
           f"both sides of 1), **{NOT_CONFIRMED}**, {UNTESTED}. Where it "
           "ran one process (ntbench) or one boot (the image), its samples "
           "are not independent of that process: the Hodges-Lehmann "
           "interval of the pairwise ratios of the samples and a two-sided "
           "Mann-Whitney U test say what was seen there and no more, by "
           f"the same rule: **{SEEN_PROCESS}** / **{SEEN_BOOT}** (R inside "
           f"the interval), **{WORDS['short'][SCOPE_PROCESS]}**, "
           f"**{SEEN_REVERSED_PROCESS}** and so on; "
           f"**{NOT_CONFIRMED}**, {UNTESTED} (no samples, or fewer than "
           f"{MIN_SAMPLES} a side). In CI says whether the posting's ratio "
           "lies inside the interval measured here (manifest/verdicts.yaml "
           "lists every word)."]
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
            table.append([v["subject"], v["what"], v["source"],
                          f"{v['before']} -> {v['after']} {where}",
                          v["posted"], fmt_x(v["posted_speedup"]), here,
                          fmt_x(v["speedup"]), mop,
                          fmt_ci(v["speedup_ci"], fmt_x),
                          fmt_p(v["p"]), n, unit_of(v), inci,
                          f"**{v['verdict']}**"])
        out.append(md_table(["claim", "what", "source", "lines here",
                             "posted", "posted x", "here", "here x",
                             "here/posted", ci_title(), "p", "n", "unit",
                             "in CI", "verdict"],
                            table, "lllllrrrrrrrlll"))
        out += states_part(log, vs)
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


def line_problems(what, v, t):
    """[problem] where the verdict line @t (parsed) says other than the
    verdict @v recomputed here (@what names them)."""
    ci = v["speedup_ci"] or [None, None]
    word = v["verdict"]
    # A build before vs_posted= said the direction, not the size; one
    # before scope= said one process's words as the processes' words.
    if "vs_posted" not in t:
        word = OLD_SIZE_WORD.get(word, word)
    if "scope" not in t:
        word = OLD_WORD.get(word, word)
    # A build before source= judged the model's pairs alone
    # (check_verdicts() holds its log to those alone).
    extra = [("source", t.get("source", "model"), v["source"], None)]
    if "scope" in t:
        extra += [("scope", t["scope"], v["scope"], None),
                 ("processes", t.get("processes"), str(v["processes"]),
                  None)]
        if v["scope"] == SCOPE_PROCESSES or \
                t["scope"] == SCOPE_PROCESSES:
            extra.append(("test", t.get("test"), v.get("test") or "-",
                          None))
    if "vs_posted" in t:
        extra.append(("vs_posted", t["vs_posted"],
                      v.get("vs_posted") or "-", None))
    if "state" in v:
        extra = [("by", t.get("by"), v["by"], None),
                 ("chosen", t.get("chosen"), v["chosen"], None),
                 ("rounds", t.get("rounds"), str(v["rounds"]), None),
                 ("alpha", parsed_float(t.get("alpha")), v["alpha"], 1e-6)
                 ] + extra
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
    return value_problems(what, pairs)


def judges_the_kernel(log):
    """Whether the build that wrote @log judges the kernel's pairs: it
    printed source= on its verdict lines. One before source= judged the
    model's pairs alone (a log of the kernel's builds from then has no
    verdict line of theirs), and is held to those alone."""
    return any("source" in t for t in log.own_verdicts)


def check_verdicts(log):
    """[problem] between the log's own verdict lines and verdicts(log)."""
    ours = {}
    vs = verdicts(log)
    if not judges_the_kernel(log):
        vs = [v for v in vs if v["source"] != "kernel"]
    for v in vs:
        ours[verdict_key(v["subject"], v["before"], v["after"],
                         where_of(v))] = v
    theirs = {verdict_key(t.get("claim"), t.get("before"), t.get("after"),
                          where_of(t)): t
              for t in log.own_verdicts}
    problems = keyed_problems(
        "verdict", ours, theirs, line_problems,
        lambda k: f"{k[1]} -> {k[2]} {k[3]} ({k[0]})")
    return (problems + check_process_lines(log)
            + check_state_lines(log, vs))


def prints_states(log):
    """Whether the build that wrote @log prints the machine's states: it
    printed a "# state", "# state-verdict" or "# follows" line, or a
    bench_probe line (timed beside them). An older build's log is not
    held to lines it could not print."""
    return ((any(getattr(log, attr) for _, attr in STATE_LINES)
             or any(r["suite"] == "bench_probe" for r in log.metrics))
            and not states_before_chosen(log))


def states_before_chosen(log):
    """Whether @log's build found states by the runs alone, processes
    apart, and judged them in rounds a compared side chose: its
    "# state-verdict" lines have no chosen=, or its "# state" lines no
    seen_in=. It is not held to today's rules. (A log of that build with
    no state line at all cannot be told apart, and is held to them.)"""
    return (any("chosen" not in t for t in log.own_state_verdicts)
            or any("seen_in" not in t for t in log.own_states))


def keyed_problems(kind, ours, theirs, compare, name=None):
    """[problem] between two {key: item} of one kind of line: those only
    one side has, and compare(what, ours, theirs) of the rest; @name
    says a key in words (its parts, space-separated, by default)."""
    name = name or (lambda k: " ".join(map(str, k)))
    problems = [f"no {kind} line for {name(k)}"
                for k in sorted(ours.keys() - theirs.keys(), key=str)]
    problems += [f"a {kind} line the metric lines do not give: {name(k)}"
                 for k in sorted(theirs.keys() - ours.keys(), key=str)]
    for key in sorted(ours.keys() & theirs.keys(), key=str):
        problems += compare(name(key), ours[key], theirs[key])
    return problems


def value_problems(what, pairs):
    """[problem] of (name, printed, recomputed, tolerance or None)."""
    return [f"{what}: {name} here {got}, from the metric lines {want}"
            for name, got, want, tol in pairs
            if not (got == want if tol is None else close(got, want, tol))]


# The keys of a "# vs_slow" line that are not a strategy's name: its
# side in states, configuration (format_where()), state and rounds.
VS_SLOW_KEYS = ("by", "page_size", "mode", "map", "chunk", "state",
                "rounds")


def check_state_lines(log, vs=None):
    """[problem] between the log's "# state", "# state-verdict",
    "# follows" and "# vs_slow" lines and state_lines(), the states in
    verdicts(), follows() and state_vs_slow() (nothing for a build that
    prints none of them)."""
    if not prints_states(log):
        return []
    vs = verdicts(log) if vs is None else vs
    ours = {(where, name, f"state={s + 1}/{st.nr}"): (st, s)
            for (where, name), st in state_lines(log).items()
            for s in range(st.nr)}
    theirs = {(config_of(t), t.get("strategy"), f"state={t.get('state')}"): t
              for t in log.own_states}

    def state_line(what, o, t):
        st, s = o
        runs, med, low, high = st.states[s]
        return value_problems(what, [
            ("seen_in", t.get("seen_in"), str(st.seen_in), None),
            ("runs", t.get("runs"), str(st.n), None),
            ("state_runs", t.get("state_runs"), str(runs), None),
            ("median_ns", t.get("median_ns"), str(med), None),
            ("low_ns", t.get("low_ns"), str(low), None),
            ("high_ns", t.get("high_ns"), str(high), None),
            ("apart", parsed_float(t.get("apart")),
             states_apart(st) / RATIO_SCALE, 0.0006)])

    problems = keyed_problems("state", ours, theirs, state_line)
    ours = {}
    for v in vs:
        for sv in v.get("states", {}).get("verdicts", []):
            ours[verdict_key(v["subject"], v["before"], v["after"],
                             config_of(v))
                 + (f"state={sv['state']}/{sv['nr_states']}",)] = sv
    theirs = {verdict_key(t.get("claim"), t.get("before"), t.get("after"),
                          config_of(t)) + (f"state={t.get('state')}",): t
              for t in log.own_state_verdicts}
    problems += keyed_problems(
        "state-verdict", ours, theirs, line_problems,
        lambda k: f"{k[1]} -> {k[2]} {k[3]} {k[4]} ({k[0]})")
    ours = {(f["kind"], f["name"], f["states_of"], f["where"]): f
            for f in follows(log, vs)}
    theirs = {}
    for t in log.own_follows:
        kind = "probe" if "probe" in t else "fill"
        theirs[(kind, t.get(kind), t.get("states_of"), config_of(t))] = t

    def follows_line(what, f, t):
        return value_problems(what, [
            ("rounds", t.get("rounds"), "+".join(map(str, f["rounds"])),
             None),
            ("fast_median_ns", t.get("fast_median_ns"), str(f["fast_ns"]),
             None),
            ("slow_median_ns", t.get("slow_median_ns"), str(f["slow_ns"]),
             None),
            ("ratio", parsed_float(t.get("ratio")), f["ratio"], 0.0006),
            ("p", parsed_float(t.get("p")), f["p"], 1e-6),
            ("follows", t.get("follows"), f["follows"], None)])

    problems += keyed_problems("follows", ours, theirs, follows_line)
    ours = {x: x for x in processes_differ(log)}
    theirs = {x: x for x in log.own_states_said
              if x.endswith(PROCESSES_DIFFER)}
    problems += keyed_problems("processes-differ \"# states:\"", ours,
                               theirs, lambda what, o, t: [], str)
    ours = {(r["where"], r["by"], r["state"]): r
            for r in state_vs_slow(log, vs)}
    theirs = {(config_of(t), t.get("by"), t.get("state")): t
              for t in log.own_vs_slow}

    def vs_slow_line(what, r, t):
        names = [k for k in t if k not in VS_SLOW_KEYS]
        return value_problems(what, [
            ("rounds", t.get("rounds"), str(r["rounds"]), None),
            ("strategies", " ".join(sorted(names)) or "-",
             " ".join(sorted(r["ratios"])) or "-", None)] + [
            (name, parsed_float(t.get(name)), x, 0.0006)
            for name, x in r["ratios"].items() if name in t])

    return problems + keyed_problems("vs_slow", ours, theirs, vs_slow_line)


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
