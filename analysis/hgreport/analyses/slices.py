# SPDX-License-Identifier: GPL-2.0-or-later
"""Slices of CPU per thread (Hourglass section 3.1, figure 3: "a higher-priority thread does not
run more often, it runs for longer slices"). A slice is a thread's time on one CPU from when it
got the CPU until another traced thread ran there: its consecutive intervals on that CPU, the
short gaps between them (interrupts) included, ended by an interval of another thread or by a
gap longer than `max_gap_ns` (the CPU went to something untraced for that long). Per thread:
slices, slices per second, the slices' wall length (median, mean, p90, longest) and the CPU it
received."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..base.stats import nearest_rank
from ..read.rundir import Run
from . import over_runs, switches
from .summary import thread_window

MAX_GAP_NS = 1_000_000


def slices_of(run: Run, max_gap_ns: int = MAX_GAP_NS) -> dict[int, np.ndarray]:
    """thread index -> the wall lengths (ns) of its slices, on every CPU."""
    iv = switches.by_start(run.intervals)
    out: dict[int, list[np.ndarray]] = {}
    for c in np.unique(iv.cpu).tolist():
        idx = np.flatnonzero(iv.cpu == c)
        th, a, b = iv.thread[idx], iv.start[idx].astype(np.int64), iv.stop[idx].astype(np.int64)
        if not len(idx):
            continue
        new = np.r_[True, (th[1:] != th[:-1]) | (a[1:] - b[:-1] > max_gap_ns)]
        first = np.flatnonzero(new)
        last = np.r_[first[1:] - 1, len(idx) - 1]
        length = b[last] - a[first]
        who = th[first]
        for t in np.unique(who).tolist():
            out.setdefault(int(t), []).append(length[who == t])
    return {t: np.sort(np.concatenate(v)) for t, v in out.items()}


def _priority(run: Run, i: int) -> dict[str, Any]:
    g = run.threads[i].get("granted") or {}
    asked = run.threads[i].get("asked") or {}
    return {"level": asked.get("level"), "policy": g.get("policy"), "priority": g.get("priority"),
            "nice": g.get("nice")}


def rank(p: dict[str, Any]) -> tuple[int, int]:
    """Higher runs first: real-time above time-sharing, then the real-time priority or the
    lower nice."""
    rt = p.get("policy") in ("fifo", "rr", "deadline")
    return (1 if rt else 0, int(p.get("priority") or 0) if rt else -int(p.get("nice") or 0))


def of_run(run: Run, max_gap_ns: int = MAX_GAP_NS) -> dict[str, Any]:
    per = slices_of(run, max_gap_ns)
    rows = []
    total_cpu = sum(int(t["stats"].get("cpu_ns") or 0) for t in run.threads)
    for i in range(len(run.threads)):
        v = per.get(i, np.zeros(0, np.int64))
        a, b = thread_window(run, i)
        secs = (b - a) / 1e9 if b > a else None
        cpu = int(run.threads[i]["stats"].get("cpu_ns") or 0)
        rows.append({"label": run.label(i), "priority": _priority(run, i), "slices": int(len(v)),
                     "per_s": len(v) / secs if secs else None,
                     "median_ns": nearest_rank(v, 0.5), "mean_ns": float(v.mean()) if len(v) else None,
                     "p90_ns": nearest_rank(v, 0.9), "max_ns": float(v[-1]) if len(v) else None,
                     "cpu_ns": cpu, "cpu_share": cpu / total_cpu if total_cpu else None})
    return {"run": str(run.path), "scenario": run.scenario.get("name"), "max_gap_ns": max_gap_ns,
            "complete": run.complete, "threads": rows}


def across(label: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One configuration's runs (of_run each): per thread (matched by label) the median slice
    length, slices per second and CPU share over the runs, each with its interval; and the
    paper's claim tested between the highest- and the lowest-priority thread: the slices'
    median length (longer for the higher) and their rate (not more of them)."""
    labels = list(dict.fromkeys(t["label"] for r in runs for t in r["threads"]))
    per: dict[str, list[dict[str, Any]]] = {lab: [] for lab in labels}
    for r in runs:
        for t in r["threads"]:
            per[t["label"]].append(t)
    threads = []
    for lab in labels:
        ts = per[lab]
        threads.append({"label": lab, "priority": ts[0]["priority"],
                        "median_ns": over_runs.estimate([t["median_ns"] for t in ts], "ns"),
                        "per_s": over_runs.estimate([t["per_s"] for t in ts], "1/s"),
                        "cpu_share": over_runs.estimate([t["cpu_share"] for t in ts])})
    claim = None
    if len(threads) >= 2:
        order = sorted(threads, key=lambda t: rank(t["priority"]))
        lo, hi = order[0], order[-1]
        claim = {"lower": lo["label"], "higher": hi["label"],
                 "length": over_runs.compare(lo["median_ns"]["values"], hi["median_ns"]["values"], "ns"),
                 "rate": over_runs.compare(lo["per_s"]["values"], hi["per_s"]["values"], "1/s")}
    return {"label": label, "runs": [r["run"] for r in runs], "threads": threads, "claim": claim}
