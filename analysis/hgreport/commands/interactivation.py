# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport interactivation RUN|SWEEP...`: inter-activation times (Abeni et al. section 4.1,
figure 2) per run and per configuration (a sweep's points) over its runs."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories, sweep directories (a configuration per point) or "
                        "sweep point directories")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import interactivation, over_runs
    from ..read.rungroups import gather
    from ..tables.verdicts import configurations
    from ..tables import interactivation as render
    groups = configurations([r for g in gather(args.paths, []) for r in g.runs])
    per_group = [[interactivation.of_run(r) for r in g.runs] for g in groups]
    runs = [x for xs in per_group for x in xs]
    labels = [over_runs.run_label(g, r) for g in groups for r in g.runs]
    configs = [interactivation.across(g.label, xs) for g, xs in zip(groups, per_group)]
    versus = interactivation.against_first(configs)
    if args.json:
        print(json.dumps({"runs": [dict(r, label=lab) for r, lab in zip(runs, labels)],
                          "configurations": configs, "against_first": versus}, indent=1))
    else:
        print(render.page(runs, labels, configs, versus), end="")
    return 0


COMMAND = Command("interactivation", "inter-activation times of periodic and latency threads "
                  "(Abeni et al. 4.1, figure 2): the deviation from the period per run, and per "
                  "configuration (a sweep's points) over its runs", _arguments, _run,
                  "RUN|SWEEP... [--json]",
                  examples=('hgreport interactivation results/abeni_timer/sweep-<time>', 'hgreport interactivation run1 run2 run3 --json'))
