# SPDX-License-Identifier: GPL-2.0-or-later
"""Verdicts between configurations on the pages that list runs (the tables): the runs
grouped by configuration (runs whose facts all agree are repeats of one), each group's value
over its runs, and each group against the first by the one method of base/stats.py, with what
disturbed them (disturbances.py): the same numbers and words as `compare` and `sweep`."""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Sequence

from ..base import stats
from ..base.markdown import table
from ..base.metrics import BY_NAME
from ..base.units import fmt_metric
from ..read.rundir import Run
from ..read.rungroups import Group, assign_labels, facts
from ..analyses import disturbances

Values = Callable[[Run], dict[tuple[str, str], float | None]]


def configurations(runs: Sequence[Run]) -> list[Group]:
    """The runs grouped by configuration in the order first seen (repeats share every fact
    of read/rungroups.py's `facts`), labelled by what differs between the groups."""
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


def _scale(metric: str) -> str:
    return stats.scale_of(BY_NAME[metric].unit if metric in BY_NAME else None)


def _fmt(metric: str, v: float | None) -> str:
    return fmt_metric(metric, v)


def compute(groups: Sequence[Group], values: Values) -> dict[str, Any]:
    """Per (subject, metric) each configuration's value over its runs with its t interval,
    and each configuration against the first (Welch's t over the runs), with what disturbed
    them: {"configurations": [labels], "estimates": [...], "comparisons": [...],
    "disturbances": {label: [texts]}}."""
    per: dict[tuple[str, str], dict[str, list[float | None]]] = {}
    for g in groups:
        for r in g.runs:
            for key, v in values(r).items():
                per.setdefault(key, {}).setdefault(g.label, []).append(v)
    dist = {g.label: disturbances.of_runs(f"configuration {g.label!r}", g.runs) for g in groups}
    base = groups[0].label
    estimates, comparisons = [], []
    for (subject, metric), by in per.items():
        for g in groups:
            e = stats.estimate(by.get(g.label, []), _scale(metric))
            if e.value is not None:
                estimates.append({"subject": subject, "metric": metric, "configuration": g.label,
                                  "n": e.n, "value": e.value, "low": e.low, "high": e.high,
                                  "method": e.method,
                                  "disturbed_by": disturbances.kinds(dist[g.label], subject)})
        for g in groups[1:]:
            c = stats.compare(by.get(base, []), by.get(g.label, []), _scale(metric))
            if c.base is not None and c.cand is not None:
                comparisons.append({
                    "subject": subject, "metric": metric, "baseline": base,
                    "configuration": g.label, **dataclasses.asdict(c),
                    "disturbed_by": disturbances.kinds(dist[base] + dist[g.label], subject)})
    return {"configurations": [g.label for g in groups], "method": stats.describe_method(),
            "estimates": estimates, "comparisons": comparisons,
            "disturbances": {lab: [d.text for d in ds] for lab, ds in dist.items()}}


def _said(c: dict[str, Any]) -> str:
    metric = c["metric"]
    if c["verdict"] == stats.TOO_FEW:
        return f"{stats.TOO_FEW} ({c['method']})"
    word = f"**{c['verdict']}**" if c["verdict"] == stats.SIGNIFICANT else c["verdict"]
    ci = (f" [{100 * c['rel_low']:+.1f}%, {100 * c['rel_high']:+.1f}%]" if c["rel_low"] is not None
          else f" [{_fmt(metric, c['low'])}, {_fmt(metric, c['high'])}] as a difference"
          if c["low"] is not None else "")
    return f"{word} (p = {c['p']:.2g}{ci}, {c['method']})"


def section(data: dict[str, Any]) -> list[str]:
    """The Markdown of compute's result: a table of the values over the runs, a line per
    comparison, the disturbances; [] when there is nothing over several runs."""
    if not data["estimates"] or all(e["n"] < 2 for e in data["estimates"]) \
            and len(data["configurations"]) < 2:
        return []
    rows = [[f"{e['subject']} {e['metric']}", e["configuration"], e["n"],
             _fmt(e["metric"], e["value"]),
             f"[{_fmt(e['metric'], e['low'])}, {_fmt(e['metric'], e['high'])}]"
             if e["low"] is not None else f"– (n < {stats.MIN_RUNS})",
             ", ".join(disturbances.KINDS[k] for k in e["disturbed_by"]) or "none"]
            for e in data["estimates"]]
    out = ["## Configurations", "",
           "Runs whose configuration is the same are repeats of one. " + data["method"], "",
           table(["figure", "configuration", "runs", "value", "95% interval", "disturbed by"],
                 rows, "llrrll"), ""]
    lines = []
    for c in data["comparisons"]:
        rel = c["relative"]
        change = f"{100 * rel:+.1f}%" if rel is not None and math.isfinite(rel) else "–"
        seen = ", ".join(disturbances.KINDS[k] for k in c["disturbed_by"])
        lines.append(f"- `{c['subject']} {c['metric']}`: {c['configuration']} "
                     f"{_fmt(c['metric'], c['cand'])} against {c['baseline']} "
                     f"{_fmt(c['metric'], c['base'])} ({change}): {_said(c)}"
                     + (f"; disturbed by {seen}" if seen else ""))
    if lines:
        out += [f"Against the first configuration ({data['configurations'][0]}):", ""] + lines + [""]
    texts = [f"- {lab}: {t}" for lab, ts in data["disturbances"].items() for t in ts]
    if texts:
        out += ["Disturbed runs (a difference beside them may be theirs):", ""] + list(
            dict.fromkeys(texts)) + [""]
    return out
