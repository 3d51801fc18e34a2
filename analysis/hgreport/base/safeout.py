# SPDX-License-Identifier: GPL-2.0-or-later
"""Every file hgreport writes goes through here (docs/security.md): safe for root in a
directory others can write to.

- The output directory is checked before anything is written in it: a real directory, not a
  symbolic link, owned by the user running hgreport or by root (make_dir creates it when
  missing). A planted `RUN/report -> /etc` or another user's `RUN/report/` is refused.
- A file is written under a new, unpredictable name created O_EXCL|O_NOFOLLOW relative to
  the checked directory's fd, then renamed over its final name: a planted
  `report.md -> victim`, a dangling link or a hard link at that name is replaced, never
  written through, and a reader never sees half a file.
- A directory make_dir checked is checked once: its fd is kept, and every later file of it is
  written relative to that fd. If its name no longer leads to it (the run directory renamed
  and a link to another one put in its place), nothing more is written: an InputError.

A problem is an InputError naming the path (exit 2, one line)."""
from __future__ import annotations

import errno
import os
import secrets
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from .errors import InputError

_WHY_LINK = ("is a symbolic link: hgreport writes only into a real directory, never through a "
             "link (remove the link, or give -o another directory)")


def _check(path: Path, st: os.stat_result) -> None:
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(path, "not a directory: cannot write the output there")
    if st.st_uid not in (os.geteuid(), 0):
        raise InputError(path, f"belongs to uid {st.st_uid}, not to you (uid {os.geteuid()}) or "
                               "root: hgreport writes only into its own directories (give -o "
                               "another directory)")


def dir_fd(directory: Path) -> int:
    """An fd of `directory`, checked (the module's docstring); the caller closes it."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        if os.path.islink(directory):
            raise InputError(directory, _WHY_LINK) from e
        if e.errno == errno.ENOTDIR:
            raise InputError(directory, "not a directory: cannot write the output there") from e
        raise InputError(directory, f"cannot open the output directory: {e.strerror}") from e
    try:
        _check(directory, os.fstat(fd))
    except BaseException:
        os.close(fd)
        raise
    return fd


# make_dir's checked directories: str(path) -> fd, the most recent last (a few at a time).
_CHECKED: dict[str, int] = {}
_KEEP = 16


def _remember(directory: Path, fd: int) -> None:
    old = _CHECKED.pop(str(directory), None)
    if old is not None:
        os.close(old)
    _CHECKED[str(directory)] = fd
    while len(_CHECKED) > _KEEP:
        os.close(_CHECKED.pop(next(iter(_CHECKED))))


def _fd_of(directory: Path) -> tuple[int, bool]:
    """(an fd of `directory`, whether the caller closes it): make_dir's, while the name still
    leads to it; else checked now (dir_fd)."""
    fd = _CHECKED.get(str(directory))
    if fd is None:
        return dir_fd(directory), True
    try:
        st = os.stat(directory, follow_symlinks=False)
    except OSError:
        st = None
    kept = os.fstat(fd)
    if st is None or (st.st_dev, st.st_ino) != (kept.st_dev, kept.st_ino):
        raise InputError(directory, "changed while hgreport wrote into it (renamed or removed, "
                                    "or a link or another directory put at its name): nothing "
                                    "more is written there; run hgreport again")
    return fd, False


def make_dir(directory: Path) -> Path:
    """The output directory, created (with its parents) when missing, and checked; its files
    are then written relative to the directory checked here."""
    directory = Path(directory)
    if not os.path.islink(directory):
        try:
            os.makedirs(directory, exist_ok=True)
        except FileExistsError as e:
            raise InputError(directory, "exists and is not a directory: cannot write the output "
                                        "there") from e
        except OSError as e:
            raise InputError(directory, f"cannot create the output directory: {e.strerror}") from e
    _remember(directory, dir_fd(directory))
    return directory


@contextmanager
def open_out(path: Path, mode: str = "w", newline: str | None = None) -> Iterator[IO]:
    """A new file to write `path` with (text "w" or binary "wb"), renamed over `path` when the
    block ends without an exception, removed otherwise."""
    path = Path(path)
    d, own = _fd_of(path.parent)
    try:
        tmp, fd = "", -1
        for _ in range(16):
            tmp = f".{path.name}.tmp.{secrets.token_hex(8)}"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW |
                             os.O_CLOEXEC, 0o644, dir_fd=d)
                break
            except FileExistsError:
                continue
            except OSError as e:
                raise InputError(path, f"cannot write: {e.strerror}") from e
        if fd < 0:
            raise InputError(path, "cannot write: no free temporary name")
        f: IO = os.fdopen(fd, mode, newline=newline)
        try:
            with f:
                yield f
            os.rename(tmp, path.name, src_dir_fd=d, dst_dir_fd=d)
        except BaseException as e:
            try:
                os.unlink(tmp, dir_fd=d)
            except OSError:
                pass
            if isinstance(e, OSError) and not isinstance(e, InputError):
                raise InputError(path, f"cannot write: {e.strerror}") from e
            raise
    finally:
        if own:
            os.close(d)


def write_text(path: Path, text: str) -> Path:
    with open_out(path, "w") as f:
        f.write(text)
    return Path(path)

