# SPDX-License-Identifier: GPL-2.0-or-later
"""Where the default timeline looks instead of the first 500 ms: up to five windows of the
execution trace chosen from the run: the first three phase changes (a load or a thread starting
or stopping), the longest gap, the worst deadline miss (or, without periodic threads, the latest
wake-up). figures/timeline.py draws them."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..base.units import fmt_ns
from ..read.rundir import Run
from .summary import periodic_jobs
from .switches import gaps_of_run

MS = 1_000_000
MAX_PHASES = 3           # phase changes drawn, first ones first


@dataclass(frozen=True)
class Window:
    what: str            # the panel's title
    start_ns: int
    length_ns: int
    mark: tuple[int, int] | None = None   # the event itself: its start and end
    names: tuple[str, ...] = ()           # what each line of the event is: its start's and
                                          # end's names (one name when they are one instant)

    def marks(self) -> list[tuple[int, str]]:
        """(time, name) of each line the panel draws for its event."""
        if self.mark is None:
            return []
        a, b = self.mark
        names = self.names or ("the event",)
        if a == b:
            return [(a, names[0])]
        return [(a, names[0]), (b, names[-1] if len(names) > 1 else names[0])]


def _around(lo: int, hi: int, run_end: int, factor: float = 6.0, least: int = 5 * MS,
            most: int = 500 * MS) -> tuple[int, int]:
    """A window of `factor` times the event's length (within [least, most], and no longer than
    the run) centred on it."""
    length = int(min(max((hi - lo) * factor, least), most))
    if run_end:
        length = min(length, run_end)       # a 55 ms gap of a 100 ms run: 0-100, not 0-330 ms
    start = max(0, (lo + hi) // 2 - length // 2)
    if run_end and start + length > run_end:
        start = max(0, run_end - length)
    return start, length


def phase_changes(run: Run) -> list[tuple[int, str]]:
    """(time, what) of every load start/stop and every thread start/finish inside the run."""
    end = run.duration_ns
    out = []
    asked = {ld.get("name"): ld for ld in run.scenario.get("loads") or [] if isinstance(ld, dict)}
    for ld in run.loads:
        for key, declared, verb in (("started_ns", "start_ns", "starts"),
                                    ("stopped_ns", "stop_ns", "stops")):
            t = ld.get(key)
            # A load the scenario starts with the run (or stops with it) marks no phase,
            # though it starts a little after time zero (forking takes time).
            when = (asked.get(ld.get("name")) or {}).get(declared)
            if isinstance(when, int) and (when <= 0 or (end and when >= end)):
                continue
            if t is not None and 0 < t < (end or t + 1):
                out.append((int(t), f"load {ld['name']} {verb}"))
    seen = set()
    for i in range(len(run.threads)):
        s = run.scenario_thread(i)
        name = s.get("name")
        if name in seen:
            continue
        seen.add(name)
        a, b = int(s.get("start_ns") or 0), s.get("finish_ns")
        if a > 0:
            out.append((a, f"{name} starts"))
        if b is not None and end and 0 < int(b) < end:
            out.append((int(b), f"{name} finishes"))
    return sorted(out)


def _grouped(changes: list[tuple[int, str]], within: int = 25 * MS) -> list[tuple[int, list[str]]]:
    """Changes less than `within` apart as one (a thread finishing as a load starts)."""
    out: list[tuple[int, list[str]]] = []
    for t, what in changes:
        if out and t - out[-1][0] <= within:
            out[-1][1].append(what)
        else:
            out.append((t, [what]))
    return out


def _worst_miss(run: Run) -> tuple[int, int, str, tuple[int, int]] | None:
    worst = None
    for i in range(len(run.threads)):
        if not run.threads[i]["stats"].get("deadlines_missed"):
            continue
        jobs = periodic_jobs(run, i)
        for j in jobs or []:
            if not j.missed or j.completion is None:
                continue
            late = j.completion - j.deadline
            if worst is None or late > worst[0]:
                worst = (late, i, j)
    if worst is None:
        return None
    late, i, j = worst
    return (j.release, j.completion,
            f"worst deadline miss: {run.label(i)} released at {fmt_ns(j.release)}, done "
            f"{fmt_ns(late)} after its deadline", (j.deadline, j.completion),
            ("missed deadline", "late completion"))


def _worst_wakeup(run: Run) -> tuple[int, int, str, tuple[int, int]] | None:
    smp = run.samples
    if not len(smp.late):
        return None
    k = int(np.argmax(smp.late))
    lo, hi = int(smp.intended[k]), int(smp.actual[k])
    return lo, hi, f"latest wake-up: {run.label(int(smp.thread[k]))} {fmt_ns(hi - lo)} late", \
        (lo, hi), ("intended wake-up", "actual wake-up")


def releases(run: Run, index: int, lo: int, hi: int) -> np.ndarray:
    """The release times (ns) in [lo, hi) of a periodic thread's jobs (its start plus whole
    periods, up to its finish); empty for a thread without a period."""
    s = run.scenario_thread(index)
    period = ((s.get("workload") or {}).get("period_ns")) or 0
    if not period or not run.threads[index]["stats"].get("releases"):
        return np.empty(0, np.int64)
    start = int(s.get("start_ns") or 0)
    finish = int(s.get("finish_ns") or run.duration_ns or hi)
    first = max(0, -(-(lo - start) // period))
    last = (min(hi, finish) - 1 - start) // period
    return start + np.arange(first, last + 1, dtype=np.int64) * period


def choose_windows(run: Run) -> list[Window]:
    end = run.duration_ns or int(max(run.intervals.stop, default=0))
    out: list[Window] = []
    groups = _grouped(phase_changes(run))
    for t, whats in groups[:MAX_PHASES]:
        start, length = _around(t, t, end, least=min(500 * MS, 2 * t))
        which = "first phase change" if t == groups[0][0] else "phase change"
        out.append(Window(f"{which}: {', '.join(whats)}", start, length, (t, t),
                          ("phase change",)))
    if not groups:
        out.append(Window("the start of the run", 0, min(500 * MS, end or 500 * MS)))
    g = gaps_of_run(run, same_cpu=False)
    if len(g):
        k = int(np.argmax(g.length))
        lo, hi = int(g.start[k]), int(g.stop[k])
        start, length = _around(lo, hi, end)
        out.append(Window(f"longest gap: {run.label(int(g.thread[k]))} {fmt_ns(hi - lo)}",
                          start, length, (lo, hi), ("gap starts", "gap ends")))
    ev = _worst_miss(run) or _worst_wakeup(run)
    if ev is not None:
        lo, hi, what, mark, names = ev
        start, length = _around(lo, hi, end, factor=3.0)
        out.append(Window(what, start, length, mark, names))
    return out
