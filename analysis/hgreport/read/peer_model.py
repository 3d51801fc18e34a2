# SPDX-License-Identifier: GPL-2.0-or-later
"""The latency model every reader of another tool's output fills (read/peers.py makes a run of
it; docs/peers.md): `Series` per CPU or thread, `Peer` for the file, and what the readers
share: reading a text, a histogram from (bucket, count) pairs, percentiles from a histogram,
the preemption model a kernel's version string states."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import InputError
from .regular import open_fd

MAX_BYTES = 64 * 1024 * 1024        # the largest peer output read: a cyclictest -h 1000000 text
MAX_BUCKETS = 10_000_000            # rtla's -E limit; a histogram longer than this is not one
SNIFF = 4096

QUANTILES = {"p50_ns": 0.5, "p90_ns": 0.9, "p99_ns": 0.99, "p999_ns": 0.999}


@dataclass
class Series:
    """One measured thread or CPU of a peer's output, in ns. `counts[k]`: samples in
    [k*bucket_ns, (k+1)*bucket_ns); `overflow`: samples at or past the histogram's end (None:
    the tool does not say). `percentiles`: the tool's own (stress-ng prints them), else they
    are computed from the histogram (nearest rank, each the lower edge of its bucket)."""
    name: str
    cpu: int | None
    count: int
    min_ns: float | None = None
    mean_ns: float | None = None
    max_ns: float | None = None
    bucket_ns: int | None = None
    counts: np.ndarray | None = None
    overflow: int | None = 0
    percentiles: dict[str, float | None] = field(default_factory=dict)
    kept: int | None = None           # samples the percentiles and histogram cover (stress-ng)
    end_known: bool = True            # False: the histogram ends at len(counts) or later
                                      # (rtla prints only its non-empty buckets)
    notes: list[str] = field(default_factory=list)


@dataclass
class Peer:
    """What one peer file says: the tool, how it measured, its series and host facts."""
    tool: str                 # cyclictest, oslat, rtla timerlat, stress-ng cyclic
    version: str | None
    command_line: str | None
    measures: str             # what one sample is, in a few words
    series: list[Series]
    host: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)     # other facts the file states
    duration_ns: int | None = None
    started: str | None = None
    warnings: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """A peer's text output: a regular file of at most `limit` bytes, UTF-8."""
    fd = open_fd(path, follow=True)
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise InputError(path, f"{size} bytes: larger than the {limit >> 20} MiB a latency "
                                   "tool's output is read up to")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise InputError(path, f"larger than the {limit >> 20} MiB a latency tool's output is "
                               "read up to")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text (byte {e.start})") from e


def head(path: Path) -> str:
    """The first bytes of a file, for telling what wrote it ('' for what is not a file)."""
    try:
        fd = open_fd(path, follow=True)
    except InputError:
        return ""
    with os.fdopen(fd, "rb") as f:
        return f.read(SNIFF).decode("utf-8", "replace")


def histogram_counts(path: Path, pairs: list[tuple[int, int]], what: str) -> np.ndarray:
    """Counts by bucket index from (index, count) pairs: indices in range, counts >= 0, no
    index twice."""
    if not pairs:
        return np.zeros(0, dtype=np.int64)
    top = max(i for i, _ in pairs)
    if min(i for i, _ in pairs) < 0 or top >= MAX_BUCKETS:
        raise InputError(path, f"{what}: a bucket index outside 0..{MAX_BUCKETS - 1}")
    if any(c < 0 or c >= 2**62 for _, c in pairs):
        raise InputError(path, f"{what}: a count below 0 or past 2^62")
    counts = np.zeros(top + 1, dtype=np.int64)
    seen = np.zeros(top + 1, dtype=bool)
    for i, c in pairs:
        if seen[i]:
            raise InputError(path, f"{what}: bucket {i} twice")
        seen[i] = True
        counts[i] = c
    return counts


def _rank_value(s: Series, q: float) -> float | None:
    """The nearest-rank q-quantile from the histogram: the lower edge of the bucket holding
    rank ceil(q*n); None when that rank falls in the overflow (the value is past the
    histogram's end) or the tool gave no histogram."""
    if s.counts is None or s.bucket_ns is None:
        return None
    n = int(s.counts.sum()) + int(s.overflow or 0)
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n))
    cum = np.cumsum(s.counts)
    k = int(np.searchsorted(cum, rank, side="left"))
    if k >= len(s.counts):
        return None
    return float(k * s.bucket_ns)


def finish(path: Path, s: Series) -> Series:
    """Checks a series for what a reader cannot have meant, fills its percentiles from the
    histogram and notes what the histogram cannot tell."""
    for key in ("min_ns", "mean_ns", "max_ns"):
        v = getattr(s, key)
        if v is not None and (not math.isfinite(v) or v < -1e15 or v > 1e15):
            raise InputError(path, f"{s.name}: {key[:-3]} {v!r} is not a latency")
    if s.counts is not None:
        held = int(s.counts.sum()) + int(s.overflow or 0)
        if s.count == 0:
            s.count = held
        if s.kept is None and held != s.count:
            s.notes.append(f"{s.name}: the histogram holds {held} samples, the tool counted "
                           f"{s.count}")
    for key, q in QUANTILES.items():
        if s.percentiles.get(key) is None:
            s.percentiles[key] = _rank_value(s, q)
    if s.counts is not None and s.overflow:
        end = len(s.counts) * (s.bucket_ns or 0)
        missing = [k for k, v in s.percentiles.items() if v is None]
        where = (f"beyond the histogram's end ({end / 1e3:g} us)" if s.end_known else
                 f"past the last bucket printed ({end / 1e3:g} us; "
                 "its histogram ends there or later)")
        if missing:
            s.notes.append(f"{s.name}: {s.overflow} samples {where}: "
                           f"{', '.join(k[:-3] for k in missing)} unknown "
                           "(a longer histogram would tell)")
    return s



def preempt_of(version: str | None, realtime: Any = None) -> str | None:
    """The preemption model a kernel's version string (uname -v) states: PREEMPT_RT
    kernels say so (cyclictest's sysinfo.realtime too); `PREEMPT_DYNAMIC` alone does not
    say which model was chosen at boot (None), a plain `PREEMPT` is full."""
    words = (version or "").split()
    if realtime == 1 or "PREEMPT_RT" in words:
        return "rt"
    if "PREEMPT_DYNAMIC" in words:
        return None
    if "PREEMPT" in words:
        return "full"
    return None
