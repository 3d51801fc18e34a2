#!/usr/bin/env python3
"""Ways to load a big gap trace, side by side: why hgreport reads the runner's binary columns
with numpy (analysis/README.md#performance).

Each reader runs in a fresh process (time and peak RSS from os.wait4) on the same run:
hgreport's own reader (binfile.columns, and Run.intervals: result.json checked, records
checked, sorted by start), a copy out of an np.memmap, polars from the binary records, and
the JSON-lines export of the same trace (hgreport export) read by polars.read_ndjson,
pyarrow's JSON reader and hgreport's per-line parser (on the first 1M lines).
polars and pyarrow are not dependencies of hgreport: readers whose module is missing are
skipped (pip install --target DIR polars pyarrow, then --site DIR).

    bench/hgreport_readers.py RUN_DIR            # e.g. hgreport_scale.py --keep's big run
"""
from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

READERS = {
    "hgreport binfile.columns": """
from hgreport.read import binfile
c = binfile.columns(RUN / "trace.bin", "intervals", None, {"start_ns": "<i8", "end_ns": "<i8",
    "thread": "<u2", "cpu": "<i2", "end": "u1", "cause": "<u4", "window": "<u4"},
    sparse=("cause", "window"), threads=1 << 16)
n = len(c["start_ns"])""",
    "hgreport Run.intervals": """
from hgreport.read.rundir import read_run
n = len(read_run(RUN).intervals)""",
    "np.memmap, columns copied": """
from hgreport.read.binfile import DTYPES
m = np.memmap(RUN / "trace.bin", DTYPES["intervals"], mode="r", offset=64)
c = {k: np.ascontiguousarray(m[k]) for k in ("start_ns", "end_ns", "thread", "cpu", "end")}
n = len(c["start_ns"])""",
    "polars from the binary": """
import polars as pl
from hgreport.read.binfile import DTYPES
r = np.fromfile(RUN / "trace.bin", DTYPES["intervals"], offset=64)
n = pl.DataFrame({k: r[k] for k in ("start_ns", "end_ns", "thread", "cpu", "end")}).height""",
    "polars.read_ndjson": """
import polars as pl
n = pl.read_ndjson(JSONL).height""",
    "pyarrow read_json": """
from pyarrow import json as pj
n = pj.read_json(JSONL).num_rows""",
    "hgreport per line (1M lines)": """
from hgreport.read.rundir import read_run
n = len(read_run(RUN)._intervals_jsonl(JSONL_1M))""",
}


def measure(code: str, run: pathlib.Path, jsonl: pathlib.Path, site: str | None):
    prog = ("import sys, pathlib, numpy as np\n"
            f"sys.path.insert(0, {str(ROOT / 'analysis')!r})\n"
            + (f"sys.path.append({site!r})\n" if site else "")
            + f"RUN = pathlib.Path({str(run)!r}); JSONL = {str(jsonl)!r}\n"
            + f"JSONL_1M = pathlib.Path({str(jsonl) + '.1m'!r})\n" + code + "\nprint(n)\n")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        pid = os.posix_spawn(sys.executable, [sys.executable, "-c", prog], os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                                           (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
        err.seek(0)
        text = err.read().decode()
        if os.waitstatus_to_exitcode(status):
            return None, text.strip().splitlines()[-1] if text.strip() else "failed"
        out.seek(0)
        return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                int(out.read())), None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir", type=pathlib.Path)
    ap.add_argument("--site", help="a directory holding polars and pyarrow (pip install --target)")
    a = ap.parse_args()
    jsonl = a.run_dir / "export" / "trace.jsonl"
    if not jsonl.exists():
        subprocess.run([sys.executable, "-m", "hgreport", "export", str(a.run_dir)], check=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT / "analysis")))
    one_m = pathlib.Path(str(jsonl) + ".1m")
    if not one_m.exists():
        with jsonl.open() as f, one_m.open("w") as g:
            for _, line in zip(range(1_000_000), f):
                g.write(line)
    print(f"trace.bin {(a.run_dir / 'trace.bin').stat().st_size / 2**20:.0f} MiB, "
          f"trace.jsonl {jsonl.stat().st_size / 2**20:.0f} MiB (page cache warm after the first)")
    print(f"{'reader':32} {'rows':>9} {'wall s':>7} {'CPU s':>6} {'peak RSS MiB':>13}")
    for name, code in READERS.items():
        got, why = measure(code, a.run_dir, jsonl, a.site)
        if got is None:
            print(f"{name:32} skipped: {why}")
        else:
            wall, cpu, rss, n = got
            print(f"{name:32} {n:9d} {wall:7.2f} {cpu:6.2f} {rss:13.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
