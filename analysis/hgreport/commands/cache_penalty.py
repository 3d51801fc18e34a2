# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport cache-penalty SWEEP_DIR`: Hourglass section 5.2, the penalty per context switch."""
from __future__ import annotations

import argparse
from pathlib import Path

from .command import Command, UsageError


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("sweep_dir", type=Path)
    p.add_argument("--one", metavar="ID", help="point of the one-thread runs")
    p.add_argument("--many", metavar="ID", help="point of the many-thread runs")
    p.add_argument("-o", "--output", type=Path, help="output directory (default SWEEP_DIR/report)")


def _run(args: argparse.Namespace) -> int:
    from ..read.sweepdir import read_sweep
    from ..tables import cache_penalty as cp
    sw = read_sweep(args.sweep_dir)
    if bool(args.one) != bool(args.many):
        raise UsageError("give both --one ID and --many ID, or neither")
    if args.one:
        rows = [cp.compare(f"{args.one} vs {args.many}", None, sw.point(args.one), sw.point(args.many))]
    else:
        rows = cp.automatic(sw)
    out = args.output or sw.path / "report"
    print(cp.write(rows, out), end="")
    print(f"\nwritten: {out}/cache_penalty.md, cache_penalty.png, cache_penalty.json")
    return 0


COMMAND = Command("cache-penalty", "section 5.2: penalty per context switch", _arguments, _run,
                  "SWEEP_DIR [--one ID --many ID]",
                  examples=('hgreport cache-penalty results/cache_penalty/sweep-<time>', 'hgreport cache-penalty SWEEP --one p000 --many p002'))
