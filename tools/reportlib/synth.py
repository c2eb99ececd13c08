# SPDX-License-Identifier: GPL-2.0-only
"""Logs to test the report on, for its unit tests (test_*.py) and the
readers' random-input loop (tests/fuzz/readers_fuzz.py): sample logs
shaped like the image's and ntbench's output, logs generated with
samples of a known median and spread (in one process, or in several
with offsets of their own), and the image's "# verdict" lines.
"""
import math
import random

from reportlib.formatting import fmt_alpha
from reportlib.logs import parse_log, parse_logfmt
from reportlib.stats import int_median, median


# Synthetic logs with samples, for the statistics checks of --selftest:
# each line's runs 2..N drawn from a log-normal distribution of a known
# median and spread (CV), from a seeded generator.

def synth_samples(rng, med, cv, n):
    return [max(1, round(med * math.exp(rng.gauss(0, cv))))
            for _ in range(n)]


def synth_line(rng, ident, med, cv, n, limit_ns=None, drift=None,
               processes=None, factors=None):
    """One '# metric' line: @ident the keys that say what was measured
    (with bytes= and, for memmap lines, pages=); @drift: the machine's
    speed in each quarter of the run, as factors. @processes: None, a
    line of a build before processes= (one process); else processes=
    and, from 2, @n warm runs in each process, process k's at @med
    times @factors[k], printed as ntbench prints them."""
    p = processes or 1
    if p > 1:
        xs = []
        for k in range(p):
            xs += synth_samples(rng, med * (factors[k] if factors else 1),
                                cv, n)
    else:
        xs = synth_samples(rng, med, cv, n)
    if drift:
        xs = [round(x * drift[i * 4 // len(xs)]) for i, x in enumerate(xs)]
    fields = parse_logfmt(ident)
    s = sorted(xs)
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    m = round(median(xs))
    line = (f"# metric {ident} runs={n + 1} first_ns={round(med * 3)} "
            f"median_ns={m} min_ns={s[0]} max_ns={s[-1]} "
            f"mean_ns={round(mean)} stddev_ns={round(sd)}")
    if "pages" in fields:
        line += f" ns_per_page={m / int(fields['pages']):.3f}"
    if "bytes" in fields:
        line += f" gbps={int(fields['bytes']) / m:.2f}"
        line += f" mbps={int(fields['bytes']) * 1000 / m:.0f}"
    if limit_ns:
        line += (f" limit_frac={limit_ns / m:.3f} limit=limit_nt256 "
                 "limit_best=limit_nt256")
    if processes is None:
        return line + " samples_ns=" + ",".join(map(str, xs)) + " node=0"
    line += f" node=0 processes={p}"
    if p > 1:
        meds = [int_median(xs[k * n:(k + 1) * n]) for k in range(p)]
        mid = int_median(meds)
        line += (f" proc_medians_ns={','.join(map(str, meds))}"
                 f" proc_spread={(max(meds) - min(meds)) / mid:.3f}")
    return line + " samples_ns=" + ",".join(map(str, xs))


SYNTH_MEMMAP = ("suite=bench_memmap_init strategy={} page_size={} "
                "layout={} mode={} pages=26214400 written=26214400 "
                "bytes={} drain=on")
SYNTH_NOCACHE = ("suite=bench_nocache_copy method={} chunk=4096 "
                 "bytes=67108864 dest_bytes=1073741824 "
                 "copy_clean=copy_clean_clwb drain=each_chunk")


SYNTH_LIMIT = "suite=bench_limit strategy={} variant={} bytes=1677721600"


def synth_log(seed, cpu, memmap, nocache=(), n=15, cv=0.10, drift=None,
              limit=(), processes=None, machine_cv=0.0, placement_cv=0.0,
              platform="host"):
    """@memmap: [(strategy, page size, mode, median ns[, factors])];
    @nocache: [(method, median ns[, factors])]; @limit: [(fill, variant,
    median ns)]; @drift: as for synth_line(), the same for every line.
    @processes: as for synth_line(); with 2 or more, @n warm runs a
    process, and each process k runs at a speed of its own: a factor
    for the whole process (the machine that day, log-normal of spread
    @machine_cv, the same for every line), times one for each line in
    it (where its buffers landed, log-normal of spread @placement_cv,
    drawn alike for every line, so that two lines differ by nothing
    systematic), times a line's planted @factors[k] where it has them.
    @platform: the header's platform=, None for none (the image).
    Returns the text of a log."""
    rng = random.Random(seed)
    p = processes or 1
    # One process draws nothing more, so that a seed gives the logs it
    # gave before processes= was printed.
    machine = [math.exp(rng.gauss(0, machine_cv)) for _ in range(p)] \
        if p > 1 else [1.0]

    def line(ident, med, planted=None, **kw):
        factors = [machine[k] * math.exp(rng.gauss(0, placement_cv))
                   * (planted[k] if planted else 1)
                   for k in range(p)] if p > 1 else None
        return synth_line(rng, ident, med, cv, n, processes=processes,
                          factors=factors, **kw)

    where = f" platform={platform}" if platform else ""
    out = ["KTAP version 1", "1..2",
           f'# ntboot 0.1+gSYNTH{where} cpu="{cpu}" smp=2']
    if p > 1:
        out += [f"# process {k + 1}/{p} seed={seed * 100 + k} pid={4000 + k}"
                for k in range(p)]
    for strategy, size, mode, med, *planted in memmap:
        ident = SYNTH_MEMMAP.format(strategy, size, size, mode,
                                    26214400 * size)
        out.append(line(ident, med, *planted, limit_ns=60e6 * size / 64,
                        drift=drift))
    for method, med, *planted in nocache:
        out.append(line(SYNTH_NOCACHE.format(method), med, *planted,
                        drift=drift))
    for fill, variant, med in limit:
        out.append(line(SYNTH_LIMIT.format(fill, variant), med,
                        drift=drift))
    out.append("ntboot: 2 passed, 0 failed, 0 skipped")
    return "\n".join(out) + "\n"


# A Zen 5 class machine as the issue saw it: the template copied with
# memcpy() beats the non-temporal one; copy-then-flush and the nocache
# copy alike.
ZEN5 = "AMD Ryzen 9 9950X 16-Core Processor"
ZEN5_MEMMAP = [("slow", 64, "fsdax", 300e6),
               ("tmpl_memcpy", 64, "fsdax", 82e6),
               ("tmpl_nt_generic", 64, "fsdax", 184e6),
               ("tmpl_nt_fixed", 64, "fsdax", 124e6)]
ZEN5_NOCACHE = [("copy_clean_clwb", 16e6), ("nocache", 16e6)]


def drifting_run(rng, med, cv, n, regimes):
    """@n samples in run order from a machine that moves between the
    speeds in @regimes (factors), changing at most at each quarter."""
    out = []
    for q in range(4):
        f = rng.choice(regimes)
        m = (q + 1) * n // 4 - q * n // 4
        out += [x * f for x in synth_samples(rng, med, cv, m)]
    return [max(1, round(x)) for x in out]


# Runs of one state or of several, for the states' rule (reportlib.states,
# lib/states.c): its unit tests, tools/stats-check's comparison of the
# two and its table of how often each kind of runs is split.

def t3(rng):
    """A draw of Student's t with 3 degrees of freedom."""
    chi2 = sum(rng.gauss(0, 1) ** 2 for _ in range(3))
    return rng.gauss(0, 1) / math.sqrt(chi2 / 3)


def one_state(rng, kind, n, base=1_000_000):
    """@n runs of one state around @base ns: "normal" (5% spread),
    "lognormal" (sigma 0.3), "uniform" (80 to 140), "exponential"
    (100 + 20 Exp(1)), "t3" (exp(0.03 t3)) or "skewed" (exp(|0.2 N|));
    the last four in hundredths of @base."""
    draw = {
        "normal": lambda: 1 + 0.05 * rng.gauss(0, 1),
        "lognormal": lambda: math.exp(0.3 * rng.gauss(0, 1)),
        "uniform": lambda: rng.uniform(0.8, 1.4),
        "exponential": lambda: 1 + 0.2 * rng.expovariate(1),
        "t3": lambda: math.exp(0.03 * t3(rng)),
        "skewed": lambda: math.exp(abs(0.2 * rng.gauss(0, 1))),
    }[kind]
    return [max(1, round(base * draw())) for _ in range(n)]


def planted_states(rng, centres, counts, spread):
    """Runs of planted states: counts[i] runs around centres[i] ns with
    a normal @spread (a fraction of the centre), shuffled."""
    out = []
    for c, k in zip(centres, counts):
        out += [max(1, round(c * (1 + spread * rng.gauss(0, 1))))
                for _ in range(k)]
    rng.shuffle(out)
    return out


def mixed_states(rng, n, ratio, spread, slow, base=1_000_000):
    """@n runs, each in the slow state (@ratio times @base) with
    probability @slow, else in the fast one (@base), with a normal
    @spread in each."""
    slow_runs = sum(rng.random() < slow for _ in range(n))
    return planted_states(rng, (base, base * ratio), (n - slow_runs,
                                                      slow_runs), spread)


def process_runs(rng, processes, runs, between, within, drift=0.0,
                 base=1_000_000):
    """One state's runs as a default run has them: @processes processes
    of @runs runs, block after block; each process's centre @base times
    (1 + @between N + @drift p) (N normal, p the process's index), each
    run its centre with a normal @within spread."""
    out = []
    for p in range(processes):
        centre = base * (1 + between * rng.gauss(0, 1) + drift * p)
        out += [max(1, round(centre * (1 + within * rng.gauss(0, 1))))
                for _ in range(runs)]
    return out


def switching_runs(rng, processes, runs, ratio, spread, slow, between,
                   base=1_000_000):
    """Two states switching within processes: @processes processes of
    @runs runs, each process's centre @base times (1 + @between N), each
    run in the slow state (@ratio times the centre) with probability
    @slow, with a normal @spread in each."""
    out = []
    for _ in range(processes):
        centre = base * (1 + between * rng.gauss(0, 1))
        for _ in range(runs):
            c = centre * ratio if rng.random() < slow else centre
            out.append(max(1, round(c * (1 + spread * rng.gauss(0, 1)))))
    return out


def own_verdict_line(v, word=None, scope=None, old=False):
    """A "# verdict" line as lib/verdict.c prints it, from verdicts():
    @word, @scope in place of the verdict's own; @old: as a build before
    scope= printed it (no scope=, processes=, test=, vs_posted=,
    source=)."""
    where = (f"page_size={v['page_size']} mode={v['mode']}"
             if "page_size" in v else f"chunk={v['chunk']}")
    ci = v["speedup_ci"]
    ci = (f"ci_low={ci[0]:.3f} ci_high={ci[1]:.3f}" if ci
          else "ci_low=- ci_high=-")
    p = "-" if v["p"] is None else f"{v['p']:.6f}"
    unit = "" if old else (f'scope={scope or v["scope"]} '
                           f'processes={v["processes"]} ')
    test = "" if old else f'test={v.get("test") or "-"} '
    size = "" if old else f'vs_posted={v.get("vs_posted") or "-"} '
    source = "" if old else f'source={v["source"]} '
    return (f'    # verdict claim="{v["subject"]}" what="{v["what"]}" '
            f'before={v["before"]} after={v["after"]} {source}{where} '
            f'speedup={v["speedup"]:.3f} {ci} {size}p={p} {unit}'
            f'n={v["n_before"]}+{v["n_after"]} {test}'
            f'verdict="{word or v["verdict"]}"\r')


# SAMPLE logs for --selftest: the numbers are made up (only parsing and
# formatting are tested), shaped like the real output of the image and of
# ntbench.
SAMPLE_IMAGE_A = """\x1b[2J\x1b[01;01HBdsDxe: starting Boot0001\r
KTAP version 1\r
1..2\r
# ntboot 0.1+gSAMPLE cpu="SAMPLE CPU @ 2.00GHz" family=6 model=106 tsc_khz=2000000 tsc_source=cpuid15 smp=4\r
  KTAP version 1\r
  # Subtest: bench_limit\r
# metric suite=bench_limit strategy=limit_nt512 variant=tmpl_avx512_64 bytes=1677721600 runs=30 first_ns=90000000 median_ns=80000000 min_ns=79000000 max_ns=81000000 mean_ns=80000000 stddev_ns=500000 gbps=20.97 eff_mhz=2401 node=0\r
ok 1 bench_limit\r
  # Subtest: bench_memmap_init\r
# metric suite=bench_memmap_init strategy=slow page_size=64 layout=64 mode=fsdax pages=26214400 written=26214400 bytes=1677721600 runs=30 first_ns=1456000000 median_ns=244280000 min_ns=240000000 max_ns=250000000 mean_ns=244300000 stddev_ns=2000000 ns_per_page=9.319 gbps=6.87 limit_frac=0.327 limit=limit_nt512 drain=on eff_mhz=2398 node=0\r
# metric suite=bench_memmap_init strategy=tmpl_memcpy page_size=64 layout=64 mode=fsdax pages=26214400 written=26214400 bytes=1677721600 runs=30 first_ns=1300000000 median_ns=150830000 min_ns=150000000 max_ns=152000000 mean_ns=150900000 stddev_ns=500000 ns_per_page=5.754 gbps=11.12 limit_frac=0.530 limit=limit_nt512 drain=on eff_mhz=2400 node=0\r
# metric suite=bench_memmap_init strategy=tmpl_nt_fixed page_size=64 layout=64 mode=fsdax pages=26214400 written=26214400 bytes=1677721600 runs=30 first_ns=1272000000 median_ns=96790000 min_ns=95000000 max_ns=98000000 mean_ns=96800000 stddev_ns=400000 ns_per_page=3.692 gbps=17.33 limit_frac=0.826 limit=limit_nt512 drain=on eff_mhz=2399 node=0\r
# metric suite=bench_memmap_init strategy=slow page_size=80 layout=80-cpupid mode=fsdax pages=26214400 written=26214400 bytes=2097152000 runs=30 first_ns=1500000000 median_ns=300000000 min_ns=299000000 max_ns=301000000 mean_ns=300000000 stddev_ns=100000 ns_per_page=11.444 gbps=6.99 limit_frac=0.333 limit=limit_nt512 drain=on eff_mhz=2395 node=0\r
# metric suite=bench_memmap_init strategy=tmpl_nt_fixed page_size=80 layout=80-cpupid mode=fsdax pages=26214400 written=26214400 bytes=2097152000 runs=30 first_ns=1400000000 median_ns=120000000 min_ns=119000000 max_ns=121000000 mean_ns=120000000 stddev_ns=100000 ns_per_page=4.578 gbps=17.48 limit_frac=0.833 limit=limit_nt512 drain=on eff_mhz=2402 node=0\r
ok 2 bench_memmap_init\r
ntboot: 2 passed, 0 failed, 0 skipped\r
"""

# The same machine after a change: the fixed template got faster.
SAMPLE_IMAGE_B = SAMPLE_IMAGE_A.replace(
    "strategy=tmpl_nt_fixed page_size=64 layout=64 mode=fsdax "
    "pages=26214400 written=26214400 bytes=1677721600 runs=30 "
    "first_ns=1272000000 median_ns=96790000",
    "strategy=tmpl_nt_fixed page_size=64 layout=64 mode=fsdax "
    "pages=26214400 written=26214400 bytes=1677721600 runs=30 "
    "first_ns=1200000000 median_ns=80000000").replace(
    "strategy=slow page_size=64 layout=64 mode=fsdax pages=26214400 "
    "written=26214400 bytes=1677721600 runs=30 first_ns=1456000000 "
    "median_ns=244280000",
    "strategy=slow page_size=64 layout=64 mode=fsdax pages=26214400 "
    "written=26214400 bytes=1677721600 runs=5 first_ns=1456000000 "
    "median_ns=96790000")

SAMPLE_HOST = """KTAP version 1
1..2
# ntboot 0.1+gSAMPLE platform=host cpu="SAMPLE Xeon" vendor=GenuineIntel family=6 model=143 stepping=8 tsc_khz=2000000 tsc_source=clock_monotonic eff_clock=none smp=2 features=sse2,clwb
  KTAP version 1
  # Subtest: bench_nocache_copy
  1..6
# bench_nocache_copy: bytes counted = bytes written to the destination
# metric suite=bench_nocache_copy method=memcpy chunk=4096 bytes=67108864 dest_bytes=1073741824 runs=30 first_ns=7000000 median_ns=7000000 min_ns=6900000 max_ns=7100000 mean_ns=7000000 stddev_ns=10000 mbps=9587 gbps=9.59 speedup_vs_copy_clean=2.29 copy_clean=copy_clean_clwb node=0
# metric suite=bench_nocache_copy method=copy_clean_clwb chunk=4096 bytes=67108864 dest_bytes=1073741824 runs=30 first_ns=16000000 median_ns=16000000 min_ns=15900000 max_ns=16100000 mean_ns=16000000 stddev_ns=10000 mbps=4194 gbps=4.19 speedup_vs_copy_clean=1.00 copy_clean=copy_clean_clwb node=0
# metric suite=bench_nocache_copy method=nocache chunk=4096 bytes=67108864 dest_bytes=1073741824 runs=30 first_ns=6000000 median_ns=6000000 min_ns=5900000 max_ns=6100000 mean_ns=6000000 stddev_ns=10000 mbps=11185 gbps=11.18 speedup_vs_copy_clean=2.67 copy_clean=copy_clean_clwb node=0
# metric suite=bench_nocache_copy method=nocache chunk=64 bytes=67108864 dest_bytes=1073741824 runs=30 first_ns=360000000 median_ns=360000000 min_ns=359000000 max_ns=361000000 mean_ns=360000000 stddev_ns=10000 mbps=186 gbps=0.19 speedup_vs_copy_clean=0.88 copy_clean=copy_clean_clwb node=0
ok 1 bench_nocache_copy
  KTAP version 1
  # Subtest: bench_pollution
    # metric suite=bench_pollution strategy=slow buffer=l2 buffer_bytes=2097152 page_size=64 mode=fsdax memmap_bytes=1677721600 runs=5 warm_ns=35000 after_ns=300000 cold_ns=300000 after_first_ns=300000 evicted_pct=100.0 node=0
    # metric suite=bench_pollution strategy=tmpl_nt_fixed buffer=l2 buffer_bytes=2097152 page_size=64 mode=fsdax memmap_bytes=1677721600 runs=5 warm_ns=35000 after_ns=40000 cold_ns=300000 after_first_ns=41000 evicted_pct=1.9 node=0 warm_samples_ns=35000,34000,36000,35500 cold_samples_ns=300000,299000,301000,300500 samples_ns=40000,39000,41000,40500
    # metric suite=bench_pollution strategy=slow buffer=half_llc buffer_bytes=16777216 page_size=64 mode=fsdax memmap_bytes=1677721600 runs=5 warm_ns=500000 after_ns=500000 cold_ns=500000 after_first_ns=500000 evicted_pct=na node=0
# metric suite=custom_probe what="two words" quote="say \\"hi\\"" n=3
# metric suite=broken key="no end
ok 2 bench_pollution
ntboot: 9 passed, 1 failed, 0 skipped
"""


def sample_image_a():
    """SAMPLE_IMAGE_A parsed as the log sample-a.log."""
    return parse_log(SAMPLE_IMAGE_A, "sample-a.log", "A")


def sample_host():
    """SAMPLE_HOST parsed as the log sample-host.log."""
    return parse_log(SAMPLE_HOST, "sample-host.log", "H")


# A machine in two states, as tests/states_test.c plants it: 6 processes
# of 6 warm runs; round j of process k is in the slower state when
# (7j + 3k) mod 5 < @slow_below (15 rounds of 36 at 2). slow takes 80 ms
# in the faster state and 140 ms in the slower, tmpl_nt_fixed 108 and
# 120 ms (the series 0.74x in the one, 1.17x in the other), each with 2%
# noise; the probe 10 and 14 ms (it follows), the fills 70 ms in both
# (they do not), with 3%.

STATES_WHERE = "page_size=64 mode=fsdax map=dev"
STATES_MEMMAP = ("suite=bench_memmap_init strategy={} page_size=64 "
                 "layout=64 mode=fsdax map=dev pages=1031680 "
                 "written=1031680 bytes=66027520 drain=on")
STATES_LIMIT = ("suite=bench_limit strategy={} variant={} "
                "for=bench_memmap_init page_size=64 mode=fsdax map=dev "
                "bytes=66027520")
STATES_PROBE = ("suite=bench_probe strategy=probe_rfo for=bench_memmap_init "
                "page_size=64 mode=fsdax map=dev bytes=66027520 "
                "lines=1031680")


def samples_line(ident, xs, processes, per=None):
    """A '# metric' line of the runs @xs (process after process, as
    ntbench prints them) of @processes processes; @per: the unit of a
    ns_per_<unit>= key and how many there are, e.g. ("line", 1031680)."""
    n = len(xs) // processes
    s = sorted(xs)
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    m = int_median(xs)
    line = (f"# metric {ident} runs={n + 1} first_ns={xs[0] * 3} "
            f"median_ns={m} min_ns={s[0]} max_ns={s[-1]} "
            f"mean_ns={round(mean)} stddev_ns={round(sd)}")
    if per:
        line += f" ns_per_{per[0]}={m / per[1]:.2f}"
    line += f" node=0 processes={processes}"
    if processes > 1:
        meds = [int_median(xs[k * n:(k + 1) * n]) for k in range(processes)]
        spread = (max(meds) - min(meds)) / int_median(meds)
        line += (f" proc_medians_ns={','.join(map(str, meds))}"
                 f" proc_spread={spread:.3f}")
    return line + " samples_ns=" + ",".join(map(str, xs))


def states_rounds(seed=0x7a7e, slow_below=2, slow_kept=None, processes=6,
                  runs=6, flat=(), follow=(), astray=0):
    """The planted machine's runs: {name: [ns]} of slow, tmpl_nt_fixed,
    limit_nt64, limit_nt128 and probe_rfo, and [bool] whether each round
    is in the slower state. @slow_kept: only the first that many slower
    rounds keep slow's slower time (the rest run it at the faster one);
    @flat: names that run at their faster time in every round; @follow:
    fills that follow the states, 70 ms in the faster and 90 ms in the
    slower (else 70 ms in both); @astray: the last of @follow runs the
    first that many rounds in the other state than the machine's. The
    same @seed draws the same noise whatever the centres."""
    rng = random.Random(seed)
    fill_slow = {f: 90e6 if f in follow else 70e6
                 for f in ("limit_nt64", "limit_nt128")}
    astray_fill = follow[-1] if follow else None

    def around(c, cv):
        return max(1, round(c * (1 + cv * rng.gauss(0, 1))))

    out = {k: [] for k in ("slow", "tmpl_nt_fixed", "limit_nt64",
                           "limit_nt128", "probe_rfo")}
    slower, kept = [], 0
    for k in range(processes):
        for j in range(runs):
            s = (7 * j + 3 * k) % 5 < slow_below
            slower.append(s)
            kept += s
            b_slow = s and (slow_kept is None or kept <= slow_kept)
            for name, fast, slow, cv, when in (
                    ("slow", 80e6, 140e6, 0.02, b_slow),
                    ("tmpl_nt_fixed", 108e6, 120e6, 0.02, s),
                    ("limit_nt64", 70e6, fill_slow["limit_nt64"], 0.03, s),
                    ("limit_nt128", 70e6, fill_slow["limit_nt128"], 0.03,
                     s),
                    ("probe_rfo", 10e6, 14e6, 0.03, s)):
                if name == astray_fill and len(slower) <= astray:
                    when = not when
                when = when and name not in flat
                out[name].append(around(slow if when else fast, cv))
    return out, slower


def states_log(processes=6, cpu=ZEN5, **kw):
    """The text of an ntbench log of the planted machine (states_rounds()
    and its arguments), without the image's own verdict lines."""
    runs, _ = states_rounds(processes=processes, **kw)
    out = ["KTAP version 1", "1..1",
           f'# ntboot 0.1+gSYNTH platform=host cpu="{cpu}" smp=2']
    for fill, variant in (("limit_nt64", "tmpl_movnti_64"),
                          ("limit_nt128", "tmpl_sse2_64")):
        out.append(samples_line(STATES_LIMIT.format(fill, variant),
                                runs[fill], processes))
    out.append(samples_line(STATES_PROBE, runs["probe_rfo"], processes,
                            ("line", 1031680)))
    for strategy in ("slow", "tmpl_nt_fixed"):
        out.append(samples_line(STATES_MEMMAP.format(strategy),
                                runs[strategy], processes,
                                ("page", 1031680)))
    out.append("ntboot: 1 passed, 0 failed, 0 skipped")
    return "\n".join(out) + "\n"


def fixed3(x):
    return "-" if x is None else f"{x:.3f}"


def own_state_verdict_line(v, sv, word=None, speedup=None):
    """A "# state-verdict" line as lib/verdict.c prints it, of the state
    verdict @sv of verdict @v (verdicts()); @word, @speedup in place of
    its own."""
    where = (f"page_size={v['page_size']} mode={v['mode']}"
             + (f" map={v['map']}" if v.get("map") else "")
             if "page_size" in v else f"chunk={v['chunk']}")
    ci = sv["speedup_ci"] or [None, None]
    p = "-" if sv["p"] is None else f"{sv['p']:.6f}"
    return (f'    # state-verdict claim="{v["subject"]}" what="{v["what"]}" '
            f'before={v["before"]} after={v["after"]} source={v["source"]} '
            f'{where} '
            f'by={sv["by"]} chosen={sv["chosen"]} '
            f'state={sv["state"]}/{sv["nr_states"]} '
            f'rounds={sv["rounds"]} '
            f'alpha={fmt_alpha(sv["alpha"])} '
            f'before_ns={sv["before_ns"]} '
            f'after_ns={sv["after_ns"]} '
            f'speedup={fixed3(speedup or sv["speedup"])} '
            f'ci_low={fixed3(ci[0])} ci_high={fixed3(ci[1])} '
            f'vs_posted={sv.get("vs_posted") or "-"} p={p} '
            f'scope={sv["scope"]} processes={sv["processes"]} '
            f'n={sv["n_before"]}+{sv["n_after"]} '
            f'test={sv.get("test") or "-"} '
            f'verdict="{word or sv["verdict"]}"')


def own_state_lines(log):
    """The "# state", "# follows", "# vs_slow", "# verdict",
    "# state-verdict" and "# states:" lines lib/verdict.c prints for @log
    (parsed), from the report's own computation (reportlib.verdicts)."""
    from reportlib.states import states_apart
    from reportlib.verdicts import (follows, processes_differ, state_lines,
                                    state_vs_slow, verdicts)
    out = [f"    # states: {x}" for x in processes_differ(log)]
    vs = verdicts(log)
    for (where, name), st in state_lines(log).items():
        for s, (runs, med, low, high) in enumerate(st.states):
            out.append(f"    # state strategy={name} {where} runs={st.n} "
                       f"state={s + 1}/{st.nr} state_runs={runs} "
                       f"median_ns={med} low_ns={low} high_ns={high} "
                       f"apart={fixed3(states_apart(st) / 1e6)} "
                       f"seen_in={st.seen_in}")
    for f in follows(log, vs):
        p = "-" if f["p"] is None else f"{f['p']:.6f}"
        out.append(f"    # follows {f['kind']}={f['name']} "
                   f"states_of={f['states_of']} {f['where']} "
                   f"rounds={f['rounds'][0]}+{f['rounds'][1]} "
                   f"fast_median_ns={f['fast_ns']} "
                   f"slow_median_ns={f['slow_ns']} "
                   f"ratio={fixed3(f['ratio'])} p={p} "
                   f"follows={f['follows']}")
    for r in state_vs_slow(log, vs):
        out.append(f"    # vs_slow by={r['by']} {r['where']} "
                   f"state={r['state']} "
                   + "".join(f"{name}={'-' if x is None else fixed3(x)} "
                             for name, x in r["ratios"].items())
                   + f"rounds={r['rounds']}")
    for v in vs:
        out.append(own_verdict_line(v))
        if "states" in v:
            out += [own_state_verdict_line(v, sv)
                    for sv in v["states"]["verdicts"]]
            out.append(f"    # states: {v['states']['sentence']}")
    return out
