# SPDX-License-Identifier: GPL-2.0-or-later
"""Table cells of the reproduction forms: a figure over the runs of a configuration (its value,
its interval, n) and a comparison's verdict, in the words of docs/statistics.md."""
from __future__ import annotations

from typing import Any, Callable

from ..analyses.over_runs import TOO_FEW


def estimate_cell(e: dict[str, Any], fmt: Callable[[float], str]) -> str:
    """`48.0 us [40.1 us, 57.3 us], n = 3`; without an interval `48.0 us, n = 2`."""
    if e["value"] is None:
        return "–"
    if e["low"] is None or e["high"] is None:
        return f"{fmt(e['value'])}, n = {e['n']}"
    return f"{fmt(e['value'])} [{fmt(e['low'])}, {fmt(e['high'])}], n = {e['n']}"


def verdict_cell(c: dict[str, Any]) -> str:
    """`significant (×2.10 [1.40, 3.15], p = 0.004)`, `not significant (p = 0.41)` or
    TOO_FEW with the runs a side."""
    if c["verdict"] == TOO_FEW:
        return f"{TOO_FEW} ({c['n_base']} vs {c['n_cand']} runs)"
    if c.get("rel_low") is not None and c.get("rel_high") is not None and c.get("relative") is not None:
        ratio = (f"×{1 + c['relative']:.2f} [{1 + c['rel_low']:.2f}, {1 + c['rel_high']:.2f}]")
    elif c.get("low") is not None and c.get("delta") is not None:
        ratio = f"{c['delta']:+.4g} [{c['low']:+.4g}, {c['high']:+.4g}]"
    else:
        ratio = ""
    p = f"p = {c['p']:.2g}" if c.get("p") is not None else ""
    inside = ", ".join(x for x in (ratio, p) if x)
    return f"{c['verdict']} ({inside})" if inside else c["verdict"]
