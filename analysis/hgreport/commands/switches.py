# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport switches RUN...`: context switches by kind (Hourglass 5.1): within a process and,
for runs made at the same time, between processes; with a kernel trace what the kernel ran
inside them."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories: runs made at the same time on one machine are merged "
                        "(switches between them are between processes); each such set is one "
                        "replicate")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import switch_kinds
    from ..read.rungroups import gather
    from ..tables import switch_kinds as render
    runs = [r for g in gather(args.paths, []) for r in g.runs]
    sets = switch_kinds.together(runs)
    per = [switch_kinds.of_set(s) for s in sets]
    over = switch_kinds.across(per) if len(per) > 1 else None
    splits = [(str(r.path), sp) for r in runs if (sp := switch_kinds.kernel_split(r)) is not None]
    if args.json:
        print(json.dumps({"sets": per, "over_sets": over,
                          "kernel_split": [{"run": p, **sp} for p, sp in splits]}, indent=1))
    else:
        print(render.page(per, over, splits), end="")
    return 0


COMMAND = Command("switches", "context switches by kind (Hourglass 5.1): within a process and, "
                  "for runs made at the same time, between processes; involuntary and "
                  "voluntary; with a kernel trace what the kernel ran inside each", _arguments,
                  _run, "RUN... [--json]",
                  examples=('hgreport switches results/proc_a results/proc_b', 'hgreport switches run1 run2 run3 --json'))
