# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixed-priority response-time analysis (Audsley et al., Tindell et al.; the paper's 5.5).

For task i with execution time C, release jitter J, blocking B, and the set hp(i) of tasks
that can preempt it on its CPU:

    w = C + B + sum_{j in hp(i)} ceil((w + J_j) / T_j) * C_j     (iterated to a fixed point)
    R = w + J

R counts from the task's nominal release (its arrival), so its own jitter adds once and the
jitter of higher-priority tasks makes their interference burstier. The task meets every
deadline if R <= D (D = period here). The iteration diverges when the higher-priority
utilisation reaches 1; R is then None (unbounded)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterable


@dataclass(frozen=True)
class Task:
    name: str
    exec_ns: int
    period_ns: int
    priority: int                      # larger runs first (SCHED_FIFO numbering)
    deadline_ns: int | None = None     # default: the period
    jitter_ns: int = 0
    blocking_ns: int = 0
    cpus: frozenset[int] | None = None  # None: any CPU
    notes: tuple[str, ...] = field(default=())

    @property
    def deadline(self) -> int:
        return self.deadline_ns if self.deadline_ns is not None else self.period_ns


def response_time(task: Task, higher: Iterable[Task]) -> int | None:
    """Worst-case response time of `task` preempted by `higher`; None if unbounded."""
    hp = list(higher)
    if sum(t.exec_ns / t.period_ns for t in hp) >= 1.0:
        return None
    w = task.exec_ns + task.blocking_ns
    for _ in range(1_000_000):
        nxt = task.exec_ns + task.blocking_ns + sum(
            math.ceil((w + t.jitter_ns) / t.period_ns) * t.exec_ns for t in hp)
        if nxt == w:
            return w + task.jitter_ns
        w = nxt
    return None


def share_cpu(a: Task, b: Task, uniprocessor: bool) -> bool:
    """Can b delay a? On a uniprocessor always; otherwise when their CPU sets intersect
    (exact when both are pinned to the same single CPU, pessimistic for wider sets, which a
    global scheduler may spread over several CPUs)."""
    if uniprocessor or a.cpus is None or b.cpus is None:
        return True
    return bool(a.cpus & b.cpus)


def higher_priority(task: Task, tasks: Iterable[Task], uniprocessor: bool) -> list[Task]:
    """Tasks that can preempt `task`: priority >= its own (equal priority counted as higher,
    pessimistic for SCHED_FIFO's FIFO order among equals), sharing its CPU."""
    return [t for t in tasks if t is not task and t.priority >= task.priority
            and share_cpu(task, t, uniprocessor)]


@dataclass(frozen=True)
class Verdict:
    task: Task
    response_ns: int | None
    interferers: tuple[str, ...]

    @property
    def schedulable(self) -> bool:
        return self.response_ns is not None and self.response_ns <= self.task.deadline


def analyse(tasks: list[Task], uniprocessor: bool = True) -> list[Verdict]:
    """A verdict per task, highest priority first."""
    out = []
    for t in sorted(tasks, key=lambda t: -t.priority):
        hp = higher_priority(t, tasks, uniprocessor)
        out.append(Verdict(t, response_time(t, hp), tuple(h.name for h in hp)))
    return out


def with_overrides(tasks: list[Task], jitter: dict[str, int], blocking: dict[str, int],
                   execs: dict[str, int]) -> list[Task]:
    """Apply --jitter/--blocking/--exec NAME=DUR (NAME: a thread's label or its set name)."""
    def pick(t: Task, table: dict[str, int], default: int) -> int:
        base = t.name.split(".")[0]
        return table.get(t.name, table.get(base, default))
    known = {t.name for t in tasks} | {t.name.split(".")[0] for t in tasks}
    for table in (jitter, blocking, execs):
        for name in table:
            if name not in known:
                raise KeyError(name)
    return [replace(t, jitter_ns=pick(t, jitter, t.jitter_ns),
                    blocking_ns=pick(t, blocking, t.blocking_ns),
                    exec_ns=pick(t, execs, t.exec_ns)) for t in tasks]


def worst_exec(workload: dict[str, Any]) -> tuple[int | None, str | None]:
    """The worst-case execution time of a resolved exec, with a note when it is an estimate."""
    e = workload.get("exec") or {}
    if e.get("values_ns"):
        return max(int(v) for v in e["values_ns"]), None
    if e.get("max_ns"):
        return int(e["max_ns"]), None
    if e.get("mean_ns") is not None:
        c = int(e["mean_ns"] + 3 * (e.get("stddev_ns") or 0))
        return min(c, int(workload["period_ns"])), "exec is a normal distribution without max: mean + 3 sd"
    return None, "exec unknown"


def tasks_from_threads(threads: list[dict[str, Any]]) -> tuple[list[Task], list[str]]:
    """Tasks of the periodic threads, from normalised thread records {label, workload, policy,
    priority, cpus, reservation}; threads left out are explained in the returned notes."""
    tasks, skipped = [], []
    for th in threads:
        w = th["workload"] or {}
        if w.get("type") != "periodic":
            if w.get("type") == "cpu_periodic":
                skipped.append(f"{th['label']}: cpu_periodic never blocks (not a sporadic task)")
            continue
        if th.get("reservation"):
            r = th["reservation"]
            c, _ = worst_exec(w)
            ok = c is not None and r["budget_ns"] >= c and r["period_ns"] <= w["period_ns"]
            skipped.append(f"{th['label']}: SCHED_DEADLINE reservation {r['budget_ns']} ns / "
                           f"{r['period_ns']} ns, not priority-scheduled; budget "
                           f"{'covers' if ok else 'does NOT cover'} exec per period")
            continue
        if th.get("policy") not in ("fifo", "rr"):
            skipped.append(f"{th['label']}: policy {th.get('policy')} is not fixed-priority "
                           "real-time (time-shared threads run below every RT thread)")
            continue
        c, note = worst_exec(w)
        if c is None:
            skipped.append(f"{th['label']}: {note}")
            continue
        cpus = th.get("cpus")
        tasks.append(Task(th["label"], c, int(w["period_ns"]), int(th["priority"]),
                          cpus=frozenset(cpus) if cpus else None,
                          notes=(note,) if note else ()))
    return tasks, skipped
