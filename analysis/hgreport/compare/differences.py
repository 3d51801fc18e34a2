# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport compare`: key figures of several runs (or groups of repeats) side by side, the
difference of each from the first (the baseline) with a bootstrap confidence interval (single
runs) or a Mann-Whitney rank test over the repeats (two or more runs per group)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..base.significance import bootstrap_diff, mann_whitney
from ..read.rungroups import Group
from .keyfigures import FIGURES, LOAD_FIGURES, THREAD_FIGURES, RunData, run_data

FORMAT = "hgreport-compare/1"


@dataclass
class Table:
    """rows: {subject: {"kind", "set", "unit", "metrics": {key: {"values": {label: mean},
    "runs": {label: [per-run values]}, "diff": {label: {...}}}}}}; samples: {set name: {sample
    kind: {label: pooled array}}} for the figures."""
    labels: list[str]
    rows: dict[str, dict[str, Any]]
    samples: dict[str, dict[str, dict[str, np.ndarray]]]
    notes: list[str] = field(default_factory=list)
    seed: int = 1
    level: float = 0.95


def _mean(values: list[float | None]) -> float | None:
    xs = [v for v in values if v is not None]
    return sum(xs) / len(xs) if xs else None


def _relative(base: float, cand: float) -> float | None:
    if base == 0:
        return 0.0 if cand == 0 else math.copysign(math.inf, cand)
    return (cand - base) / abs(base)


def _diff(key: str, base_runs: list, cand_runs: list, base_data: list[RunData],
          cand_data: list[RunData], subject: str, seed: int, level: float) -> dict[str, Any] | None:
    vb, vc = _mean(base_runs), _mean(cand_runs)
    if vb is None or vc is None:
        return None
    out: dict[str, Any] = {"delta": vc - vb, "relative": _relative(vb, vc), "method": None,
                           "low": None, "high": None, "p": None, "significant": None}
    fig = FIGURES[key]
    b = [v for v in base_runs if v is not None]
    c = [v for v in cand_runs if v is not None]
    if len(b) >= 2 and len(c) >= 2:
        t = mann_whitney(c, b)
        out.update(method=f"Mann-Whitney U ({t.method}), {len(b)} vs {len(c)} runs", p=t.p,
                   u=t.u, significant=t.p < 1 - level)
    elif len(base_data) == 1 and len(cand_data) == 1 and fig.q is not None:
        sb = base_data[0].threads.get(subject)
        sc = cand_data[0].threads.get(subject)
        if sb and sc and fig.sample in sb.samples and fig.sample in sc.samples:
            ci = bootstrap_diff(sb.samples[fig.sample], sc.samples[fig.sample], fig.q, seed=seed,
                                level=level)
            out.update(method=f"bootstrap ({ci.draws} draws, seed {seed})", low=ci.low,
                       high=ci.high, significant=not ci.low <= 0 <= ci.high)
    return out


def build(groups: Sequence[Group], seed: int = 1, level: float = 0.95) -> Table:
    labels = [g.label for g in groups]
    data = [[run_data(r) for r in g.runs] for g in groups]
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
                    samples.setdefault(td.set_name, {}).setdefault(kind, {}).setdefault(label, []).append(arr)
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
            m["values"] = {lab: _mean(m["runs"].get(lab, [])) for lab in labels}
            for lab, ds in zip(labels[1:], data[1:]):
                d = _diff(key, m["runs"].get(base, []), m["runs"].get(lab, []), data[0], ds,
                          subject, seed, level)
                if d is not None:
                    m["diff"][lab] = d
    pooled = {s: {k: {lab: np.concatenate(arrs) for lab, arrs in per.items()} for k, per in kinds.items()}
              for s, kinds in samples.items()}
    return Table(labels, rows, pooled, list(dict.fromkeys(notes)), seed, level)


def to_json(t: Table, groups: Sequence[Group], differing: list[str]) -> dict[str, Any]:
    from ..read.rungroups import describe_group
    clean = lambda x: None if isinstance(x, float) and not math.isfinite(x) else x  # noqa: E731
    subjects = {}
    for s, row in t.rows.items():
        metrics = {}
        for key, m in row["metrics"].items():
            if all(v is None for v in m["values"].values()):
                continue
            metrics[key] = {"values": m["values"], "runs": m["runs"],
                            "diff": {lab: {k: clean(v) for k, v in d.items()} for lab, d in m["diff"].items()}}
        subjects[s] = {"kind": row["kind"], "set": row["set"], "unit": row["unit"], "metrics": metrics}
    return {"format": FORMAT, "baseline": t.labels[0], "labels": t.labels, "differing": differing,
            "confidence_level": t.level, "seed": t.seed,
            "groups": [describe_group(g) for g in groups], "subjects": subjects, "notes": t.notes}
