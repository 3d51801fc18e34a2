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
import os
import pathlib
import shutil
import statistics
import sys
import tempfile

import hgreport_child
from hgreport_child import GOLDEN, ROOT

sys.path.insert(0, str(GOLDEN.parent))
from test_many_threads import many_threads  # noqa: E402  (the test's threads, made alike)


def make(dst: pathlib.Path, n: int) -> pathlib.Path:
    shutil.copytree(GOLDEN / "miss", dst,
                    ignore=shutil.ignore_patterns("report"))
    return many_threads(dst, n)


def one(tree: pathlib.Path, run: pathlib.Path, forked: bool,
        timeout: float) -> tuple[float, float, int, int | None, list[str]]:
    """`hgreport RUN` of `tree` in a child: (wall s, CPU s of it and its children, peak RSS MiB,
    exit status or None when killed at the timeout, stderr's last lines)."""
    shutil.rmtree(run / "report", ignore_errors=True)
    t = hgreport_child.hgreport(tree, [str(run)], timeout,
                                env={"HGREPORT_SERIAL": None if forked else "1"})
    return t.wall_s, t.cpu_s, t.peak_rss >> 20, t.rc, t.stderr


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
