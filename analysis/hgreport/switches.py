"""What the gap trace says about the scheduler (paper section 4, `process_ctx` of section 5.1):
gaps of a thread on one CPU, and context switches inferred between traced threads."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rundir import END_KINDS, Intervals

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


def thread_gaps(iv: Intervals, thread: int) -> np.ndarray:
    """Lengths (ns) of the gaps of one thread: from an interval that ended `preempted` to the
    thread's next interval, when that one is on the same CPU (figure 4's quantity)."""
    m = iv.thread == thread
    start, stop, cpu, end = iv.start[m], iv.stop[m], iv.cpu[m], iv.end[m]
    order = np.argsort(start, kind="stable")
    start, stop, cpu, end = start[order], stop[order], cpu[order], end[order]
    keep = (end[:-1] == PREEMPTED) & (cpu[:-1] == cpu[1:])
    return (start[1:] - stop[:-1])[keep]


def switches(iv: Intervals) -> Switches:
    """Every place where, on one CPU, an interval of one traced thread is followed by an
    interval of another. Intervals that ended `finished` (the thread stopped) are not switches;
    overlapping pairs (impossible on one CPU, a clock artefact) are dropped."""
    order = np.lexsort((iv.start, iv.cpu))
    cpu, thr, start, stop, end = (a[order] for a in (iv.cpu, iv.thread, iv.start, iv.stop, iv.end))
    cost = start[1:] - stop[:-1]
    m = (cpu[1:] == cpu[:-1]) & (thr[1:] != thr[:-1]) & (end[:-1] != FINISHED) & (cost >= 0)
    return Switches(cpu=cpu[1:][m], from_thread=thr[:-1][m], to_thread=thr[1:][m], cost=cost[m],
                    voluntary=(end[:-1][m] == YIELDED) | (end[:-1][m] == BLOCKED),
                    at=stop[:-1][m])
