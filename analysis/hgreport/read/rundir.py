# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading one run directory: result.json (checked: resultfile.py), and the trace and the
latency samples as columns. trace.bin / latency.bin are not parsed: they are read a chunk at a
time into the contiguous numpy columns the analysis uses (binfile.py; 25 bytes per interval
instead of 32; 5M intervals load in about 0.1 s, then are sorted by start). Older runs'
trace.jsonl / latency.jsonl are parsed line by line.

Only files inside the run directory are read: `files.*` naming an absolute path, `..`, a
subdirectory or a symlink that leads outside is refused. A trace or latency file the run
says it wrote but that is missing is an error; a run that recorded none (trace.mode none, or
zero records written) reads as empty columns."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..base.errors import InputError
from ..base.units import fmt_ns
from . import binfile, writer
from .regular import lines, resolve
from .resultfile import FORMAT, check_result, read_json  # noqa: F401  (FORMAT re-exported)

END_KINDS = ("preempted", "yielded", "blocked", "finished")
_DEFAULT_NAMES = {"trace": "trace.jsonl", "latency": "latency.jsonl"}   # runs before files{}


@dataclass(frozen=True)
class Intervals:
    """The gap trace as columns; `thread` indexes Run.threads, `end` indexes END_KINDS.
    Run.intervals gives them sorted by start, read-only and contiguous (start, stop: int64;
    thread: uint8 up to 256 threads, else uint16 (uint32 past 65536); cpu: int8 when every
    CPU number fits, else int16; end: uint8: 19 bytes an interval of most runs, against the
    file's 32); `cause` is the kernel
    attribution code of the gap that ended the interval (0: none; docs/kernel-trace.md),
    `window` the outlier window id (0: none; docs/results.md); each a zero-stride view of
    zeros when no record has one."""
    thread: np.ndarray
    cpu: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    end: np.ndarray
    cause: np.ndarray | None = None
    window: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.start)

    def take(self, idx: np.ndarray) -> "Intervals":
        """The intervals selected by a mask or an index array."""
        return Intervals(self.thread[idx], self.cpu[idx], self.start[idx], self.stop[idx],
                         self.end[idx], None if self.cause is None else self.cause[idx],
                         None if self.window is None else self.window[idx])

    def of_thread(self, index: int) -> "Intervals":
        return self.take(self.thread == index)

    @property
    def windowed(self) -> bool:
        """Whether records come from outlier windows (trace.mode outliers): two intervals
        then follow each other only inside one window."""
        return self.window is not None and len(self.window) > 0 and self.window.strides != (0,)


@dataclass(frozen=True)
class Samples:
    """Latency samples as columns; `thread` indexes Run.threads."""
    thread: np.ndarray
    intended: np.ndarray
    actual: np.ndarray
    late: np.ndarray

    def __len__(self) -> int:
        return len(self.late)

    def of_thread(self, index: int) -> "Samples":
        m = self.thread == index
        return Samples(self.thread[m], self.intended[m], self.actual[m], self.late[m])


@dataclass(eq=False)
class Run:
    """One result directory. The trace and the latency samples are read on first use; what
    several outputs derive from them is computed once by functions memoised per run
    (read/memo.py: a run is its own identity, as the key of their memos). `notes`: what
    the reading found damaged or unfinished but read anyway (a file cut short, a run still
    being written): told on stderr once each (warn) and listed among the report's warnings."""
    path: Path
    result: dict[str, Any]
    _index: dict[tuple[str, int], int] = field(default_factory=dict, repr=False)
    notes: list[str] = field(default_factory=list, repr=False)

    def warn(self, text: str) -> None:
        """A note of the reading: on stderr once, and in `notes` for the report."""
        if text not in self.notes:
            self.notes.append(text)
            print(f"hgreport: warning: {text}", file=sys.stderr)

    def __post_init__(self) -> None:
        self._index = {(t["name"], int(t["instance"])): i for i, t in enumerate(self.threads)}

    @property
    def threads(self) -> list[dict[str, Any]]:
        return self.result["threads"]

    @property
    def loads(self) -> list[dict[str, Any]]:
        return self.result.get("loads") or []

    @property
    def scenario(self) -> dict[str, Any]:
        return self.result["scenario"]

    @property
    def complete(self) -> bool:
        return bool(self.result.get("complete"))

    @property
    def duration_ns(self) -> int:
        return int(self.scenario.get("duration_ns") or 0)

    def scenario_thread(self, index: int) -> dict[str, Any]:
        """The resolved scenario entry of result thread `index` (matched by name and instance)."""
        t = self.threads[index]
        return self._scenario_index.get((t["name"], int(t["instance"])), {})

    @cached_property
    def _scenario_index(self) -> dict[tuple[Any, int], dict[str, Any]]:
        """(name, instance) -> the scenario's thread entry: one lookup per thread, not a scan
        of thousands (the first entry of a pair wins, as the scan did)."""
        index: dict[tuple[Any, int], dict[str, Any]] = {}
        for s in self.scenario.get("threads", []):
            index.setdefault((s.get("name"), int(s.get("instance") or 0)), s)
        return index

    def label(self, index: int) -> str:
        t = self.threads[index]
        return t.get("os_name") or f"{t['name']}.{t['instance']}"

    def file(self, key: str) -> Path | None:
        """The path of result.json's files[key] inside the run directory, or None when the run
        names no such file. Refused (InputError): absolute paths, `..`, subdirectories, and
        names whose symlinks lead outside the directory."""
        files = self.result.get("files")
        if not isinstance(files, dict) or key not in files:
            return None
        return inside(self.path, files[key], f"files.{key}")

    def written(self, key: str) -> int | None:
        """Records of files[key] that result.json vouches for: the checkpoint's `written`
        (a run still going or killed), else trace.written (the final count); None if unknown."""
        for holder in (self.result.get("checkpoint"), self.result.get("trace")):
            if isinstance(holder, dict) and isinstance(holder.get("written"), dict):
                n = holder["written"].get(key)
                if isinstance(n, int) and not isinstance(n, bool):
                    return n
        return None

    def _binary(self, key: str) -> bool:
        """Whether files[key] is a binary file (named *.bin), else JSON lines."""
        files = self.result.get("files")
        return isinstance(files, dict) and str(files.get(key, "")).endswith(".bin")

    def _trace_source(self, key: str) -> Path | None:
        """The file of `key` ('trace', 'latency') to read, or None when the run recorded none."""
        files = self.result.get("files")
        if isinstance(files, dict):
            path = self.file(key)
        else:                           # runs older than files{}: the JSON-lines names
            path = self.path / _DEFAULT_NAMES[key]
            return path if path.is_file() else None
        if path is None:
            mode = (self.result.get("trace") or {}).get("mode")
            if mode == "none" or self.written(key) in (0, None) or key == "latency":
                return None
            raise InputError(self.path / "result.json", f"files has no {key!r} entry but "
                             f"{self.written(key)} {key} records were written")
        if not path.exists():
            if self.written(key) == 0:
                return None
            raise InputError(path, f"no such file, but result.json names it (files.{key}) and "
                                   f"says {self.written(key)} records were written: the run "
                                   "directory is incomplete (copy it whole)")
        if path.is_dir():
            raise InputError(path, "is a directory, not a trace file")
        return path

    def records(self, kind: str) -> np.ndarray:
        """The raw records of trace.bin ('intervals') or latency.bin ('wakeups') with every
        field (flags, window, cause, seq), in file order, read-only over a mapping of the
        file: the same checks and trusted count as the columns. Empty when the run recorded
        none or wrote JSON lines."""
        key = {"intervals": "trace", "wakeups": "latency"}[kind]
        path = self._trace_source(key)
        if path is None or not self._binary(key):
            return binfile.empty(kind)
        r = binfile.read(path, kind, self.written("trace" if kind == "intervals" else "latency"),
                         self.warn)
        binfile.check_records(path, r, len(self.threads), kind)
        return r

    @cached_property
    def intervals(self) -> Intervals:
        """The trace as contiguous columns sorted by start time (stable: a thread's records
        keep their order); record numbers in error messages are the file's."""
        path = self._trace_source("trace")
        if path is not None and not self._binary("trace"):
            return self._intervals_jsonl(path)
        n = len(self.threads)
        want = {"start_ns": "<i8", "end_ns": "<i8",
                "thread": "u1" if n <= 2**8 else "<u2" if n <= 2**16 else "<u4",
                "cpu": "<i2", "end": "u1", "cause": "<u4", "window": "<u4"}
        if path is None:
            c = {k: np.zeros(0, dt) for k, dt in want.items()}
        else:
            # cause and window: zeros costing nothing unless the run has them
            c = binfile.columns(path, "intervals", self.written("trace"), want,
                                sparse=("cause", "window"), threads=len(self.threads),
                                warn=self.warn)
            binfile.check_records(path, c, len(self.threads), "intervals")
            self._unwritten(path, "trace", c["end_ns"])
            cpu = c["cpu"]
            if len(cpu) and -2**7 <= int(cpu.min()) and int(cpu.max()) < 2**7:
                c["cpu"] = cpu.astype(np.int8)  # CPU numbers (and -1) of up to 128 CPUs
            del cpu
        start = c["start_ns"]
        if len(start) and not bool(np.all(start[1:] >= start[:-1])):
            order = np.argsort(start, kind="stable")
            del start                           # else the unsorted column outlives its copy
            if len(order) < 2**31:              # half the memory while the columns are permuted
                order = order.astype(np.int32)
            for k in c:
                if c[k].strides != (0,):        # a zero-stride column of zeros stays as it is
                    c[k] = c[k][order]
            del order
        for a in c.values():
            a.flags.writeable = False
        return Intervals(c["thread"], c["cpu"], c["start_ns"], c["end_ns"], c["end"], c["cause"],
                         c["window"])

    @cached_property
    def samples(self) -> Samples:
        path = self._trace_source("latency")
        if path is not None and not self._binary("latency"):
            return self._samples_jsonl(path)
        want = {"intended_ns": "<i8", "actual_ns": "<i8", "thread": "<u4"}
        if path is None:
            c = {k: np.zeros(0, dt) for k, dt in want.items()}
        else:
            c = binfile.columns(path, "wakeups", self.written("latency"), want, warn=self.warn)
            binfile.check_records(path, c, len(self.threads), "wakeups")
            self._unwritten(path, "latency", c["actual_ns"])
        return Samples(c["thread"], c["intended_ns"], c["actual_ns"],
                       c["actual_ns"] - c["intended_ns"])

    def _unwritten(self, path: Path, key: str, times: np.ndarray) -> None:
        """Warns of records the threads produced that never reached `path`: with trace.mode
        full asked and never switched, every interval is written or dropped (docs/results.md:
        intervals = records_written + records_dropped; a latency thread's wake-ups likewise),
        so more counted than that were lost when the streaming writer stopped (the disk
        filled: hgrun's warning says when)."""
        trace = self.result.get("trace")
        if not isinstance(trace, dict) or trace.get("mode_asked") != "full" or \
                trace.get("switched"):
            return
        lost, produced, who = 0, 0, []
        for i, t in enumerate(self.threads):
            st = t["stats"]
            if key == "trace":
                n, kept = st.get("intervals"), (st.get("records"), st.get("records_dropped"))
            else:
                lat = st.get("latency") if isinstance(st.get("latency"), dict) else {}
                n, kept = lat.get("count"), (lat.get("samples"), lat.get("samples_dropped"))
            if not all(isinstance(x, int) for x in (n, *kept)) or n - sum(kept) <= 0:
                continue
            lost += n - sum(kept)
            produced += n
            who.append(f"{self.label(i)} {n - sum(kept)} of {n}")
        if not lost:
            return
        when = f" after {fmt_ns(int(times.max()))}, the time of its last record" \
            if len(times) else ""
        listed = ", ".join(who[:4]) + (f" and {len(who) - 4} more threads" if len(who) > 4 else "")
        self.warn(f"{path}: {lost} of the {produced} records the threads produced are not in it "
                  f"({listed}): the streaming writer stopped writing them{when} (a full disk? "
                  "hgrun's warning says); what the report draws from the records ends there, "
                  "the totals of result.json cover the whole run")

    def _intervals_jsonl(self, path: Path) -> Intervals:
        cols: tuple[list[int], ...] = ([], [], [], [], [], [], [])
        for line_no, rec in _jsonl(path):
            try:
                cols[0].append(self._thread_of(rec))
                cols[1].append(_int(rec, "cpu"))
                cols[2].append(_int(rec, "start_ns"))
                cols[3].append(_int(rec, "end_ns"))
                if rec["end"] not in END_KINDS:
                    raise ValueError(f"end is {json.dumps(rec['end'])[:40]}, not one of "
                                     f"{', '.join(END_KINDS)}")
                cols[4].append(END_KINDS.index(rec["end"]))
                cols[5].append(_int(rec, "cause", 0))       # hgreport export writes them
                cols[6].append(_int(rec, "window", 0))
            except (KeyError, ValueError, TypeError, OverflowError, AttributeError) as e:
                raise InputError(path, f"line {line_no}: not an interval record ({_why(e)})") from e
        try:
            c = [np.asarray(x, dtype=np.int64) for x in cols]
        except OverflowError as e:
            raise InputError(path, "a number does not fit 64 bits") from e
        order = np.argsort(c[2], kind="stable")
        return Intervals(*(x[order] for x in c))

    def _samples_jsonl(self, path: Path) -> Samples:
        cols: tuple[list[int], ...] = ([], [], [], [])
        for line_no, rec in _jsonl(path):
            try:
                cols[0].append(self._thread_of(rec))
                cols[1].append(_int(rec, "intended_ns"))
                cols[2].append(_int(rec, "actual_ns"))
                cols[3].append(_int(rec, "late_ns"))
            except (KeyError, ValueError, TypeError, OverflowError, AttributeError) as e:
                raise InputError(path, f"line {line_no}: not a latency sample ({_why(e)})") from e
        try:
            return Samples(*(np.asarray(c, dtype=np.int64) for c in cols))
        except OverflowError as e:
            raise InputError(path, "a number does not fit 64 bits") from e

    def _thread_of(self, rec: Any) -> int:
        if not isinstance(rec["thread"], str):
            raise ValueError(f"thread is {json.dumps(rec['thread'])[:40]}, not a name")
        key = (rec["thread"], _int(rec, "instance"))
        if key not in self._index:
            raise ValueError(f"thread {key[0]}.{key[1]} is not in result.json")
        return self._index[key]


def _int(rec: dict[str, Any], key: str, default: int | None = None) -> int:
    """rec[key], which must be a JSON integer (not a string, a float or a boolean)."""
    v = rec[key] if default is None else rec.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"{key} is {json.dumps(v)[:40]}, not an integer")
    return v


def _why(e: Exception) -> str:
    return f"missing key {e}" if isinstance(e, KeyError) else str(e)


def inside(directory: Path, name: Any, what: str) -> Path:
    """directory/name when `name` is a plain file name whose real path stays in the directory
    (the link's target when it is a symlink to another file of the directory)."""
    where = directory / "result.json"
    if not isinstance(name, str) or not name:
        raise InputError(where, f"{what}: expected a file name, got {json.dumps(name)[:40]}")
    p = Path(name)
    if p.is_absolute() or len(p.parts) != 1 or name in (".", ".."):
        raise InputError(where, f"{what} is {name!r}: hgreport reads only plain file names inside "
                                "the run directory")
    full = directory / p
    real = resolve(full)
    if real.parent != resolve(directory):
        raise InputError(where, f"{what} is {name!r}, a symlink to {real}, outside the run "
                                "directory: refused")
    return real if full.is_symlink() else full


def _jsonl(path: Path):
    """(line number, object) of a JSON-lines file."""
    for n, raw in lines(path):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(path, f"line {n}: not UTF-8 text") from e
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(path, f"line {n}: invalid JSON ({e.msg})") from e
        except RecursionError as e:
            raise InputError(path, f"line {n}: nested too deeply") from e
        if not isinstance(obj, dict):
            kind = {list: "an array", str: "a string", bool: "a boolean", int: "a number",
                    float: "a number", type(None): "null"}.get(type(obj), type(obj).__name__)
            raise InputError(path, f"line {n}: {kind}, not a JSON object")
        yield n, obj


def read_result(path: Path) -> dict[str, Any]:
    """result.json, parsed and checked; InputError naming the file and the problem."""
    doc = read_json(path)
    check_result(path, doc)
    return doc


def read_run(directory: Path | str) -> Run:
    """A run directory (or its result.json)."""
    directory = Path(directory)
    if directory.name == "result.json" and not directory.is_dir():
        directory = directory.parent
    resolve(directory)
    if not directory.exists():
        raise InputError(directory, "no such directory")
    if not directory.is_dir():
        raise InputError(directory, "not a directory (give a run directory or its result.json)")
    result = inside(directory, "result.json", "result.json")
    holder = writer.holder(directory)
    if not result.exists() and not result.is_symlink():
        raise InputError(result, writer.no_result(directory, holder))
    run = Run(directory, read_result(result))
    if holder is not None:
        run.warn(f"{directory}: the run is still being written ({holder}): this report shows "
                 "what it had written so far (result.json is a checkpoint); run hgreport again "
                 "when it has ended")
    for key in run.result.get("files") or {}:   # every file named, read here or elsewhere
        run.file(key)
    return run
