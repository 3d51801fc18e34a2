# SPDX-License-Identifier: GPL-2.0-or-later
"""Abeni et al.'s figure 4: the cumulative distribution P{latency <= x} of the non-preemptible
section latency during one stress (the I/O stress in the paper), a curve per kernel (here: per
configuration), and its values at chosen latencies ("P{L <= 100 us} is 0.99...") per run and
over the runs of a configuration, with their interval."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..base.errors import InputError
from ..read.rundir import Run
from . import abeni_table1, over_runs

AT_NS = (50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000)
POINTS = 400                  # points of a curve kept for the figure (quantile-spaced)


def window_samples(run: Run, window: str) -> tuple[str, np.ndarray]:
    """(thread label, sorted lateness in ns) of the run's first latency thread inside the window
    (a wake-up is in the window when its intended time is, as in table 1)."""
    wins = {w.name: w for w in abeni_table1.windows(run)}
    if window not in wins:
        raise InputError(run.path, f"no window {window!r} (its windows: {', '.join(wins)})")
    s = run.samples
    lat = next((i for i, t in enumerate(run.threads)
                if (run.scenario_thread(i).get("workload") or {}).get("type") == "latency"), None)
    if lat is None:
        raise InputError(run.path, "no latency thread: figure 4 is of wake-up latency")
    mine = s.of_thread(lat)
    order = np.argsort(mine.intended, kind="stable")
    intended, late = mine.intended[order], mine.late[order]
    idx = np.concatenate([np.arange(np.searchsorted(intended, a), np.searchsorted(intended, b))
                          for a, b in wins[window].spans] or [np.zeros(0, np.int64)])
    return run.label(lat), np.sort(late[idx].astype(np.int64))


def of_run(run: Run, window: str, at_ns: Sequence[int] = AT_NS) -> dict[str, Any]:
    label, v = window_samples(run, window)
    n = len(v)
    cdf = {str(x): (float(np.searchsorted(v, x, side="right") / n) if n else None) for x in at_ns}
    q = np.linspace(0, 1, POINTS)
    curve = [int(x) for x in np.quantile(v, q, method="inverted_cdf")] if n else []
    return {"run": str(run.path), "scenario": run.scenario.get("name"), "thread": label,
            "window": window, "samples": int(n), "at": cdf, "curve_ns": curve,
            "max_ns": int(v[-1]) if n else None}


def across(label: str, runs: Sequence[dict[str, Any]], at_ns: Sequence[int] = AT_NS) -> dict[str, Any]:
    return {"label": label, "runs": [r["run"] for r in runs],
            "samples": sum(r["samples"] for r in runs),
            "at": {str(x): over_runs.estimate([r["at"][str(x)] for r in runs], upper=1.0)
                   for x in at_ns}}
