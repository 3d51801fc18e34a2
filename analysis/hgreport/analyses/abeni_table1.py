# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-window statistics (Abeni et al. 2002, table 1): for each load's window (result.json's
loads[].started_ns..stopped_ns) and for the quiet time outside every window, per thread: the
wake-up latency (count, p50, p99, worst), the deadline misses (jobs whose deadline falls in the
window, rebuilt from the trace), and the context switches per second; next to them, each
thread's switch rates over its whole run with the switch costs (Hourglass section 5.1)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base.stats import nearest_rank
from ..read import late_wakeups
from ..read.rundir import Run
from . import switches
from .summary import periodic_jobs, thread_window

QUIET = "no load"
SAME_NS = 10_000_000     # windows starting and stopping within 10 ms of each other are one


@dataclass(frozen=True)
class Window:
    name: str
    spans: tuple[tuple[int, int], ...]      # [start, stop) in ns from the run's time zero

    @property
    def seconds(self) -> float:
        return sum(b - a for a, b in self.spans) / 1e9


def windows(run: Run) -> list[Window]:
    """The loads' windows in time order (a load that never started has none; loads started and
    stopped within SAME_NS of each other share one), then the quiet time: every part of
    [0, duration) outside all of them."""
    end = run.duration_ns or max([ld.get("stopped_ns") or 0 for ld in run.loads] + [0])
    out = []
    for ld in run.loads:
        a = ld.get("started_ns")
        if a is None:
            continue
        b = ld.get("stopped_ns")
        out.append(Window(ld["name"], ((int(a), int(b if b is not None else end)),)))
    out.sort(key=lambda w: w.spans[0][0])
    merged: list[Window] = []
    for w in out:                  # loads that ran over the same time share a row
        (a, b), = w.spans
        same = next((m for m in merged if abs(m.spans[0][0] - a) <= SAME_NS
                     and abs(m.spans[0][1] - b) <= SAME_NS), None)
        if same is None:
            merged.append(w)
        else:
            merged[merged.index(same)] = Window(f"{same.name} + {w.name}",
                                                ((min(same.spans[0][0], a), max(same.spans[0][1], b)),))
    out = merged
    quiet, t = [], 0
    for a, b in sorted(s for w in out for s in w.spans):
        if a > t:
            quiet.append((t, a))
        t = max(t, b)
    if t < end:
        quiet.append((t, end))
    return out + [Window(QUIET, tuple(quiet))]


def _select(times: np.ndarray, w: Window) -> np.ndarray:
    """Indices of sorted `times` inside the window's spans (np.searchsorted, no Python loop over
    the samples)."""
    parts = [np.arange(np.searchsorted(times, a, "left"), np.searchsorted(times, b, "left"))
             for a, b in w.spans]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _overlap(w: Window, active: tuple[int, int]) -> float:
    """Seconds of the window during which the thread was active."""
    return sum(max(0, min(b, active[1]) - max(a, active[0])) for a, b in w.spans) / 1e9


def _latency(late_by_time: np.ndarray, idx: np.ndarray) -> dict[str, Any]:
    v = np.sort(late_by_time[idx])
    if not len(v):
        return {"count": 0, "p50_ns": None, "p99_ns": None, "max_ns": None}
    return {"count": int(len(v)), "p50_ns": nearest_rank(v, 0.5), "p99_ns": nearest_rank(v, 0.99),
            "max_ns": float(v[-1])}


def _thread_windows(run: Run, i: int, wins: list[Window], sw: switches.Switches,
                    notes: list[str]) -> dict[str, Any]:
    t = run.threads[i]
    active = thread_window(run, i)
    row: dict[str, Any] = {"label": run.label(i), "windows": {}}
    lat = None
    if t["stats"].get("latency"):
        m = run.samples.thread == i
        order = np.argsort(run.samples.intended[m], kind="stable")
        times, late = run.samples.intended[m][order], run.samples.late[m][order]
        lat = (times, late)
        if len(times) != t["stats"]["latency"].get("count"):
            notes.append(f"{run.label(i)}: {len(times)} of {t['stats']['latency'].get('count')} "
                         "wake-ups stored (latency.bin): the windows count the stored ones")
    jobs = None
    if t["stats"]["releases"]:
        js = periodic_jobs(run, i)
        if js is None:
            notes.append(f"{run.label(i)}: jobs cannot be rebuilt from the trace (exec drawn from a "
                         "distribution, or records dropped): no misses per window")
        else:
            jobs = (np.array([j.deadline for j in js], dtype=np.int64),
                    np.array([j.missed for j in js], dtype=bool))
    mine = sw.from_thread == i
    at, vol = sw.at[mine], sw.voluntary[mine]
    order = np.argsort(at, kind="stable")
    at, vol = at[order], vol[order]
    iv = run.intervals
    pre = np.sort(iv.stop[(iv.thread == i) & (iv.end == switches.PREEMPTED)])
    for w in wins:
        secs = _overlap(w, active)
        cell: dict[str, Any] = {"active_s": secs}
        if lat is not None:
            cell["latency"] = _latency(lat[1], _select(lat[0], w))
        if jobs is not None:
            k = _select(jobs[0], w)
            cell["jobs"], cell["missed"] = int(len(k)), int(jobs[1][k].sum())
        k = _select(at, w)
        inv, vo = int((~vol[k]).sum()), int(vol[k].sum())
        npre = int(len(_select(pre, w)))
        cell.update(involuntary=inv, voluntary=vo, preempted=npre,
                    involuntary_per_s=inv / secs if secs else None,
                    voluntary_per_s=vo / secs if secs else None,
                    preempted_per_s=npre / secs if secs else None)
        row["windows"][w.name] = cell
    return row


def _window_of(t: int, wins: list[Window]) -> str | None:
    for w in wins:
        if any(a <= t < b for a, b in w.spans):
            return w.name
    return None


def late_components(run: Run, wins: list[Window]) -> list[dict[str, Any]]:
    """Abeni's question per load window, from the kernel trace (late_wakeups.jsonl): per
    latency thread and window, the late wake-ups, how many were attributed, and the time of
    each component of their lateness (a wake-up is in the window of its intended time).
    Read a line at a time; nothing when the run has no such file."""
    per: dict[int, dict[str, dict[str, Any]]] = {}
    for x in late_wakeups.lines(run):
        name = _window_of(int(x["intended_ns"]), wins)
        if name is None:
            continue
        cell = per.setdefault(x["thread"], {}).setdefault(
            name, {"late": 0, "attributed": 0, "late_ns": 0, "components": {}})
        cell["late"] += 1
        cell["late_ns"] += int(x["late_ns"])
        if x.get("attributed"):
            cell["attributed"] += 1
            for comp, ns in (x.get("components") or {}).items():
                cell["components"][comp] = cell["components"].get(comp, 0) + int(ns)
    return [{"label": run.label(i), "windows": per[i]} for i in sorted(per)]


def _switch_rates(run: Run, i: int, sw: switches.Switches) -> dict[str, Any]:
    a, b = thread_window(run, i)
    secs = (b - a) / 1e9 if b > a else None
    mine = sw.from_thread == i
    iv = run.intervals
    out: dict[str, Any] = {"label": run.label(i), "seconds": secs,
                           "preempted": int(((iv.thread == i) & (iv.end == switches.PREEMPTED)).sum())}
    for kind, m in (("involuntary", mine & ~sw.voluntary), ("voluntary", mine & sw.voluntary)):
        c = np.sort(sw.cost_of(m))
        out[kind] = {"count": int(len(c)), "per_s": len(c) / secs if secs else None,
                     "cost_min_ns": float(c[0]) if len(c) else None,
                     "cost_median_ns": nearest_rank(c, 0.5) if len(c) else None}
    out["preempted_per_s"] = out["preempted"] / secs if secs else None
    return out


def table1(run: Run) -> dict[str, Any]:
    wins = windows(run)
    sw = switches.switches(run.intervals)
    notes: list[str] = [f"load {ld['name']} never started: no window" for ld in run.loads
                        if ld.get("started_ns") is None]
    if ((run.result.get("trace") or {}).get("mode") or "full") != "full":
        notes.append(f"trace mode {run.result['trace']['mode']}: the trace and the wake-ups are "
                     "incomplete, every count covers only what was recorded")
    threads = [_thread_windows(run, i, wins, sw, notes) for i in range(len(run.threads))]
    total_s = run.duration_ns / 1e9 if run.duration_ns else None
    all_sw = {"involuntary": int((~sw.voluntary).sum()), "voluntary": int(sw.voluntary.sum())}
    all_sw.update({f"{k}_per_s": v / total_s if total_s else None for k, v in list(all_sw.items())})
    return {"run": str(run.path), "scenario": run.scenario.get("name"), "complete": run.complete,
            "windows": [{"name": w.name, "spans_ns": [list(s) for s in w.spans], "seconds": w.seconds}
                        for w in wins],
            "threads": threads, "switches": [_switch_rates(run, i, sw) for i in range(len(run.threads))],
            "late_components": late_components(run, wins) if late_wakeups.present(run) else None,
            "switches_all": all_sw, "notes": notes}
