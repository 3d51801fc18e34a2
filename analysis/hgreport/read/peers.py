# SPDX-License-Identifier: GPL-2.0-or-later
"""Other tools' latency outputs read as runs (docs/peers.md): cyclictest (`--json`, and the
`-h`/`--histfile` text), oslat (`--json`), rtla timerlat hist (its text) and stress-ng's
cyclic stressor (its log, with the `-Y` YAML beside it for the host). Each reader turns its
file into `Series` (one per CPU or thread: a histogram in the layout of result.json's, its
overflow, count, min, mean, max and the percentiles it gives) and the host facts the file
carries; `as_run` makes of them a `Run` whose result.json is what hgrun would have written
for latency threads that measured those numbers: `threads[].stats.latency` with its
histogram, `host`, `scenario.name` (the tool), no trace files (`trace.mode: none`), and a
`peer` section naming the tool, its version, its command line and what it measures. So
compare, hourglass-table1 (dispatch), the histogram overlay and --fail-if take them beside
hgrun's runs, through the same code."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..base.errors import InputError
from .peer_model import Peer, Series, head
from .rundir import Run


def _latency(s: Series) -> dict[str, Any]:
    lat: dict[str, Any] = {"count": s.count, "samples": 0, "min_ns": s.min_ns,
                           "mean_ns": s.mean_ns, "max_ns": s.max_ns, "samples_dropped": 0,
                           "grid_skipped": 0}
    lat.update(s.percentiles)
    if s.counts is not None and s.bucket_ns:
        nz = np.flatnonzero(s.counts)
        end = int(nz[-1]) + 1 if len(nz) else 0
        lat["histogram"] = {"bucket_ns": int(s.bucket_ns), "n_buckets": int(len(s.counts)),
                            "counts": [int(c) for c in s.counts[:end]],
                            "overflow": int(s.overflow or 0)}
    if s.kept is not None:
        lat["kept"] = s.kept
    return lat


def as_run(path: Path, p: Peer) -> Run:
    """The peer's file as a Run: a result.json as hgrun would write it for latency threads
    that measured these numbers, with `peer` saying what did."""
    if not p.series:
        raise InputError(path, f"no latency figures of {p.tool} in it")
    names = [s.name for s in p.series]
    if len(set(names)) != len(names):
        raise InputError(path, f"two series named {sorted(n for n in names if names.count(n) > 1)[0]}")
    threads = []
    for s in p.series:
        threads.append({"name": s.name, "instance": 0, "os_name": s.name, "workload": "latency",
                        "cpu_affinity": [s.cpu] if s.cpu is not None else [],
                        "stats": {"cpu_ns": None, "intervals": 0, "gaps": 0, "records": 0,
                                  "records_dropped": 0, "releases": 0, "deadlines_hit": 0,
                                  "deadlines_missed": 0, "latency": _latency(s)}})
    notes = [n for s in p.series for n in s.notes]
    result = {
        "format": "peer", "complete": True, "command_line": p.command_line,
        "started_utc": p.started,
        "peer": {"tool": p.tool, "version": p.version, "command_line": p.command_line,
                 "measures": p.measures, "file": str(path), "files": p.files or [str(path)],
                 "facts": p.facts, "notes": notes},
        "scenario": {"name": p.tool, "duration_ns": p.duration_ns or 0, "threads": [],
                     "loads": []},
        "overrides": {}, "host": p.host, "threads": threads, "loads": [],
        "warnings": list(p.warnings), "files": {}, "trace": {"mode": "none"},
    }
    return Run(path, result)


def is_peer(run: Run) -> bool:
    return isinstance(run.result.get("peer"), dict)


# name -> (recognises the first bytes, reads the file)
Reader = tuple[Callable[[str], bool], Callable[[Path], Peer]]


def _readers() -> dict[str, Reader]:
    from . import peer_rtla, peer_rttests, peer_stressng
    return {"rt-tests json": (peer_rttests.sniff_json, peer_rttests.read_json_output),
            "cyclictest histogram": (peer_rttests.sniff_hist, peer_rttests.read_histogram),
            "rtla timerlat hist": (peer_rtla.sniff, peer_rtla.read),
            "stress-ng": (peer_stressng.sniff, peer_stressng.read)}


def kind_of(path: Path) -> str | None:
    """Which peer wrote the file at `path` (a key of the readers), or None (not a peer's)."""
    if path.is_dir() or not os.path.lexists(path):
        return None
    first = head(path)
    for name, (sniff, _) in _readers().items():
        if sniff(first):
            return name
    return None


def read_peer(path: Path) -> Run:
    kind = kind_of(path)
    if kind is None:
        raise InputError(path, "not an output hgreport reads (an hgrun run directory, or "
                               "cyclictest --json / -h text, oslat --json, rtla timerlat hist, "
                               "stress-ng's cyclic log or -Y YAML: docs/peers.md)")
    return as_run(path, _readers()[kind][1](path))


def read_any(path: Path | str) -> Run:
    """A run directory (or its result.json), or a peer's output file."""
    from .rundir import read_run
    path = Path(path)
    if path.name != "result.json" and path.is_file():
        return read_peer(path)
    return read_run(path)


def by_cpu(run: Run) -> Run:
    """The run with each latency thread pinned to one CPU named `cpuN` (as the peers name
    their series), so compare puts it in the row of the peers' CPU N; a second one on that
    CPU is `cpuN:NAME`. A peer, or a run without such threads, is returned as it is."""
    if is_peer(run):
        return run
    names, changed = {}, False
    threads = []
    for i, t in enumerate(run.threads):
        cpus = t.get("cpu_affinity") or []
        t = dict(t)
        if (t.get("stats") or {}).get("latency") and len(cpus) == 1:
            base = f"cpu{cpus[0]}"
            t["os_name"] = base if base not in names else f"{base}:{run.label(i)}"
            names[t["os_name"]] = i
            changed = True
        threads.append(t)
    if not changed:
        return run
    result = dict(run.result, threads=threads)
    return Run(run.path, result, notes=run.notes)
