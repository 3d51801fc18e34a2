# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport slices RUN...`: slices of CPU per thread (Hourglass figure 3): how many, how long,
per run, and over the runs of each configuration with the paper's claim tested."""
from __future__ import annotations

import argparse
from pathlib import Path

from .argtypes import duration
from . import configurations
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories (runs of one configuration are its repeats), sweep or "
                        "sweep point directories")
    p.add_argument("--max-gap", type=duration, default=None, metavar="DUR",
                   help="a gap longer than this ends a slice (default 1ms)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import slices
    from ..tables import slices as render
    gap = args.max_gap if args.max_gap is not None else slices.MAX_GAP_NS
    runs, labels, configs = configurations.rows(args.paths, lambda r: slices.of_run(r, gap),
                                                slices.across)
    if args.json:
        configurations.print_json(runs, labels, configurations=configs)
    else:
        print(render.page(runs, configs, labels), end="")
    return 0


COMMAND = Command("slices", "slices of CPU per thread (Hourglass figure 3): count, rate, "
                  "length and CPU share per thread; over several runs the paper's claim "
                  "(higher priority: longer slices, not more of them) tested", _arguments, _run,
                  "RUN... [--max-gap DUR] [--json]",
                  examples=('hgreport slices results/first_trace/<time>', 'hgreport slices run1 run2 run3 --max-gap 2ms'))
