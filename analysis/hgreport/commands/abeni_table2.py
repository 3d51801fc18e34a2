# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport abeni-table2 RUN...`: Abeni et al.'s table 2, the worst latency per stress window
of long runs, a row per run and per configuration."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories (runs of one configuration are its repeats)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import abeni_table2, over_runs
    from ..read.rungroups import gather
    from ..tables.verdicts import configurations
    from ..tables import abeni_table2 as render
    groups = configurations([r for g in gather(args.paths, []) for r in g.runs])
    per_group = [[abeni_table2.of_run(r) for r in g.runs] for g in groups]
    runs = [x for xs in per_group for x in xs]
    labels = [over_runs.run_label(g, r) for g in groups for r in g.runs]
    configs = [abeni_table2.across(g.label, xs) for g, xs in zip(groups, per_group)]
    if args.json:
        print(json.dumps({"runs": [dict(r, label=lab) for r, lab in zip(runs, labels)],
                          "configurations": configs}, indent=1))
    else:
        print(render.page(runs, labels, configs), end="")
    return 0


COMMAND = Command("abeni-table2", "Abeni et al.'s table 2: the worst latency per stress window "
                  "of long runs, a row per run and per configuration (each run's worst over the "
                  "runs, with its interval)", _arguments, _run, "RUN... [--json]",
                  examples=('hgreport abeni-table2 results/abeni_long', 'hgreport abeni-table2 run1 run2 run3 --json'))
