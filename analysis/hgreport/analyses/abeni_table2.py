# SPDX-License-Identifier: GPL-2.0-or-later
"""Abeni et al.'s table 2 (section 4.2.2): the worst non-preemptible section latency under each
stress run for a long time, a row per kernel (here: per configuration). From a run's load
windows (analyses/abeni_table1.py's): per window the wake-ups and the worst and p99 latency of
the run's first latency thread; over the runs of a configuration the worst of all, each
window's per-run worst summarised with its interval (docs/statistics.md: a maximum needs many
runs to tell two configurations apart)."""
from __future__ import annotations

from typing import Any, Sequence

from ..read.rundir import Run
from . import abeni_table1, over_runs


def of_run(run: Run) -> dict[str, Any]:
    t = abeni_table1.table1(run)
    th = next((x for x in t["threads"]
               if any("latency" in c for c in x["windows"].values())), None)
    cells = {}
    for w in t["windows"]:
        lat = (th["windows"][w["name"]].get("latency") or {}) if th else {}
        cells[w["name"]] = {"seconds": w["seconds"], "count": lat.get("count", 0),
                            "p99_ns": lat.get("p99_ns"), "max_ns": lat.get("max_ns")}
    return {"run": str(run.path), "scenario": t["scenario"], "complete": t["complete"],
            "thread": th["label"] if th else None, "windows": cells,
            "duration_s": run.duration_ns / 1e9}


def across(label: str, runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    names = list(dict.fromkeys(n for r in runs for n in r["windows"]))
    out = {}
    for n in names:
        cells = [r["windows"][n] for r in runs if n in r["windows"]]
        worst = [c["max_ns"] for c in cells if c["max_ns"] is not None]
        out[n] = {"samples": sum(c["count"] for c in cells), "seconds": sum(c["seconds"] for c in cells),
                  "worst_ns": max(worst) if worst else None,
                  "max_ns": over_runs.estimate(worst, "ns"),
                  "p99_ns": over_runs.estimate([c["p99_ns"] for c in cells], "ns")}
    return {"label": label, "runs": [r["run"] for r in runs], "windows": out}
