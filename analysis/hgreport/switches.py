"""What the gap trace says about the scheduler (paper section 4, `process_ctx` of section 5.1):
gaps of a thread on one CPU, and context switches inferred between traced threads."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .rundir import END_KINDS, Intervals

if TYPE_CHECKING:
    from .rundir import Run

PREEMPTED, YIELDED, BLOCKED, FINISHED = (END_KINDS.index(k) for k in END_KINDS)


@dataclass(frozen=True)
class Switches:
    """Inferred context switches: thread A's interval ends, thread B's next one starts on the
    same CPU. `cost` is B.start - A.end (ns); `voluntary` is True after A yielded or blocked,
    False after A was preempted."""
    cpu: np.ndarray
    from_thread: np.ndarray
    to_thread: np.ndarray
    cost: np.ndarray
    voluntary: np.ndarray
    at: np.ndarray

    @property
    def involuntary_count(self) -> int:
        return int((~self.voluntary).sum())


@dataclass(frozen=True)
class Gaps:
    """Every gap of the trace (figure 4's quantity): `thread` had an interval that ended
    `preempted`, and its next interval ran on the same CPU `length` ns later."""
    thread: np.ndarray
    length: np.ndarray

    def of_thread(self, index: int) -> np.ndarray:
        return self.length[self.thread == index]


def gaps(iv: Intervals) -> Gaps:
    """The gaps of every thread, from one sort of the trace by (thread, start)."""
    order = np.lexsort((iv.start, iv.thread))
    thr, cpu = iv.thread[order], iv.cpu[order]
    keep = (thr[1:] == thr[:-1]) & (iv.end[order[:-1]] == PREEMPTED) & (cpu[1:] == cpu[:-1])
    del thr, cpu
    idx = np.flatnonzero(keep)
    nxt, cur = order[idx + 1], order[idx]
    return Gaps(iv.thread[cur], iv.start[nxt] - iv.stop[cur])


def thread_gaps(iv: Intervals, thread: int) -> np.ndarray:
    """Lengths (ns) of the gaps of one thread: from an interval that ended `preempted` to the
    thread's next interval, when that one is on the same CPU (figure 4's quantity)."""
    return gaps(iv.of_thread(thread)).length


def gaps_of_run(run: "Run") -> Gaps:
    """gaps(run.intervals), computed once per run."""
    if "gaps" not in run.cache:
        run.cache["gaps"] = gaps(run.intervals)
    return run.cache["gaps"]


def of_run(run: "Run") -> "Switches":
    """switches(run.intervals), computed once per run (the summary and the figures share it)."""
    if "switches" not in run.cache:
        run.cache["switches"] = switches(run.intervals)
    return run.cache["switches"]


def switches(iv: Intervals) -> Switches:
    """Every place where, on one CPU, an interval of one traced thread is followed by an
    interval of another. Intervals that ended `finished` (the thread stopped) are not switches;
    overlapping pairs (impossible on one CPU, a clock artefact) are dropped."""
    order = np.lexsort((iv.start, iv.cpu))
    cpu, thr = iv.cpu[order], iv.thread[order]
    m = (cpu[1:] == cpu[:-1]) & (thr[1:] != thr[:-1])
    del cpu, thr
    idx = np.flatnonzero(m)
    a, b = order[idx], order[idx + 1]          # A's interval, B's interval
    del order, idx, m
    cost = iv.start[b] - iv.stop[a]
    end = iv.end[a]
    ok = (end != FINISHED) & (cost >= 0)
    a, b, cost, end = a[ok], b[ok], cost[ok], end[ok]
    return Switches(cpu=iv.cpu[b], from_thread=iv.thread[a], to_thread=iv.thread[b], cost=cost,
                    voluntary=(end == YIELDED) | (end == BLOCKED), at=iv.stop[a])
