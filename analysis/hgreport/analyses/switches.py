# SPDX-License-Identifier: GPL-2.0-or-later
"""What the gap trace says about the scheduler (paper section 4, `process_ctx` of section 5.1):
gaps of a thread on one CPU, and context switches inferred between traced threads.

Both are found on the trace in time order (Run.intervals is) with bounded temporaries: the
switches a block of records at a time, keeping each CPU's last interval across blocks, and
held as two int32 index arrays into the trace (8 bytes a switch); their columns are computed
when first asked for (the costs each time: they would be 8 bytes a switch held)."""
from __future__ import annotations

import math
from functools import cached_property
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ..base.stats import counts_between, describe
from ..read.memo import per_run
from ..read.rundir import END_KINDS, Intervals

if TYPE_CHECKING:
    from ..read.rundir import Run

PREEMPTED, YIELDED, BLOCKED, FINISHED = (END_KINDS.index(k) for k in END_KINDS)
BLOCK = 1 << 20
DENSE = 1 << 20     # switch costs below this (ns) are counted by value (CostCounts)
EXACT = 1 << 52     # past this, float64 arithmetic on the costs may round: the sorted path


class CostCounts:
    """The switch costs of a run as counts: `dense[v]` the number of switches that cost v ns
    (v < len(dense)), in two columns, involuntary and voluntary; the costs at or past
    DENSE as sorted arrays (`tail`, per column: few in a real run). Made in one pass over
    the switches, a block at a time; every order statistic and histogram of the costs is
    then read from it (a binary search in the cumulated counts) with no copy, sort or
    partition of millions of costs (analysis/README.md#performance)."""

    def __init__(self, dense: np.ndarray, tail: tuple[np.ndarray, np.ndarray]) -> None:
        self.dense, self.tail = dense, tail

    def _column(self, which: str) -> tuple[np.ndarray, np.ndarray]:
        if which == "all":
            return self.dense.sum(axis=1), np.sort(np.concatenate(self.tail))
        k = {"involuntary": 0, "voluntary": 1}[which]
        return self.dense[:, k], self.tail[k]

    def describe(self, which: str) -> dict[str, float | int | None]:
        """stats.describe() of the costs of `which` switches (all, voluntary, involuntary):
        the same numbers (the mean is exact where describe's float sum of integers is)."""
        counts, tail = self._column(which)
        cum = np.cumsum(counts)
        inside = int(cum[-1]) if len(cum) else 0
        n = inside + len(tail)
        if n == 0:
            return describe(np.zeros(0, np.int64))

        def kth(r: int) -> int:           # the r-th smallest cost (0-based)
            if r < inside:
                return int(np.searchsorted(cum, r, side="right"))
            return int(tail[r - inside])
        total = int(np.dot(np.arange(len(counts), dtype=np.int64), counts)) + sum(tail.tolist())
        p99 = min(max(1, math.ceil(0.99 * n)), n) - 1
        return {"count": n, "min_ns": float(kth(0)),
                "median_ns": float((kth((n - 1) // 2) + kth(n // 2)) / 2),
                "mean_ns": total / n, "p99_ns": float(kth(p99)), "max_ns": float(kth(n - 1))}

    def histogram(self, which: str, edges: np.ndarray) -> np.ndarray:
        """counts_between(costs of `which` switches, edges), edges ascending and finite."""
        counts, tail = self._column(which)
        below = np.r_[0, np.cumsum(counts)]          # below[x]: costs < x, for x <= len
        # an integer cost v is at or past edge e when v >= ceil(e)
        at = np.clip(np.ceil(edges), 0, len(counts)).astype(np.int64)
        out = np.diff(below[at])
        last = edges[-1]
        if last == math.floor(last) and 0 <= last < len(counts):
            out[-1] += counts[int(last)]             # the last bin holds its right edge
        return out + counts_between(tail, edges)


class _Counting:
    """CostCounts made a block of switches at a time: `add(costs, voluntary)` for each block
    (False once a cost is negative or reaches EXACT: no counts then), `result(n)` at the end."""

    def __init__(self) -> None:
        self.dense = np.zeros(0, np.int64)
        self.tails: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])

    def add(self, c: np.ndarray, v: np.ndarray) -> bool:
        top = int(c.max()) if len(c) else 0
        if top >= EXACT or (len(c) and int(c.min()) < 0):     # (switches() keeps none < 0)
            return False
        if top >= DENSE:
            far = c >= DENSE
            self.tails[0].append(c[far & ~v])
            self.tails[1].append(c[far & v])
            c, v = c[~far], v[~far]
        key = c * 2
        key += v
        got = np.bincount(key)
        if len(got) > len(self.dense):
            got[:len(self.dense)] += self.dense
            self.dense = got
        else:
            self.dense[:len(got)] += got
        return True

    def result(self, n: int) -> CostCounts | None:
        """The counts of the `n` switches added; None when their sum could reach EXACT."""
        dense = self.dense
        if len(dense) % 2:
            dense = np.r_[dense, 0]
        tail = tuple(np.sort(np.concatenate(t)) if t else np.zeros(0, np.int64)
                     for t in self.tails)
        if sum(int(t.sum()) for t in tail) + n * DENSE >= EXACT:
            return None
        return CostCounts(dense.reshape(-1, 2), tail)       # type: ignore[arg-type]


class Switches:
    """Inferred context switches: thread A's interval `a` ends, thread B's next interval `b`
    starts on the same CPU. `cost` is B.start - A.end (ns); `voluntary` is True after A
    yielded or blocked, False after A was preempted; `at` is A's end.

    Made without `a` and `b` (of_run: `Switches(iv)`), it holds none of the run's switches:
    its length and its costs counted by value (`counts`, which the report's summary and
    figures read) come from one pass over the trace a block at a time, and `a` and `b` (8
    bytes a switch: 36 MiB for 4.75M) are made only when something asks for them
    (analysis/README.md#performance)."""

    def __init__(self, iv: Intervals, a: np.ndarray | None = None,
                 b: np.ndarray | None = None) -> None:
        if a is None:                                # made when asked for (cached_property)
            self.iv = by_start(iv)
        else:
            assert b is not None
            self.iv = iv
            self.__dict__.update(a=a, b=b)

    @cached_property
    def a(self) -> np.ndarray:
        self._made()
        return self.__dict__["a"]

    @cached_property
    def b(self) -> np.ndarray:
        self._made()
        return self.__dict__["b"]

    def _made(self) -> None:
        sw = switches(self.iv)
        self.__dict__.update(a=sw.a, b=sw.b)

    @property
    def held(self) -> bool:
        """Whether the index arrays `a` and `b` are made."""
        return "a" in self.__dict__

    def __len__(self) -> int:
        return len(self.a) if self.held else self._scan[0]

    @cached_property
    def _scan(self) -> tuple[int, int, CostCounts | None]:
        """(switches, involuntary switches, their costs counted by value or None), in one
        pass over the trace without holding the switches."""
        n = involuntary = 0
        acc = _Counting()
        for _, a, b in _pairs(self.iv):
            v = self.iv.end[a]
            v = (v == YIELDED) | (v == BLOCKED)
            n += len(a)
            involuntary += len(a) - int(np.count_nonzero(v))
            if acc is not None and not acc.add(self.iv.start[b] - self.iv.stop[a], v):
                acc = None
        return n, involuntary, None if acc is None else acc.result(n)

    def cost_of(self, rows: slice | np.ndarray) -> np.ndarray:
        """B.start - A.end (ns) of the switches `rows` (a slice or a boolean mask), made for
        those only (per thread: a thread's share, not every switch's cost each time)."""
        return self.iv.start[self.b[rows]] - self.iv.stop[self.a[rows]]

    def _blocks(self) -> Iterator[slice]:
        return (slice(lo, lo + BLOCK) for lo in range(0, len(self.a), BLOCK))

    @property
    def cost(self) -> np.ndarray:
        """B.start - A.end (ns) of every switch, made a block at a time each time it is asked
        for (the run's switches can be as many as its intervals: 8 bytes each not held)."""
        out = np.empty(len(self.a), np.int64)
        for sl in self._blocks():
            out[sl] = self.cost_of(sl)
        return out

    @cached_property
    def counts(self) -> CostCounts | None:
        """The costs counted by value (CostCounts), one pass over the switches; None when a
        cost reaches EXACT ns or their sum could (then the costs themselves are used)."""
        if not self.held:
            return self._scan[2]
        if len(self.a) * DENSE >= EXACT:
            return None
        acc = _Counting()
        for sl in self._blocks():
            if not acc.add(self.cost_of(sl), self.voluntary[sl]):
                return None
        return acc.result(len(self.a))

    def describe_costs(self) -> dict[str, dict[str, float | int | None]]:
        """describe() of the costs of all, the voluntary and the involuntary switches."""
        cc = self.counts
        if cc is not None:
            return {k: cc.describe(k) for k in ("all", "voluntary", "involuntary")}
        cost, vol = self.cost, self.voluntary
        out = {"voluntary": describe(cost[vol], scratch=True),
               "involuntary": describe(cost[~vol], scratch=True)}
        out["all"] = describe(cost, scratch=True)      # last: it reorders `cost`
        return {k: out[k] for k in ("all", "voluntary", "involuntary")}

    def cost_histograms(self, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Counts of the voluntary and of the involuntary switches' costs (ns) between
        `edges`: from the counts by value when there are (CostCounts), else a block of
        switches at a time."""
        e = np.asarray(edges)
        cc = self.counts
        if (cc is not None and len(e) >= 2 and e.dtype.kind in "iuf"
                and bool(np.all(np.isfinite(e))) and bool(np.all(e[1:] >= e[:-1]))):
            e = e.astype(np.float64)
            return (cc.histogram("voluntary", e).astype(np.int64),
                    cc.histogram("involuntary", e).astype(np.int64))
        vol = np.zeros(len(edges) - 1, np.int64)
        inv = np.zeros(len(edges) - 1, np.int64)
        for sl in self._blocks():
            c, m = self.cost_of(sl), self.voluntary[sl]
            vol += counts_between(c[m], edges)
            inv += counts_between(c[~m], edges)
        return vol, inv

    @cached_property
    def voluntary(self) -> np.ndarray:
        end = self.iv.end[self.a]
        return (end == YIELDED) | (end == BLOCKED)

    @property
    def cpu(self) -> np.ndarray:
        return self.iv.cpu[self.b]

    @property
    def from_thread(self) -> np.ndarray:
        return self.iv.thread[self.a]

    @property
    def at(self) -> np.ndarray:
        return self.iv.stop[self.a]

    @property
    def involuntary_count(self) -> int:
        if not self.held:
            return self._scan[1]
        return int(len(self.a) - np.count_nonzero(self.voluntary))


class Gaps:
    """Gaps: interval `a` of a thread ended `preempted` and `b` is the thread's next interval
    (same CPU, figure 4's quantity, unless gaps(same_cpu=False)); `start` is a's end, `stop`
    b's start, `cause` the kernel attribution code a carries, `window` its outlier window.
    Held as two index arrays into the trace; the columns are computed when asked for."""

    def __init__(self, iv: Intervals, a: np.ndarray, b: np.ndarray) -> None:
        self.iv, self.a, self.b = iv, a, b

    def __len__(self) -> int:
        return len(self.a)

    def take(self, idx: np.ndarray) -> "Gaps":
        return Gaps(self.iv, self.a[idx], self.b[idx])

    def of_thread(self, index: int) -> np.ndarray:
        """The lengths of one thread's gaps."""
        return self.length[self.thread == index]

    @cached_property
    def length(self) -> np.ndarray:
        return self.iv.start[self.b] - self.iv.stop[self.a]

    @cached_property
    def thread(self) -> np.ndarray:
        return self.iv.thread[self.a]

    @property
    def cpu(self) -> np.ndarray:
        return self.iv.cpu[self.a]

    @property
    def start(self) -> np.ndarray:
        return self.iv.stop[self.a]

    @property
    def stop(self) -> np.ndarray:
        return self.iv.start[self.b]

    @property
    def cause(self) -> np.ndarray:
        return (np.zeros(len(self.a), np.uint32) if self.iv.cause is None
                else np.asarray(self.iv.cause[self.a]))

    @property
    def window(self) -> np.ndarray:
        return (np.zeros(len(self.a), np.uint32) if self.iv.window is None
                else np.asarray(self.iv.window[self.a]))


def by_start(iv: Intervals) -> Intervals:
    """iv sorted by start (stable); Run.intervals already is, and is returned as is."""
    if len(iv) < 2 or bool(np.all(iv.start[1:] >= iv.start[:-1])):
        return iv
    return iv.take(np.argsort(iv.start, kind="stable"))


def gaps(iv: Intervals, same_cpu: bool = True) -> Gaps:
    """The gaps of every thread: consecutive intervals of one thread (in time order), the first
    ended `preempted`, both in the same outlier window, and on the same CPU (figure 4) unless
    `same_cpu` is False (docs/kernel-trace.md's gaps: the next interval anywhere). A block of
    records at a time, keeping each thread's latest interval across blocks."""
    iv = by_start(iv)
    n = len(iv)
    itype = np.int32 if n < 2**31 else np.int64
    last = np.full(int(iv.thread.max()) + 1 if n else 0, -1, dtype=np.int64)
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    for lo in range(0, n, BLOCK):
        hi = min(n, lo + BLOCK)
        o = np.argsort(iv.thread[lo:hi], kind="stable") + lo      # by thread, in time order
        th = iv.thread[o]
        new = np.flatnonzero(np.r_[True, th[1:] != th[:-1]])      # each thread's first here
        a = np.r_[last[th[new]], o[:-1]]
        b = np.r_[o[new], o[1:]]
        keep = np.r_[last[th[new]] >= 0, th[1:] == th[:-1]]
        last[th[np.r_[new[1:] - 1, len(o) - 1]]] = o[np.r_[new[1:] - 1, len(o) - 1]]
        a, b = a[keep], b[keep]
        m = iv.end[a] == PREEMPTED
        if same_cpu:
            m &= iv.cpu[a] == iv.cpu[b]
        if iv.windowed:                                    # not across two outlier windows
            m &= iv.window[a] == iv.window[b]
        parts.append((a[m].astype(itype), b[m].astype(itype)))
    if not parts:
        return Gaps(iv, np.zeros(0, itype), np.zeros(0, itype))
    a, b = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    order = np.argsort(a, kind="stable")                   # in the order of the gaps' start
    return Gaps(iv, a[order], b[order])


def thread_gaps(iv: Intervals, thread: int) -> np.ndarray:
    """Lengths (ns) of the gaps of one thread: from an interval that ended `preempted` to the
    thread's next interval, when that one is on the same CPU (figure 4's quantity)."""
    return gaps(iv.of_thread(thread)).length


def _distinct(cpu: np.ndarray) -> list[int]:
    """The CPU numbers in `cpu`, in no particular order: flags by their bits for the int8 or
    int16 column (np.unique sorts the block)."""
    if cpu.dtype not in (np.int8, np.int16):
        return np.unique(cpu).tolist()
    bits = cpu.dtype.itemsize * 8
    unsigned = np.dtype(f"u{cpu.dtype.itemsize}")
    seen = np.flatnonzero(np.bincount(cpu.view(unsigned), minlength=1 << bits))
    return seen.astype(unsigned).view(cpu.dtype).tolist()


def _pairs(iv: Intervals) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(cpu, a, b) of the switches of `iv` (sorted by start), a block of records and a CPU at
    a time, in the order of the blocks: see switches()."""
    n = len(iv)
    itype = np.int32 if n < 2**31 else np.int64
    last: dict[int, int] = {}                              # CPU -> its latest interval so far
    for lo in range(0, n, BLOCK):
        hi = min(n, lo + BLOCK)
        cpu = iv.cpu[lo:hi]
        for c in _distinct(cpu):
            idx = np.flatnonzero(cpu == c) + lo
            if c in last:
                idx = np.r_[last[c], idx]
            last[c] = int(idx[-1])
            a, b = idx[:-1], idx[1:]
            m = ((iv.thread[a] != iv.thread[b]) & (iv.end[a] != FINISHED)
                 & (iv.start[b] >= iv.stop[a]))
            if iv.windowed:                                # not across two outlier windows
                m &= iv.window[a] == iv.window[b]
            yield c, a[m].astype(itype), b[m].astype(itype)


def switches(iv: Intervals) -> Switches:
    """Every place where, on one CPU, an interval of one traced thread is followed by an
    interval of another (in the same outlier window). Intervals that ended `finished` (the
    thread stopped) are not switches; overlapping pairs (impossible on one CPU, a clock
    artefact) are dropped."""
    iv = by_start(iv)
    itype = np.int32 if len(iv) < 2**31 else np.int64
    parts: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
    for c, a, b in _pairs(iv):
        parts.setdefault(c, []).append((a, b))
    # CPU by CPU, each in time order: the order of the pairs they come from
    pairs = [p for c in sorted(parts) for p in parts[c]]
    if not pairs:
        return Switches(iv, np.zeros(0, itype), np.zeros(0, itype))
    return Switches(iv, np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs]))


@per_run
def gaps_of_run(run: "Run", same_cpu: bool = True) -> Gaps:
    """gaps(run.intervals, same_cpu), computed once per run. The same-CPU gaps are those of
    gaps(same_cpu=False) whose two intervals share a CPU, in the same order (each interval
    starts at most one gap, and both are ordered by it): taken from them, one pass over the
    trace where two were (the report asks for both: 0.2-0.4 s of 5M intervals)."""
    if not same_cpu:
        return gaps(run.intervals, same_cpu=False)
    anywhere = gaps_of_run(run, same_cpu=False)
    iv = anywhere.iv
    return anywhere.take(iv.cpu[anywhere.a] == iv.cpu[anywhere.b])


@per_run
def of_run(run: "Run") -> Switches:
    """switches(run.intervals), once per run (the summary and the figures share it), its
    index arrays made only if asked for: the report reads its length and its counts."""
    return Switches(run.intervals)
