# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Perfetto export shows: the tracks of one run and the events on each, as arrays.

- process `hgrun NAME` (result.json `pid`), one thread track per measuring thread (its tid and
  OS name): a slice per interval of execution, named by how it ended and on which CPU
  (`yielded (CPU 1)`); under each thread, when present: `gaps` (each gap that the kernel trace
  attributed, named by its cause), `latency` (a counter: each wake-up's lateness in ns at its
  actual time), `late wake-ups` (with a kernel trace: a slice from the intended to the actual
  time of each late wake-up, named by its largest component, its components as args:
  late_wakeups.jsonl) and `deadline misses` (an instant at each missed deadline);
- `CPU N` groups: `hgrun threads` (which measuring thread ran there when, from the gap trace)
  and, with a kernel trace, `kernel` (kernel.jsonl's segments: the task, IRQ, softirq, timer
  or IPI that ran, innermost first);
- `scenario`: the run's span and a slice per load window (its stats as args).

Times are ns on the run's timeline (from time zero). perfetto/trace.py writes them. The tracks
drawn from the intervals (a thread's, a CPU's `hgrun threads`) are Picked: the writer takes
them a window of records at a time, so the export holds no copy of a whole track.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterator, Union

import numpy as np

from ..analyses import late_wakeups as lw
from ..analyses.causes import cause_names, traced
from ..analyses.summary import periodic_jobs
from ..base.errors import InputError
from ..read import kernel
from ..read.rundir import END_KINDS, Run


@dataclass
class Slices:
    """Slices of one track: [start, end), `name` indexes `names`. Overlaps are clipped by
    the writer (a track's slices must nest)."""
    start: np.ndarray
    end: np.ndarray
    name: np.ndarray
    names: list[str]


WINDOW = 1 << 15        # records of the run's intervals a Picked track looks at a time
MANY_THREADS = 64       # past this many threads, their rows are grouped once (Names._by_thread)


@dataclass
class Picked:
    """Slices of one track picked from the run's intervals, which are sorted by start (so
    each pick is in time order), a window of records at a time: `pick(lo, hi)` gives (start,
    end, name) of the track's records among lo..hi; `used` says which of `names` occur."""
    rows: int
    pick: Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]]
    names: list[str]
    used: np.ndarray

    def windows(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        for lo in range(0, self.rows, WINDOW):
            start, end, name = self.pick(lo, min(lo + WINDOW, self.rows))
            if len(start):
                yield start, end, name


@dataclass
class Counter:
    t: np.ndarray
    value: np.ndarray


@dataclass
class Instants:
    t: np.ndarray
    name: str
    args: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class Marks:
    """A few slices with arbitrary args: (start, end, name, args)."""
    items: list[tuple[int, int, str, dict[str, Any]]]


Data = Union[Slices, Picked, Counter, Instants, Marks]


@dataclass
class Track:
    uuid: int
    name: str
    parent: int | None = None
    process: tuple[int, str] | None = None           # pid, name
    thread: tuple[int, int, str] | None = None       # pid, tid, name
    counter_unit: int | None = None                  # CounterDescriptor.Unit
    rank: int | None = None                          # order among its siblings
    description: str | None = None
    data: Data | Callable[[], Data] | None = None    # a callable: made when written

    def load(self) -> Data | None:
        return self.data() if callable(self.data) else self.data


def sorted_order(t: np.ndarray) -> np.ndarray | None:
    """The order that sorts `t` (stable), or None when it is sorted already."""
    if len(t) < 2 or bool(np.all(t[1:] >= t[:-1])):
        return None
    return np.argsort(t, kind="stable")


def groups(key: np.ndarray) -> dict[int, np.ndarray]:
    """The indices of each distinct value of a small-integer key, each in file order (a
    stable sort, radix for 16-bit keys)."""
    if not len(key):
        return {}
    small = -(1 << 15) <= int(key.min()) and int(key.max()) < 1 << 15
    k = key.astype(np.int16 if small else np.int64)
    order = np.argsort(k, kind="stable")
    cuts = np.flatnonzero(k[order][1:] != k[order][:-1]) + 1
    return {int(k[part[0]]): part for part in np.split(order, cuts)}


def _occurring(codes: Iterator[np.ndarray], size: int) -> np.ndarray:
    """Which of the codes 0..size-1 occur in any of the arrays `codes`."""
    seen = np.zeros(size, bool)
    for c in codes:
        if size <= 4 * WINDOW:
            seen |= np.bincount(c, minlength=size) > 0
        else:                               # a table bigger than a window: no dense counts
            seen[np.unique(c)] = True
    return seen


def distinct(key: np.ndarray) -> list[int]:
    """The distinct values of a small-integer key (CPU numbers), sorted; a window at a time."""
    if not len(key):
        return []
    low = int(key.min())
    seen = _occurring((key[lo:lo + WINDOW].astype(np.int64) - low
                       for lo in range(0, len(key), WINDOW)), int(key.max()) - low + 1)
    return (np.flatnonzero(seen) + low).tolist()


class _Uuids:
    def __init__(self) -> None:
        self.last = 0

    def __call__(self) -> int:
        self.last += 1
        return self.last


def pid_of(run: Run) -> int:
    if isinstance(run.result.get("pid"), int):
        return run.result["pid"]
    tids = [t["tid"] for t in run.threads if isinstance(t.get("tid"), int)]
    return min(tids) if tids else 1


def tid_of(run: Run, index: int) -> int:
    tid = run.threads[index].get("tid")
    return tid if isinstance(tid, int) else 1_000_000 + index


def gap_causes(run: Run) -> tuple[np.ndarray, list[str]] | None:
    """Each interval's gap cause code (docs/kernel-trace.md) and the codes' names, when the
    run was attributed; None otherwise."""
    code = run.intervals.cause
    if not traced(run) or code is None or not len(code) or not code.any():
        return None
    names = cause_names(run)
    if int(code.max()) >= len(names):
        raise InputError(run.path / "trace.bin", f"cause code {int(code.max())} is not in "
                         f"result.json kernel_trace.causes ({len(names)} names)")
    return code, names


class _IntervalNames:
    """The slice names of the tracks drawn from the intervals, and which occur: per thread,
    `preempted (CPU 1)` and the like (code: CPU index + end kind * CPUs); per CPU, the
    threads (code: thread index). Found in one pass over the intervals, a window at a time,
    when a track first asks."""

    def __init__(self, run: Run, cpu_list: list[int]) -> None:
        self.iv, self.threads = run.intervals, len(run.threads)
        self.cpus = np.array(cpu_list, np.int64)
        self.per_thread = [f"{e} (CPU {c if c >= 0 else '?'})" for e in END_KINDS
                           for c in self.cpus]
        self.per_cpu = [run.label(i) for i in range(self.threads)]
        self._used: tuple[np.ndarray, np.ndarray] | None = None
        self._rows: tuple[np.ndarray, np.ndarray] | None = None
        # each CPU number's index in cpu_list, looked up by its bits (the column is int8 or
        # int16) rather than searched for among them: a gather where a binary search was
        self._cpu_index = None
        dt = self.iv.cpu.dtype
        if dt in (np.int8, np.int16):
            self._unsigned = np.dtype(f"u{dt.itemsize}")
            self._cpu_index = np.zeros(1 << (8 * dt.itemsize), np.int64)
            self._cpu_index[self.cpus.astype(dt).view(self._unsigned)] = np.arange(len(self.cpus))

    def cpu_index(self, cpu: np.ndarray) -> np.ndarray:
        """The index in cpu_list of each of `cpu` (CPU numbers of the intervals)."""
        if self._cpu_index is None:
            return np.searchsorted(self.cpus, cpu)
        return self._cpu_index[cpu.view(self._unsigned)]

    def thread_code(self, rows: slice | np.ndarray) -> np.ndarray:
        """The per-thread name code of the records `rows` (a slice or indices)."""
        cpu, end = self.iv.cpu[rows], self.iv.end[rows]
        code = end.astype(np.int64) * len(self.cpus)
        code += self.cpu_index(cpu)
        return code

    def used(self) -> tuple[np.ndarray, np.ndarray]:
        """(threads x len(per_thread)) and (CPUs x threads) tables of the names that occur."""
        if self._used is None:
            iv, n, kinds = self.iv, self.threads, len(self.per_thread)
            cut = [slice(lo, lo + WINDOW) for lo in range(0, len(iv), WINDOW)]
            by_thread = _occurring((iv.thread[sl].astype(np.int64) * kinds + self.thread_code(sl)
                                    for sl in cut), n * kinds)
            by_cpu = _occurring((self.cpu_index(iv.cpu[sl]) * n + iv.thread[sl]
                                 for sl in cut), len(self.cpus) * n)
            self._used = by_thread.reshape(n, kinds), by_cpu.reshape(len(self.cpus), n)
        return self._used

    def of_thread(self, i: int) -> Picked:
        iv = self.iv
        if self.threads > MANY_THREADS:           # each thread's rows, found once for all
            order, bounds = self._by_thread()
            mine = order[bounds[i]:bounds[i + 1]]

            def pick(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
                rows = mine[np.searchsorted(mine, lo):np.searchsorted(mine, hi)]
                return iv.start[rows], iv.stop[rows], self.thread_code(rows)
        else:
            def pick(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
                rows = np.flatnonzero(iv.thread[lo:hi] == i) + lo   # one mask pass, then gathers
                return iv.start[rows], iv.stop[rows], self.thread_code(rows)
        return Picked(len(iv), pick, self.per_thread, self.used()[0][i])

    def _by_thread(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows of the intervals grouped by thread, each thread's in time order, and where
        each thread's begin: with many threads, one sort instead of a pass over every record
        per thread (4 bytes an interval)."""
        if self._rows is None:
            order = np.argsort(self.iv.thread, kind="stable")
            order = order.astype(np.int32) if len(order) < 2**31 else order
            bounds = np.searchsorted(self.iv.thread[order], np.arange(self.threads + 1))
            self._rows = order, bounds
        return self._rows

    def on_cpu(self, cpu: int) -> Picked:
        iv = self.iv

        def pick(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            rows = np.flatnonzero(iv.cpu[lo:hi] == cpu) + lo
            return iv.start[rows], iv.stop[rows], iv.thread[rows]
        k = int(np.searchsorted(self.cpus, cpu))
        return Picked(len(iv), pick, self.per_cpu, self.used()[1][k])


LATE_SLICES = 20000     # late wake-ups per thread in the export, the worst


def _late_marks(xs: list[dict[str, Any]]) -> Marks:
    """A slice per late wake-up, intended to actual time, named by its largest component, with
    its components, residual and the kernel's moments (from the intended time) as args."""
    items = []
    for x in xs:
        args: dict[str, Any] = {"late_ns": x["late_ns"], "seq": x["seq"],
                                "residual_ns": x.get("residual_ns"),
                                "summed": x.get("summed"), "explained": x.get("explained")}
        args.update({f"{k}_ns": v for k, v in (x.get("components") or {}).items()})
        args.update({f"at_{k}_ns": v for k, v in (x.get("at_ns") or {}).items()})
        args["parts"] = lw.breakdown(x, 6)
        items.append((int(x["intended_ns"]), int(x["actual_ns"]), f"late: {lw.dominant(x)}",
                      args))
    return Marks(items)


def _thread_tracks(run: Run, uuid: _Uuids, pid: int, parent: int,
                   names: _IntervalNames) -> list[Track]:
    late = lw.collect(run, LATE_SLICES) if lw.present(run) else lw.Late()
    iv = run.intervals
    attributed = gap_causes(run)
    out: list[Track] = []
    samples = run.samples
    wakeups = groups(samples.thread)
    empty = np.zeros(0, np.int64)

    def by_start(i: int) -> np.ndarray:
        m = np.flatnonzero(iv.thread == i)
        order = sorted_order(iv.start[m])
        return m if order is None else m[order]

    def gaps(i: int, code: np.ndarray, cause_names: list[str]) -> Slices:
        m = by_start(i)
        c = code[m][:-1].astype(np.int64)
        g = np.flatnonzero(c)
        return Slices(iv.stop[m][g], iv.start[m][g + 1], c[g],
                      [f"gap: {n}" for n in cause_names])

    for i in range(len(run.threads)):
        t = Track(uuid(), run.label(i), parent, thread=(pid, tid_of(run, i), run.label(i)),
                  rank=i, description="intervals of execution from the gap trace, named by "
                  "how each ended (preempted, yielded, blocked, finished) and its CPU",
                  data=partial(names.of_thread, i))
        out.append(t)
        if attributed is not None:
            out.append(Track(uuid(), "gaps", t.uuid, rank=0, description="each gap the "
                             "kernel trace attributed (docs/kernel-trace.md), named by its "
                             "dominant cause", data=partial(gaps, i, *attributed)))
        sm = wakeups.get(i, empty)
        if len(sm):
            out.append(Track(uuid(), "latency", t.uuid, counter_unit=1, rank=1,
                             description="timer wake-up lateness (actual - intended, ns), "
                             "at each wake-up's actual time",
                             data=partial(lambda sm: Counter(samples.actual[sm],
                                                             samples.late[sm]), sm)))
        if late.worst.get(i):
            out.append(Track(uuid(), "late wake-ups", t.uuid, rank=1,
                             description="each wake-up later than trace.late_wakeup, from its "
                             "intended to its actual time, named by its largest component "
                             "(docs/kernel-trace.md, Late wake-ups; at most "
                             f"{LATE_SLICES}, the worst)",
                             data=_late_marks(sorted(late.worst[i],
                                                     key=lambda x: x["intended_ns"]))))
        jobs = periodic_jobs(run, i) or []
        missed = [j for j in jobs if j.missed]
        if missed:
            out.append(Track(uuid(), "deadline misses", t.uuid, rank=2,
                             description="an instant at each missed deadline of the periodic "
                             "workload (jobs rebuilt from the trace)",
                             data=Instants(
                                 np.array([j.deadline for j in missed], np.int64),
                                 "deadline miss",
                                 {"release_ns": np.array([j.release for j in missed], np.int64),
                                  "completion_ns": np.array(
                                      [-1 if j.completion is None else j.completion
                                       for j in missed], np.int64)})))
    return out


def _kernel_segments(run: Run) -> dict[int, Slices]:
    """kernel.jsonl (docs/kernel-trace.md) as slices per CPU; {} when the run has none."""
    path = run.file("kernel")
    if path is None or not path.exists():
        return {}
    cpu: list[int] = []
    start: list[int] = []
    end: list[int] = []
    ids: dict[str, int] = {}                    # labels interned in order of appearance
    index: list[int] = []
    for s in kernel.segments(path):             # read/kernel.py: each line checked
        cpu.append(s["cpu"])
        start.append(s["start_ns"])
        end.append(s["end_ns"])
        label = ((f"{s['name']} ({s['id']})" if s["kind"] == "task" and s["id"] else s["name"])
                 + (" unconfirmed" if s.get("unconfirmed") else ""))
        index.append(ids.setdefault(label, len(ids)))
    try:
        c, a, b = (np.array(x, np.int64) for x in (cpu, start, end))
    except OverflowError as e:
        raise InputError(path, "a cpu, start_ns or end_ns does not fit 64 bits") from e
    names = list(ids)
    idx = np.array(index, np.int64)
    return {k: Slices(a[m], b[m], idx[m], names) for k, m in groups(c).items()}


def _cpu_tracks(run: Run, uuid: _Uuids, cpu_list: list[int],
                names: _IntervalNames) -> list[Track]:
    kernel = _kernel_segments(run)
    out: list[Track] = []
    for rank, c in enumerate(sorted(set(cpu_list) | set(kernel))):
        group = Track(uuid(), f"CPU {c}" if c >= 0 else "CPU unknown", rank=100 + rank)
        out.append(group)
        if c in cpu_list:
            out.append(Track(uuid(), "hgrun threads", group.uuid, rank=0,
                             description="which measuring thread ran on this CPU when "
                             "(its intervals from the gap trace)",
                             data=partial(names.on_cpu, c)))
        if c in kernel:
            out.append(Track(uuid(), "kernel", group.uuid, rank=1,
                             description="what the kernel ran on this CPU (kernel.jsonl "
                             "segments: task (pid), irq, softirq, local timer, IPI)",
                             data=kernel[c]))
    return out


def _scenario_tracks(run: Run, uuid: _Uuids) -> list[Track]:
    group = Track(uuid(), "scenario", rank=200)
    name = run.scenario.get("name") or "run"
    end = run.duration_ns or (int(run.intervals.stop.max()) if len(run.intervals) else 0)
    tsc = run.result.get("tsc") or {}
    out = [group, Track(uuid(), "run", group.uuid, rank=0,
                        description="the run, from time zero to its duration",
                        data=Marks([(0, end, name, {"start_monotonic_ns":
                                                    tsc.get("start_monotonic_ns")})]))]
    for k, load in enumerate(run.loads):
        a, b = load.get("started_ns"), load.get("stopped_ns")
        if a is None:
            continue
        args = {key: v for key, v in (load.get("stats") or {}).items()
                if isinstance(v, (int, float, str))}
        out.append(Track(uuid(), f"load {load['name']} ({load['type']})", group.uuid,
                         rank=1 + k, description="the load's window (its stats as args)",
                         data=Marks([(int(a), int(b if b is not None else a),
                                      f"load {load['name']}", args)])))
    windows = (run.result.get("trace") or {}).get("outliers") or []
    if windows:
        out.append(Track(uuid(), "outlier windows", group.uuid, rank=len(run.loads) + 1,
                         description="the windows of trace.mode outliers (docs/results.md): "
                         "only the records inside them are in trace.bin and latency.bin",
                         data=Marks([(int(w["from_ns"]), int(w["to_ns"]),
                                      f"outlier: {w.get('kind')}",
                                      {"id": w.get("id"),
                                       "thread": run.label(w["thread"])
                                       if isinstance(w.get("thread"), int)
                                       and w["thread"] < len(run.threads) else None,
                                       "trigger_ns": w.get("trigger_ns"),
                                       "value_ns": w.get("value_ns")})
                                     for w in windows])))
    return out


def tracks(run: Run) -> list[Track]:
    """Every track of the export, parents before children."""
    uuid = _Uuids()
    name = run.scenario.get("name") or "run"
    pid = pid_of(run)
    proc = Track(uuid(), f"hgrun {name}", process=(pid, f"hgrun {name}"), rank=0)
    cpus = distinct(run.intervals.cpu)
    names = _IntervalNames(run, cpus)
    return ([proc] + _thread_tracks(run, uuid, pid, proc.uuid, names)
            + _cpu_tracks(run, uuid, cpus, names) + _scenario_tracks(run, uuid))
