# SPDX-License-Identifier: GPL-2.0-or-later
"""series.jsonl (docs/results.md#seriesjsonl) as columns: one line per thread, per load and per
scenario CPU (its interrupts) every `trace.series`, written while the run lasts.

Read in 8 MiB blocks: each is parsed by one `json.loads` of its lines joined into a JSON
array, then turned into numpy columns, so memory stays bounded by the chunk and the columns.
Measured on this 2-CPU machine for a day of series (432 000 lines, 70 MB): about 3 s, against
about 1.5 s with polars `read_ndjson` in the same run; half the time of a report that takes a few
seconds does not pay for a 40 MB dependency (bench/series_report.py).

A killed run may leave a torn last line (or NUL bytes after a power cut): lines after the last
checkpoint's `written.series` are kept while they parse, and the first one that does not ends the
file (counted in `torn`). Before that point, and anywhere in a complete run but its last line, an
unparsable line is an error naming the file and the line. A line longer than any series line
(regular.LONGEST_LINE) is skipped to its end a block at a time and counts as unparsable: a
2 GB line without a newline costs one block of memory and one pass. Fewer lines than
result.json says were written (the file cut after the run, a disk that filled) are read with a
warning saying how many are missing and from when.
"""
from __future__ import annotations

import errno
import json
import os
from itertools import chain
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..base.errors import InputError
from ..base.units import fmt_ns
from .regular import LONGEST_LINE, open_file
from .rundir import Run
from .memo import per_run

# Thread columns, in the order of docs/results.md; -1 where a line has no such field.
THREAD_KEYS = ("t_ns", "span_ns", "thread", "cpu_ns", "intervals", "gaps", "gap_max_ns",
               "releases", "hits", "misses", "wakeups", "lat_min_ns", "lat_p99_ns", "lat_max_ns",
               "dropped")
LOAD_KEYS = ("t_ns", "span_ns", "read_ns", "ops")     # read_ns: -1 in runs before it
CPU_KEYS = ("t_ns", "span_ns", "read_ns", "cpu", "interrupts")   # none in runs before them
# A load that knows its counters only at its end (stress_ng) writes one line for its whole
# window (docs/results.md: whole_window, from_ns, to_ns); it is read as one line per series
# interval of the window, the counters spread in proportion to the time.
WINDOW_KEYS = ("whole_window", "from_ns", "to_ns")
CHUNK_BYTES = 8 << 20      # ~55 000 lines per json.loads
_OVERLONG = b"\x00overlong:"   # stands for a skipped overlong line (no JSON line starts so)
MISSING = -1


@dataclass
class Series:
    """The series of one run. `threads[key]` and `loads[key]` are int64 columns (MISSING where a
    line lacks the key); `loads["load"]` indexes `load_names`; load counters other than `ops`
    (packets, bytes, loops: docs/loads.md) are columns too, named in `counters`."""
    path: Path | None
    threads: dict[str, np.ndarray]
    loads: dict[str, np.ndarray]
    load_names: list[str] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)
    lines: int = 0
    torn: int = 0                      # lines dropped at the end (a killed run)
    after_checkpoint: int = 0          # lines kept beyond the checkpoint's `written.series`
    series_ns: int = 1_000_000_000
    cpus: dict[str, np.ndarray] = field(default_factory=lambda: _empty(CPU_KEYS))

    @property
    def end_ns(self) -> int:
        """The end of the last series interval read (0 when there is none)."""
        ends = [int(c.max()) for c in (self.threads["t_ns"], self.loads["t_ns"]) if len(c)]
        return max(ends, default=0)

    def of_thread(self, index: int) -> dict[str, np.ndarray]:
        m = self.threads["thread"] == index
        return {k: v[m] for k, v in self.threads.items()}

    def within_windows(self, threads: dict[int, tuple[int, int]],
                       loads: dict[str, tuple[int, int]] | None = None) -> "Series":
        """The series with each line's `span_ns` cut to the time it measured inside its
        thread's or load's window (thread index / load name -> (started_ns, stopped_ns)),
        that time in new columns `from_ns` and `to_ns`. The runner writes the whole interval,
        so a thread or load that started or stopped inside one would get too low a CPU share
        or rate there. A thread's CPU is split by the records' times: its part of the
        interval. A load's counters are read when its line is written, a little after the
        interval (`read_ns`): its ops grew since the previous line's read, so that is its
        time (runs before `read_ns` keep their intervals). A line that measured nothing
        inside the window (the counters' read after the load's stop) gets span 0: no bin of
        its own."""
        n = int(self.threads["thread"].max()) + 1 if len(self.threads["thread"]) else 0
        ld = self.loads
        read = ld["read_ns"]
        since = None
        if len(read) and not (read == MISSING).any():
            order = np.lexsort((ld["t_ns"], ld["load"]))
            first = np.r_[True, ld["load"][order][1:] != ld["load"][order][:-1]]
            prev = np.r_[MISSING, read[order][:-1]]
            prev[first] = (ld["t_ns"] - ld["span_ns"])[order][first]    # the load's start, below
            since = np.empty_like(prev)
            since[order] = prev
        windows = [(loads or {}).get(name) for name in self.load_names]
        return replace(self, threads=_cut(self.threads, self.threads["thread"],
                                          [threads.get(i) for i in range(n)]),
                       loads=_cut(ld, ld["load"] if since is not None else None, windows,
                                  since, read if since is not None else None))

    def interrupt_lines(self) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per scenario CPU, its lines' (t_ns, time measured, interrupts): a line's
        interrupts were counted between the previous line's `read_ns` of that CPU (the first:
        its interval's start) and its own."""
        c = self.cpus
        out: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for cpu in sorted(set(c["cpu"].tolist())):
            m = np.flatnonzero(c["cpu"] == cpu)
            m = m[np.argsort(c["t_ns"][m], kind="stable")]
            read = c["read_ns"][m]
            since = np.r_[c["t_ns"][m][:1] - c["span_ns"][m][:1], read[:-1]]
            out[int(cpu)] = (c["t_ns"][m], np.maximum(read - since, 0), c["interrupts"][m])
        return out

    def of_load(self, index: int) -> dict[str, np.ndarray]:
        m = self.loads["load"] == index
        return {k: v[m] for k, v in self.loads.items()}


def _cut(cols: dict[str, np.ndarray], owner: np.ndarray | None,
         windows: list[tuple[int, int] | None], since: np.ndarray | None = None,
         until: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Series.within_windows for one kind of line: each line measured (since, until] (by
    default its interval), cut to its owner's window (`owner` indexes `windows`; None: the
    owner's window is unknown, the line keeps its span)."""
    start = cols["t_ns"] - cols["span_ns"] if since is None else since
    end = cols["t_ns"] if until is None else until
    if owner is None or not len(start) or not any(windows):
        return dict(cols, from_ns=cols["t_ns"] - cols["span_ns"], to_ns=cols["t_ns"])
    lo = np.array([w[0] if w else np.iinfo(np.int64).min for w in windows], np.int64)
    hi = np.array([w[1] if w else np.iinfo(np.int64).max for w in windows], np.int64)
    a = np.maximum(start, lo[owner])
    b = np.minimum(end, hi[owner])
    inside = b > a
    known = np.array([w is not None for w in windows], bool)[owner]
    return dict(cols, span_ns=np.where(inside, b - a, np.where(known, 0, cols["span_ns"])),
                from_ns=np.where(inside, a, cols["t_ns"] - cols["span_ns"]),
                to_ns=np.where(inside, b, cols["t_ns"]))


def _empty(keys: tuple[str, ...] | list[str]) -> dict[str, np.ndarray]:
    return {k: np.zeros(0, np.int64) for k in keys}


def _columns(objs: list[dict[str, Any]], keys: Sequence[str]) -> dict[str, np.ndarray]:
    """Columns of `keys` (MISSING where absent): lines with the same keys in the same order
    (the runner writes a few such shapes) become one 2-D array at once."""
    n = len(objs)
    cols = {k: np.full(n, MISSING, np.int64) for k in keys}
    shapes: dict[tuple[str, ...], list[int]] = {}
    for i, o in enumerate(objs):
        shapes.setdefault(tuple(o), []).append(i)
    for shape, rows in shapes.items():
        group = [objs[i] for i in rows]
        try:
            flat = np.fromiter(chain.from_iterable(map(dict.values, group)), np.int64,
                               len(group) * len(shape))
        except (TypeError, ValueError, OverflowError):
            bad = next((k for k in shape for o in group if type(o[k]) is not int), shape[0])
            raise ValueError(f"{bad!r} is not an integer") from None
        flat = flat.reshape(len(group), len(shape))
        idx = np.asarray(rows)
        for j, k in enumerate(shape):
            if k in cols:
                cols[k][idx] = flat[:, j]
    return cols


def _spread(o: dict[str, Any], series_ns: int) -> list[dict[str, Any]]:
    """A whole-window line as lines of the series intervals it covers: each read at the end of
    its part of the window, with the counters' share of that part (whole numbers that add up
    to the line's)."""
    lo, hi = o.get("from_ns"), o.get("to_ns")
    if type(lo) is not int or type(hi) is not int:
        raise ValueError("a whole_window line without integer from_ns and to_ns")
    counters = {k: v for k, v in o.items()
                if k not in LOAD_KEYS and k not in WINDOW_KEYS and k != "load"}
    counters["ops"] = o.get("ops")
    bad = next((k for k, v in counters.items() if type(v) is not int), None)
    if bad is not None:
        raise ValueError(f"a whole_window line's {bad!r} is not an integer")
    if hi <= lo or series_ns <= 0:
        return [{k: v for k, v in o.items() if k not in WINDOW_KEYS}]
    out, given = [], dict.fromkeys(counters, 0)
    first = lo // series_ns
    last = (hi - 1) // series_ns
    for k in range(first, last + 1):
        end = (k + 1) * series_ns
        upto = min(end, hi)
        line = {"t_ns": end, "span_ns": series_ns, "read_ns": upto, "load": o["load"]}
        for c, total in counters.items():
            share = total * (upto - lo) // (hi - lo) - given[c]   # cumulative: no drift
            given[c] += share
            line[c] = share
        out.append(line)
    return out


class _Columns:
    """Chunks of parsed lines appended as columns."""

    def __init__(self, series_ns: int = 1_000_000_000) -> None:
        self.series_ns = series_ns
        self.threads: list[dict[str, np.ndarray]] = []
        self.cpus: list[dict[str, np.ndarray]] = []
        self.loads: list[list[dict[str, Any]]] = []
        self.load_names: dict[str, int] = {}
        self.counters: dict[str, None] = {}

    def add(self, objs: list[dict[str, Any]]) -> None:
        th = [o for o in objs if "thread" in o]
        ld = [o for o in objs if "load" in o]
        cp = [o for o in objs if "cpu" in o and "thread" not in o and "load" not in o]
        if any("whole_window" in o for o in ld):
            ld = [x for o in ld for x in (_spread(o, self.series_ns) if "whole_window" in o
                                          else [o])]
        if th:
            self.threads.append(_columns(th, THREAD_KEYS))
        if cp:
            self.cpus.append(_columns(cp, CPU_KEYS))
        if ld:
            for o in ld:
                o["load"] = self.load_names.setdefault(str(o["load"]), len(self.load_names))
                for k in o:
                    if k not in LOAD_KEYS and k != "load" and k not in self.counters:
                        self.counters[k] = None
            self.loads.append(ld)

    def series(self, path: Path | None) -> Series:
        tk = list(THREAD_KEYS)
        lk = list(LOAD_KEYS) + ["load"] + list(self.counters)
        threads = {k: np.concatenate([c[k] for c in self.threads]) for k in tk} \
            if self.threads else _empty(tk)
        loads = _empty(lk)
        if self.loads:
            chunks = [_columns(c, lk) for c in self.loads]
            loads = {k: np.concatenate([c[k] for c in chunks]) for k in lk}
        cpus = {k: np.concatenate([c[k] for c in self.cpus]) for k in CPU_KEYS} \
            if self.cpus else _empty(CPU_KEYS)
        return Series(path, threads, loads, list(self.load_names), list(self.counters),
                      cpus=cpus)


def _no_float(text: str) -> int:
    raise ValueError(f"{text} is not an integer (every series field is a whole number)")


def _parse_chunk(path: Path, lines: list[bytes], first_no: int, trusted_until: int,
                 last_chunk: bool, checkpoint: bool = True) -> tuple[list[dict[str, Any]], int]:
    """(objects, lines torn). Lines numbered from `first_no`; lines up to `trusted_until` must
    parse; past it (or the last line of the file) the first bad line ends the file.
    `checkpoint`: whether `trusted_until` is a checkpoint's count (said in the message)."""
    try:
        objs = json.loads(b"[" + b",".join(lines) + b"]", parse_float=_no_float)
        if all(type(o) is dict and _KINDS.intersection(o) for o in objs):
            return objs, 0
    except (ValueError, RecursionError):   # JSONDecodeError, UnicodeDecodeError, _no_float
        pass
    objs = []
    for k, line in enumerate(lines):
        no = first_no + k
        try:
            if line.startswith(_OVERLONG):
                raise ValueError(f"invalid JSON ({int(line[len(_OVERLONG):])} bytes without a "
                                 f"newline, longer than any series line "
                                 f"({LONGEST_LINE >> 20} MiB))")
            try:
                obj = json.loads(line, parse_float=_no_float)
            except ValueError as e:
                raise ValueError(f"invalid JSON ({e})") from e
            except RecursionError as e:
                raise ValueError("invalid JSON (nested too deeply)") from e
            if not isinstance(obj, dict):
                raise ValueError(f"a JSON {_kind(obj)}, not an object")
            if not _KINDS.intersection(obj):
                raise ValueError("an object with none of thread, load and cpu: not a series line")
            objs.append(obj)
        except ValueError as e:
            tail = no > trusted_until or (last_chunk and k == len(lines) - 1)
            if not tail:
                vouched = (f"; the run's checkpoint says the first {trusted_until} lines were "
                           "complete" if checkpoint else "")
                raise InputError(path, f"line {no}: {e}{vouched}") from e
            return objs, len(lines) - k
    return objs, 0


_KINDS = frozenset(("thread", "load", "cpu"))     # a thread's, a load's, a CPU's line


def _kind(v: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", int: "number", float: "number",
            type(None): "null"}.get(type(v), type(v).__name__)


# The keys every line of each kind has (docs/results.md, series.jsonl); the others are
# the workload's (releases, wakeups...) or a load's own counters.
_REQUIRED = (("thread", ("t_ns", "span_ns", "thread", "cpu_ns", "intervals", "gaps",
                         "gap_max_ns")),
             ("load", ("t_ns", "span_ns", "ops")),
             ("CPU", ("t_ns", "span_ns", "read_ns", "cpu", "interrupts")))


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _check(path: Path, s: Series, n_threads: int) -> None:
    t = s.threads
    for kind, keys in _REQUIRED:
        cols = {"thread": s.threads, "load": s.loads, "CPU": s.cpus}[kind]
        for key in keys:
            bad = np.nonzero(cols[key] == MISSING)[0]
            if len(bad):
                raise InputError(path, f"the {_nth(int(bad[0]) + 1)} {kind} line lacks {key!r} "
                                       "(docs/results.md, series.jsonl)")
    bad = np.nonzero((t["thread"] < 0) | (t["thread"] >= n_threads))[0]
    if len(bad):
        raise InputError(path, f"thread {int(t['thread'][bad[0]])} is not in result.json "
                               f"({n_threads} threads)")


def _overlong(n: int) -> bytes:
    return _OVERLONG + str(n).encode()


def _past_hole(f) -> int:
    """Moves `f` past the hole it is in, if any (a power cut's tail is often one: NUL bytes
    without blocks, which reading would make the kernel zero-fill), returning the bytes
    skipped; 0 where the file system cannot tell (SEEK_DATA)."""
    pos = f.tell()
    try:
        to = os.lseek(f.fileno(), pos, os.SEEK_DATA)
    except OSError as e:
        if e.errno != errno.ENXIO:          # ENXIO: nothing but a hole up to the end
            f.seek(pos)
            return 0
        to = os.fstat(f.fileno()).st_size
    f.seek(to)
    return max(0, to - pos)


def _chunks(path: Path, block: int | None = None):
    """(non-empty lines, is the file's last chunk) in blocks of about `block` bytes: memory
    is one block and at most one line, not the file. NUL bytes at the end (a power cut) are
    dropped. A line longer than LONGEST_LINE is skipped to its end, a block at a time, and
    stands as an _OVERLONG marker (dropped when it is NUL bytes at the end of the file)."""
    block = block or CHUNK_BYTES
    with open_file(path) as f:
        rest, pending = b"", None
        skipping: list | None = None     # [length, all NUL so far] of a line being skipped
        buf = None                       # the block skipped lines are read into (reused)
        while True:
            lines = []
            if skipping is not None:
                if buf is None:
                    buf = bytearray(block)
                n = f.readinto(buf)
                if not n:
                    break
                nl = buf.find(b"\n", 0, n)
                end = n if nl < 0 else nl
                skipping[0] += end
                skipping[1] = skipping[1] and not np.frombuffer(buf, np.uint8, end).any()
                if nl < 0:
                    if skipping[1]:
                        skipping[0] += _past_hole(f)
                    continue
                lines.append(_overlong(skipping[0]))
                skipping, data = None, bytes(buf[nl + 1:n])
            else:
                data = f.read(block)
                if not data:
                    break
                data = rest + data
            cut = data.rfind(b"\n")
            body, rest = (b"", data) if cut < 0 else (data[:cut], data[cut + 1:])
            if len(rest) > LONGEST_LINE:
                skipping, rest = [len(rest), not np.frombuffer(rest, np.uint8).any()], b""
            lines += [ln if len(ln) <= LONGEST_LINE else _overlong(len(ln))
                      for ln in body.split(b"\n") if ln.strip()]
            if lines:
                if pending is not None:
                    yield pending, False
                pending = lines
        if skipping is not None:
            tail = [] if skipping[1] else [_overlong(skipping[0])]
        else:
            rest = rest.rstrip(b"\0")
            tail = [ln for ln in rest.split(b"\n") if ln.strip(b" \t\r\0")]
        if tail:
            if pending is not None:
                yield pending, False
            pending = tail
        if pending is not None:
            yield pending, True


@per_run
def read_series(run: Run) -> Series | None:
    """The run's series.jsonl as columns; None when the run has none (older runs). Read once
    per run (the report reads it before its warnings are written: the Over time section's
    `prepare`)."""
    path = run.file("series")      # rundir.py: inside the run directory, or an InputError
    if path is None:
        return None
    if not path.exists():
        if run.complete:
            raise InputError(path, "no such file, though result.json `files.series` names it")
        return None
    checkpoint = run.result.get("checkpoint") or {}
    written = (checkpoint.get("written") or {}).get("series")
    # A checkpoint vouches for `written` lines; without one (a complete run, an old or foreign
    # file) every line but the file's last must parse.
    trusted = int(written) if written is not None else None
    series_ns = int((run.scenario.get("trace") or {}).get("series_ns") or 1_000_000_000)
    cols = _Columns(series_ns)
    torn = read = good = 0
    for chunk, last in _chunks(path):
        if torn:                               # after the first bad line of the tail
            torn += len(chunk)
            continue
        limit = trusted if trusted is not None else read + len(chunk) - (1 if last else 0)
        objs, torn = _parse_chunk(path, chunk, read + 1, limit, last, trusted is not None)
        try:
            cols.add(objs)
        except ValueError as e:
            raise InputError(path, f"lines {read + 1}-{read + len(chunk)}: {e}") from e
        read += len(chunk)
        good += len(objs)
    s = cols.series(path)
    s.lines = good
    s.torn = torn
    s.after_checkpoint = max(0, s.lines - int(written)) if written is not None else 0
    s.series_ns = series_ns
    _check(path, s, len(run.threads))
    claimed = run.written("series")
    if claimed is not None and s.lines < claimed:
        when = f" after {fmt_ns(s.end_ns)} (the end of the last whole line)" if s.lines else ""
        run.warn(f"{path}: {s.lines} whole lines but result.json says {claimed} were written: "
                 f"{claimed - s.lines} missing{when}; the file was cut short (the disk filled, a "
                 f"copy still in progress, a power cut?): reporting the {s.lines} that exist")
    return s
