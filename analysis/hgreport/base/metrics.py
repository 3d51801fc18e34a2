# SPDX-License-Identifier: GPL-2.0-or-later
"""The metric vocabulary: hgreport/schemas/metrics.json (schemas/metrics.json, which
schemas/gen_metrics.py writes from the runner's one metric table, runner/plan/metrics.c), read
once.  Each metric's name (its unit in the name where the value has one), unit, scope ("any",
"periodic", "latency": which threads have it; "load": a load's), label (a table's column) and
whether expect: can bound it (the runner computes it per thread) or only hgreport computes it."""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Metric:
    name: str
    unit: str       # ns, count, ratio, 1/s, ops/s
    scope: str      # any, periodic, latency, load
    label: str
    summary: str
    expect: bool


def _load() -> tuple[Metric, ...]:
    doc = json.loads(resources.files("hgreport").joinpath("schemas/metrics.json").read_text())
    if doc.get("format") != "hgrun-metrics/1":
        raise RuntimeError("hgreport/schemas/metrics.json: not hgrun-metrics/1")
    return tuple(Metric(**m) for m in doc["metrics"])


METRICS: tuple[Metric, ...] = _load()
BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}
