# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport compare RUN...`: runs (or sweep points, their repeats grouped) side by side, the
differences from the first with an interval and a verdict over the runs (base/stats.py), what
disturbed the runs, --fail-if gates that end true, false or inconclusive."""
from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from .command import Command, UsageError
from ..base import safeout


def _name(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path:
        raise argparse.ArgumentTypeError(f"want NAME=RUN (e.g. base=results/rx/run1), got {text!r}")
    return name.strip(), Path(path)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="*", metavar="RUN",
                   help="run directories, sweep directories (a row per point, its repeats "
                        "grouped), sweep point directories, or another tool's output: cyclictest "
                        "--json or -h text, oslat --json, rtla timerlat hist text, stress-ng's "
                        "cyclic log (its -Y file beside it); the first row is the baseline")
    p.add_argument("--name", type=_name, action="append", default=[], metavar="NAME=RUN",
                   help="label RUN's row NAME (RUN given above or added after them); runs named "
                        "alike are one row of repeats")
    p.add_argument("-o", "--output", type=Path,
                   help="output directory for compare.md, compare.json and the figures "
                        "(default ./compare)")
    p.add_argument("--fail-if", action="append", default=[], metavar="COND",
                   help="exit 5 if COND is true for a row other than the baseline, 6 if no "
                        "COND is true but a check is inconclusive (a disturbed run, or too few "
                        "runs with --significant-only): "
                        "METRIC[NAME] OP VALUE, e.g. latency_p99_ns>+10%%, deadlines_missed>0, "
                        "gap_max_ns>+20%%, throughput<-5%%; METRIC: a name of hgrun list metrics")
    p.add_argument("--significant-only", action="store_true",
                   help="a --fail-if change (+/-, %%) counts only when the difference is "
                        "significant (Welch's t over the runs, p < 0.05; docs/statistics.md); "
                        "with fewer than 3 runs a side the check is inconclusive")
    p.add_argument("--by-host", action="store_true",
                   help="split each row's runs by machine (hostname and kernel): the host "
                        "becomes a factor instead of a warning about mixed machines")
    p.add_argument("--by-cpu", action="store_true",
                   help="name each latency thread pinned to one CPU cpuN, as the peers' outputs "
                        "name their CPUs, so they share rows (the default when a cyclictest, "
                        "oslat, rtla or stress-ng output is among the RUNs)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the within-run block bootstrap of single runs (default 1)")
    p.add_argument("--json", action="store_true", help="print compare.json instead of the tables")


def _rows_by_cpu(groups: list, asked: bool) -> None:
    """Latency threads pinned to one CPU renamed cpuN (read/peers.py, by_cpu) when asked or
    when another tool's output is compared: the peers name their series by CPU."""
    from ..read import peers
    if not asked and not any(peers.is_peer(r) for g in groups for r in g.runs):
        return
    for g in groups:
        g.runs = [peers.by_cpu(r) for r in g.runs]


def _run(args: argparse.Namespace) -> int:
    from ..compare import differences as compare
    from ..compare import failif as compare_failif
    from ..compare import plots as compare_plots
    from ..compare import render as compare_render
    from ..read import rungroups as compare_groups
    conds = [compare_failif.parse(c) for c in args.fail_if]
    if not args.runs and not args.name:
        raise UsageError("no runs: give RUN... (run, sweep or sweep point directories) or "
                         "--name NAME=RUN")
    groups = compare_groups.gather(args.runs, args.name)
    _rows_by_cpu(groups, args.by_cpu)
    if args.by_host:
        groups = compare_groups.split_by_host(groups)
    differing = compare_groups.assign_labels(groups)
    table = compare.build(groups, seed=args.seed)
    dist = compare.disturbances_of(groups, differing)
    verdicts = compare_failif.evaluate(conds, table.rows, table.labels, args.significant_only,
                                       dist)
    status = compare_failif.exit_status(verdicts)
    out = args.output or Path("compare")
    safeout.make_dir(out)
    figures = compare_plots.write_all(table, out, dist)
    from ..compare import histograms as compare_histograms
    figures += compare_histograms.write(groups, out,
                                        compare_plots.legend_names(table.labels, dist))
    doc = compare.to_json(table, groups, differing)
    doc["fail_if"] = verdicts
    doc["figures"] = figures
    doc["disturbances"] = {lab: [dataclasses.asdict(d) for d in ds] for lab, ds in dist.items()}
    doc["exit_status"] = status
    safeout.write_text(out / "compare.json", json.dumps(doc, indent=2) + "\n")
    md = compare_render.render(table, groups, differing, verdicts, figures, dist, status)
    safeout.write_text(out / "compare.md", md)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(md.split("\n## Figures")[0].rstrip())
        print(f"\nwritten: {out}/compare.md, compare.json" + "".join(f", {f}" for f in figures))
    if len(groups) == 1:
        print("note: one row only; nothing to compare against (give two runs or more)")
    for v in verdicts:
        if v["result"] != "false":
            print(f"fail-if {v['condition']}: {v['result']} for {v['run']}: {v['detail']}")
    if verdicts:
        print(compare_render.status_line(verdicts, status))
    return status


COMMAND = Command("compare", "runs side by side: key figures, differences from the first with "
                  "an interval and a verdict over the runs, overlaid figures, --fail-if gates",
                  _arguments, _run, "RUN... [--name NAME=RUN]... [-o OUT] [--fail-if COND]... [--significant-only] "
                  "[--by-host]",
                  examples=('hgreport compare results/lat/run1 results/lat/run2 -o /tmp/cmp', "hgreport compare --name base=old/ --name new=new/ --fail-if 'latency_p99_ns>+10%'", 'hgreport compare cyclictest.json oslat.json stress-ng.log results/lat/<time>   # docs/peers.md'))
