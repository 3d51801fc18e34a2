# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport series RUN_DIR`: a run over its whole length from series.jsonl alone (the part of the
report a run of hours or days is read by), without reading the trace."""
from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command
from ..base import safeout


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path)
    p.add_argument("-o", "--output", type=Path, help="output directory (default RUN_DIR/report)")


def _run(args: argparse.Namespace) -> int:
    from ..base.errors import InputError
    from ..read.rundir import read_run
    from ..report.sections.over_time import TITLE, section
    run = read_run(args.run_dir)
    out = args.output or run.path / "report"
    text, summary = section(run, out)
    if not text:
        raise InputError(run.path / "result.json", "the run has no series.jsonl (`files.series`); "
                                                   "runs of hgrun before streaming have none")
    safeout.write_text(out / "series.md", f"# {run.scenario.get('name')}: over time\n\n"
                                          f"## {TITLE}\n\n{text}")
    for line in summary:
        print(line)
    print(f"report: {out / 'series.md'}")
    return 0


COMMAND = Command("series", "a run over its whole length from series.jsonl: latency max/p99, "
                            "gaps, misses, CPU and load throughput per interval, outlier windows",
                  _arguments, _run, "RUN_DIR [-o OUT]",
                  examples=('hgreport series results/soak/<time>', 'hgreport series RUN_DIR -o /tmp/series'))
