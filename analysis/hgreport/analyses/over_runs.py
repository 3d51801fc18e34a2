# SPDX-License-Identifier: GPL-2.0-or-later
"""A figure over the runs of one configuration, and two configurations compared, for the
reproduction forms (slices, switches, abeni-table2, abeni-cdf, interactivation): the replicate
is the run, each run gives one value, and the interval and the verdict come from hgreport's
one statistical method (base/stats.py, docs/statistics.md). This module only puts the
method's answer into the plain dictionaries the forms print and store; it has no method of
its own."""
from __future__ import annotations

import math
from typing import Any, Iterable, Sequence

from ..base import stats
from ..read.rundir import Run
from ..read.rungroups import Group, assign_labels, facts

TOO_FEW = getattr(stats, "TOO_FEW", "not enough runs to tell")
MIN_RUNS = getattr(stats, "MIN_RUNS", getattr(stats, "MIN_N", 3))


def _clean(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(float(v))]


def estimate(values: Iterable[float | None], unit: str | None = None,
             signed: bool = False, upper: float | None = None) -> dict[str, Any]:
    """The runs' values of one figure: n, the configuration's value and its 95% interval
    (None below MIN_RUNS runs), and how they were found. `unit` picks the scale (durations and
    rates: a ratio scale; counts and shares: linear); `signed` lets the interval go below 0,
    `upper` bounds it (1 for a share)."""
    xs = _clean(values)
    if hasattr(stats, "estimate"):
        e = stats.estimate(xs, stats.scale_of(unit), lower=None if signed else 0.0, upper=upper)
        return {"n": e.n, "value": e.value, "low": e.low, "high": e.high, "method": e.method,
                "values": xs}
    e = stats.mean_estimate(xs, floor=None if signed else 0.0)
    high = e.high if upper is None or e.high is None else min(e.high, upper)
    return {"n": e.n, "value": e.mean, "low": e.low, "high": high, "method": e.method,
            "values": xs}


def compare(base: Iterable[float | None], cand: Iterable[float | None],
            unit: str | None = None) -> dict[str, Any]:
    """The candidate configuration's runs against the baseline's: the verdict
    ("significant", "not significant", or TOO_FEW below MIN_RUNS runs a side), the relative
    change (ratio scale) or the difference (linear) with its interval, and the method."""
    a, b = _clean(base), _clean(cand)
    if hasattr(stats, "compare"):
        c = stats.compare(a, b, stats.scale_of(unit))
        return {"verdict": c.verdict, "n_base": c.n_base, "n_cand": c.n_cand, "base": c.base,
                "cand": c.cand, "relative": c.relative, "rel_low": c.rel_low,
                "rel_high": c.rel_high, "delta": c.delta, "low": c.low, "high": c.high,
                "p": c.p, "method": c.method}
    ea, eb = estimate(a, unit), estimate(b, unit)
    rel = (eb["value"] / ea["value"] - 1) if ea["value"] and eb["value"] is not None else None
    return {"verdict": TOO_FEW, "n_base": len(a), "n_cand": len(b), "base": ea["value"],
            "cand": eb["value"], "relative": rel, "rel_low": None, "rel_high": None,
            "delta": None if ea["value"] is None or eb["value"] is None
            else eb["value"] - ea["value"], "low": None, "high": None, "p": None,
            "method": "the comparison of configurations (docs/statistics.md) is not in this "
                      "hgreport: no verdict"}


def method_text() -> str:
    """The method in one paragraph, as every page with a verdict gives it."""
    return stats.describe_method()


def configurations(runs: Sequence[Run]) -> list[Group]:
    """The runs grouped by configuration in the order first seen: runs whose facts
    (read/rungroups.py: scenario, kernel, preemption model, host, duration, loads, overrides,
    sweep point) all agree are repeats of one; labelled by what differs between the groups."""
    by: dict[tuple, Group] = {}
    for r in runs:
        key = tuple(sorted(facts(r).items()))
        if key in by:
            by[key].runs.append(r)
        else:
            by[key] = Group(str(r.path), [r])
    groups = list(by.values())
    assign_labels(groups)
    return groups


def run_label(group: Group, run: Run) -> str:
    """A run's label in a table of runs: its configuration's, with its directory's name when
    the configuration has several runs."""
    return group.label if len(group.runs) == 1 else f"{group.label}: {run.path.name}"
