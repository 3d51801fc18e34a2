# SPDX-License-Identifier: GPL-2.0-or-later
"""Metrics of one run, per thread set and per load, as the sweep tables use them."""
from __future__ import annotations

from ..base.metrics import BY_NAME, METRICS
from ..read.rundir import Run
from . import switches

# What a sweep is usually about first (latency, deadlines, work, throughput), then the CPU
# received: a sweep's table and figure show them in this order, those that apply.
DEFAULT_METRICS = ("latency_p99_ns", "latency_max_ns", "deadline_miss_ratio", "deadlines_missed",
                   "work_units", "mbps", "cpu_ns")
# The runner's per-thread metrics (hgreport/base/metrics.py: those expect: bounds, read from a
# thread's stats), and the one the sweep counts from the trace.
THREAD_METRICS = (tuple(m.name for m in METRICS if m.expect)
                  + (BY_NAME["involuntary_switches"].name,))
LOAD_METRICS = ("mbps", "ops_per_s")     # a load's stats, as result.json names them
ALL_METRICS = THREAD_METRICS + LOAD_METRICS


def _sets(run: Run) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, t in enumerate(run.threads):
        out.setdefault(t["name"], []).append(i)
    return out


def run_metrics(run: Run, wanted: tuple[str, ...]) -> dict[tuple[str, str], float]:
    """{(subject, metric): value}; a thread set sums its instances' counters (latency: the worst
    instance); metrics that do not apply (no releases, no latency, no work) are left out."""
    out: dict[tuple[str, str], float] = {}
    for name, idx in _sets(run).items():
        st = [run.threads[i]["stats"] for i in idx]
        releases = sum(s["releases"] for s in st)
        for m in wanted:
            if m == "deadline_miss_ratio" and releases:
                out[(name, m)] = sum(s["deadlines_missed"] for s in st) / releases
            elif m in ("deadlines_missed", "deadlines_hit", "releases") and releases:
                out[(name, m)] = sum(s[m] for s in st)
            elif m == "work_units" and any(s["work_units"] for s in st):
                out[(name, m)] = sum(s["work_units"] for s in st)
            elif m in ("cpu_ns", "intervals", "gaps", "records_dropped"):
                out[(name, m)] = sum(s[m] for s in st)
            elif m.startswith("latency_") and any(s.get("latency") for s in st):
                key = m[len("latency_"):]
                out[(name, m)] = max(s["latency"][key] for s in st if s.get("latency"))
            elif m == "involuntary_switches":
                sw = switches.switches(run.intervals)
                mine = set(idx)
                out[(name, m)] = int(sum(1 for f, v in zip(sw.from_thread.tolist(), sw.voluntary.tolist())
                                         if f in mine and not v))
    for load in run.loads:
        st = load.get("stats") or {}
        for m in wanted:
            if m in LOAD_METRICS and st.get(m) is not None:
                out[(load["name"], m)] = float(st[m])
    return out


def kind(metric: str) -> str:
    """How to print a metric: ratio, ns, rate or count."""
    if metric.endswith("_ratio"):
        return "ratio"
    if metric.endswith("_ns"):
        return "ns"
    if metric in LOAD_METRICS:
        return "rate"
    return "count"


def unit(metric: str) -> str:
    """The unit of a metric's values, as base/stats.py's scale_of reads it."""
    return {"ratio": "ratio", "ns": "ns", "count": "count"}.get(
        kind(metric), "Mbit/s" if metric == "mbps" else "ops/s")


def display(metric: str, largest: float) -> tuple[float, str]:
    """(factor, unit) to plot a metric whose largest value is `largest` (durations in ns, us, ms
    or s as fits, ratios in %)."""
    k = kind(metric)
    if k == "ratio":
        return 100.0, "%"
    if k == "ns":
        for factor, unit in ((1e-9, "s"), (1e-6, "ms"), (1e-3, "us")):
            if largest * factor >= 1:
                return factor, unit
        return 1.0, "ns"
    if k == "rate":
        return 1.0, "Mbit/s" if metric == "mbps" else "ops/s"
    return 1.0, ""
