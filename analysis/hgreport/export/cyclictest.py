# SPDX-License-Identifier: GPL-2.0-or-later
"""Latency threads' histograms in cyclictest's `-h` text layout, the form OSADL's
latency plots and many lab scripts read (rt-tests' cyclictest, its print_hist):

    # /dev/cpu_dma_latency set to 0us        (when the run held it)
    # Histogram
    000000 000000	000000                   (bucket in us, a column per thread,
    ...                                       the columns after the first tab-separated)
    # Total: 000000911 000000004            (samples inside the histogram)
    # Min Latencies: 00014 00019            (us)
    # Avg Latencies: 00162 00040
    # Max Latencies: 01950 00153
    # Histogram Overflows: 00089 00496      (samples at or past the last bucket)
    # Histogram Overflow at cycle number:
    # Thread 0: 00048 00207 ... # 00396 others

A column per instance of a thread with the latency workload (result.json order); its
counts are result.json's 1 us histogram (every wake-up), its min, average and max the
exact figures truncated to whole microseconds as cyclictest's are. The cycle numbers of
overflows are the wake-ups' `seq` in latency.bin, which holds every wake-up only in trace
mode `full` without drops: otherwise the line says how many it could not name.

Slots a thread skipped (`align: absolute`, docs/results.md) are no wake-up of the
histogram: unless the scenario left them out (`skipped_slots: ignored`), each counts as a
wake-up later than the last bucket, in `# Histogram Overflows:`, and the thread's cycle line
ends with `# NNNNN skipped slots` (cyclictest's own absolute mode skips such slots without a
trace of them)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from ..analyses import skipped
from ..base import safeout
from ..base.errors import InputError, UsageError
from ..read.rundir import Run
from .format import Format

MAX_BUCKETS = 20000     # result.json's histogram covers 20 ms in 1 us buckets


def latency_threads(run: Run) -> list[int]:
    return [i for i, t in enumerate(run.threads)
            if isinstance((t.get("stats") or {}).get("latency"), dict)]


def _counts(lat: dict[str, Any], buckets: int) -> tuple[np.ndarray, int]:
    """Counts of buckets 0..buckets-1 (1 us each) and the overflow past them."""
    h = lat.get("histogram") or {}
    if int(h.get("bucket_ns", 1000)) != 1000:
        raise ValueError(f"histogram buckets of {h.get('bucket_ns')} ns, not 1 us")
    c = np.asarray(h.get("counts") or [], np.int64)
    inside = np.zeros(buckets, np.int64)
    inside[:min(len(c), buckets)] = c[:buckets]
    return inside, int(c[buckets:].sum()) + int(h.get("overflow") or 0)


def default_buckets(run: Run) -> int:
    """Enough 1 us buckets for every thread's max (cyclictest's -h), at most 20000."""
    most = max((int(run.threads[i]["stats"]["latency"].get("max_ns") or 0)
                for i in latency_threads(run)), default=0)
    return int(min(MAX_BUCKETS, max(1, most // 1000 + 1)))


def _overflow_cycles(run: Run, thread: int, buckets: int) -> np.ndarray:
    r = run.records("wakeups")
    if not len(r):
        return np.zeros(0, np.uint64)
    mine = r[r["thread"] == thread]
    late = mine["actual_ns"] - mine["intended_ns"]
    return np.sort(mine["seq"][late >= buckets * 1000])


def text(run: Run, buckets: int | None = None) -> str:
    """The whole output, as cyclictest -h BUCKETS -q prints it at its end."""
    threads = latency_threads(run)
    if not threads:
        raise ValueError("the run has no latency thread (workload type: latency)")
    n = default_buckets(run) if buckets is None else buckets
    if not 1 <= n <= MAX_BUCKETS:
        raise ValueError(f"buckets must be 1..{MAX_BUCKETS} (1 us each), got {n}")
    lats = [run.threads[i]["stats"]["latency"] for i in threads]
    skips = [skipped.of_thread(run, i) for i in threads]
    cols = [(inside, over + (sk.skipped if sk.counted_late else 0))
            for (inside, over), sk in zip((_counts(lat, n) for lat in lats), skips)]
    out = []
    qos = run.result.get("pm_qos") or {}
    if qos.get("held") and qos.get("cpu_dma_latency_us") is not None:
        out.append(f"# /dev/cpu_dma_latency set to {int(qos['cpu_dma_latency_us'])}us")
    out.append("# Histogram")
    table = np.stack([c for c, _ in cols], axis=1)
    for b in range(n):
        out.append(f"{b:06d} " + "\t".join(f"{v:06d}" for v in table[b].tolist()))

    def row(title: str, values: list[int], width: int) -> str:
        return f"# {title}:" + "".join(f" {v:0{width}d}" for v in values)

    out.append(row("Total", [int(c.sum()) for c, _ in cols], 9))
    us = [(int(lat.get("min_ns") or 0) // 1000, int(lat.get("mean_ns") or 0) // 1000,
           int(lat.get("max_ns") or 0) // 1000) for lat in lats]
    out.append(row("Min Latencies", [u[0] for u in us], 5))
    out.append(row("Avg Latencies", [u[1] for u in us], 5))
    out.append(row("Max Latencies", [u[2] for u in us], 5))
    out.append(row("Histogram Overflows", [o for _, o in cols], 5))
    out.append("# Histogram Overflow at cycle number:")
    for k, (i, (_, over), sk) in enumerate(zip(threads, cols, skips)):
        cycles = _overflow_cycles(run, i, n)
        line = f"# Thread {k}:" + "".join(f" {int(s):05d}" for s in cycles[:n])
        if len(cycles) > n:
            line += f" # {len(cycles) - n:05d} others"
        measured = over - (sk.skipped if sk.counted_late else 0)
        if measured > len(cycles):       # latency.bin does not hold every wake-up
            line += f" # {measured - len(cycles):05d} not in latency.bin"
        if sk.skipped:
            line += (f" # {sk.skipped:05d} skipped slots" if sk.counted_late
                     else f" # {sk.skipped:05d} skipped slots, not counted (skipped_slots: ignored)")
        out.append(line)
    return "\n".join(out) + "\n\n"


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--buckets", type=int, metavar="N",
                   help="cyclictest: histogram buckets of 1 us (cyclictest's -h N; default: "
                        "enough for the largest latency, at most 20000)")


def _write(run: Run, args: argparse.Namespace) -> None:
    if args.buckets is not None and not 1 <= args.buckets <= MAX_BUCKETS:
        raise UsageError(f"--buckets must be 1..{MAX_BUCKETS} (1 us each, cyclictest's -h), "
                         f"got {args.buckets}")
    try:
        out = text(run, args.buckets)
    except ValueError as e:
        raise InputError(run.path / "result.json", str(e)) from None
    if str(args.output) == "-":
        sys.stdout.write(out)
        return
    path = args.output or run.path / "export" / "cyclictest.txt"
    safeout.make_dir(path.parent)
    safeout.write_text(path, out)
    print(f"{path}: {len(latency_threads(run))} thread(s), {out.count(chr(10)) - 1} lines")


FORMAT = Format("cyclictest", "the latency threads' histograms as `cyclictest -h N -q` prints "
                "them", _write, "output file, '-' for stdout (default "
                "RUN_DIR/export/cyclictest.txt)", _arguments)
