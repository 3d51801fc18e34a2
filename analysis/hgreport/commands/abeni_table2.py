# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport abeni-table2 RUN...`: Abeni et al.'s table 2, the worst latency per stress window
of long runs, a row per run and per configuration."""
from __future__ import annotations

import argparse
from pathlib import Path

from . import configurations
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories (runs of one configuration are its repeats)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import abeni_table2
    from ..tables import abeni_table2 as render
    runs, labels, configs = configurations.rows(args.paths, abeni_table2.of_run,
                                                abeni_table2.across)
    if args.json:
        configurations.print_json(runs, labels, configurations=configs)
    else:
        print(render.page(runs, labels, configs), end="")
    return 0


COMMAND = Command("abeni-table2", "Abeni et al.'s table 2: the worst latency per stress window "
                  "of long runs, a row per run and per configuration (each run's worst over the "
                  "runs, with its interval)", _arguments, _run, "RUN... [--json]",
                  examples=('hgreport abeni-table2 results/abeni_long', 'hgreport abeni-table2 run1 run2 run3 --json'))
