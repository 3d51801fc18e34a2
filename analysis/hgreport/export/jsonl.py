# SPDX-License-Identifier: GPL-2.0-or-later
"""trace.bin / latency.bin as JSON lines (docs/results.md): one object per record, in the
file's order, with the thread named as in result.json, for tools that want text. hgreport
reads these files back (rundir.py's JSON-lines path) when result.json's files name them."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Iterator

from ..base import safeout
from ..read.rundir import END_KINDS, Run
from .format import Format

CHUNK = 1 << 16


def _names(run: Run) -> list[tuple[str, int]]:
    return [(str(t["name"]), int(t["instance"])) for t in run.threads]


def interval_lines(run: Run) -> Iterator[str]:
    """{"thread", "instance", "cpu", "start_ns", "end_ns", "end", "flags", "window", "cause"}"""
    names = [(json.dumps(n), i) for n, i in _names(run)]
    r = run.records("intervals")
    for a in range(0, len(r), CHUNK):
        part = r[a:a + CHUNK]
        for th, cpu, s, e, end, fl, win, cause in zip(
                *(part[k].tolist() for k in ("thread", "cpu", "start_ns", "end_ns", "end",
                                              "flags", "window", "cause"))):
            n, inst = names[th]
            yield (f'{{"thread":{n},"instance":{inst},"cpu":{cpu},"start_ns":{s},"end_ns":{e},'
                   f'"end":"{END_KINDS[end]}","flags":{fl},"window":{win},"cause":{cause}}}\n')


def wakeup_lines(run: Run) -> Iterator[str]:
    """{"thread", "instance", "intended_ns", "actual_ns", "late_ns", "window", "seq"}"""
    names = [(json.dumps(n), i) for n, i in _names(run)]
    r = run.records("wakeups")
    for a in range(0, len(r), CHUNK):
        part = r[a:a + CHUNK]
        late = (part["actual_ns"] - part["intended_ns"]).tolist()
        for th, i, x, lt, win, seq in zip(
                *(part[k].tolist() for k in ("thread", "intended_ns", "actual_ns")), late,
                part["window"].tolist(), part["seq"].tolist()):
            n, inst = names[th]
            yield (f'{{"thread":{n},"instance":{inst},"intended_ns":{i},"actual_ns":{x},'
                   f'"late_ns":{lt},"window":{win},"seq":{seq}}}\n')


def write(run: Run, out: Path) -> list[tuple[Path, int]]:
    """out/trace.jsonl and, when the run has wake-ups, out/latency.jsonl: (path, lines)."""
    safeout.make_dir(out)
    written = []
    for name, lines, kind in (("trace.jsonl", interval_lines, "intervals"),
                              ("latency.jsonl", wakeup_lines, "wakeups")):
        if kind == "wakeups" and not len(run.records("wakeups")):
            continue
        n = 0
        with safeout.open_out(out / name, "w") as f:
            for line in lines(run):
                f.write(line)
                n += 1
        written.append((out / name, n))
    return written


def _write(run: Run, args: argparse.Namespace) -> None:
    for path, n in write(run, args.output or run.path / "export"):
        print(f"{path}: {n} lines")


FORMAT = Format("jsonl", "trace.jsonl, latency.jsonl (the default)", _write,
                "output directory (default RUN_DIR/export)")
