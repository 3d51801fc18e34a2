# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport hourglass-table2 RUN_DIR...` (also `table2`): Hourglass's table 2 (section 5.4),
missed deadlines and throughput; with several runs, a row per run."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, nargs="+",
                   help="run directories; with several, a row per run (labelled by what differs)")
    p.add_argument("--json", action="store_true")


def _run(args: argparse.Namespace) -> int:
    from ..read.rundir import read_run
    from ..read.rungroups import Group, assign_labels
    from ..tables import hourglass_table2 as table2
    from ..tables import verdicts
    runs = [read_run(p) for p in args.run_dir]
    data = [table2.rows(r) for r in runs]
    if len(runs) == 1:
        print(json.dumps(data[0], indent=2) if args.json else table2.render(runs[0], data[0]),
              end="\n" if args.json else "")
        return 0
    groups = [Group(str(r.path), [r]) for r in runs]
    assign_labels(groups)
    labels = [g.label for g in groups]
    if args.json:
        print(json.dumps([{"label": lab, "run": str(r.path), "rows": d}
                          for lab, r, d in zip(labels, runs, data)], indent=2))
    else:
        print(table2.render_several(runs, labels, data), end="")
        section = verdicts.section(verdicts.compute(verdicts.configurations(runs), table2.values))
        if section:
            print("\n" + "\n".join(section).rstrip())
    return 0


COMMAND = Command("hourglass-table2", "Hourglass's table 2 (section 5.4): missed deadlines and "
                  "throughput (a row per run with several)", _arguments, _run,
                  "RUN_DIR... [--json]", aliases=("table2",),
                  examples=('hgreport hourglass-table2 /tmp/rx', 'hgreport hourglass-table2 /tmp/rx1 /tmp/rx2 --json'))
