# SPDX-License-Identifier: GPL-2.0-only
"""Logs to test the report on, for its unit tests (test_*.py) and the
readers' random-input loop (tests/fuzz/readers_fuzz.py): sample logs
shaped like the image's and ntbench's output, logs generated with
samples of a known median and spread (in one process, or in several
with offsets of their own), and the image's "# verdict" lines.
"""
import math
import random

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


def own_verdict_line(v, word=None, scope=None, old=False):
    """A "# verdict" line as lib/verdict.c prints it, from verdicts():
    @word, @scope in place of the verdict's own; @old: as a build before
    scope= printed it (no scope=, processes=, test=)."""
    where = (f"page_size={v['page_size']} mode={v['mode']}"
             if "page_size" in v else f"chunk={v['chunk']}")
    ci = v["speedup_ci"]
    ci = (f"ci_low={ci[0]:.3f} ci_high={ci[1]:.3f}" if ci
          else "ci_low=- ci_high=-")
    p = "-" if v["p"] is None else f"{v['p']:.6f}"
    unit = "" if old else (f'scope={scope or v["scope"]} '
                           f'processes={v["processes"]} ')
    test = "" if old else f'test={v.get("test") or "-"} '
    return (f'    # verdict claim="{v["subject"]}" what="{v["what"]}" '
            f'before={v["before"]} after={v["after"]} {where} '
            f'speedup={v["speedup"]:.3f} {ci} p={p} {unit}'
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
