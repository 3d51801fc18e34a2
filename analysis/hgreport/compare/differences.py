# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport compare`: key figures of several runs (or groups of repeats) side by side and the
difference of each from the first (the baseline), tested run against run by the one method of
base/stats.py (Welch's t over the runs; "not enough runs to tell" below MIN_RUNS runs a side).
A row of one run gets, for its percentiles, the within-run spread of a block bootstrap over
time, labelled as such: never a test between rows."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..analyses import disturbances
from ..analyses.disturbances import Disturbance
from ..base import stats
from ..base.metrics import BY_NAME
from ..read.rungroups import Group
from ..read.peers import is_peer
from .keyfigures import FIGURES, LOAD_FIGURES, THREAD_FIGURES, RunData, run_data
from .peer_figures import run_data as peer_run_data

FORMAT = "hgreport-compare/2"


@dataclass
class Table:
    """rows: {subject: {"kind", "set", "unit", "metrics": {key: {"values": {label: value over
    the runs}, "runs": {label: [per-run values]}, "diff": {label: {...}}, "within_run": {label:
    [low, high]}}}}}; samples: {subject: {sample kind: {label: pooled array}}} for the
    figures (a thread's own, never pooled with the other instances of its set)."""
    labels: list[str]
    rows: dict[str, dict[str, Any]]
    samples: dict[str, dict[str, dict[str, np.ndarray]]]
    notes: list[str] = field(default_factory=list)
    level: float = stats.LEVEL
    seed: int = 1


def scale(key: str) -> str:
    """The scale a figure is compared on (base/stats.py): durations and rates as ratios."""
    return stats.scale_of(BY_NAME[key].unit if key in BY_NAME else None)


def _value(key: str, runs: list[float | None]) -> float | None:
    return stats.estimate(runs, scale(key)).value


def _diff(key: str, base_runs: list, cand_runs: list, level: float) -> dict[str, Any] | None:
    c = stats.compare(base_runs, cand_runs, scale(key), level)
    if c.base is None or c.cand is None:
        return None
    return {"delta": c.delta, "relative": c.relative, "verdict": c.verdict,
            "significant": c.significant, "method": c.method, "p": c.p, "df": c.df,
            "low": c.low, "high": c.high, "rel_low": c.rel_low, "rel_high": c.rel_high,
            "n": [c.n_base, c.n_cand]}


def _within_run(key: str, data: list[RunData], subject: str, seed: int) -> list[float] | None:
    """[low, high] of a percentile of a row of one run, from the block bootstrap over time."""
    fig = FIGURES[key]
    if len(data) != 1 or fig.q is None:
        return None
    td = data[0].threads.get(subject)
    if td is None or fig.sample not in td.ordered:
        return None
    w = stats.within_run(td.ordered[fig.sample], [fig.q], seed=seed)
    return None if w is None else list(w.bounds[fig.q])


def build(groups: Sequence[Group], level: float = stats.LEVEL, seed: int = 1) -> Table:
    labels = [g.label for g in groups]
    data = [[peer_run_data(r) if is_peer(r) else run_data(r) for r in g.runs] for g in groups]
    rows: dict[str, dict[str, Any]] = {}
    samples: dict[str, dict[str, dict[str, list[np.ndarray]]]] = {}
    notes = [n for g in groups for n in g.notes] + [n for ds in data for d in ds for n in d.notes]
    for label, ds in zip(labels, data):
        for k, d in enumerate(ds):
            for subject, td in d.threads.items():
                row = rows.setdefault(subject, {"kind": "thread", "set": td.set_name, "unit": None,
                                                "metrics": {f.key: {"values": {}, "runs": {}, "diff": {}}
                                                            for f in THREAD_FIGURES}})
                for key, v in td.values.items():
                    runs = row["metrics"][key]["runs"].setdefault(label, [None] * len(ds))
                    runs[k] = v
                for kind, arr in td.samples.items():
                    samples.setdefault(subject, {}).setdefault(kind, {}).setdefault(label, []).append(arr)
            for name, ld in d.loads.items():
                row = rows.setdefault(name, {"kind": "load", "set": name, "unit": ld["unit"],
                                             "metrics": {f.key: {"values": {}, "runs": {}, "diff": {}}
                                                         for f in LOAD_FIGURES}})
                if ld["unit"] and row["unit"] and ld["unit"] != row["unit"]:
                    notes.append(f"load {name}: throughput in {row['unit']} in one run and "
                                 f"{ld['unit']} in another: not comparable")
                row["unit"] = row["unit"] or ld["unit"]
                row["metrics"]["throughput"]["runs"].setdefault(label, [None] * len(ds))[k] = ld["throughput"]
    base = labels[0]
    for subject, row in rows.items():
        for key, m in row["metrics"].items():
            m["values"] = {lab: _value(key, m["runs"].get(lab, [])) for lab in labels}
            for lab, ds in zip(labels[1:], data[1:]):
                d = _diff(key, m["runs"].get(base, []), m["runs"].get(lab, []), level)
                if d is not None:
                    m["diff"][lab] = d
            m["within_run"] = {}
            for lab, ds in zip(labels, data):
                w = _within_run(key, ds, subject, seed) if row["kind"] == "thread" else None
                if w is not None:
                    m["within_run"][lab] = w
    pooled = {s: {k: {lab: np.concatenate(arrs) for lab, arrs in per.items()} for k, per in kinds.items()}
              for s, kinds in samples.items()}
    return Table(labels, rows, pooled, list(dict.fromkeys(notes)), level, seed)


def to_json(t: Table, groups: Sequence[Group], differing: list[str]) -> dict[str, Any]:
    from ..read.rungroups import describe_group
    clean = lambda x: None if isinstance(x, float) and not math.isfinite(x) else x  # noqa: E731
    subjects = {}
    for s, row in t.rows.items():
        metrics = {}
        for key, m in row["metrics"].items():
            if all(v is None for v in m["values"].values()):
                continue
            metrics[key] = {"values": m["values"], "runs": m["runs"], "scale": scale(key),
                            "diff": {lab: {k: clean(v) for k, v in d.items()} for lab, d in m["diff"].items()},
                            "within_run": m["within_run"]}
        subjects[s] = {"kind": row["kind"], "set": row["set"], "unit": row["unit"], "metrics": metrics}
    return {"format": FORMAT, "baseline": t.labels[0], "labels": t.labels, "differing": differing,
            "confidence_level": t.level, "seed": t.seed, "method": stats.describe_method(t.level),
            "min_runs": stats.MIN_RUNS,
            "groups": [describe_group(g) for g in groups], "subjects": subjects, "notes": t.notes}


def disturbances_of(groups: Sequence[Group], differing: list[str]) -> dict[str, list[Disturbance]]:
    """Each row's disturbances (analyses/disturbances.py; read after build, which reads the
    trace files), and, for every row, rows that differ in the machine as well as in the factor
    under study (the two are confounded)."""
    out = {g.label: disturbances.of_runs(f"row {g.label!r}", g.runs) for g in groups}
    machine = [k for k in differing if k in ("host", "kernel")]
    other = [k for k in differing if k not in ("host", "kernel", "duration")]
    if machine and other:
        text = (f"the rows differ in {' and '.join(machine)} as well as in {', '.join(other)}: "
                "each difference is the machines' and the factor's together")
        for g in groups:
            out[g.label].append(Disturbance("mixed_machines", text, g.label))
    return out
