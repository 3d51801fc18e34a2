# SPDX-License-Identifier: GPL-2.0-or-later
"""kernel.jsonl (docs/kernel-trace.md): one kernel segment per line, sorted by CPU then start,
`{"cpu", "start_ns", "end_ns", "kind", "id", "name", "preempted"}` (and `"unconfirmed": true`).
Two ways to read it, both through regular.py (a regular file, every line bounded):

- `segments(path)`: every segment in file order, a block of lines per json.loads (the
  Perfetto export's kernel tracks);
- `Search(path)`: the segments of one CPU during a gap, found by bisection over byte offsets, a
  few lines parsed per gap (the culprits of the largest gaps).

Each line must be a JSON object with integer cpu, start_ns, end_ns and id and string kind and
name; anything else (`[1,2]`, `3`, `null`, a string for a number) is an InputError naming the
file and the line."""
from __future__ import annotations

import json
import mmap
import os
from pathlib import Path
from typing import Any, Iterator

from ..base.errors import InputError
from .regular import LONGEST_LINE, lines, open_file

KEYS = ("cpu", "start_ns", "end_ns", "kind", "id", "name")      # docs/kernel-trace.md's order
_INTS = ("cpu", "start_ns", "end_ns", "id")
_STRS = ("kind", "name")
BLOCK = 4 << 20                       # bytes of lines per json.loads in segments()


def problem(seg: Any) -> str | None:
    """Why a parsed line is not a kernel segment (None: it is one)."""
    if not isinstance(seg, dict):
        return f"a JSON {_kind(seg)}, not an object"
    missing = [k for k in KEYS if k not in seg]
    if missing:
        return f"missing {', '.join(missing)}"
    for k in _INTS:
        v = seg[k]
        if not isinstance(v, int) or isinstance(v, bool):
            return f"{k} is {_shown(v)}, not an integer"
    for k in _STRS:
        if not isinstance(seg[k], str):
            return f"{k} is {_shown(seg[k])}, not a string"
    return None


def _kind(v: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(v), type(v).__name__)


def _shown(v: Any) -> str:
    return f"{_kind(v)} {json.dumps(v)[:40]}"


def _error(path: Path, line: int, why: str) -> InputError:
    return InputError(path, f"line {line}: not a kernel segment (docs/kernel-trace.md): {why}")


def _parse(path: Path, n: int, raw: bytes) -> dict[str, Any]:
    try:
        seg = json.loads(raw)
    except ValueError as e:            # JSONDecodeError, UnicodeDecodeError
        raise _error(path, n, f"invalid JSON ({e})") from e
    except RecursionError as e:
        raise _error(path, n, "nested too deeply") from e
    why = problem(seg)
    if why:
        raise _error(path, n, why)
    return seg


def segments(path: Path) -> Iterator[dict[str, Any]]:
    """Every segment of the file, in its order, checked."""
    block: list[tuple[int, bytes]] = []
    size = 0

    def flush() -> list[dict[str, Any]]:
        try:
            segs = json.loads(b"[" + b",".join(raw for _, raw in block) + b"]")
        except (ValueError, RecursionError):
            segs = None                 # some line is bad: find it, a line at a time
        if segs is None or len(segs) != len(block) or any(problem(s) for s in segs):
            return [_parse(path, n, raw) for n, raw in block]
        return segs

    for n, raw in lines(path, "a kernel segment"):
        if not raw.strip():
            continue
        block.append((n, raw))
        size += len(raw)
        if size >= BLOCK:
            yield from flush()
            block, size = [], 0
    if block:
        yield from flush()


class Search:
    """kernel.jsonl searched by bisection over byte offsets: a few lines are parsed per gap,
    not the whole file. A line longer than LONGEST_LINE is refused when met (every search for
    a line end looks that far and no further: a one-line file costs no more than a line)."""

    def __init__(self, path: Path):
        self.path = path
        self._f = open_file(path)
        size = os.fstat(self._f.fileno()).st_size
        try:
            self._m = mmap.mmap(self._f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        except OSError as e:
            self._f.close()
            raise InputError(path, f"cannot map: {e.strerror}") from e
        self._size = size

    def close(self) -> None:
        if isinstance(self._m, mmap.mmap):
            self._m.close()
        self._f.close()

    def __enter__(self) -> "Search":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _find_end(self, off: int) -> int:
        """The offset of the newline ending the line at `off` (-1: the file's last line)."""
        nl = self._m.find(b"\n", off, off + LONGEST_LINE + 1)
        if nl < 0 and self._size - off > LONGEST_LINE:
            raise InputError(self.path, f"line {self._line_no(off)}: longer than "
                                        f"{LONGEST_LINE >> 20} MiB, not a kernel segment "
                                        "(docs/kernel-trace.md)")
        return nl

    def _line_no(self, off: int) -> int:
        """The number of the line at byte `off` (for messages only: it counts from the start)."""
        return self._m[:off].count(b"\n") + 1

    def _line_at(self, off: int) -> tuple[int, dict[str, Any] | None]:
        """(offset after it, the first segment starting at or after `off`); None past the
        end and for an empty line."""
        if off > 0:
            nl = self._find_end(off - 1)
            off = self._size if nl < 0 else nl + 1
        if off >= self._size:
            return self._size, None
        end = self._find_end(off)
        end = self._size if end < 0 else end
        raw = self._m[off:end]
        if not raw.strip():
            return end + 1, None
        return end + 1, _checked(self, off, raw)

    def overlapping(self, cpu: int, lo: int, hi: int, limit: int = 2000) -> list[dict[str, Any]]:
        """Segments of `cpu` that overlap [lo, hi)."""
        a, b = 0, self._size
        while b - a > 1:                               # last line start with key < (cpu, lo)
            mid = (a + b) // 2
            _, seg = self._line_at(mid)
            if seg is None or (seg["cpu"], seg["start_ns"]) >= (cpu, lo):
                b = mid
            else:
                a = mid
        # Step back a little: the segment running at `lo` starts before it.
        off = max(0, a - 4096)
        out = []
        while off < self._size and len(out) < limit:
            off, seg = self._line_at(off)
            if seg is None:
                if off >= self._size:
                    break
                continue
            if seg["cpu"] > cpu or (seg["cpu"] == cpu and seg["start_ns"] >= hi):
                break
            if seg["cpu"] == cpu and seg["end_ns"] > lo:
                out.append(seg)
        return out


def _checked(s: Search, off: int, raw: bytes) -> dict[str, Any]:
    try:
        seg = json.loads(raw)
        why = problem(seg)
    except ValueError as e:
        why = f"invalid JSON ({e})"
    except RecursionError:
        why = "nested too deeply"
    if why:
        raise _error(s.path, s._line_no(off), why)
    return seg
