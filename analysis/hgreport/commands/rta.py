# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport rta`: response-time analysis of a run's (or a resolved scenario's) periodic threads."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import argtypes
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", type=Path, help="run directory, or resolved scenario JSON "
                                            "(hgrun validate --resolved)")
    p.add_argument("--jitter", type=argtypes.assign, action="append", default=[], metavar="THREAD=DUR")
    p.add_argument("--blocking", type=argtypes.assign, action="append", default=[], metavar="THREAD=DUR")
    p.add_argument("--exec", type=argtypes.assign, action="append", default=[], metavar="THREAD=DUR",
                   help="worst-case execution time instead of the workload's exec")
    p.add_argument("--json", action="store_true", help="print JSON instead of Markdown")


def _run(args: argparse.Namespace) -> int:
    from ..tables.rta import analyse_input, render
    doc = analyse_input(args.input, dict(args.jitter), dict(args.blocking), dict(args.exec))
    print(json.dumps(doc, indent=2) if args.json else render(doc), end="" if not args.json else "\n")
    return 0


COMMAND = Command("rta", "response-time analysis of the periodic threads", _arguments, _run,
                  "RUN_DIR|SCENARIO.json [--jitter T=DUR] [--exec T=DUR]",
                  examples=('hgreport rta RUN_DIR', 'hgreport rta RUN_DIR --jitter video=8ms --exec video=19ms', 'hgrun validate --resolved S.yaml > s.json && hgreport rta s.json'))
