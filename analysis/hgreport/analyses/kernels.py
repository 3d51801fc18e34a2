# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernels side by side (`hgreport kernels`, docs/kernels.md): runs of one scenario made on
different kernels or hosts, a column each, labelled by the kernel release, its preemption
model (and dynamic mode when it differs) and the command-line parameters that differ between
the columns, as Hourglass's table 1 and Abeni et al.'s tables set kernels side by side. A run
under QEMU's software emulation (its CPU model names TCG) is marked emulated: its latencies
are not the kernel's. The numbers per column: each thread's wake-up latency (count,
percentiles, worst, the 1 us histogram for the overlay), the dispatch table (wake-ups later
than each threshold), each load window's p99 and worst (Abeni's table 1), deadline misses,
and the share of gap time by cause when the run was traced."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..base.errors import InputError
from ..read.rundir import Run
from . import abeni_table1
from .summary import dispatch_table

PERCENTILES = (("min", "min_ns"), ("p50", "p50_ns"), ("p90", "p90_ns"), ("p99", "p99_ns"),
               ("p99.9", "p999_ns"), ("max", "max_ns"))


@dataclass
class Column:
    run: Run
    label: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def emulated(self) -> bool:
        return bool(self.facts.get("emulated"))


def emulated(run: Run) -> bool:
    """Whether the run was made under QEMU's software emulation (TCG): its CPU model says so."""
    return "TCG" in str((run.result.get("host") or {}).get("cpu_model") or "")


def _build_word(version: str) -> str:
    return next((w for w in version.split() if w.startswith("PREEMPT")), "")


def _model(host: dict[str, Any]) -> str:
    m, d = str(host.get("preempt") or "unknown"), host.get("preempt_dynamic")
    return f"{m} ({d})" if d and d != m else m


def _facts(run: Run) -> dict[str, Any]:
    h = run.result.get("host") or {}
    return {"release": h.get("kernel_release"), "build": _build_word(str(h.get("kernel_version") or "")),
            "kernel_version": h.get("kernel_version"), "preempt": h.get("preempt"),
            "preempt_source": h.get("preempt_source"), "preempt_dynamic": h.get("preempt_dynamic"),
            "model": _model(h), "cmdline": h.get("cmdline"), "hz": h.get("hz"),
            "lockdown": h.get("lockdown"), "cpu_model": h.get("cpu_model"),
            "cpus": h.get("cpus_online"), "clocksource": h.get("clocksource"),
            "hostname": h.get("hostname"), "emulated": emulated(run), "run": str(run.path),
            "kernel_trace": bool((run.result.get("kernel_trace") or {}).get("enabled"))}


def _words(cmdline: Any) -> list[str]:
    """The kernel's own parameters (what follows `--` goes to init)."""
    words = str(cmdline or "").split()
    return words[:words.index("--")] if "--" in words else words


def _telling_parts(paths: Sequence[Any]) -> list[str]:
    """For runs whose labels collide: the last component of their paths that tells them
    apart (the matrix's entry name in build/kernel-matrix/ENTRY/out/RUN)."""
    parts = [Path(os.path.abspath(p)).parts for p in paths]
    for k in range(1, min(len(p) for p in parts) + 1):
        tail = [p[-k] for p in parts]
        if len(set(tail)) == len(tail):
            return tail
    return [str(p) for p in paths]


def columns(runs: Sequence[Run], names: Sequence[str | None] | None = None) -> list[Column]:
    """A column per run, labelled; refuses runs of different scenarios (InputError)."""
    scen = list(dict.fromkeys(str(r.scenario.get("name")) for r in runs))
    if len(scen) > 1:
        raise InputError(runs[0].path, f"the runs are of {len(scen)} scenarios "
                         f"({', '.join(scen)}): kernels compares runs of one scenario")
    cols = [Column(r, facts=_facts(r)) for r in runs]
    lines = [set(_words(c.facts["cmdline"])) for c in cols]
    common = set.intersection(*lines) if lines else set()
    for c, words, name in zip(cols, lines, names or [None] * len(cols)):
        extra = [w for w in _words(c.facts["cmdline"]) if w not in common]
        c.facts["cmdline_differs"] = " ".join(extra)
        c.label = name or " ".join(x for x in (c.facts["release"], c.facts["model"],
                                               c.facts["cmdline_differs"]) if x)
    if len({c.label for c in cols}) < len(cols):
        hosts = {c.facts["hostname"] for c in cols}
        for c in cols:
            if len(hosts) > 1:
                c.label += f" on {c.facts['hostname']}"
    for label in {c.label for c in cols}:
        same = [c for c in cols if c.label == label]
        if len(same) > 1:
            for c, part in zip(same, _telling_parts([c.run.path for c in same])):
                c.label += f" [{part}]"
    seen: dict[str, int] = {}
    for c in cols:
        seen[c.label] = seen.get(c.label, 0) + 1
        if seen[c.label] > 1:
            c.label += f" #{seen[c.label]}"
    return cols


def _latency(t: dict[str, Any]) -> dict[str, Any] | None:
    lat = (t.get("stats") or {}).get("latency")
    if not isinstance(lat, dict):
        return None
    h = lat.get("histogram") or {}
    return {"count": lat.get("count"), **{k: lat.get(key) for k, key in PERCENTILES},
            "bucket_ns": int(h.get("bucket_ns") or 1000), "counts": list(h.get("counts") or []),
            "n_buckets": int(h.get("n_buckets") or len(h.get("counts") or [])),
            "overflow": int(h.get("overflow") or 0)}


def _causes(t: dict[str, Any]) -> dict[str, float] | None:
    gc = t.get("gap_causes") or {}
    if not gc.get("available") or not gc.get("gap_ns"):
        return None
    return {k: v["ns"] / gc["gap_ns"] for k, v in (gc.get("by_cause") or {}).items()}


def numbers(col: Column, thresholds_ns: Sequence[int]) -> dict[str, Any]:
    """The numbers of one column, per thread label."""
    run = col.run
    t1 = abeni_table1.table1(run)
    windows = {th["label"]: th["windows"] for th in t1["threads"]}
    dispatch = {r["label"]: r for r in dispatch_table(run, thresholds_ns)}
    threads: dict[str, Any] = {}
    for i, t in enumerate(run.threads):
        label = run.label(i)
        st = t.get("stats") or {}
        threads[label] = {
            "latency": _latency(t),
            "later_than": (dispatch.get(label) or {}).get("later_than"),
            "windows": {w: {"latency": c.get("latency"), "jobs": c.get("jobs"),
                            "missed": c.get("missed")} for w, c in windows.get(label, {}).items()},
            "releases": st.get("releases"), "deadlines_missed": st.get("deadlines_missed"),
            "gaps": st.get("gaps"), "cpu_ns": st.get("cpu_ns"), "causes": _causes(t)}
    return {"label": col.label, "facts": col.facts, "complete": run.complete,
            "windows": [w["name"] for w in t1["windows"]], "threads": threads}


def compare(runs: Sequence[Run], thresholds_ns: Sequence[int],
            names: Sequence[str | None] | None = None) -> dict[str, Any]:
    cols = columns(runs, names)
    data = [numbers(c, thresholds_ns) for c in cols]
    labels = list(dict.fromkeys(k for d in data for k in d["threads"]))
    return {"scenario": runs[0].scenario.get("name"), "thresholds_ns": list(thresholds_ns),
            "emulated": any(c.emulated for c in cols),
            "emulated_all": bool(cols) and all(c.emulated for c in cols),
            "columns": data, "threads": labels}
