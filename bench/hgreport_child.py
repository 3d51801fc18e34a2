"""`hgreport` of a checkout run in a child process and reaped with wait4, for the bench
scripts that time it (hgreport_threads.py, hgreport_longline.py): wall time, CPU time and
peak RSS (ru_maxrss: the largest of the child's own and its children's), its exit status, or
None when it was killed at the timeout, and its stderr's last lines."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import time
from typing import NamedTuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "analysis" / "golden"


class Timed(NamedTuple):
    wall_s: float
    cpu_s: float            # user + system, of the child and its children
    peak_rss: int           # bytes
    rc: int | None          # None: killed at the timeout
    stderr: list[str]       # its last lines


def hgreport(tree: pathlib.Path, args: list[str], timeout: float, poll: float = 0.02,
             env: dict[str, str | None] | None = None) -> Timed:
    """`python -m hgreport ARGS` of `tree`'s analysis/ (stdout thrown away), killed when it
    runs past `timeout` seconds; `env` adds to (a value of None: takes out of) the
    environment."""
    if not (tree / "analysis" / "hgreport" / "__init__.py").is_file():
        # else python3 -m hgreport would time whatever copy of it is installed
        raise SystemExit(f"{tree}: no analysis/hgreport here: give a checkout of hgrun")
    full = dict(os.environ, PYTHONPATH=str(tree / "analysis"))
    for k, v in (env or {}).items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "hgreport", *args], env=full,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    rc = None
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            rc = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() - t > timeout:
            p.kill()
            _, _, usage = os.wait4(p.pid, 0)
            break
        time.sleep(poll)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    p.stderr.close()
    return Timed(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss << 10, rc, err[-3:])
