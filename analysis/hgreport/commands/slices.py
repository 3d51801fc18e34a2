# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport slices RUN...`: slices of CPU per thread (Hourglass figure 3): how many, how long,
per run, and over the runs of each configuration with the paper's claim tested."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .argtypes import duration
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories (runs of one configuration are its repeats), sweep or "
                        "sweep point directories")
    p.add_argument("--max-gap", type=duration, default=None, metavar="DUR",
                   help="a gap longer than this ends a slice (default 1ms)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import over_runs, slices
    from ..read.rungroups import gather
    from ..tables.verdicts import configurations
    from ..tables import slices as render
    groups = configurations([r for g in gather(args.paths, []) for r in g.runs])
    gap = args.max_gap if args.max_gap is not None else slices.MAX_GAP_NS
    per_group = [[slices.of_run(r, gap) for r in g.runs] for g in groups]
    runs = [x for xs in per_group for x in xs]
    labels = [over_runs.run_label(g, r) for g in groups for r in g.runs]
    configs = [slices.across(g.label, xs) for g, xs in zip(groups, per_group)]
    if args.json:
        print(json.dumps({"runs": [dict(r, label=lab) for r, lab in zip(runs, labels)],
                          "configurations": configs}, indent=1))
    else:
        print(render.page(runs, configs, labels), end="")
    return 0


COMMAND = Command("slices", "slices of CPU per thread (Hourglass figure 3): count, rate, "
                  "length and CPU share per thread; over several runs the paper's claim "
                  "(higher priority: longer slices, not more of them) tested", _arguments, _run,
                  "RUN... [--max-gap DUR] [--json]",
                  examples=('hgreport slices results/first_trace/<time>', 'hgreport slices run1 run2 run3 --max-gap 2ms'))
