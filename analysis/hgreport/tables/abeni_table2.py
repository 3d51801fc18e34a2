# SPDX-License-Identifier: GPL-2.0-or-later
"""Markdown of `hgreport abeni-table2`: a row per run and a row per configuration of several
runs, a column per stress window, the worst latency in each (Abeni et al. table 2)."""
from __future__ import annotations

from typing import Any

from ..analyses.over_runs import method_text
from ..base.markdown import table
from ..base.units import fmt_ns
from .estimates import estimate_cell


def page(runs: list[dict[str, Any]], labels: list[str], configs: list[dict[str, Any]]) -> str:
    names = list(dict.fromkeys(n for r in runs for n in r["windows"]))
    out = ["# Abeni table 2: the worst latency per stress window", "",
           "Per run and window: the worst wake-up latency of the first latency thread (and the "
           "window's wake-ups); a wake-up is in a window when its intended time is.", ""]
    rows = [[lab, f"{r['duration_s']:g} s"] + [
        f"{fmt_ns(r['windows'][n]['max_ns'])} ({r['windows'][n]['count']})" if n in r["windows"]
        else "–" for n in names] for r, lab in zip(runs, labels)]
    out += [table(["run", "length"] + names, rows, "lr" + "r" * len(names)), ""]
    many = [c for c in configs if len(c["runs"]) > 1]
    if many:
        rows = [[c["label"], len(c["runs"])] + [fmt_ns(c["windows"][n]["worst_ns"]) if n in c["windows"]
                                                else "–" for n in names] for c in many]
        out += ["## Per configuration: the worst of its runs", "",
                table(["configuration", "runs"] + names, rows, "lr" + "r" * len(names)), ""]
        rows = [[c["label"]] + [estimate_cell(c["windows"][n]["max_ns"], fmt_ns) if n in c["windows"]
                                else "–" for n in names] for c in many]
        out += ["## Per configuration: each run's worst, over the runs", "",
                table(["configuration"] + names, rows, "l" + "r" * len(names)), "",
                method_text(), ""]
    return "\n".join(out)
