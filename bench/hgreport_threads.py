#!/usr/bin/env python3
"""hgreport on a run of many threads (analysis/README.md: figures bounded in the thread count):
the golden `miss` run (tests/analysis/golden/miss: two periodic threads, 749 intervals) made
into --threads threads (4096 by default): result.json's threads and scenario threads copied
(`t`, instances 0..N-1), each trace.bin record given to one of them in turn. Times
`hgreport RUN` in a child process: wall, CPU (its and its children's) and peak RSS (wait4),
`-n` times; `--tree DIR` times another checkout beside this one, interleaved (this tree, the
other, this tree, ...), and says which output files differ byte for byte; in one process
(HGREPORT_SERIAL=1) unless --forked (the default of hgreport: the Perfetto export and every
other figure in forked children, base/forked.py).

    python3 bench/hgreport_threads.py [--threads 4096] [--tree DIR] [-n 5] [--timeout S]
                                      [--forked]"""
from __future__ import annotations

import argparse
import copy
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADER = 64


def make(dst: pathlib.Path, n: int) -> pathlib.Path:
    shutil.copytree(ROOT / "tests" / "analysis" / "golden" / "miss", dst,
                    ignore=shutil.ignore_patterns("report"))
    doc = json.loads((dst / "result.json").read_text())
    base, sc = doc["threads"], doc["scenario"]["threads"]
    doc["threads"], doc["scenario"]["threads"] = [], []
    for i in range(n):
        t = copy.deepcopy(base[i % len(base)])
        t.update(name="t", instance=i, os_name=f"t.{i}")
        doc["threads"].append(t)
        s = copy.deepcopy(sc[i % len(sc)])
        s.update(name="t", instance=i)
        doc["scenario"]["threads"].append(s)
    (dst / "result.json").write_text(json.dumps(doc))
    data = bytearray((dst / "trace.bin").read_bytes())
    rec = np.frombuffer(data, np.dtype([("a", "<i8"), ("b", "<i8"), ("thread", "<u4"),
                                        ("rest", "V12")]), offset=HEADER)
    rec = rec.copy()
    rec["thread"] = rec["thread"] + len(base) * (np.arange(len(rec)) % (n // len(base)))
    (dst / "trace.bin").write_bytes(bytes(data[:HEADER]) + rec.tobytes())
    return dst


def one(tree: pathlib.Path, run: pathlib.Path, forked: bool,
        timeout: float) -> tuple[float, float, int, int | None, list[str]]:
    """`hgreport RUN` of `tree` in a child: (wall s, CPU s of it and its children, peak RSS MiB,
    exit status or None when killed at the timeout, stderr's last lines)."""
    shutil.rmtree(run / "report", ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(tree / "analysis"))
    env.pop("HGREPORT_SERIAL", None)
    if not forked:
        env["HGREPORT_SERIAL"] = "1"
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "hgreport", str(run)], env=env,
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
        time.sleep(0.02)
    wall = time.perf_counter() - t
    err = p.stderr.read().decode(errors="replace").strip().splitlines()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss >> 10, rc, err[-3:]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=4096)
    ap.add_argument("--tree", type=pathlib.Path,
                    help="another checkout, timed beside this one, interleaved")
    ap.add_argument("-n", type=int, default=1, help="reports per tree (default 1)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--forked", action="store_true", help="as hgreport runs by default")
    args = ap.parse_args()
    trees = [ROOT] + ([args.tree.resolve()] if args.tree else [])
    took: dict[int, list[tuple[float, float, int]]] = {k: [] for k in range(len(trees))}
    same = None
    with tempfile.TemporaryDirectory() as tmp:
        run = make(pathlib.Path(tmp) / "run", args.threads)
        for _ in range(args.n):
            for k, tree in enumerate(trees):
                wall, cpu, rss, rc, err = one(tree, run, args.forked, args.timeout)
                if rc != 0:
                    print(f"{tree}: {'exit %d' % rc if rc is not None else 'killed at the timeout'}"
                          f" after {wall:.1f} s\n" + "\n".join(err))
                    return 1
                took[k].append((wall, cpu, rss))
                files = {f.name: f.read_bytes() for f in (run / "report").iterdir()}
                if k == 0:
                    mine = files
                elif len(trees) == 2:
                    same = sorted(n for n in set(mine) | set(files)
                                  if mine.get(n) != files.get(n))
    print(f"hgreport RUN of {args.threads} threads, "
          f"{'forked (as by default)' if args.forked else 'serial (HGREPORT_SERIAL=1)'}, "
          f"n={args.n} per tree, interleaved; load average {os.getloadavg()[0]:.1f} at the end")
    for k, tree in enumerate(trees):
        w, c, r = zip(*took[k])
        print(f"{str(tree):40} wall {statistics.median(w):5.2f} s ({min(w):.2f}-{max(w):.2f}), "
              f"CPU {statistics.median(c):5.2f} s ({min(c):.2f}-{max(c):.2f}), "
              f"peak RSS {min(r)}-{max(r)} MiB")
    if same is not None:
        print("outputs: " + ("every file byte for byte the same in both trees" if not same else
                             "differ: " + ", ".join(same)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
