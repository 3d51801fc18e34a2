# SPDX-License-Identifier: GPL-2.0-or-later
"""A part of the report computed in a forked child process, concurrently with the rest (the
Perfetto export beside the figures: report/assemble.py). The child shares the parent's columns copy on
write, runs one function and leaves with os._exit (no atexit handlers, no flushing of buffers
it inherited, no test framework code); its outcome comes back through a pipe. In-process
instead when fork is unavailable, when the process may use only one CPU (the child would only
add its memory), when HGREPORT_SERIAL=1 (the least memory: analysis/README.md#performance), or
when the parent runs other Python threads (forking them would copy locks held by threads that
do not exist in the child)."""
from __future__ import annotations

import builtins
import gc
import json
import os
import select
import signal
import threading
import traceback
from pathlib import Path
from typing import Any, Callable

from .errors import InputError

SERIAL_ENV = "HGREPORT_SERIAL"
_trim: Any = None                     # glibc's malloc_trim once looked up; False: none here
_children: set[int] = set()           # the living children of Jobs


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a child is worth it and safe: fork exists, a second CPU can run it, no other
    Python thread runs here, and HGREPORT_SERIAL is not 1."""
    return (hasattr(os, "fork") and os.environ.get(SERIAL_ENV) != "1" and _cpus() >= 2
            and threading.active_count() == 1)


def give_back() -> None:
    """Hand the heap's free pages back to the system (glibc's malloc_trim; nothing elsewhere).
    Before a fork: the free memory of the parent's heap (its temporaries' pages, kept by malloc
    for reuse: 60-70 MiB after a 5M-interval report's summary) would otherwise be shared with
    the child, counted once in both, and copied page by page whichever of them reuses it
    (analysis/README.md#performance)."""
    global _trim
    if _trim is None:
        try:
            import ctypes
            _trim = getattr(ctypes.CDLL(None), "malloc_trim", False)
        except (ImportError, OSError):
            _trim = False
    if _trim:
        _trim(0)


def tidy() -> None:
    """Between two pieces of work of a forked process (the figures of report/assemble.py):
    the last one's garbage collected, if the collector is on (a matplotlib figure is a web of
    reference cycles: dropped, it held 6-21 MiB until a collection found it, its renderer's
    buffers included), and the heap's free pages given back. Cheap in a Job's parent or
    child: what lived at the fork is frozen there (Job), so only what was made since is
    looked at (analysis/README.md#performance)."""
    if gc.isenabled():
        gc.collect()
    give_back()


def _outcome(e: BaseException | None, value: Any = None) -> bytes:
    if e is None:
        return json.dumps({"ok": True, "value": value}, default=str).encode()
    if isinstance(e, InputError):
        return json.dumps({"input": [str(e.path), e.problem]}).encode()
    return json.dumps({"error": type(e).__name__, "message": str(e),
                       "traceback": "".join(traceback.format_exception(e))}).encode()


class Job:
    """`fn()` started in a child (or, without fork, run at once); `wait()` gives its result
    or raises what it raised: the same InputError, a builtin exception of the same type and
    message; an InputError on `path` when a signal killed the child (the file is then
    incomplete: one line and exit status 2, cli.py)."""

    def __init__(self, path: Path, what: str, fn: Callable[[], Any]) -> None:
        self.path = path
        self.what, self.pid, self.fd, self.error, self.value = what, None, None, None, None
        if not can_fork():
            self._here(fn)
            return
        r, w = os.pipe()
        # The parent's objects out of the collector's reach while the child lives from them:
        # a full collection in the child writes to each object's header, copying the pages
        # of the parent's heap (measured after a report's summary: 21 MiB made private to the
        # child by one gc.collect(), none when frozen); in the parent likewise, so they stay
        # frozen there until no child is left (_reaped).
        gc.freeze()
        give_back()
        try:
            pid = os.fork()
        except OSError:                      # no process to be had (EAGAIN, ENOMEM): here instead
            gc.unfreeze()
            os.close(r)
            os.close(w)
            self._here(fn)
            return
        if pid == 0:                         # the child: never returns
            status = 1
            try:
                os.close(r)
                err, value = None, None
                try:
                    value = fn()
                except BaseException as e:   # noqa: B902  (KeyboardInterrupt too: reported)
                    err = e
                os.write(w, _outcome(err, value))
                status = 0 if err is None else 1
            finally:
                os._exit(status)
        os.close(w)
        self.pid, self.fd = pid, r
        _children.add(pid)

    def _here(self, fn: Callable[[], Any]) -> None:
        try:
            self.value = fn()
        except Exception as e:               # raised by wait(), as from the child
            self.error = e

    def wait(self) -> Any:
        """What `fn` returned (through JSON from a child: what JSON has no type for, as its
        str), once it has ended; what it raised, raised here."""
        if self.pid is None:
            if self.error is not None:
                raise self.error
            return self.value
        with os.fdopen(self.fd, "rb") as f:
            data = f.read()
        _, status = os.waitpid(self.pid, 0)
        self._reaped()
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            raise InputError(self.path, f"incomplete: {self.what} in a child process was "
                             f"killed by signal {signal.Signals(sig).name} (out of memory?); "
                             f"rerun with {SERIAL_ENV}=1 to write it in-process")
        try:
            out = json.loads(data) if data else {}
        except ValueError:
            out = {}
        if out.get("ok") and os.WEXITSTATUS(status) == 0:
            self.value = out.get("value")
            return self.value
        if "input" in out:
            raise InputError(*out["input"])
        kind = getattr(builtins, str(out.get("error", "")), None)
        same = None
        if isinstance(kind, type) and issubclass(kind, Exception):
            try:
                same = kind(out.get("message", ""))
            except TypeError:                # a type that takes other arguments
                pass
        if same is not None:
            raise same from RuntimeError(f"in the child process:\n{out.get('traceback', '')}")
        raise RuntimeError(f"{self.path}: {self.what}: its child process failed (exit status "
                           f"{os.WEXITSTATUS(status)}): {out.get('traceback') or 'no report'}")

    def check(self) -> None:
        """Raise now what `fn` raised if it has already failed (the caller stops work whose
        result would be thrown away); nothing while the child runs, or when it succeeded
        (then `wait()` returns at once)."""
        if self.pid is None:
            if self.error is not None:
                raise self.error
            return
        if select.select([self.fd], [], [], 0)[0]:     # its outcome written, or it died
            self.wait()

    def cancel(self) -> None:
        """Stop and reap the child (the parent failed first)."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        self._reaped()

    def _reaped(self) -> None:
        """The child is gone: once no child lives, the parent's objects are the collector's
        again (frozen until then: a full collection here would write to every object's
        header, copying the pages the children still share)."""
        _children.discard(self.pid)
        self.pid = None
        if not _children:
            gc.unfreeze()
