"""The `hgreport` command line: report (default), rta, sweep, cache-penalty, table2."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from . import __version__
from .errors import InputError

COMMANDS = ("report", "rta", "sweep", "cache-penalty", "table2")
EXIT_INPUT = 2
EXIT_USAGE = 3


class UsageError(Exception):
    pass


def _duration(text: str) -> int:
    from .units import parse_duration
    try:
        return parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _window(text: str) -> tuple[int, int]:
    """START:LEN, e.g. 2s:25ms."""
    start, sep, length = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"--window wants START:LEN (e.g. 2s:25ms), got {text!r}")
    return _duration(start), _duration(length)


def _assign(text: str) -> tuple[str, int]:
    name, sep, dur = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"want THREAD=DURATION (e.g. video=8ms), got {text!r}")
    return name, _duration(dur)


def _thresholds(text: str) -> list[int]:
    return [_duration(x) for x in text.split(",") if x.strip()]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hgreport",
        description="Analysis of hgrun result directories (never YAML): reports, figures, "
                    "Perfetto export, response-time analysis, sweeps.",
        epilog="commands: hgreport RUN_DIR | rta | sweep | cache-penalty | table2 "
               "(hgreport COMMAND --help). Exit status 2: a missing or invalid input.")
    p.add_argument("--version", action="version", version=f"hgreport {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("report", help="the report of one run (the default command)")
    r.add_argument("run_dir", type=Path)
    r.add_argument("-o", "--output", type=Path, help="output directory (default RUN_DIR/report)")
    r.add_argument("--window", type=_window, default=(0, 500_000_000), metavar="START:LEN",
                   help="timeline window (default 0:500ms)")
    r.add_argument("--thresholds", type=_thresholds, metavar="DUR,DUR,...",
                   default=[1_000_000, 5_000_000, 10_000_000, 50_000_000],
                   help="dispatch-latency thresholds of table 1 (default 1ms,5ms,10ms,50ms)")

    a = sub.add_parser("rta", help="response-time analysis of the periodic threads")
    a.add_argument("input", type=Path, help="run directory, or resolved scenario JSON "
                                            "(hgrun validate --resolved)")
    a.add_argument("--jitter", type=_assign, action="append", default=[], metavar="THREAD=DUR")
    a.add_argument("--blocking", type=_assign, action="append", default=[], metavar="THREAD=DUR")
    a.add_argument("--exec", type=_assign, action="append", default=[], metavar="THREAD=DUR",
                   help="worst-case execution time instead of the workload's exec")
    a.add_argument("--json", action="store_true", help="print JSON instead of Markdown")

    s = sub.add_parser("sweep", help="mean and 95%% CI per grid point")
    s.add_argument("sweep_dir", type=Path)
    s.add_argument("-o", "--output", type=Path, help="output directory (default SWEEP_DIR/report)")
    s.add_argument("--metric", action="append", metavar="NAME",
                   help="a metric to tabulate (repeatable); default: deadline_miss_ratio, "
                        "deadlines_missed, cpu_ns, work_units, latency_p99_ns, latency_max_ns, mbps")

    c = sub.add_parser("cache-penalty", help="section 5.2: penalty per context switch")
    c.add_argument("sweep_dir", type=Path)
    c.add_argument("--one", metavar="ID", help="point of the one-thread runs")
    c.add_argument("--many", metavar="ID", help="point of the many-thread runs")
    c.add_argument("-o", "--output", type=Path, help="output directory (default SWEEP_DIR/report)")

    t = sub.add_parser("table2", help="section 5.4: missed deadlines and throughput")
    t.add_argument("run_dir", type=Path)
    t.add_argument("--json", action="store_true")
    return p


def _report(args: argparse.Namespace) -> int:
    from .report import write_report
    from .rundir import read_run
    from .units import fmt_ns
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


def _rta(args: argparse.Namespace) -> int:
    from .rta_report import analyse_input, render
    doc = analyse_input(args.input, dict(args.jitter), dict(args.blocking), dict(args.exec))
    print(json.dumps(doc, indent=2) if args.json else render(doc), end="" if not args.json else "\n")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from . import sweep
    from .metrics import ALL_METRICS, DEFAULT_METRICS
    from .sweepdir import read_sweep
    metrics = tuple(args.metric or DEFAULT_METRICS)
    bad = [m for m in metrics if m not in ALL_METRICS]
    if bad:
        raise UsageError(f"unknown metric {bad[0]!r}; metrics: {', '.join(ALL_METRICS)}")
    sw = read_sweep(args.sweep_dir)
    out = args.output or sw.path / "report"
    print(sweep.write(sw, metrics, out), end="")
    print(f"\nwritten: {out}/sweep.md, sweep.csv, sweep.png, summary.json")
    return 0


def _cache_penalty(args: argparse.Namespace) -> int:
    from . import cache_penalty as cp
    from .sweepdir import read_sweep
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


def _table2(args: argparse.Namespace) -> int:
    from . import table2
    from .rundir import read_run
    run = read_run(args.run_dir)
    data = table2.rows(run)
    print(json.dumps(data, indent=2) if args.json else table2.render(run, data), end="" if not args.json else "\n")
    return 0


HANDLERS = {"report": _report, "rta": _rta, "sweep": _sweep, "cache-penalty": _cache_penalty,
            "table2": _table2}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "report")      # `hgreport RUN_DIR` is `hgreport report RUN_DIR`
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:            # argparse: 2 on a usage error; ours is 3 (hgrun's)
        return EXIT_USAGE if e.code == 2 else int(e.code or 0)
    if args.command is None:
        parser().print_help()
        return EXIT_USAGE
    try:
        return HANDLERS[args.command](args)
    except InputError as e:
        print(f"hgreport: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except UsageError as e:
        print(f"hgreport: error: {e}", file=sys.stderr)
        return EXIT_USAGE
