# SPDX-License-Identifier: GPL-2.0-or-later
"""The key figures `hgreport compare` puts side by side, per thread and per load of one run,
with the raw samples behind the percentiles (for the bootstrap and the overlaid figures)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..analyses import skipped, switches
from ..analyses.summary import miss_ratio, thread_window
from ..base.metrics import METRICS, Metric
from ..base.stats import nearest_rank
from ..base.units import fmt_ns
from ..read.rundir import Run


@dataclass(frozen=True)
class Figure:
    key: str          # the name --fail-if uses
    title: str        # the column header
    kind: str         # ratio, count, ns, rate
    sample: str | None = None   # the raw sample it is a percentile of ('latency', 'gap', 'switch')
    q: float | None = None      # which percentile (within-run interval), None for a maximum or a count


# The runner's metrics (hgreport/base/metrics.py, from runner/plan/metrics.c), in its order:
# expect: and --fail-if say the same strings, with the unit in the name where the value has
# one.  A percentile or a maximum of a sample names it: latency_p99_ns, gap_max_ns,
# switch_cost_p50_ns (the within-run block bootstrap draws from that sample).
_KINDS = {"ratio": "ratio", "count": "count", "ns": "ns", "1/s": "rate", "ops/s": "rate"}
_SAMPLES = {"latency": "latency", "gap": "gap", "switch_cost": "switch"}


def _figure(m: Metric) -> Figure:
    hit = re.fullmatch(r"(latency|gap|switch_cost)_(?:p(\d+)|max)_ns", m.name)
    sample = _SAMPLES[hit.group(1)] if hit else None
    q = int(hit.group(2)) / 10 ** len(hit.group(2)) if hit and hit.group(2) else None
    return Figure(m.name, m.label, _KINDS[m.unit], sample, q)


THREAD_FIGURES = tuple(_figure(m) for m in METRICS if m.scope != "load")
LOAD_FIGURES = tuple(_figure(m) for m in METRICS if m.scope == "load")
FIGURES = {f.key: f for f in THREAD_FIGURES + LOAD_FIGURES}


@dataclass
class ThreadData:
    """One thread of one run: its key figures and the samples behind them, sorted (for the
    figures) and in time order (for the within-run block bootstrap); complete ones only."""
    label: str
    set_name: str
    values: dict[str, float | None]
    samples: dict[str, np.ndarray] = field(default_factory=dict)
    ordered: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class RunData:
    threads: dict[str, ThreadData]
    loads: dict[str, dict[str, Any]]          # name -> {"throughput": v, "unit": ...}
    notes: list[str]


def _trace_full(run: Run) -> bool:
    return ((run.result.get("trace") or {}).get("mode") or "full") == "full"


def _thread(run: Run, i: int, sw: switches.Switches, notes: list[str]) -> ThreadData:
    t = run.threads[i]
    st = t["stats"]
    label = run.label(i)
    start, end = thread_window(run, i)
    seconds = (end - start) / 1e9 if end > start else None
    v: dict[str, float | None] = {f.key: None for f in THREAD_FIGURES}
    smp: dict[str, np.ndarray] = {}
    order: dict[str, np.ndarray] = {}
    if st["releases"]:
        v["deadline_miss_ratio"] = miss_ratio(st)
        for key in ("deadlines_missed", "deadlines_hit", "releases"):
            v[key] = float(st[key])
    if st.get("work_units"):
        v["work_units"] = float(st["work_units"])
    lat = st.get("latency")
    if lat:
        # the runner's numbers (result.json: what expect:, the summary, sweep and the tables
        # show), whichever samples are stored; the samples draw the figures and the
        # within-run spread
        for key in ("mean_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns"):
            v["latency_" + key] = lat.get(key)
        mine = run.samples.thread == i
        timed = run.samples.late[mine][np.argsort(run.samples.intended[mine], kind="stable")]
        if _trace_full(run) and len(timed) and len(timed) == lat.get("count"):
            smp["latency"], order["latency"] = np.sort(timed), timed
            sk = skipped.of_thread(run, i)
            if sk.skipped and sk.counted_late:
                # the figure's slots: a skipped one is later than every x (docs/results.md,
                # "Skipped wake-ups"), as in the dispatch shares
                smp["latency"] = np.concatenate([smp["latency"].astype(np.float64),
                                                 np.full(sk.skipped, np.inf)])
        else:
            notes.append(f"{run.path}: {label}: {len(timed)} of {lat.get('count')} wake-ups "
                         "stored: no within-run interval, no latency figure")
    iv = run.intervals
    complete = _trace_full(run) and not st["records_dropped"]
    timed_gaps = switches.thread_gaps(iv, i)
    gaps = np.sort(timed_gaps)
    if len(gaps):
        v["gap_p99_ns"], v["gap_max_ns"] = nearest_rank(gaps, 0.99), float(gaps[-1])
        if complete:
            smp["gap"], order["gap"] = gaps, timed_gaps
    for key in ("cpu_ns", "intervals", "gaps", "records_dropped"):
        v[key] = float(st[key])
    mine = iv.thread == i
    v["preemptions"] = float(((iv.end == switches.PREEMPTED) & mine).sum())
    out = (sw.from_thread == i) & ~sw.voluntary
    v["involuntary_switches"] = float(out.sum())
    if seconds:
        v["involuntary_switches_per_s"] = v["involuntary_switches"] / seconds
    timed_costs = sw.cost_of(out)
    costs = np.sort(timed_costs)
    if len(costs):
        v["switch_cost_p50_ns"] = nearest_rank(costs, 0.5)
        if complete:
            smp["switch"], order["switch"] = costs, timed_costs
    if not complete:
        notes.append(f"{run.path}: {label}: the trace is incomplete (mode "
                     f"{(run.result.get('trace') or {}).get('mode')}, {st['records_dropped']} records "
                     "dropped): gap and switch figures cover the recorded part, no within-run interval")
    return ThreadData(label, t["name"], v, smp, order)


def _load(load: dict[str, Any]) -> dict[str, Any]:
    st = load.get("stats") or {}
    if st.get("mbps") is not None:
        return {"throughput": float(st["mbps"]), "unit": "Mbit/s"}
    if st.get("ops_per_s") is not None:
        return {"throughput": float(st["ops_per_s"]), "unit": "ops/s"}
    return {"throughput": None, "unit": ""}


def run_data(run: Run) -> RunData:
    notes: list[str] = []
    sw = switches.switches(run.intervals)
    threads = {}
    for i in range(len(run.threads)):
        td = _thread(run, i, sw, notes)
        threads[td.label] = td
    return RunData(threads, {ld["name"]: _load(ld) for ld in run.loads}, notes)


def fmt_value(key: str, v: float | None, unit: str | None = None) -> str:
    if v is None:
        return "–"
    kind = FIGURES[key].kind
    if kind == "ns":
        return fmt_ns(v)
    if kind == "ratio":
        return f"{100 * v:.2f}%"
    if kind == "rate":
        return f"{v:.1f}" + (f" {unit}" if unit else "")
    return f"{v:.0f}" if v == int(v) else f"{v:.1f}"
