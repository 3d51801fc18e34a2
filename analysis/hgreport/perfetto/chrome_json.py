# SPDX-License-Identifier: GPL-2.0-or-later
"""The former export: the gap trace as Chrome / Perfetto trace-event JSON. `hgreport` writes
the protobuf trace (perfetto/trace.py) instead, about 15 times smaller and faster to write; this one
is kept for tools that read only JSON (`chrome_json.write(read_run(DIR), PATH)`) and as the
reference of bench/perfetto_export.py.

One track per thread (pid of the hgrun process if result.json records it, else the smallest
thread id; tid from result.json), a complete event "X" per interval (ts/dur in us from the
run's start), an instant event per missed deadline of a periodic thread (rebuilt from the
trace), and per load a slice over its window plus a counter track (1 while it runs)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..analyses.summary import periodic_jobs
from ..base import safeout
from ..read.rundir import END_KINDS, Run
from .tracks import pid_of, tid_of


def events(run: Run) -> list[dict[str, Any]]:
    pid = pid_of(run)
    name = run.scenario.get("name") or "run"
    ev: list[dict[str, Any]] = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": f"hgrun {name}"}},
    ]
    iv = run.intervals
    for i in range(len(run.threads)):
        tid = tid_of(run, i)
        ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                   "args": {"name": run.label(i)}})
        ev.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                   "args": {"sort_index": i}})
        m = iv.thread == i
        order = np.argsort(iv.start[m], kind="stable")
        for a, b, cpu, end in zip(iv.start[m][order].tolist(), iv.stop[m][order].tolist(),
                                  iv.cpu[m][order].tolist(), iv.end[m][order].tolist()):
            ev.append({"ph": "X", "name": "run", "cat": "interval", "pid": pid, "tid": tid,
                       "ts": a / 1e3, "dur": (b - a) / 1e3,
                       "args": {"cpu": cpu, "end": END_KINDS[end]}})
        for job in periodic_jobs(run, i) or []:
            if job.missed:
                ev.append({"ph": "i", "s": "t", "name": "deadline miss", "cat": "deadline",
                           "pid": pid, "tid": tid, "ts": job.deadline / 1e3,
                           "args": {"release_ns": job.release,
                                    "completion_ns": job.completion}})
    for k, load in enumerate(run.loads):
        a, b = load.get("started_ns"), load.get("stopped_ns")
        if a is None:
            continue
        lpid = (load.get("pids") or [None])[0] or 2_000_000 + k
        ev.append({"ph": "M", "name": "process_name", "pid": lpid, "tid": 0,
                   "args": {"name": f"load {load['name']} ({load['type']})"}})
        ev.append({"ph": "X", "name": f"load {load['name']}", "cat": "load", "pid": lpid,
                   "tid": lpid, "ts": a / 1e3, "dur": ((b if b is not None else a) - a) / 1e3,
                   "args": load.get("stats") or {}})
        ev.append({"ph": "C", "name": f"load {load['name']} active", "pid": pid, "ts": a / 1e3,
                   "args": {"active": 1}})
        if b is not None:
            ev.append({"ph": "C", "name": f"load {load['name']} active", "pid": pid,
                       "ts": b / 1e3, "args": {"active": 0}})
    return ev


def write(run: Run, path: Path) -> Path:
    tsc = run.result.get("tsc") or {}
    doc = {"traceEvents": events(run), "displayTimeUnit": "ns",
           "otherData": {"scenario": run.scenario.get("name"),
                         "start_monotonic_ns": tsc.get("start_monotonic_ns"),
                         "note": "ts = us from the run's time zero (CLOCK_MONOTONIC start_monotonic_ns)"}}
    safeout.write_text(path, json.dumps(doc, separators=(",", ":")))
    return path
