#!/usr/bin/env python3
"""hgreport on a series.jsonl with one very long line (analysis/README.md: every line read is
bounded): a copy of a golden killed run (tests/analysis/golden/killed) whose series.jsonl ends
in SIZE bytes without a newline, NUL bytes (a power cut: a sparse file, no disk used) or 'x'
(garbage), read by `hgreport series RUN` in a child process: wall time and peak RSS (wait4).
The goal: a 2 GB line read or refused in under 10 s and 1 GB.

    python3 bench/hgreport_longline.py [--size 2G] [--fill nul|x|both] [--tree DIR]
                                       [--command series|report]

--tree runs another checkout's analysis/ (the code before, for comparison), with --timeout.
--command report: the whole report (`hgreport RUN`) of a copy of the complete golden miss
run instead (its last line may be torn too: the same skipping, then figures and tables)."""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import sys
import tempfile

import hgreport_child
from hgreport_child import GOLDEN, ROOT


def size_arg(text: str) -> int:
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * mult[text[-1].upper()]) if text[-1].upper() in mult else int(text)


def make(dst: pathlib.Path, size: int, fill: str, base: str = "killed") -> pathlib.Path:
    shutil.copytree(GOLDEN / base, dst)
    series = dst / "series.jsonl"
    if fill == "nul":
        os.truncate(series, series.stat().st_size + size)       # sparse: NUL bytes
    else:
        block = b"x" * (8 << 20)
        with series.open("ab") as f:
            left = size
            while left > 0:
                f.write(block[:min(left, len(block))])
                left -= len(block)
    return dst


def measure(run: pathlib.Path, tree: pathlib.Path, timeout: float,
            command: str = "series") -> tuple[float, int, int | None]:
    """(wall s, peak RSS bytes, exit status or None when it was killed at the timeout)."""
    t = hgreport_child.hgreport(tree, [command, str(run), "-o", str(run / "out")], timeout,
                                poll=0.05)
    if t.stderr:
        print(f"    stderr: {t.stderr[-1][:160]}")
    return t.wall_s, t.peak_rss, t.rc


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=size_arg, default=2 << 30)
    ap.add_argument("--fill", choices=("nul", "x", "both"), default="both")
    ap.add_argument("--tree", type=pathlib.Path, default=ROOT)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--command", choices=("series", "report"), default="series")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/var/tmp")) as tmp:
        for fill in (("nul", "x") if args.fill == "both" else (args.fill,)):
            run = make(pathlib.Path(tmp) / fill, args.size, fill,
                       "killed" if args.command == "series" else "miss")
            wall, rss, rc = measure(run, args.tree, args.timeout, args.command)
            state = f"exit {rc}" if rc is not None else f"killed after {args.timeout:.0f} s"
            print(f"hgreport {args.command}: {args.size / (1 << 30):.2f} GiB line of {fill}: "
                  f"{wall:.1f} s, "
                  f"peak RSS {rss / (1 << 20):.0f} MiB, {state}")
            shutil.rmtree(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
