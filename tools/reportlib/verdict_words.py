# SPDX-License-Identifier: GPL-2.0-only
"""The words of a verdict on a posted claim, in each scope, and the rule
that picks a significant change's word (its direction, then its size
against the posted speed-up): manifest/verdicts.yaml's words, as
lib/verdict.c's table has them. A module of its own, importing nothing
of the report's, so that reportlib.verdicts and reportlib.fleet (which
reportlib.compare imports) both take them from here.
"""
from fractions import Fraction

from reportlib import manifest
from reportlib.stats import RATIO_SCALE, whole_millionths

# The words, each in each scope (manifest/verdicts.yaml, as lib/verdict.c's
# table): WORDS[name][scope].
WORDS = {w["name"]: w for w in manifest.verdict_words()}

# What replicates: the process (processes=P, P >= 2), or nothing beyond
# the one process of ntbench or the one boot of the image.
SCOPE_PROCESSES = "processes"
SCOPE_PROCESS = "one-process"
SCOPE_BOOT = "one-boot"
# The rounds of one machine state, from too few processes to judge by
# them.
SCOPE_ROUNDS = "rounds"
SCOPES = manifest.VERDICT_SCOPES

CONFIRMED = WORDS["confirmed"][SCOPE_PROCESSES]
BEYOND = WORDS["beyond"][SCOPE_PROCESSES]
SHORT = WORDS["short"][SCOPE_PROCESSES]
FASTER = WORDS["faster"][SCOPE_PROCESSES]
NOT_CONFIRMED = WORDS["not_confirmed"][SCOPE_PROCESSES]
REVERSED = WORDS["reversed"][SCOPE_PROCESSES]
UNTESTED = WORDS["untested"][SCOPE_PROCESSES]
SPLIT = WORDS["split"][SCOPE_PROCESSES]
SEEN_PROCESS = WORDS["confirmed"][SCOPE_PROCESS]
SEEN_REVERSED_PROCESS = WORDS["reversed"][SCOPE_PROCESS]
SEEN_BOOT = WORDS["confirmed"][SCOPE_BOOT]
SEEN_REVERSED_BOOT = WORDS["reversed"][SCOPE_BOOT]
SEEN_ROUNDS = WORDS["confirmed"][SCOPE_ROUNDS]
SEEN_REVERSED_ROUNDS = WORDS["reversed"][SCOPE_ROUNDS]
TOO_FEW = WORDS["too_few"][SCOPE_PROCESSES]

# The word names of a significant speed-up, by where the posted one lies
# against the measured interval (vs_posted(); None: no size judged).
VS_WITHIN, VS_BEYOND, VS_SHORT = "within", "beyond", "short"
FASTER_BY_SIZE = {VS_WITHIN: "confirmed", VS_BEYOND: "beyond",
                  VS_SHORT: "short", None: "faster"}

# Within one process or boot: (significant and the claimed way, at the
# posted size; significant and the other way).
SEEN = {SCOPE_PROCESS: (SEEN_PROCESS, SEEN_REVERSED_PROCESS),
        SCOPE_BOOT: (SEEN_BOOT, SEEN_REVERSED_BOOT),
        SCOPE_ROUNDS: (SEEN_ROUNDS, SEEN_REVERSED_ROUNDS)}
# The word a build before scope= printed for the same outcome.
OLD_WORD = {SEEN_PROCESS: CONFIRMED, SEEN_BOOT: CONFIRMED,
            SEEN_REVERSED_PROCESS: REVERSED, SEEN_REVERSED_BOOT: REVERSED}
# A build before vs_posted= said the claimed direction whatever the size:
# each word of a significant speed-up, in each scope, as that build said
# it (the word of "confirmed" in the same scope).
OLD_SIZE_WORD = {WORDS[n][sc]: WORDS["confirmed"][sc]
                 for n in FASTER_BY_SIZE.values() for sc in SCOPES}


def vs_posted(ci, posted):
    """Where the posted speed-up @posted (a Fraction or a float, or None)
    lies against the interval @ci ([lo, hi], or None): VS_WITHIN (lo <= R
    <= hi), VS_BEYOND (R < lo: faster than posted), VS_SHORT (hi < R), or
    None where there is no R or no interval. The interval in whole
    millionths, R exactly, as lib/verdict.c's verdict_vs_posted()
    compares them."""
    if not ci or not posted:
        return None
    r = Fraction(posted) * RATIO_SCALE
    lo, hi = (whole_millionths(x) for x in ci)
    if lo > r:
        return VS_BEYOND
    if hi < r:
        return VS_SHORT
    return VS_WITHIN


def posted_of(claim):
    """A claim's posted speed-up as an exact Fraction, or None."""
    if not claim or not claim.get("den"):
        return None
    return Fraction(claim["num"], claim["den"])


def faster_word(scope, size):
    """The word of a significant speed-up in @scope (None: a build before
    scope=, whose words were the processes'), of size @size
    (vs_posted())."""
    return WORDS[FASTER_BY_SIZE[size]][scope or SCOPE_PROCESSES]


def significant_word(faster, posted, ci, scope):
    """The word of a significant change in @scope (None: a build before
    scope=): against the claim's direction (@posted above 1, or no posted
    figure: a speed-up) reversed; with it, its size, the interval @ci
    against @posted, as lib/verdict.c's judge_size()."""
    if faster != (posted is None or posted > 1):
        return WORDS["reversed"][scope or SCOPE_PROCESSES]
    return faster_word(scope, vs_posted(ci, posted))
