# SPDX-License-Identifier: GPL-2.0-or-later
"""Why the gaps happened, when the run was recorded with the kernel's events
(docs/kernel-trace.md): per thread the time, count and share of each cause (result.json
`threads[].gap_causes`), and the largest gaps with their cause and culprit (trace.bin's cause
codes; the culprit from kernel.jsonl's segments of that CPU during the gap). The report's
section is report/sections/causes.py; the colours of the causes serve every figure."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..base.markdown import pct
from ..base.units import fmt_ns
from ..read import kernel
from ..read.memo import per_run
from ..read.rundir import Run
from .switches import gaps_of_run

# docs/kernel-trace.md's codes, in order; a run's own list (kernel_trace.causes) wins.
CAUSES = ("unattributed", "invisible", "scenario_thread", "hgrun", "load", "process",
          "kernel_thread", "idle", "irq", "softirq", "local_timer", "ipi", "irq_thread", "blocked")
_COLORS = {"unattributed": "#d9d9d9", "invisible": "#de77ae", "scenario_thread": "#1f78b4",
           "hgrun": "#a6cee3", "load": "#ff7f00", "process": "#e31a1c",
           "kernel_thread": "#6a3d9a", "idle": "#b2df8a", "irq": "#33a02c", "softirq": "#fb9a99",
           "local_timer": "#fdbf6f", "ipi": "#cab2d6", "irq_thread": "#b15928",
           "blocked": "#969696"}
TOP_GAPS = 20


def cause_names(run: Run) -> list[str]:
    return list((run.result.get("kernel_trace") or {}).get("causes") or CAUSES)


def cause_color(name: str) -> str:
    return _COLORS.get(name, "#000000")


def traced(run: Run) -> bool:
    return bool((run.result.get("kernel_trace") or {}).get("enabled"))


def cause_rows(run: Run) -> list[list[Any]]:
    """One row per (thread, cause): time, gaps it had time in, gaps it dominated, its share of
    the thread's gap time; most time first."""
    rows = []
    for i, t in enumerate(run.threads):
        gc = t.get("gap_causes") or {}
        if not gc.get("available"):
            continue
        total = gc.get("gap_ns") or 0
        by = sorted((gc.get("by_cause") or {}).items(), key=lambda kv: -kv[1].get("ns", 0))
        for name, c in by:
            rows.append([run.label(i), name, fmt_ns(c["ns"]), c["gaps"], c["dominant"],
                         pct(c["ns"] / total if total else None, 1)])
    return rows


KernelSegments = kernel.Search      # kernel.jsonl by bisection (read/kernel.py)


def culprit(segs: list[dict[str, Any]], lo: int, hi: int, own_tid: int | None) -> str:
    """The segment kind/name with the most time in [lo, hi), the thread itself left out."""
    time: dict[str, int] = {}
    for s in segs:
        if s["kind"] == "task" and own_tid is not None and int(s["id"]) == own_tid:
            continue
        t = min(hi, s["end_ns"]) - max(lo, s["start_ns"])
        if t <= 0:
            continue
        key = f"{s['name']} ({s['id']})" if s["kind"] == "task" else s["name"]
        if s["kind"] == "softirq":
            key = f"softirq {s['name']}"
        time[key] = time.get(key, 0) + t
    if not time:
        return "–"
    best = max(time, key=lambda k: time[k])
    return f"{best} {fmt_ns(time[best])}"


@per_run
def top_gaps(run: Run, n: int = TOP_GAPS) -> list[dict[str, Any]]:
    """The `n` largest gaps of trace.bin, with cause and culprit, once per run (the report
    asks before it draws anything, so that a bad kernel.jsonl is refused first: the causes
    section's `prepare`)."""
    g = gaps_of_run(run, same_cpu=False)      # docs/kernel-trace.md's gaps, from the columns
    if not len(g):
        return []
    k = min(n, len(g))
    idx = np.argpartition(-g.length, k - 1)[:k]
    idx = idx[np.argsort(-g.length[idx], kind="stable")]
    top = g.take(idx)
    names = cause_names(run)
    kfile = run.file("kernel")
    segs = KernelSegments(kfile) if kfile is not None and kfile.exists() else None
    out = []
    try:
        for j in range(len(top)):
            th, lo, hi = int(top.thread[j]), int(top.start[j]), int(top.stop[j])
            code = int(top.cause[j])
            row = {"thread": run.label(th), "start_ns": lo, "length_ns": hi - lo,
                   "cpu": int(top.cpu[j]), "cause": names[code] if code < len(names) else code,
                   "window": int(top.window[j]) or None, "culprit": None}
            if segs is not None and row["cpu"] >= 0:
                row["culprit"] = culprit(segs.overlapping(row["cpu"], lo, hi), lo, hi,
                                         run.threads[th].get("tid"))
            out.append(row)
    finally:
        if segs is not None:
            segs.close()
    return out
