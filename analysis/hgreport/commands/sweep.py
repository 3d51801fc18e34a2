# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport sweep SWEEP_DIR`: each metric per grid point with an interval that fits it."""
from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command, UsageError


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sweep_dir", type=Path)
    p.add_argument("-o", "--output", type=Path, help="output directory (default SWEEP_DIR/report)")
    p.add_argument("--metric", action="append", metavar="NAME",
                   help="a metric to tabulate (repeatable); default: deadline_miss_ratio, "
                        "deadlines_missed, cpu_ns, work_units, latency_p99_ns, latency_max_ns, mbps")
    p.add_argument("--by-host", action="store_true",
                   help="the machine as one more factor: each point split by hostname (and "
                        "kernel), instead of a warning when the runs came from several")


def _run(args: argparse.Namespace) -> int:
    from ..analyses.sweep_metrics import ALL_METRICS, DEFAULT_METRICS
    from ..read.sweepdir import read_sweep
    from ..tables import sweep
    metrics = tuple(args.metric or DEFAULT_METRICS)
    bad = [m for m in metrics if m not in ALL_METRICS]
    if bad:
        raise UsageError(f"unknown metric {bad[0]!r}; metrics: {', '.join(ALL_METRICS)}")
    sw = read_sweep(args.sweep_dir)
    out = args.output or sw.path / "report"
    print(sweep.write(sw, metrics, out, args.by_host), end="")
    print(f"\nwritten: {out}/sweep.md, sweep.csv, sweep.png, summary.json")
    return 0


COMMAND = Command("sweep", "each metric per grid point with a 95% interval that fits it",
                  _arguments, _run, "SWEEP_DIR [--metric NAME]... [--by-host] [-o OUT]",
                  examples=('hgreport sweep SWEEP_DIR', 'hgreport sweep SWEEP_DIR --metric deadline_miss_ratio --metric latency_p99_ns'))
