# SPDX-License-Identifier: GPL-2.0-or-later
"""Context switches by kind (Hourglass section 5.1): involuntary and voluntary, between threads
of one process and between processes, and what the kernel ran inside them.

- Within a process: a run's switches from one of its traced threads to another
  (analyses/switches.py's rule).
- Between processes: runs made at the same time on one machine are merged on the clock they
  share (CLOCK_MONOTONIC: each run's time zero is result.json's tsc.start_monotonic_ns), and a
  switch from a thread of one run to a thread of another on the same CPU is a switch between
  processes. Only the time all of a set's runs were running counts, for both kinds alike.
  Intervals of two runs that overlap on one CPU (impossible, so a clock misalignment) are
  counted and their largest overlap given.
- With a kernel trace (kernel.jsonl, docs/kernel-trace.md), each involuntary switch's time is
  split over what the kernel ran on that CPU between the two intervals: the timer interrupt
  (with the time before its first event, up to 20 us: its delivery, as for gaps), other
  interrupts, softirqs, the two threads' own kernel time (the switch path itself), other
  tasks, idle, and time no segment covers."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..base.stats import nearest_rank
from ..read.kernel import Search
from ..read.rundir import Run
from .switches import BLOCKED, FINISHED, YIELDED

ENTRY_NS = 20_000            # an interrupt's delivery before its first event (kernel-trace.md)
PARTS = ("timer interrupt", "other interrupts", "softirqs", "switching threads", "other tasks",
         "idle", "not seen")
_KIND_PART = {"local_timer": "timer interrupt", "irq": "other interrupts", "ipi": "other interrupts",
              "softirq": "softirqs", "idle": "idle"}


def _span(run: Run) -> tuple[int, int]:
    """[start, end) of the run on CLOCK_MONOTONIC (ns)."""
    tsc = run.result.get("tsc") or {}
    a = int(tsc.get("start_monotonic_ns") or 0)
    b = tsc.get("end_monotonic_ns")
    return a, int(b) if b is not None else a + int(run.duration_ns or 0)


def _machine(run: Run) -> tuple[str, str]:
    host = run.result.get("host") or {}
    return str(host.get("hostname")), str(host.get("kernel_release"))


def together(runs: Sequence[Run]) -> list[list[Run]]:
    """The runs in sets made at the same time: same machine, overlapping on CLOCK_MONOTONIC
    (a run alone is a set of one). In the order first given."""
    sets: list[list[Run]] = []
    for r in runs:
        a, b = _span(r)
        home = next((s for s in sets if _machine(s[0]) == _machine(r)
                     and any(_span(x)[0] < b and a < _span(x)[1] for x in s)), None)
        if home is None:
            sets.append([r])
        else:
            home.append(r)
    return sets


def _describe(cost: np.ndarray) -> dict[str, Any]:
    c = np.sort(cost)
    return {"count": int(len(c)), "min_ns": float(c[0]) if len(c) else None,
            "p10_ns": nearest_rank(c, 0.1), "median_ns": nearest_rank(c, 0.5),
            "mean_ns": float(c.mean()) if len(c) else None, "p90_ns": nearest_rank(c, 0.9)}


def of_set(runs: Sequence[Run]) -> dict[str, Any]:
    """The switches of a set of runs made together, by kind: within a process and between
    processes, each involuntary and voluntary."""
    spans = [_span(r) for r in runs]
    lo, hi = max(a for a, _ in spans), min(b for _, b in spans)
    cols: dict[str, list[np.ndarray]] = {k: [] for k in ("run", "thread", "cpu", "start", "stop", "end")}
    for k, (r, (a, _)) in enumerate(zip(runs, spans)):
        iv = r.intervals
        start, stop = iv.start.astype(np.int64) + a, iv.stop.astype(np.int64) + a
        keep = (start >= lo) & (stop <= hi)
        cols["run"].append(np.full(int(keep.sum()), k, np.int32))
        cols["thread"].append(iv.thread[keep].astype(np.int64))
        cols["cpu"].append(iv.cpu[keep].astype(np.int32))
        cols["start"].append(start[keep])
        cols["stop"].append(stop[keep])
        cols["end"].append(iv.end[keep])
    c = {k: np.concatenate(v) if v else np.zeros(0) for k, v in cols.items()}
    order = np.lexsort((c["start"], c["cpu"]))
    c = {k: v[order] for k, v in c.items()}
    same_cpu = c["cpu"][1:] == c["cpu"][:-1]
    who = c["run"].astype(np.int64) * (1 << 32) + c["thread"]
    other = who[1:] != who[:-1]
    overlap = c["stop"][:-1] - c["start"][1:]
    cross = same_cpu & (c["run"][1:] != c["run"][:-1])
    bad = cross & (overlap > 0)
    sw = same_cpu & other & (c["end"][:-1] != FINISHED) & (overlap <= 0)
    vol = np.isin(c["end"][:-1], (YIELDED, BLOCKED))
    within = c["run"][1:] == c["run"][:-1]
    cost = -overlap
    out: dict[str, Any] = {"runs": [str(r.path) for r in runs], "seconds": max(0, hi - lo) / 1e9,
                           "misaligned": int(bad.sum()),
                           "misaligned_max_ns": float(overlap[bad].max()) if bad.any() else 0.0}
    for kind, m in (("within", within), ("between", ~within)):
        for v, vm in (("involuntary", ~vol), ("voluntary", vol)):
            out[f"{kind}_{v}"] = _describe(cost[sw & m & vm])
    return out


def kernel_split(run: Run) -> dict[str, Any] | None:
    """Each involuntary switch of the run between two of its threads, split over what the
    kernel ran in it (PARTS); None without a kernel trace. Per part: the median over the
    switches and the share of all switch time."""
    path = run.file("kernel")
    if path is None:
        return None
    from .switches import of_run
    sw = of_run(run)
    iv = run.intervals
    inv = np.flatnonzero(~sw.voluntary)
    tids = {i: t.get("tid") for i, t in enumerate(run.threads)}
    per = np.zeros((len(inv), len(PARTS)), np.int64)
    with Search(path) as s:
        for row, k in enumerate(inv):
            a, b = int(sw.a[k]), int(sw.b[k])
            lo, hi = int(iv.stop[a]), int(iv.start[b])
            if hi <= lo:
                continue
            own = {tids[int(iv.thread[a])], tids[int(iv.thread[b])]}
            pieces = []
            for g in sorted(s.overlapping(int(iv.cpu[a]), lo, hi), key=lambda g: g["start_ns"]):
                x, y = max(lo, g["start_ns"]), min(hi, g["end_ns"])
                if y > x:
                    part = (("switching threads" if g["id"] in own else "other tasks")
                            if g["kind"] == "task" else _KIND_PART.get(g["kind"], "other interrupts"))
                    pieces.append((part, x, y, g["kind"]))
            for part, x, y, _ in pieces:
                per[row, PARTS.index(part)] += y - x
            per[row, PARTS.index("not seen")] += max(0, (hi - lo) - sum(y - x for _, x, y, _ in pieces))
            first = next((p for p in pieces if p[0] != "switching threads"), None)
            if first and first[3] in ("local_timer", "irq", "ipi") and first[1] > lo:
                # its delivery before its first event (docs/kernel-trace.md): up to ENTRY_NS of
                # what came before it in the switch, the threads' own time or time not seen
                move = min(ENTRY_NS, first[1] - lo)
                own_before = sum(min(y, first[1]) - max(x, first[1] - move)
                                 for part, x, y, _ in pieces if part == "switching threads"
                                 and min(y, first[1]) > max(x, first[1] - move))
                per[row, PARTS.index("switching threads")] -= own_before
                per[row, PARTS.index("not seen")] -= move - own_before
                per[row, PARTS.index(first[0])] += move
    total = per.sum()
    return {"switches": int(len(inv)),
            "parts": [{"part": p, "median_ns": float(np.median(per[:, k])) if len(per) else None,
                       "share": float(per[:, k].sum() / total) if total else None,
                       "in_switches": int((per[:, k] > 0).sum())}
                      for k, p in enumerate(PARTS)]}


def across(sets: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The sets' (of_set each: one replicate) median and minimum involuntary switch costs
    within a process and between processes over the sets, each with its interval, and the
    medians compared (between against within: the paper's "no statistically significant
    difference")."""
    from . import over_runs
    out: dict[str, Any] = {"sets": len(sets)}
    for kind in ("within", "between"):
        for stat in ("median_ns", "min_ns"):
            out[f"{kind}_{stat}"] = over_runs.estimate([s[f"{kind}_involuntary"][stat] for s in sets
                                                        if s[f"{kind}_involuntary"]["count"]], "ns")
    out["between_vs_within"] = over_runs.compare(out["within_median_ns"]["values"],
                                                 out["between_median_ns"]["values"], "ns")
    return out
