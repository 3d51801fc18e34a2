# SPDX-License-Identifier: GPL-2.0-or-later
"""Jobs of a periodic thread rebuilt from its gap trace, by the runner's own rule
(docs/semantics.md): a job released at r needs `exec` of received CPU; done by r + period
is a hit and the next release is r + period; later is a miss and the next job is released
at its completion. This gives each job's response time and each miss's deadline, which the
counters in result.json do not."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..read.rundir import Intervals


@dataclass(frozen=True)
class Job:
    release: int
    deadline: int
    completion: int | None   # None: still running at the end

    @property
    def missed(self) -> bool:
        return self.completion is None or self.completion > self.deadline

    @property
    def response(self) -> int | None:
        return None if self.completion is None else self.completion - self.release


def exec_values(workload: dict[str, Any]) -> list[int] | None:
    """The job execution times of a resolved periodic workload, cycled; None for a
    distribution (its draws cannot be replayed here)."""
    e = workload.get("exec") or {}
    values = e.get("values_ns")
    return [int(v) for v in values] if values else None


def rebuild(iv: Intervals, first_release: int, end: int, period: int,
            execs: Sequence[int]) -> list[Job]:
    """Jobs whose outcome is known by `end` (the thread's finish or the run's end), in order.

    One step per job, not per interval: with C(t) the CPU the thread received up to t (a
    cumulative sum over its intervals), a job counting from s completes at the first t with
    C(t) = C(s) + exec, found by binary search."""
    order = np.argsort(iv.start, kind="stable")
    starts = iv.start[order].astype(np.int64)
    stops = np.maximum(iv.stop[order].astype(np.int64), starts)
    cum_end = np.cumsum(stops - starts)
    cum_start = cum_end - (stops - starts)
    n = len(starts)

    def received(t: int) -> int:                 # C(t)
        i = int(np.searchsorted(starts, t, side="right")) - 1
        return 0 if i < 0 else int(cum_start[i]) + min(max(t - int(starts[i]), 0),
                                                       int(stops[i] - starts[i]))

    jobs: list[Job] = []
    release, used_to, k = first_release, first_release, 0
    while release < end:
        deadline = release + period
        target = received(used_to) + execs[k % len(execs)]
        i = int(np.searchsorted(cum_end, target, side="left"))
        completion = None if i >= n else max(int(starts[i]), used_to) + target - max(
            int(cum_start[i]), received(used_to))
        if completion is None or completion > end:
            if deadline <= end:
                jobs.append(Job(release, deadline, None))
            break
        jobs.append(Job(release, deadline, completion))
        used_to = completion
        if completion <= deadline:
            release = deadline
            used_to = max(used_to, release)
        else:
            release = completion
        k += 1
    return jobs
