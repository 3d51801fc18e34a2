# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport abeni-cdf RUN... [--window NAME] [--at DUR,...] [-o OUT]`: Abeni et al.'s figure 4,
the latency CDF in one load window, a curve per run coloured by configuration, and
P{latency <= x} per run and over the runs of each configuration."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .argtypes import thresholds
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", type=Path, nargs="+", metavar="RUN",
                   help="run directories (runs of one configuration are its repeats)")
    p.add_argument("--window", default="io", metavar="NAME",
                   help="the load window (a load's name, as abeni-table1 names it; default io, "
                        "the paper's I/O stress)")
    p.add_argument("--at", type=thresholds, default=None, metavar="DUR,...",
                   help="latencies x at which P{L <= x} is given (default 50us,100us,200us,"
                        "500us,1ms,2ms)")
    p.add_argument("-o", "--output", type=Path,
                   help="write abeni_cdf.md, abeni_cdf.json and abeni_cdf.png into this directory")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")


def _run(args: argparse.Namespace) -> int:
    from ..analyses import latency_cdf, over_runs
    from ..read.rungroups import gather
    from ..tables.verdicts import configurations
    from ..tables import latency_cdf as render
    at = tuple(args.at) if args.at else latency_cdf.AT_NS
    groups = configurations([r for g in gather(args.paths, []) for r in g.runs])
    per_group = [[latency_cdf.of_run(r, args.window, at) for r in g.runs] for g in groups]
    runs = [dict(x, label=over_runs.run_label(g, r), configuration=g.label)
            for g, xs in zip(groups, per_group) for r, x in zip(g.runs, xs)]
    doc = {"window": args.window, "at_ns": list(at), "runs": runs,
           "configurations": [latency_cdf.across(g.label, xs, at) for g, xs in zip(groups, per_group)]}
    if args.output:
        text = render.write(doc, args.output)
        if not args.json:
            print(text, end="")
    if args.json:
        print(json.dumps(dict(doc, runs=[{k: v for k, v in r.items() if k != "curve_ns"}
                                         for r in runs]), indent=1))
    elif not args.output:
        print(render.page(doc), end="")
    return 0


COMMAND = Command("abeni-cdf", "Abeni et al.'s figure 4: the latency CDF in one load window "
                  "(default io), a curve per run coloured by configuration, and P{latency <= x} "
                  "per run and per configuration over its runs", _arguments, _run,
                  "RUN... [--window NAME] [--at DUR,...] [-o OUT] [--json]",
                  examples=('hgreport abeni-cdf run1 run2 run3', 'hgreport abeni-cdf results/np results/np_paper --window io -o results/cdf'))
