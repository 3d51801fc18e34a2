# SPDX-License-Identifier: GPL-2.0-or-later
"""The key figures of another tool's output read as a run (read/peers.py, docs/peers.md): the
latency figures of each series from its result.json-shaped stats, and for the overlaid tail a
sample drawn from its histogram. A histogram has no time order and no single samples, so a
peer row gets no within-run interval; oslat's maximum, the longest interruption of a busy loop,
is also its gap_max_ns (hgrun's longest gap of a spinning thread)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..read.rundir import Run
from .keyfigures import THREAD_FIGURES, RunData, ThreadData

MAX_DRAWN = 2_000_000       # histogram samples drawn for the figure (quantiles beyond: thinned)


def histogram_sample(hist: dict[str, Any], max_ns: float | None,
                     limit: int = MAX_DRAWN) -> np.ndarray:
    """Sorted values (ns) standing for a histogram's samples: each bucket's lower edge, its
    count times; the overflow at the maximum. Past `limit` samples, the values at `limit`
    evenly spaced ranks (the tail beyond 1/limit is then drawn as its rank allows)."""
    counts = np.asarray(hist.get("counts") or [], dtype=np.int64)
    edges = np.arange(len(counts), dtype=np.float64) * float(hist.get("bucket_ns") or 1)
    over = int(hist.get("overflow") or 0)
    if over:
        top = float(max_ns) if max_ns is not None else (edges[-1] if len(edges) else 0.0)
        edges = np.append(edges, max(top, float(len(counts)) * float(hist.get("bucket_ns") or 1)))
        counts = np.append(counts, over)
    n = int(counts.sum())
    if n == 0:
        return np.zeros(0)
    if n <= limit:
        return np.repeat(edges, counts)
    ranks = np.linspace(0, n - 1, limit).astype(np.int64)
    out = edges[np.searchsorted(np.cumsum(counts), ranks, side="right")]
    out[-1] = edges[-1]
    return out


def run_data(run: Run) -> RunData:
    peer = run.result["peer"]
    notes = [f"{run.path}: {n}" for n in peer.get("notes") or []]
    notes.append(f"{run.path}: {peer['tool']} ({peer.get('measures')}): its figures are the "
                 "tool's own or read from its histogram (the lower edge of a bucket), with no "
                 "within-run interval")
    threads = {}
    for i, t in enumerate(run.threads):
        lat = t["stats"]["latency"]
        v: dict[str, float | None] = {f.key: None for f in THREAD_FIGURES}
        for key in ("mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns"):
            v["latency_" + key] = lat.get(key)
        if peer["tool"] == "oslat":
            v["gap_max_ns"] = lat.get("max_ns")
        smp = {}
        if lat.get("histogram"):
            drawn = histogram_sample(lat["histogram"], lat.get("max_ns"))
            if len(drawn):
                smp["latency"] = drawn
        label = run.label(i)
        threads[label] = ThreadData(label, t["name"], v, smp)
    return RunData(threads, {}, notes)
