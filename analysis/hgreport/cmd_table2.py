"""`hgreport table2 RUN_DIR`: Hourglass section 5.4, missed deadlines and throughput."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path)
    p.add_argument("--json", action="store_true")


def _run(args: argparse.Namespace) -> int:
    from . import table2
    from .rundir import read_run
    run = read_run(args.run_dir)
    data = table2.rows(run)
    print(json.dumps(data, indent=2) if args.json else table2.render(run, data), end="" if not args.json else "\n")
    return 0


COMMAND = Command("table2", "section 5.4: missed deadlines and throughput", _arguments, _run,
                  "RUN_DIR [--json]")
