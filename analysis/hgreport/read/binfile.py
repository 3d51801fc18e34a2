# SPDX-License-Identifier: GPL-2.0-or-later
"""trace.bin and latency.bin (docs/results.md): a 64-byte header, then fixed 32-byte records,
mapped read-only as a numpy structured array (read), or read a chunk at a time into the
contiguous columns the analysis uses (columns).

Every problem is an InputError naming the file: a short or foreign header, another format
version or record size, the wrong kind. Records past the count result.json trusts (a
checkpoint's `written`, the torn tail of a killed run) are not read. Fewer whole records than
result.json says were written (the disk filled, a copy still in progress, a power cut) are
read with a warning (`warn`) naming how many are missing and the time of the last whole
record; without `warn` they are an error."""
from __future__ import annotations

import mmap
import os
from pathlib import Path
from typing import Callable, Mapping

import numpy as np

from ..base.errors import InputError
from ..base.units import fmt_ns
from .regular import open_fd

MAGIC = b"HGRUNBIN"
VERSION = 1
HEADER = 64
RECORD = 32
DTYPES = {
    "intervals": np.dtype([("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"),
                           ("cpu", "<i2"), ("end", "u1"), ("flags", "u1"), ("window", "<u4"),
                           ("cause", "<u4")]),
    "wakeups": np.dtype([("intended_ns", "<i8"), ("actual_ns", "<i8"), ("thread", "<u4"),
                         ("window", "<u4"), ("seq", "<u8")]),
}


def empty(kind: str) -> np.ndarray:
    return np.zeros(0, DTYPES[kind])


def _header(path: Path, head: bytes, kind: str) -> None:
    if len(head) < HEADER:
        raise InputError(path, f"{len(head)} bytes: too short for the {HEADER}-byte header of an "
                               f"hgrun {kind} file (docs/results.md)")
    if head[:8] != MAGIC:
        raise InputError(path, f"not an hgrun {kind} file (starts with {head[:8]!r}, "
                               f"expected {MAGIC!r})")
    version = int.from_bytes(head[8:12], "little")
    size = int.from_bytes(head[12:16], "little")
    got = head[16:32].rstrip(b"\0").decode("ascii", errors="replace")
    if version != VERSION:
        raise InputError(path, f"format version {version}; this hgreport reads version {VERSION} "
                               "(use the hgreport of the hgrun that wrote it)")
    if size != RECORD:
        raise InputError(path, f"record size {size} bytes in the header, expected {RECORD}")
    if got != kind:
        raise InputError(path, f"holds {got!r} records, expected {kind!r} "
                               "(result.json's files names the wrong file?)")


Warn = Callable[[str], None]


def _short(path: Path, fd: int, kind: str, whole: int, trusted: int) -> str:
    """The warning for a file with fewer whole records than result.json vouches for."""
    when = ""
    if whole:
        last = np.frombuffer(os.pread(fd, RECORD, HEADER + (whole - 1) * RECORD), DTYPES[kind])
        t = int(last["end_ns" if kind == "intervals" else "actual_ns"][0])
        when = f" after {fmt_ns(t)} (the time of the last whole record)"
    return (f"{path}: holds {whole} whole records but result.json says {trusted} were written: "
            f"{trusted - whole} missing{when}; the file was cut short (the disk filled, a copy "
            f"still in progress, a power cut?): reporting the {whole} that exist")


def _open(path: Path, kind: str, trusted: int | None,
          warn: Warn | None = None) -> tuple[int, int]:
    """(fd, records to read) of a checked file. `trusted`: how many records result.json says
    were written (None: unknown, take every whole record); more whole records than that are
    not read; fewer are read with `warn`, an error without it."""
    fd = open_fd(path)
    try:
        st = os.fstat(fd)
        _header(path, os.pread(fd, HEADER, 0), kind)
        whole = (st.st_size - HEADER) // RECORD
        if trusted is not None and trusted > whole:
            message = _short(path, fd, kind, whole, trusted)
            if warn is None:
                raise InputError(path, message.split(": ", 1)[1])
            warn(message)
            return fd, whole
        return fd, whole if trusted is None else trusted
    except OSError as e:
        os.close(fd)
        raise InputError(path, f"cannot read: {e.strerror}") from e
    except BaseException:
        os.close(fd)
        raise


def read(path: Path, kind: str, trusted: int | None, warn: Warn | None = None) -> np.ndarray:
    """The records of one file as a read-only structured array (DTYPES[kind]) over a
    read-only mapping of the file (no copy)."""
    fd, n = _open(path, kind, trusted, warn)
    try:
        if n == 0:
            return empty(kind)
        mm = mmap.mmap(fd, HEADER + n * RECORD, prot=mmap.PROT_READ)
    except OSError as e:
        raise InputError(path, f"cannot map: {e.strerror}") from e
    finally:
        os.close(fd)
    return np.frombuffer(mm, DTYPES[kind], count=n, offset=HEADER)


CHUNK = 1 << 15                        # records per read: a 1 MiB buffer that stays in cache


def columns(path: Path, kind: str, trusted: int | None, want: dict[str, np.dtype | str],
            sparse: tuple[str, ...] = (), threads: int | None = None,
            warn: Warn | None = None) -> dict[str, np.ndarray]:
    """The fields `want` (name -> dtype of the column) of a file's records as contiguous
    arrays, read a chunk at a time into one small structured buffer: memory holds the
    columns asked for, never the file. (Measured on 5M records: 0.05-0.09 s; copying from a
    mapping of the whole file instead, 0.08-0.37 s, and its pages count in the RSS.)

    `sparse` fields get an array only once a record has a nonzero value there, else a
    zero-stride view of zeros (the cause and window of a run without kernel attribution or
    outlier windows cost nothing). With `threads`, each chunk's thread indices are checked
    against it before they are stored (so the column may be narrower than the file's u32)."""
    fd, n = _open(path, kind, trusted, warn)
    out: dict[str, np.ndarray | None] = {k: None if k in sparse else np.empty(n, dtype=dt)
                                         for k, dt in want.items()}
    buf = np.empty(min(n, CHUNK), DTYPES[kind])
    try:
        with os.fdopen(fd, "rb", buffering=0, closefd=False) as f:
            f.seek(HEADER)
            for a in range(0, n, CHUNK):
                part = buf[:min(n, a + CHUNK) - a]
                got = f.readinto(memoryview(part).cast("B"))
                if got != part.nbytes:
                    raise InputError(path, f"shrank while being read (record {a + got // RECORD})")
                if threads is not None and len(part) and int(part["thread"].max()) >= threads:
                    i = int(np.argmax(part["thread"] >= threads))
                    raise InputError(path, f"record {a + i + 1}: thread {int(part['thread'][i])} "
                                           f"is not in result.json ({threads} threads)")
                for k in out:
                    col = out[k]
                    if col is None:
                        if not part[k].any():
                            continue
                        col = out[k] = np.zeros(n, dtype=want[k])
                    col[a:a + len(part)] = part[k]
    except OSError as e:
        raise InputError(path, f"cannot read: {e.strerror}") from e
    finally:
        os.close(fd)
    return {k: np.broadcast_to(np.zeros(1, want[k]), (n,)) if v is None else v
            for k, v in out.items()}


def check_records(path: Path, r: Mapping[str, np.ndarray], n_threads: int, kind: str) -> None:
    """Vectorised checks of the fields hgreport indexes with: thread (and for intervals the
    end kind and the order of start and end). `r`: records or columns by field name."""
    if not len(r["thread"]):
        return

    def first(bad: np.ndarray) -> int:
        return int(np.argmax(bad))
    if int(r["thread"].max()) >= n_threads:
        i = first(r["thread"] >= n_threads)
        raise InputError(path, f"record {i + 1}: thread {int(r['thread'][i])} is not in "
                               f"result.json ({n_threads} threads)")
    if kind != "intervals":
        return
    if int(r["end"].max()) > 3:
        i = first(r["end"] > 3)
        raise InputError(path, f"record {i + 1}: end kind {int(r['end'][i])} is not one of "
                               "0 preempted, 1 yielded, 2 blocked, 3 finished")
    backwards = r["end_ns"] < r["start_ns"]
    if backwards.any():
        i = first(backwards)
        raise InputError(path, f"record {i + 1}: ends ({int(r['end_ns'][i])} ns) before it "
                               f"starts ({int(r['start_ns'][i])} ns)")
