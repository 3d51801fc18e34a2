# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport export RUN_DIR [--format NAME] [-o OUT]`: a run's files for other tools, in each
format of export/registry.py (trace.bin / latency.bin as JSON lines, the latency histograms
in cyclictest's -h layout, Hourglass's own interval, latlate and deadline lines)."""
from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command, UsageError


def _arguments(p: argparse.ArgumentParser) -> None:
    from ..export.registry import FORMATS
    p.add_argument("run_dir", type=Path)
    p.add_argument("--format", choices=[f.name for f in FORMATS], default=FORMATS[0].name,
                   help="; ".join(f"{f.name}: {f.help}" for f in FORMATS))
    p.add_argument("-o", "--output", type=Path,
                   help="; ".join(f"{f.name}: {f.output}" for f in FORMATS))
    for f in FORMATS:
        f.arguments(p)


def _options(name: str) -> list[str]:
    """The options a format adds of its own (their `dest`s)."""
    from ..export.registry import FORMATS
    probe = argparse.ArgumentParser(add_help=False)
    next(f for f in FORMATS if f.name == name).arguments(probe)
    return list(vars(probe.parse_args([])))


def _run(args: argparse.Namespace) -> int:
    from ..export.registry import FORMATS
    from ..read.rundir import read_run
    for f in FORMATS:
        for dest in _options(f.name):
            if getattr(args, dest, None) is not None and args.format != f.name:
                raise UsageError(f"--{dest.replace('_', '-')} belongs to --format {f.name}")
    fmt = next(f for f in FORMATS if f.name == args.format)
    fmt.write(read_run(args.run_dir), args)
    return 0


COMMAND = Command("export", "trace.bin and latency.bin as JSON lines, the latency "
                  "histograms in cyclictest's -h layout, or Hourglass's own output lines",
                  _arguments, _run,
                  "RUN_DIR [--format jsonl|cyclictest|hourglass|kcidb] [--buckets N] [-o OUT]",
                  examples=('hgreport export RUN_DIR', 'hgreport export RUN_DIR --format cyclictest --buckets 400 -o hist.txt', 'hgreport export RUN_DIR --format hourglass -o - | head', 'hgreport export RUN_DIR --format kcidb --origin my_lab -o kcidb/run.json'))
