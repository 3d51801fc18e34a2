# SPDX-License-Identifier: GPL-2.0-or-later
"""The raw records of trace.bin / latency.bin with every field (window ids, flags, cause codes),
and the gaps they bound, for the outlier windows and the cause reports. rundir.py reads the
same files into the columns the other reports use."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import binfile
from .memo import per_run
from .rundir import Run

PREEMPTED = 0


def interval_records(run: Run) -> np.ndarray:
    """trace.bin's records (docs/results.md) as far as result.json vouches for them; empty for
    a run without one (or a JSON-lines trace of an older run: no window or cause there)."""
    return _records(run, "trace", "intervals")


def wakeup_records(run: Run) -> np.ndarray:
    """latency.bin's records, likewise."""
    return _records(run, "latency", "wakeups")


@per_run
def _records(run: Run, key: str, kind: str) -> np.ndarray:
    path = run._trace_source(key)          # rundir.py: the checks of the reading layer
    if path is None or path.suffix != ".bin":
        return binfile.empty(kind)
    r = binfile.read(path, kind, run.written(key))
    binfile.check_records(path, r, len(run.threads), kind)
    return r


@dataclass(frozen=True)
class Gaps:
    """Gaps bounded by two records of a thread that follow each other in trace.bin (in the same
    outlier window, or both outside any), the first ended `preempted`: the rule of
    docs/kernel-trace.md. `cause` is the code the first record carries."""
    thread: np.ndarray
    cpu: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    cause: np.ndarray
    window: np.ndarray

    @property
    def length(self) -> np.ndarray:
        return self.stop - self.start

    def __len__(self) -> int:
        return len(self.start)

    def take(self, idx: np.ndarray) -> "Gaps":
        return Gaps(*(getattr(self, k)[idx] for k in
                      ("thread", "cpu", "start", "stop", "cause", "window")))


def thread_order(thread: np.ndarray) -> np.ndarray:
    """Indices grouping records by thread, each thread's in file order (a stable sort: radix
    on 16-bit keys, 3x faster than on the file's 32-bit ones)."""
    key = thread.astype(np.uint16) if len(thread) and int(thread.max()) < 65536 else thread
    return np.argsort(key, kind="stable")


def gaps(records: np.ndarray) -> Gaps:
    order = thread_order(records["thread"])                  # each thread's file order
    th, win, end = (records[k][order] for k in ("thread", "window", "end"))
    m = (th[:-1] == th[1:]) & (win[:-1] == win[1:]) & (end[:-1] == PREEMPTED)
    ia, ib = order[:-1][m], order[1:][m]                     # gather only the gaps' records
    return Gaps(records["thread"][ia].astype(np.int64), records["cpu"][ia].astype(np.int64),
                records["end_ns"][ia].astype(np.int64), records["start_ns"][ib].astype(np.int64),
                records["cause"][ia].astype(np.int64), records["window"][ia].astype(np.int64))
