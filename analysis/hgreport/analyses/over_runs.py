# SPDX-License-Identifier: GPL-2.0-or-later
"""A figure over the runs of one configuration, and two configurations compared, for the
reproduction forms (slices, switches, abeni-table2, abeni-cdf, interactivation): the replicate
is the run, each run gives one value, and the interval and the verdict come from hgreport's
one statistical method (base/stats.py, docs/statistics.md). This module only puts the
method's answer into the plain dictionaries the forms print and store (they go into
docs/data as JSON); it has no method of its own. The runs are grouped into configurations
by tables/verdicts.py's `configurations`."""
from __future__ import annotations

import math
from typing import Any, Iterable

from ..base import stats
from ..read.rundir import Run
from ..read.rungroups import Group

TOO_FEW = stats.TOO_FEW


def estimate(values: Iterable[float | None], unit: str | None = None,
             signed: bool = False, upper: float | None = None) -> dict[str, Any]:
    """The runs' values of one figure: n, the configuration's value and its 95% interval
    (None below stats.MIN_RUNS runs), and how they were found. `unit` picks the scale (durations and
    rates: a ratio scale; counts and shares: linear); `signed` lets the interval go below 0,
    `upper` bounds it (1 for a share)."""
    xs = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    e = stats.estimate(xs, stats.scale_of(unit), lower=None if signed else 0.0, upper=upper)
    return {"n": e.n, "value": e.value, "low": e.low, "high": e.high, "method": e.method,
            "values": xs}


def compare(base: Iterable[float | None], cand: Iterable[float | None],
            unit: str | None = None) -> dict[str, Any]:
    """The candidate configuration's runs against the baseline's: the verdict
    ("significant", "not significant", or TOO_FEW below stats.MIN_RUNS runs a side), the relative
    change (ratio scale) or the difference (linear) with its interval, and the method."""
    c = stats.compare(base, cand, stats.scale_of(unit))
    return {"verdict": c.verdict, "n_base": c.n_base, "n_cand": c.n_cand, "base": c.base,
            "cand": c.cand, "relative": c.relative, "rel_low": c.rel_low,
            "rel_high": c.rel_high, "delta": c.delta, "low": c.low, "high": c.high,
            "p": c.p, "method": c.method}


def method_text() -> str:
    """The method in one paragraph, as every page with a verdict gives it."""
    return stats.describe_method()


def run_label(group: Group, run: Run) -> str:
    """A run's label in a table of runs: its configuration's, with its directory's name when
    the configuration has several runs."""
    return group.label if len(group.runs) == 1 else f"{group.label}: {run.path.name}"
