# SPDX-License-Identifier: GPL-2.0-or-later
"""A run in Hourglass's own output form (Regehr, USENIX 2002, section 5.1 and 5.3), for
Hourglass's scripts (process_ctx, render_trace) and for reading next to the paper:

    0 442.323192 443.222287 0.899095 0.002184     thread start finish duration gap (ms)
    latlate: 97.843206                            a wake-up's lateness (us)
    thread 0: missed 0 deadlines, hit 1001        a periodic thread's deadlines

An interval line per record of trace.bin, all threads merged in order of start (ties: in
the file's order): the thread's id is its index in result.json (`hgrun hourglass` names
threads t0..tN-1 in that order), start and finish from time zero, duration = finish -
start, gap = start - the finish of the previous line (of any thread: on one CPU, the
context switch or interrupt between them; the first line's gap counts from time zero; on
several CPUs intervals overlap and a gap can be negative). Then a latlate line per
wake-up of latency.bin in order of the actual wake-up, then the missed/hit line of each
thread that has deadlines. Times are exact to the ns (6 decimals of ms, 3 of us padded to
Hourglass's 6)."""
from __future__ import annotations

import argparse
import sys
from typing import Iterator

import numpy as np

from ..base import safeout
from ..read.rundir import Run
from .format import Format

CHUNK = 1 << 16


def _ms(ns: int) -> str:
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return f"{sign}{ns // 1_000_000}.{ns % 1_000_000:06d}"


def _us(ns: int) -> str:
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    return f"{sign}{ns // 1000}.{ns % 1000:03d}000"


def interval_lines(run: Run) -> Iterator[str]:
    r = run.records("intervals")
    if not len(r):
        return
    order = np.argsort(np.asarray(r["start_ns"]), kind="stable")
    prev_end = 0
    for a in range(0, len(order), CHUNK):
        part = order[a:a + CHUNK]
        th = np.asarray(r["thread"])[part].tolist()
        st = np.asarray(r["start_ns"])[part].tolist()
        en = np.asarray(r["end_ns"])[part].tolist()
        for t, s, e in zip(th, st, en):
            yield f"{t} {_ms(s)} {_ms(e)} {_ms(e - s)} {_ms(s - prev_end)}\n"
            prev_end = e


def latlate_lines(run: Run) -> Iterator[str]:
    w = run.records("wakeups")
    if not len(w):
        return
    actual = np.asarray(w["actual_ns"])
    late = actual - np.asarray(w["intended_ns"])
    order = np.argsort(actual, kind="stable")
    for a in range(0, len(order), CHUNK):
        for ns in late[order[a:a + CHUNK]].tolist():
            yield f"latlate: {_us(ns)}\n"


def deadline_lines(run: Run) -> Iterator[str]:
    for i, t in enumerate(run.threads):
        s = t.get("stats") or {}
        if int(s.get("releases") or 0) > 0:
            yield (f"thread {i}: missed {int(s.get('deadlines_missed') or 0)} deadlines, "
                   f"hit {int(s.get('deadlines_hit') or 0)}\n")


def lines(run: Run) -> Iterator[str]:
    yield from interval_lines(run)
    yield from latlate_lines(run)
    yield from deadline_lines(run)


def incomplete_note(run: Run) -> str | None:
    """Why the interval lines are not every interval (their gaps then span what is missing)."""
    mode = (run.result.get("trace") or {}).get("mode")
    dropped = sum(int((t.get("stats") or {}).get("records_dropped") or 0) for t in run.threads)
    if mode not in (None, "full"):
        return f"trace mode {mode!r}: trace.bin holds only some intervals"
    if dropped:
        return f"{dropped} interval record(s) were dropped during the run"
    return None


def _write(run: Run, args: argparse.Namespace) -> None:
    """Streamed line by line: a long run's trace never sits in memory as text."""
    note = incomplete_note(run)
    if note:
        print(f"hgreport export: {run.path}: {note}; the gaps span what is missing",
              file=sys.stderr)
    if str(args.output) == "-":
        for line in lines(run):
            sys.stdout.write(line)
        return
    path = args.output or run.path / "export" / "hourglass.txt"
    safeout.make_dir(path.parent)
    n = 0
    with safeout.open_out(path, "w") as f:
        for line in lines(run):
            f.write(line)
            n += 1
    print(f"{path}: {n} lines")


FORMAT = Format("hourglass", "Hourglass's `thread start finish duration gap` lines (ms), "
                "`latlate:` lines (us) and `thread N: missed ...` lines", _write,
                "output file, '-' for stdout (default RUN_DIR/export/hourglass.txt)")
