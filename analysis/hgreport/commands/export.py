"""`hgreport export RUN_DIR [-o OUT]`: trace.bin / latency.bin as JSON lines."""
from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path)
    p.add_argument("-o", "--output", type=Path,
                   help="output directory (default RUN_DIR/export): trace.jsonl, latency.jsonl")


def _run(args: argparse.Namespace) -> int:
    from ..export import jsonl as export
    from ..read.rundir import read_run
    run = read_run(args.run_dir)
    out = args.output or run.path / "export"
    for path, n in export.write(run, out):
        print(f"{path}: {n} lines")
    return 0


COMMAND = Command("export", "trace.bin and latency.bin as JSON lines, one object per record",
                  _arguments, _run, "RUN_DIR [-o OUT]")
