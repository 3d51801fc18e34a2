# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport report RUN_DIR` (the default command): the report of one run."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import argtypes
from ..base.units import DEFAULT_THRESHOLDS_NS
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path)
    p.add_argument("-o", "--output", type=Path, help="output directory (default RUN_DIR/report)")
    p.add_argument("--window", type=argtypes.window, default=None, metavar="START:LEN",
                   help="timeline window (default: windows around the first phase change, the "
                        "longest gap and the worst deadline miss)")
    p.add_argument("--thresholds", type=argtypes.thresholds, metavar="DUR,DUR,...",
                   default=list(DEFAULT_THRESHOLDS_NS),
                   help="dispatch-latency thresholds of table 1 (default 1ms,5ms,10ms,50ms)")


def _sweep(args: argparse.Namespace) -> int:
    """`hgreport SWEEP_DIR`: a directory with sweep.json and no result.json is a sweep; its
    report is `hgreport sweep SWEEP_DIR` (with -o, default metrics)."""
    from . import sweep as cmd_sweep
    print(f"hgreport: {args.run_dir} is a sweep directory (sweep.json): writing the sweep report "
          f"(hgreport sweep {args.run_dir} --metric ... for other metrics)", file=sys.stderr)
    p = argparse.ArgumentParser(prog="hgreport sweep")
    cmd_sweep.COMMAND.add_arguments(p)
    sweep_args = p.parse_args([str(args.run_dir)] + (["-o", str(args.output)] if args.output else []))
    return cmd_sweep.COMMAND.run(sweep_args)


def _run(args: argparse.Namespace) -> int:
    if (args.run_dir / "sweep.json").is_file() and not (args.run_dir / "result.json").exists():
        return _sweep(args)
    from ..base.units import fmt_ns
    from ..read.rundir import read_run
    from ..report.assemble import write_report
    run = read_run(args.run_dir)
    out = args.output or run.path / "report"
    s = write_report(run, out, args.window, args.thresholds)
    for t in s["threads"]:
        line = f"{t['label']}: {fmt_ns(t['cpu_ns'])} CPU in {t['intervals']} intervals, {t['gaps']} gaps"
        if t["releases"]:
            line += f"; missed {t['deadlines_missed']} deadlines, hit {t['deadlines_hit']}"
        if t["latency"]:
            line += f"; latency p99 {fmt_ns(t['latency']['p99_ns'])}, max {fmt_ns(t['latency']['max_ns'])}"
        print(line)
    inv = s["context_switches"]["involuntary"]
    if inv["count"]:
        print(f"involuntary switches: {inv['count']}, min {fmt_ns(inv['min_ns'])}, "
              f"median {fmt_ns(inv['median_ns'])}")
    if not s["run"]["complete"]:
        print("note: the run is incomplete (complete: false)")
    print(f"report: {out / 'report.md'}")
    return 0


COMMAND = Command("report", "the report of one run (the default command)", _arguments, _run,
                  "RUN_DIR [-o OUT] [--window START:LEN]",
                  examples=('hgreport RUN_DIR', 'hgreport report RUN_DIR -o /tmp/report --window 2s:25ms', 'hgreport RUN_DIR --thresholds 100us,1ms'))
