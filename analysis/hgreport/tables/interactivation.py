# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport interactivation`: the inter-activation deviations (Abeni et al.
section 4.1, figure 2) per run and per configuration (a sweep's points) over its runs, and
each configuration's spread against the first's."""
from __future__ import annotations

from typing import Any

from ..analyses.over_runs import method_text
from ..base.markdown import table
from ..base.units import fmt_ns
from .estimates import estimate_cell, verdict_cell


def _signed(x: float | None) -> str:
    if x is None:
        return "–"
    return ("−" if x < 0 else "") + fmt_ns(abs(x))


def page(runs: list[dict[str, Any]], labels: list[str], configs: list[dict[str, Any]],
         versus: list[dict[str, Any]]) -> str:
    out = ["# Inter-activation times (Abeni et al. section 4.1, figure 2)", "",
           "t(k) − t(k−1) − period over consecutive activations of the run's first periodic or "
           "latency thread: its deviation from the period (the paper's measure), not each "
           "wake-up's lateness against its release.", ""]
    rows = [[lab, r.get("label") or "–", fmt_ns(r.get("period_ns")), r.get("count", 0),
             _signed(r.get("mean_ns")), fmt_ns(r.get("stddev_ns")), _signed(r.get("min_ns")),
             _signed(r.get("p1_ns")), _signed(r.get("p99_ns")), _signed(r.get("max_ns"))]
            for r, lab in zip(runs, labels)]
    out += [table(["run", "thread", "period", "pairs", "mean", "sd", "min", "p1", "p99", "max"],
                  rows, "llrrrrrrrr"), ""]
    many = [c for c in configs if len(c["runs"]) > 1]
    if many:
        rows = [[c["label"], len(c["runs"]), c["pairs"], estimate_cell(c["spread_ns"], fmt_ns),
                 estimate_cell(c["p99_ns"], _signed), estimate_cell(c["max_abs_ns"], fmt_ns)]
                for c in many]
        out += ["## Per configuration, over its runs", "",
                table(["configuration", "runs", "pairs", "p99 − p1", "p99", "largest deviation either way"],
                      rows, "lrrrrr"), ""]
        out += [f"- {v['configuration']} against {v['baseline']} (p99 − p1): {verdict_cell(v)}"
                for v in versus]
        out += ["", method_text(), ""]
    return "\n".join(out)
