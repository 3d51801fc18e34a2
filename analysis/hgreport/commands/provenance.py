# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport provenance RUN|SWEEP...`: where runs came from (scenario, hgrun, machine, kernel,
time) and what disturbed each; with --json the record docs/data keeps beside a summary."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories, sweep directories or sweep point directories")
    p.add_argument("--json", action="store_true", help="print the record as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import provenance
    from ..read.rungroups import gather
    from ..tables import provenance as render
    runs = [r for g in gather(args.paths, []) for r in g.runs]
    rec = provenance.of_runs(runs)
    print(json.dumps(rec, indent=1) if args.json else render.page(rec), end="\n" if args.json else "")
    return 0


COMMAND = Command("provenance", "where runs came from: scenario and its hash, hgrun, host, "
                  "kernel, preemption model, start time, and what disturbed each run "
                  "(competition, steal, CPU not received, incomplete)", _arguments, _run,
                  "RUN|SWEEP... [--json]",
                  examples=('hgreport provenance results/rx_deadline/<time>', 'hgreport provenance results/sweep-<time> --json'))
