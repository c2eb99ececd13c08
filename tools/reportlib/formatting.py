# SPDX-License-Identifier: GPL-2.0-only
"""How every section of the report writes its figures: durations as the
patch postings write them, byte counts, plain numbers, p-values,
intervals and their column title, Markdown tables padded for reading in
a terminal (rows and columns in the order first seen: ordered_unique()),
and the note on what a byte counted is.
"""
from reportlib import level

BYTES_NOTE = "Bytes counted = bytes written to the destination."


def fmt_ns(ns):
    """Durations as the patch postings write them: 244.28 ms, 1.46 s,
    812 ns."""
    if ns is None or isinstance(ns, str):
        return "-" if ns is None else ns
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns"


def fmt_bytes(n):
    if not isinstance(n, int):
        return str(n)
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            v = n / (1 << shift)
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} B"


def fmt_num(v, digits=2):
    if isinstance(v, list):
        return f"{len(v)} values"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return "-" if v is None else str(v)


def fmt_p(p):
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def fmt_ci(ci, fmt):
    return f"[{fmt(ci[0])}, {fmt(ci[1])}]" if ci else "-"


def ci_title():
    """The column title of an interval: '95% CI' at --alpha 0.05."""
    return f"{100 * (1 - level.ALPHA):g}% CI"


def md_table(headers, rows, align=None):
    """A Markdown table padded for reading in a terminal. @align: a string
    of 'l'/'r' per column (default: first left, the rest right)."""
    align = align or "l" + "r" * (len(headers) - 1)
    cells = [[str(c) for c in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(3, *(len(r[i]) for r in cells))
              for i in range(len(headers))]

    def line(r):
        out = []
        for i, c in enumerate(r):
            out.append(c.ljust(widths[i]) if align[i] == "l"
                       else c.rjust(widths[i]))
        return "| " + " | ".join(out) + " |"

    sep = "|" + "|".join(("-" * (w + 1) + ":") if a == "r"
                         else (":" + "-" * (w + 1))
                         for w, a in zip(widths, align)) + "|"
    return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])


def ordered_unique(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def fmt_alpha(alpha):
    """A level as lib/verdict.c's alpha_words() writes it: six decimals,
    no trailing zeros but one ("0.025", "0.05", "0.016667")."""
    text = fixed_half_up(round(alpha * 1e9), 10 ** 9, 6).rstrip("0")
    return text + "0" if text.endswith(".") else text


def fixed_half_up(num, den, decimals):
    """@num / @den (integers) with @decimals decimals, rounded half up, as
    lib/printf.c's ntb_fmt_fixed() writes it."""
    q = (2 * num * 10 ** decimals + den) // (2 * den)
    whole, frac = divmod(q, 10 ** decimals)
    return f"{whole}.{frac:0{decimals}d}" if decimals else str(whole)
