"""Jobs of a periodic thread rebuilt from its gap trace, by the runner's own rule
(docs/semantics.md): a job released at r needs `exec` of received CPU; done by r + period
is a hit and the next release is r + period; later is a miss and the next job is released
at its completion. This gives each job's response time and each miss's deadline, which the
counters in result.json do not."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .rundir import Intervals


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
    """Jobs whose outcome is known by `end` (the thread's finish or the run's end), in order."""
    order = np.argsort(iv.start, kind="stable")
    starts, stops = iv.start[order].tolist(), iv.stop[order].tolist()
    jobs: list[Job] = []
    release, used_to, k, i = first_release, first_release, 0, 0
    while release < end:
        need = execs[k % len(execs)]
        deadline = release + period
        completion = None
        while i < len(starts):
            a = max(starts[i], used_to)
            b = stops[i]
            if b > a:
                if b - a >= need:
                    completion = a + need
                    break
                need -= b - a
            i += 1
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
