# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport kernels RUN... [-o DIR] [--name NAME=RUN] [--thresholds DUR,...] [--json]`: runs of
one scenario from different kernels or hosts side by side, a column per kernel labelled by its
release, preemption model and the command-line parameters that differ (Hourglass's table 1,
Abeni et al.'s tables), with each latency thread's histograms overlaid in OSADL's form
(docs/kernels.md). A directory that is not a run stands for every run below it."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import argtypes
from .command import Command
from ..base.units import DEFAULT_THRESHOLDS_NS


def _name(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path:
        raise argparse.ArgumentTypeError(f"want NAME=RUN (e.g. 6.1-rt=results/km/6.1-rt), got {text!r}")
    return name.strip(), Path(path)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="*", metavar="RUN",
                   help="run directories of one scenario (a directory that is not a run: "
                        "every run below it), a column each")
    p.add_argument("--name", type=_name, action="append", default=[], metavar="NAME=RUN",
                   help="a column of RUN labelled NAME instead of its kernel")
    p.add_argument("-o", "--output", type=Path,
                   help="directory for kernels.md, kernels.json and the overlays "
                        "(default ./kernels)")
    p.add_argument("--thresholds", type=argtypes.thresholds, metavar="DUR,DUR,...",
                   default=list(DEFAULT_THRESHOLDS_NS),
                   help="count the wake-ups later than these (default 1ms,5ms,10ms,50ms)")
    p.add_argument("--json", action="store_true", help="print kernels.json instead of the page")


def _runs(args: argparse.Namespace) -> tuple[list, list]:
    from ..base.errors import InputError, UsageError
    from ..read.rundir import read_run
    from ..read.sweepdir import runs_below
    runs, names = [], []
    for path in args.runs:
        found = [read_run(path)] if (path / "result.json").exists() else \
            (runs_below(path) if path.is_dir() else [])
        if not found:
            raise InputError(path, "no result.json in or below it (is this an hgrun result "
                                   "directory?)")
        runs += found
        names += [None] * len(found)
    for name, path in args.name:
        runs.append(read_run(path))
        names.append(name)
    if len(runs) < 1:
        raise UsageError("no runs: give RUN... (run directories, or directories with runs "
                         "below them) or --name NAME=RUN")
    return runs, names


def _run(args: argparse.Namespace) -> int:
    from ..analyses import kernels
    from ..base import safeout
    from ..figures import kernels as kernel_figures
    from ..tables import kernels as kernel_tables
    runs, names = _runs(args)
    d = kernels.compare(runs, args.thresholds, names)
    out = args.output or Path("kernels")
    safeout.make_dir(out)
    figures = {}
    for k, label in enumerate(d["threads"]):
        path = kernel_figures.overlay(d, label, out / f"latency-overlay-{k}.png")
        if path is not None:
            figures[label] = path.name
    slim = dict(d, columns=[dict(c, threads={lab: dict(t, latency=t["latency"] and {
        k: v for k, v in t["latency"].items() if k != "counts"}) for lab, t in c["threads"].items()})
        for c in d["columns"]], figures=figures)
    text = json.dumps(slim, indent=1) + "\n"
    safeout.write_text(out / "kernels.json", text)
    page = kernel_tables.page(d, figures)
    safeout.write_text(out / "kernels.md", page)
    print(text if args.json else page, end="")
    if not args.json:
        print(f"\n{out}/kernels.md, kernels.json, {len(figures)} overlay(s)")
    return 0


COMMAND = Command("kernels", "runs of one scenario on different kernels or hosts side by "
                  "side: a column per kernel (release, preemption model, command line), "
                  "Hourglass's and Abeni's tables, latency histograms overlaid as OSADL "
                  "plots them", _arguments, _run,
                  "RUN... [--name NAME=RUN] [-o DIR] [--thresholds DUR,...] [--json]",
                  examples=("hgreport kernels stock/run rt/run -o /tmp/kernels",
                            "hgreport kernels build/kernel-matrix/*/out/loaded_traced   "
                            "# docs/kernels.md",
                            "hgreport kernels --name 6.1=a/run --name 6.1-rt=b/run"))
