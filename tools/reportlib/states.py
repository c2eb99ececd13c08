# SPDX-License-Identifier: GPL-2.0-only
"""A machine's states: the runs of one strategy that fall into separate
groups, a mixture of modes with little between them (a cloud VM whose
partial-line stores run 1.8x slower for seconds at a time).

The rule is that of lib/states.c, in the same integer arithmetic, so that
a log's lines and this report find the same states in the same runs
(docs/statistics.md, "States"):

  - the runs are sorted; a group of fewer than MIN_RUNS (12) is one state;
  - it may split only at its widest ratio gap x[k] / x[k - 1] (the first
    of equal gaps), with at least max(3, n // 10) runs on each side;
  - and only where the sides' medians are at least 1.10x apart, their
    distance is at least 3.0 times the sum of the sides' scaled median
    absolute deviations (1.4826 MAD), and at most 5% of the group's runs
    lie in the middle third between the two medians;
  - each side is tried again, pass after pass, up to MAX_STATES states;
  - where the runs are several processes' (block after block), the groups
    are states only where some process has runs in two of them: groups
    that are whole processes are the processes differing, not the
    machine changing state under one, and are one state (groups says
    how many there were).

Medians are of integers: the middle run, or the two middle runs' sum
halved and floored. Python's integers are exact where the C's are: the
C compares the gaps' products in 128 bits, and its other products stay
within 64 bits for runs below 2^44 ns (about 4.9 hours each).
"""
from dataclasses import dataclass, field

from reportlib.stats import int_median

MAX_STATES = 4
MIN_RUNS = 12
MIN_D_TENTHS = 30
MAX_RUNS = 1000


@dataclass
class States:
    """The states of one sample set: n runs looked at (at most MAX_RUNS,
    the first in input order), nr states (0 for no runs, 1 when none were
    found apart), each (runs, median_ns, low_ns, high_ns) fastest first,
    and which[i], the state of the i-th run looked at; groups, the groups
    the runs fell into, and groups_apart, the slowest's median over the
    fastest's in millionths (nr and states_apart() where they are states,
    more groups than states where no process saw two of them), and
    seen_in, how many processes had runs in two of the groups
    (_seen_in())."""
    n: int = 0
    nr: int = 0
    states: list = field(default_factory=list)
    which: list = field(default_factory=list)
    groups: int = 0
    groups_apart: int = 1_000_000
    seen_in: int = 0


def _mad(v, a, b, med):
    """The median absolute deviation of v[a:b] from @med."""
    return int_median([abs(x - med) for x in v[a:b]])


def _split_at(x, a, b):
    """Where sorted x[a:b] splits into two states, counted from a; 0
    where it does not (split_at())."""
    n = b - a
    m = max(3, n // 10)
    if n < MIN_RUNS or not x[a]:
        return 0
    k = 0
    # The widest gap x[i] / x[i - 1], the first of equals.
    for i in range(m, n - m + 1):
        if not k or x[a + i] * x[a + k - 1] > x[a + k] * x[a + i - 1]:
            k = i
    ml = int_median(x[a:a + k])
    mr = int_median(x[a + k:b])
    if mr * 10 < ml * 11:
        return 0
    # (mr - ml) / (1.4826 (MAD_l + MAD_r)) >= MIN_D_TENTHS / 10.
    if (mr - ml) * 10000 * 10 < MIN_D_TENTHS * 14826 * (
            _mad(x, a, a + k, ml) + _mad(x, a + k, b, mr)):
        return 0
    third = (mr - ml) // 3
    band = sum(1 for v in x[a:b] if ml + third < v < mr - third)
    return k if band * 20 <= n else 0


def states_of(states, ns):
    """The state of a run of @ns ns in @states (a States or its list of
    (runs, median, low, high)): the first whose range reaches ns."""
    st = states.states if isinstance(states, States) else states
    s = 0
    while s + 1 < len(st) and ns > st[s][3]:
        s += 1
    return s


def states_apart(states):
    """The slowest state's median over the fastest's, in millionths
    (1000000 with fewer than two states or a zero fastest median)."""
    st = states.states if isinstance(states, States) else states
    if len(st) < 2 or not st[0][1]:
        return 1_000_000
    return st[-1][1] * 1_000_000 // st[0][1]


def _seen_in(states, processes, n):
    """How many of @processes processes, whose @n runs (block after
    block) gave the States @states, have runs in two of its states
    (lib/states.c's seen_in()): 0 for one state, 1 where the runs
    are one process's or do not divide into the processes."""
    per = n // processes if processes > 0 else 0
    if states.nr < 2:
        return 0
    if processes < 2 or not per or n % processes:
        return 1
    return sum(len(set(states.which[a:a + per])) > 1
               for a in range(0, states.n, per))


def find_states(ns, processes=1):
    """The States of the runs @ns (non-negative integers, ns) of
    @processes processes, block after block, by the rule of lib/states.c
    (states_find_in_processes(); runs that do not divide into the
    processes evenly are taken as one process's)."""
    full = [int(v) for v in ns]
    ns = full[:MAX_RUNS]
    if any(v < 0 for v in ns):
        raise ValueError("find_states: a run below 0 ns")
    n = len(ns)
    if not n:
        return States()
    x = sorted(ns)
    # The states' first runs in x, fastest first; start[-1] == n.
    start = [0, n]
    more = True
    while more and len(start) - 1 < MAX_STATES:
        more = False
        s = 0
        while s < len(start) - 1 and len(start) - 1 < MAX_STATES:
            k = _split_at(x, start[s], start[s + 1])
            if k:
                start.insert(s + 1, start[s] + k)
                more = True
                s += 1  # both halves are tried on the next pass
            s += 1
    states = [(b - a, int_median(x[a:b]), x[a], x[b - 1])
              for a, b in zip(start, start[1:])]
    out = States(n=n, nr=len(states), states=states, groups=len(states),
                 groups_apart=states_apart(states))
    out.which = [states_of(states, v) for v in ns]
    out.seen_in = _seen_in(out, processes, len(full))
    if out.nr > 1 and not out.seen_in:
        # Whole processes apart: one state of every run looked at.
        out.nr = 1
        out.states = [(n, int_median(x), x[0], x[-1])]
        out.which = [0] * n
    return out
