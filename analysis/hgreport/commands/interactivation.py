# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport interactivation RUN|SWEEP...`: inter-activation times (Abeni et al. section 4.1,
figure 2) per run and per configuration (a sweep's points) over its runs."""
from __future__ import annotations

import argparse
from pathlib import Path

from . import configurations
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories, sweep directories (a configuration per point) or "
                        "sweep point directories")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import interactivation
    from ..tables import interactivation as render
    runs, labels, configs = configurations.rows(args.paths, interactivation.of_run,
                                                interactivation.across)
    versus = interactivation.against_first(configs)
    if args.json:
        configurations.print_json(runs, labels, configurations=configs, against_first=versus)
    else:
        print(render.page(runs, labels, configs, versus), end="")
    return 0


COMMAND = Command("interactivation", "inter-activation times of periodic and latency threads "
                  "(Abeni et al. 4.1, figure 2): the deviation from the period per run, and per "
                  "configuration (a sweep's points) over its runs", _arguments, _run,
                  "RUN|SWEEP... [--json]",
                  examples=('hgreport interactivation results/abeni_timer/sweep-<time>', 'hgreport interactivation run1 run2 run3 --json'))
