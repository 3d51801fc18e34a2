# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport switches`: switches within a process and between processes per set of
runs made together, over the sets, and what the kernel ran inside them."""
from __future__ import annotations

from typing import Any

from ..analyses.over_runs import method_text
from ..base.markdown import table
from ..base.units import fmt_ns
from .estimates import estimate_cell, verdict_cell

KINDS = (("within", "involuntary", "within a process, involuntary"),
         ("within", "voluntary", "within a process, voluntary"),
         ("between", "involuntary", "between processes, involuntary"),
         ("between", "voluntary", "between processes, voluntary"))


def page(sets: list[dict[str, Any]], over: dict[str, Any] | None,
         splits: list[tuple[str, dict[str, Any]]]) -> str:
    out = ["# Context switches within a process and between processes (Hourglass 5.1)", "",
           "Runs made at the same time on one machine are merged on CLOCK_MONOTONIC: on a CPU, "
           "a switch from a thread of one run to a thread of another is between processes, one "
           "between two threads of a run within a process; only the time every run of a set "
           "was running counts.", ""]
    rows = []
    for k, s in enumerate(sets):
        for kind, vol, words in KINDS:
            d = s[f"{kind}_{vol}"]
            if not d["count"]:
                continue
            rows.append([f"set {k + 1}", words, d["count"], fmt_ns(d["min_ns"]), fmt_ns(d["p10_ns"]),
                         fmt_ns(d["median_ns"]), fmt_ns(d["mean_ns"]), fmt_ns(d["p90_ns"])])
    out += [table(["set", "switches", "count", "min", "p10", "median", "mean", "p90"], rows,
                  "llrrrrrr"), ""]
    for k, s in enumerate(sets):
        note = f"set {k + 1}: {len(s['runs'])} run(s) ({', '.join(s['runs'])}), {s['seconds']:.3f} s together"
        if s["misaligned"]:
            note += (f"; {s['misaligned']} pairs of intervals of two runs overlap on one CPU "
                     f"(clock misalignment, up to {fmt_ns(s['misaligned_max_ns'])})")
        out.append(f"- {note}")
    out.append("")
    if over and over["sets"] >= 2:
        rows = [[words, estimate_cell(over[f"{kind}_median_ns"], fmt_ns),
                 estimate_cell(over[f"{kind}_min_ns"], fmt_ns)]
                for kind, words in (("within", "within a process"), ("between", "between processes"))]
        out += [f"## Involuntary switches over the {over['sets']} sets", "",
                table(["switches", "median cost", "minimum cost"], rows, "lrr"), "",
                f"- median between processes against within a process: "
                f"{verdict_cell(over['between_vs_within'])}", "", method_text(), ""]
    for label, sp in splits:
        rows = [[p["part"], fmt_ns(p["median_ns"]),
                 "–" if p["share"] is None else f"{100 * p['share']:.1f}%", p["in_switches"]]
                for p in sp["parts"]]
        out += [f"## What the kernel ran inside the involuntary switches of {label} "
                f"({sp['switches']} switches, kernel trace)", "",
                table(["part", "median per switch", "share of switch time", "switches with it"],
                      rows, "lrrr"), ""]
    return "\n".join(out)
