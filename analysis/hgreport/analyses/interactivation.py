# SPDX-License-Identifier: GPL-2.0-or-later
"""Inter-activation times (Abeni et al., section 4.1 and figure 2): the time between two
consecutive activations of a periodic or latency thread, t(k) - t(k-1), whose distribution
around the period shows the timer's jitter the way the paper drew it (a density, not a tail).

Activations: a latency thread's actual wake-ups (latency.bin; two wake-ups are consecutive
only when their `seq` numbers are, so a trace mode that keeps only some wake-ups never pairs
wake-ups that had others between them); a periodic thread's first interval after each
interval that ended blocked (trace.bin, the CPU it got after sleeping on its timer; only in
trace mode `full`, where every interval is kept). The deviation is t(k) - t(k-1) - period:
with `align: absolute` it is lateness(k) - lateness(k-1); with Hourglass's `relative` rule it
is the lateness of wake-up k itself."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..read.rundir import END_KINDS, Run

BLOCKED = END_KINDS.index("blocked")


def _period(run: Run, index: int) -> int | None:
    w = run.scenario_thread(index).get("workload") or {}
    if w.get("type") in ("latency", "periodic") and w.get("period_ns"):
        return int(w["period_ns"])
    return None


def gaps(run: Run, index: int) -> np.ndarray | None:
    """The inter-activation times of thread `index` in ns (None: not a periodic or latency
    thread, or its activations are not all recorded)."""
    w = run.scenario_thread(index).get("workload") or {}
    if w.get("type") == "latency":
        r = run.records("wakeups")
        if not len(r):
            return np.zeros(0, np.int64)
        mine = r[r["thread"] == index]
        order = np.argsort(mine["seq"], kind="stable")
        seq = mine["seq"][order].astype(np.int64)
        actual = mine["actual_ns"][order].astype(np.int64)
        next_one = np.diff(seq) == 1
        return np.diff(actual)[next_one]
    if w.get("type") == "periodic":
        iv = run.intervals
        if iv.windowed:
            return None
        mine = iv.of_thread(index)
        after_sleep = np.flatnonzero(mine.end[:-1] == BLOCKED) + 1
        return np.diff(mine.start[after_sleep].astype(np.int64))
    return None


def summary(run: Run) -> list[dict[str, Any]]:
    """Per periodic or latency thread: period, count, and the deviation from the period
    (mean, standard deviation, min, p1, p99, max, in ns)."""
    out = []
    for i in range(len(run.threads)):
        period = _period(run, i)
        g = gaps(run, i) if period else None
        if g is None:
            continue
        row: dict[str, Any] = {"label": run.label(i), "thread": i, "period_ns": period,
                               "count": int(len(g))}
        if len(g):
            d = g - period
            row.update({"mean_ns": float(d.mean()), "stddev_ns": float(d.std()),
                        "min_ns": int(d.min()), "p1_ns": float(np.percentile(d, 1)),
                        "p99_ns": float(np.percentile(d, 99)), "max_ns": int(d.max())})
        out.append(row)
    return out


def of_run(run: Run) -> dict[str, Any]:
    """The run's first periodic or latency thread's inter-activation deviations (summary()'s
    row) with the spread of its central 98% (p99 - p1) and its largest deviation either way:
    one value of each per run, as the reproduction of section 4.1 compares them."""
    rows = summary(run)
    row = rows[0] if rows else {"label": None, "period_ns": None, "count": 0}
    out = {"run": str(run.path), **row}
    if row.get("count"):
        out["spread_ns"] = row["p99_ns"] - row["p1_ns"]
        out["max_abs_ns"] = max(abs(row["min_ns"]), abs(row["max_ns"]))
    return out


def across(label: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Over one configuration's runs: the deviations' spread, p99, standard deviation and
    largest, each with its interval."""
    from . import over_runs
    return {"label": label, "runs": [r["run"] for r in runs],
            "period_ns": runs[0].get("period_ns") if runs else None,
            "pairs": sum(r.get("count") or 0 for r in runs),
            **{k: over_runs.estimate([r.get(k) for r in runs], "ns", signed=k == "p99_ns")
               for k in ("spread_ns", "p99_ns", "stddev_ns", "max_abs_ns")}}


def against_first(configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each configuration's spread (p99 - p1) against the first one's, over their runs."""
    from . import over_runs
    if not configs:
        return []
    base = configs[0]
    return [{"baseline": base["label"], "configuration": c["label"],
             **over_runs.compare(base["spread_ns"]["values"], c["spread_ns"]["values"], "ns")}
            for c in configs[1:]]
