"""Reading one run directory: result.json (checked), the trace and the latency samples
(trace.bin / latency.bin, or trace.jsonl / latency.jsonl of older runs) as arrays."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .errors import InputError

FORMAT = "hgrun-result/1"
END_KINDS = ("preempted", "yielded", "blocked", "finished")
_TOP_KEYS = ("complete", "scenario", "threads", "loads", "host", "gap", "warnings")
_STAT_KEYS = ("cpu_ns", "intervals", "gaps", "records", "records_dropped", "releases",
              "deadlines_hit", "deadlines_missed", "work_units", "latency")
_SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "result.schema.json"


@dataclass(frozen=True)
class Intervals:
    """The gap trace as columns; `thread` indexes Run.threads, `end` indexes END_KINDS."""
    thread: np.ndarray
    cpu: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    end: np.ndarray

    def __len__(self) -> int:
        return len(self.start)

    def of_thread(self, index: int) -> "Intervals":
        m = self.thread == index
        return Intervals(self.thread[m], self.cpu[m], self.start[m], self.stop[m], self.end[m])


@dataclass(frozen=True)
class Samples:
    """Latency samples as columns; `thread` indexes Run.threads."""
    thread: np.ndarray
    intended: np.ndarray
    actual: np.ndarray
    late: np.ndarray

    def of_thread(self, index: int) -> "Samples":
        m = self.thread == index
        return Samples(self.thread[m], self.intended[m], self.actual[m], self.late[m])


@dataclass
class Run:
    """One result directory. The trace and the latency samples are read on first use."""
    path: Path
    result: dict[str, Any]
    _index: dict[tuple[str, int], int] = field(default_factory=dict, repr=False)

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
        for s in self.scenario.get("threads", []):
            if s.get("name") == t["name"] and int(s.get("instance", 0)) == int(t["instance"]):
                return s
        return {}

    def label(self, index: int) -> str:
        t = self.threads[index]
        return t.get("os_name") or f"{t['name']}.{t['instance']}"

    def _file(self, key: str, default: str) -> Path | None:
        files = self.result.get("files") or {}
        name = files.get(key, default) if key in files else default
        return None if name is None else self.path / name

    @cached_property
    def intervals(self) -> Intervals:
        cols: tuple[list[int], ...] = ([], [], [], [], [])
        path = self._file("trace", "trace.jsonl")
        if path is not None and path.suffix == ".bin":
            r = _records(path, "intervals")
            _check_threads(path, r, len(self.threads))
            return Intervals(*(r[k].astype(np.int64) for k in
                               ("thread", "cpu", "start_ns", "end_ns", "end")))
        for line_no, rec in _jsonl(path):
            try:
                cols[0].append(self._thread_of(rec))
                cols[1].append(int(rec["cpu"]))
                cols[2].append(int(rec["start_ns"]))
                cols[3].append(int(rec["end_ns"]))
                cols[4].append(END_KINDS.index(rec["end"]))
            except (KeyError, ValueError, TypeError) as e:
                raise InputError(path, f"line {line_no}: not an interval record ({_why(e)})") from e
        return Intervals(*(np.asarray(c, dtype=np.int64) for c in cols))

    @cached_property
    def samples(self) -> Samples:
        cols: tuple[list[int], ...] = ([], [], [], [])
        path = self._file("latency", "latency.jsonl")
        if path is not None and path.suffix == ".bin":
            r = _records(path, "wakeups")
            _check_threads(path, r, len(self.threads))
            cols = [r[k].astype(np.int64) for k in ("thread", "intended_ns", "actual_ns")]
            return Samples(*cols, cols[2] - cols[1])
        for line_no, rec in _jsonl(path):
            try:
                cols[0].append(self._thread_of(rec))
                cols[1].append(int(rec["intended_ns"]))
                cols[2].append(int(rec["actual_ns"]))
                cols[3].append(int(rec["late_ns"]))
            except (KeyError, ValueError, TypeError) as e:
                raise InputError(path, f"line {line_no}: not a latency sample ({_why(e)})") from e
        return Samples(*(np.asarray(c, dtype=np.int64) for c in cols))

    def _thread_of(self, rec: dict[str, Any]) -> int:
        key = (rec["thread"], int(rec["instance"]))
        if key not in self._index:
            raise ValueError(f"thread {key[0]}.{key[1]} is not in result.json")
        return self._index[key]


def _why(e: Exception) -> str:
    return f"missing key {e}" if isinstance(e, KeyError) else str(e)


_BIN_DTYPES = {
    "intervals": np.dtype([("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"),
                           ("cpu", "<i2"), ("end", "u1"), ("flags", "u1"), ("window", "<u4"),
                           ("cause", "<u4")]),
    "wakeups": np.dtype([("intended_ns", "<i8"), ("actual_ns", "<i8"), ("thread", "<u4"),
                         ("window", "<u4"), ("seq", "<u8")]),
}


def _records(path: Path, kind: str) -> np.ndarray:
    """trace.bin / latency.bin (docs/results.md): 64-byte header, 32-byte records; a torn
    last record is ignored; no file reads as no records."""
    if not path.exists():
        return np.zeros(0, _BIN_DTYPES[kind])
    data = path.read_bytes()
    got = data[16:32].rstrip(b"\0").decode(errors="replace")
    if len(data) < 64 or data[:8] != b"HGRUNBIN" or got != kind:
        raise InputError(path, f"not an hgrun {kind} file (header: {data[:32]!r})")
    n = (len(data) - 64) // 32
    return np.frombuffer(data[64:64 + 32 * n], _BIN_DTYPES[kind])


def _check_threads(path: Path, r: np.ndarray, n_threads: int) -> None:
    bad = np.nonzero(r["thread"] >= n_threads)[0]
    if len(bad):
        raise InputError(path, f"record {int(bad[0]) + 1}: thread {int(r['thread'][bad[0]])} "
                               f"is not in result.json ({n_threads} threads)")


def _jsonl(path: Path | None):
    """(line number, object) of a JSON-lines file; nothing if the run wrote no such file."""
    if path is None or not path.exists():
        return
    with path.open() as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(path, f"line {n}: invalid JSON ({e.msg})") from e


def read_result(path: Path) -> dict[str, Any]:
    """result.json, parsed and checked; InputError naming the file and the problem."""
    if not path.exists():
        raise InputError(path, "no such file (is this an hgrun result directory?)")
    try:
        doc = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e
    except OSError as e:
        raise InputError(path, e.strerror or str(e)) from e
    check_result(path, doc)
    return doc


def check_result(path: Path, doc: Any) -> None:
    """The fields hgreport relies on (schemas/result.schema.json's stable names), then the JSON Schema if
    jsonschema is installed and the repository's schema is found."""
    if not isinstance(doc, dict):
        raise InputError(path, "not a JSON object")
    if doc.get("format") != FORMAT:
        raise InputError(path, f"format is {doc.get('format')!r}, expected {FORMAT!r}")
    for key in _TOP_KEYS:
        if key not in doc:
            raise InputError(path, f"missing key {key!r}")
    if not isinstance(doc["threads"], list):
        raise InputError(path, "threads: not a list")
    for i, t in enumerate(doc["threads"]):
        for key in ("name", "instance", "stats"):
            if key not in t:
                raise InputError(path, f"threads[{i}]: missing key {key!r}")
        for key in _STAT_KEYS:
            if key not in t["stats"]:
                raise InputError(path, f"threads[{i}].stats: missing key {key!r}")
    _check_schema(path, doc)


def _check_schema(path: Path, doc: dict[str, Any]) -> None:
    try:
        import jsonschema  # optional
    except ImportError:
        return
    if not _SCHEMA.exists():
        return
    validator = jsonschema.Draft202012Validator(json.loads(_SCHEMA.read_text()))
    error = next(iter(sorted(validator.iter_errors(doc), key=lambda e: list(e.path))), None)
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path).lstrip(".")
        raise InputError(path, f"does not match the result schema at {where or '(top)'}: {error.message}")


def read_run(directory: Path | str) -> Run:
    """A run directory (or its result.json)."""
    directory = Path(directory)
    if directory.name == "result.json" and directory.is_file():
        directory = directory.parent
    if not directory.exists():
        raise InputError(directory, "no such directory")
    return Run(directory, read_result(directory / "result.json"))
