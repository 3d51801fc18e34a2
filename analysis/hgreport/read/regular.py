# SPDX-License-Identifier: GPL-2.0-or-later
"""Opening an input file the way every reader of read/ does: never blocking on a FIFO or a
device (O_NONBLOCK, then a regular file is required), never following a link at the last
component (rundir.inside has already resolved the links the run may hold), a symlink loop or
a link where none belongs an InputError of one line like every other problem."""
from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path
from typing import BinaryIO, Iterator

from ..base.errors import InputError

LONGEST_LINE = 1 << 20      # a series or kernel line is at most a few KiB: 1 MiB is not a line


def open_fd(path: Path, follow: bool = False) -> int:
    """A read-only fd of the regular file at `path` (blocking reads again)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError as e:
        raise InputError(path, "no such file") from e
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise InputError(path, "a symbolic link loop" if follow or _loops(path) else
                             "a symbolic link where the run has a file: refused") from e
        raise InputError(path, f"cannot open: {e.strerror}") from e
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(path, "is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(path, "not a regular file (a FIFO, a device or a socket): refused")
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_file(path: Path, follow: bool = False) -> BinaryIO:
    """open_fd as a binary file object."""
    return os.fdopen(open_fd(path, follow), "rb")


def _loops(path: Path) -> bool:
    try:
        os.stat(path)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


def resolve(path: Path) -> Path:
    """path.resolve(), a symlink loop an InputError (Path.resolve raises RuntimeError or
    OSError for one up to Python 3.12, and from 3.13 returns a path without a word)."""
    try:
        resolved = path.resolve()
    except (RuntimeError, OSError) as e:
        raise InputError(path, "a symbolic link loop (a link that leads back to itself): "
                               "refused") from e
    if _loops(path):
        raise InputError(path, "a symbolic link loop (a link that leads back to itself): "
                               "refused")
    return resolved


def lines(path: Path, what: str = "a line hgrun writes") -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a text file read a line at a time through open_file, each
    bounded: a line longer than LONGEST_LINE is an InputError as soon as that much is read
    (memory one line, time linear)."""
    with open_file(path) as f:
        n = 0
        while True:
            raw = f.readline(LONGEST_LINE + 1)
            if not raw:
                return
            n += 1
            if len(raw) > LONGEST_LINE:
                raise InputError(path, f"line {n}: longer than {LONGEST_LINE >> 20} MiB, "
                                       f"not {what}")
            yield n, raw
