# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport slices`: per run a row per thread; per configuration of several runs
the figures over the runs and the paper's claim (longer slices, not more of them)."""
from __future__ import annotations

from typing import Any

from ..analyses.over_runs import method_text
from ..base.markdown import table
from ..base.units import fmt_ns
from .estimates import estimate_cell, verdict_cell


def _prio(p: dict[str, Any]) -> str:
    if p.get("policy") in ("fifo", "rr"):
        return f"{p.get('level') or p['policy']} ({p['policy']} {p.get('priority')})"
    return f"{p.get('level') or p.get('policy')} (nice {p.get('nice')})"


def page(runs: list[dict[str, Any]], configs: list[dict[str, Any]], labels: list[str]) -> str:
    out = ["# Slices per thread (Hourglass section 3.1, figure 3)", "",
           "A slice: a thread's time on a CPU from when it got it until another traced thread "
           f"ran there, or a gap longer than {fmt_ns(runs[0]['max_gap_ns'])} (something "
           "untraced took the CPU); the short gaps inside (interrupts) are part of it. The "
           "paper: a higher priority gets longer slices, not more of them.", ""]
    rows = []
    for r, lab in zip(runs, labels):
        for t in r["threads"]:
            rows.append([lab, t["label"], _prio(t["priority"]), t["slices"],
                         "–" if t["per_s"] is None else f"{t['per_s']:.1f}",
                         fmt_ns(t["median_ns"]), fmt_ns(t["mean_ns"]), fmt_ns(t["p90_ns"]),
                         fmt_ns(t["max_ns"]), fmt_ns(t["cpu_ns"]),
                         "–" if t["cpu_share"] is None else f"{100 * t['cpu_share']:.1f}%"])
    out += [table(["run", "thread", "priority", "slices", "per s", "median", "mean", "p90",
                   "longest", "CPU", "share"], rows, "lllrrrrrrrr"), ""]
    for c in configs:
        if len(c["runs"]) < 2:
            continue
        rows = [[t["label"], _prio(t["priority"]), estimate_cell(t["median_ns"], fmt_ns),
                 estimate_cell(t["per_s"], lambda x: f"{x:.1f}"),
                 estimate_cell(t["cpu_share"], lambda x: f"{100 * x:.1f}%")] for t in c["threads"]]
        out += [f"## {c['label']}: over its {len(c['runs'])} runs", "",
                table(["thread", "priority", "median slice", "slices per s", "CPU share"], rows,
                      "llrrr"), ""]
        cl = c["claim"]
        if cl:
            out += [f"- {cl['higher']}'s median slice against {cl['lower']}'s: "
                    f"{verdict_cell(cl['length'])}",
                    f"- {cl['higher']}'s slices per second against {cl['lower']}'s: "
                    f"{verdict_cell(cl['rate'])}", ""]
    if any(len(c["runs"]) >= 2 for c in configs):
        out += [method_text(), ""]
    return "\n".join(out)
