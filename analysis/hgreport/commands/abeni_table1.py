# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport abeni-table1 RUN...` (also `table1`): per-window statistics (Abeni et al. table 1)
and switch rates."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="+", metavar="RUN",
                   help="run directories; with several, a row per run and a column per window")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import abeni_table1 as table1
    from ..read.rundir import read_run
    from ..read.rungroups import Group, assign_labels
    from ..tables import abeni_table1 as table1_render
    from ..tables import verdicts
    runs = [read_run(p) for p in args.runs]
    data = [table1.table1(r) for r in runs]
    if len(runs) == 1:
        print(json.dumps(data[0], indent=2) if args.json else table1_render.one(data[0]), end="\n" if args.json else "")
        return 0
    groups = [Group(str(r.path), [r]) for r in runs]
    assign_labels(groups)
    labels = [g.label for g in groups]
    if args.json:
        print(json.dumps([dict(d, label=lab) for d, lab in zip(data, labels)], indent=2))
    else:
        print(table1_render.several(data, labels), end="")
        by_run = {id(r): d for r, d in zip(runs, data)}
        section = verdicts.section(verdicts.compute(
            verdicts.configurations(runs), lambda r: table1_render.values(by_run[id(r)])))
        if section:
            print("\n" + "\n".join(section).rstrip())
    return 0


COMMAND = Command("abeni-table1", "Abeni et al.'s table 1: per load window latency worst/p99/"
                  "count, deadline misses, switches per second; switch rates and costs per "
                  "thread", _arguments, _run, "RUN... [--json]", aliases=("table1",),
                  examples=('hgreport abeni-table1 results/abeni_np/<time>', 'hgreport abeni-table1 run1 run2 --json > table1.json'))
