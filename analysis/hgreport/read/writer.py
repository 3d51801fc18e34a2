# SPDX-License-Identifier: GPL-2.0-or-later
"""Whether hgrun is still writing a run directory: its lock file (docs/cli.md, "One writer
per directory"), `.hgrun-lock`, a POSIX record lock its holder keeps for the run and the
kernel releases when the holder dies. Asked with F_GETLK, which takes nothing (a lock taken
here, even for an instant, could make a starting hgrun believe another one writes there);
the file's text says who holds it."""
from __future__ import annotations

import fcntl
import os
import stat
import struct
from pathlib import Path

LOCK_NAME = ".hgrun-lock"
# struct flock of 64-bit Linux: short l_type, short l_whence, off_t l_start, off_t l_len,
# pid_t l_pid (padded to 32 bytes)
_FLOCK = "@hhqqi4x"


def holder(directory: Path, name: str = LOCK_NAME) -> str | None:
    """Who holds `name`'s lock in directory ("pid 4242 on node7 since ...: hgrun run s.yaml"),
    or None when nobody does (no lock file, a stale one, a link, not a regular file)."""
    try:
        fd = os.open(directory / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or struct.calcsize(_FLOCK) != 32:
            return None
        ask = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        got = struct.unpack(_FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, ask))
        if got[0] == fcntl.F_UNLCK:
            return None
        text = os.pread(fd, 512, 0).decode("utf-8", "replace").split("\n")[0].strip()
        return text or f"pid {got[4]}, which has not said who it is yet"
    except OSError:
        return None
    finally:
        os.close(fd)


def no_result(directory: Path, held_by: str | None) -> str:
    """Why directory has no result.json, from what it holds: for the one-line error."""
    if held_by is not None:
        return (f"no such file yet: hgrun is writing this run ({held_by}) and has not written "
                "its first checkpoint (within 2 s of the start); try again in a moment")
    streamed = [n for n in ("trace.bin", "latency.bin", "series.jsonl")
                if (directory / n).is_file() and not (directory / n).is_symlink()]
    if streamed:
        return (f"no such file, but {', '.join(streamed)} {'is' if len(streamed) == 1 else 'are'} "
                "here: the run was killed before its first checkpoint (hgrun writes one 2 s after "
                "the start, every 2 s, and when measuring ends), or result.json was removed; "
                "without it the records cannot be told apart: nothing to report")
    return "no such file (is this an hgrun result directory?)"
