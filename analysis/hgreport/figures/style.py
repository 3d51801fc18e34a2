# SPDX-License-Identifier: GPL-2.0-or-later
"""What the figures share that needs no matplotlib: the load windows' colours and hatches, the
saved resolution, duration labels and the unit of a time axis. (plotting.py, which imports
matplotlib, has the rest; a module imports it only where it draws.)"""
from __future__ import annotations

from typing import Any

# Loads: hues apart from the threads' tab10 lines (blue, orange, green, red, purple, ...).
LOAD_COLORS = ("#bf812d", "#35978f", "#c51b7d", "#7f7f7f", "#4d9221")
LOAD_HATCHES = ("///", "\\\\\\", "|||", "---", "xxx")
DPI = 120


def load_style(k: int) -> tuple[str, str]:
    return LOAD_COLORS[k % len(LOAD_COLORS)], LOAD_HATCHES[k % len(LOAD_HATCHES)]


def load_windows(loads: list[dict[str, Any]]) -> list[tuple[int, str, int, int]]:
    """(index, label, started_ns, stopped_ns) of each load that ran."""
    out = []
    for k, load in enumerate(loads):
        a, b = load.get("started_ns"), load.get("stopped_ns")
        if a is None:
            continue
        out.append((k, f"load {load['name']} ({load.get('type', '?')})", int(a),
                    int(b if b is not None else a)))
    return out


def fmt_duration(ns: float) -> str:
    """A tick label for a duration: 500 ns, 20 us, 1 ms, 2.5 s."""
    a = abs(ns)
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if a >= scale:
            return f"{ns / scale:g} {unit}"
    return f"{ns:g} ns"


def clock_unit(span_ns: float) -> tuple[str, float]:
    """The unit of a time-since-start axis for a span: ms below 5 s, s below 10 min, min below
    10 h, else h."""
    if span_ns < 5e9:
        return "ms", 1e6
    if span_ns < 600e9:
        return "s", 1e9
    if span_ns < 36_000e9:
        return "min", 60e9
    return "h", 3600e9
