"""The raw records of trace.bin / latency.bin with every field (window ids, flags, cause codes),
and the gaps they bound, for the outlier windows and the cause reports. rundir.py reads the
same files into the columns the other reports use."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import binfile
from .rundir import Run

PREEMPTED = 0


def interval_records(run: Run) -> np.ndarray:
    """trace.bin's records (docs/results.md) as far as result.json vouches for them; empty for
    a run without one (or a JSON-lines trace of an older run: no window or cause there)."""
    return _records(run, "trace", "intervals")


def wakeup_records(run: Run) -> np.ndarray:
    """latency.bin's records, likewise."""
    return _records(run, "latency", "wakeups")


def _records(run: Run, key: str, kind: str) -> np.ndarray:
    cache = run.__dict__.setdefault("_traceio", {})
    if key not in cache:
        path = run._trace_source(key)          # rundir.py: the checks of the reading layer
        if path is None or path.suffix != ".bin":
            cache[key] = binfile.empty(kind)
        else:
            r = binfile.read(path, kind, run.written(key))
            binfile.check_records(path, r, len(run.threads), kind)
            cache[key] = r
    return cache[key]


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


def gaps(records: np.ndarray) -> Gaps:
    order = np.argsort(records["thread"], kind="stable")      # each thread's file order
    r = records[order]
    a, b = r[:-1], r[1:]
    m = (a["thread"] == b["thread"]) & (a["window"] == b["window"]) & (a["end"] == PREEMPTED)
    a, b = a[m], b[m]
    return Gaps(a["thread"].astype(np.int64), a["cpu"].astype(np.int64),
                a["end_ns"].astype(np.int64), b["start_ns"].astype(np.int64),
                a["cause"].astype(np.int64), a["window"].astype(np.int64))
