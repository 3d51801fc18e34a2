"""`hgreport export RUN_DIR [--format jsonl|cyclictest|hourglass] [-o OUT]`: trace.bin /
latency.bin as JSON lines, the latency histograms in cyclictest's -h layout, or Hourglass's
own interval, latlate and deadline lines."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .command import Command
from ..base import safeout


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path)
    p.add_argument("--format", choices=("jsonl", "cyclictest", "hourglass"), default="jsonl",
                   help="jsonl (default): trace.jsonl, latency.jsonl; cyclictest: the latency "
                        "threads' histograms as `cyclictest -h N -q` prints them; hourglass: "
                        "Hourglass's `thread start finish duration gap` lines (ms), "
                        "`latlate:` lines (us) and `thread N: missed ...` lines")
    p.add_argument("-o", "--output", type=Path,
                   help="jsonl: output directory (default RUN_DIR/export); cyclictest, "
                        "hourglass: output file, '-' for stdout (default "
                        "RUN_DIR/export/cyclictest.txt, RUN_DIR/export/hourglass.txt)")
    p.add_argument("--buckets", type=int, metavar="N",
                   help="cyclictest: histogram buckets of 1 us (cyclictest's -h N; default: "
                        "enough for the largest latency, at most 20000)")


def _run(args: argparse.Namespace) -> int:
    from ..base.errors import InputError, UsageError
    from ..read.rundir import read_run
    if args.buckets is not None and args.format != "cyclictest":
        raise UsageError("--buckets belongs to --format cyclictest")
    if args.buckets is not None and not 1 <= args.buckets <= 20000:
        raise UsageError(f"--buckets must be 1..20000 (1 us each, cyclictest's -h), "
                         f"got {args.buckets}")
    run = read_run(args.run_dir)
    if args.format == "hourglass":
        return _hourglass(run, args.output)
    if args.format == "cyclictest":
        from ..export import cyclictest
        try:
            text = cyclictest.text(run, args.buckets)
        except ValueError as e:
            raise InputError(run.path / "result.json", str(e)) from None
        if str(args.output) == "-":
            sys.stdout.write(text)
            return 0
        path = args.output or run.path / "export" / "cyclictest.txt"
        safeout.make_dir(path.parent)
        safeout.write_text(path, text)
        print(f"{path}: {len(cyclictest.latency_threads(run))} thread(s), "
              f"{text.count(chr(10)) - 1} lines")
        return 0
    from ..export import jsonl as export
    out = args.output or run.path / "export"
    for path, n in export.write(run, out):
        print(f"{path}: {n} lines")
    return 0


def _hourglass(run, output: Path | None) -> int:
    """Streamed line by line: a long run's trace never sits in memory as text."""
    from ..export import hourglass
    note = hourglass.incomplete_note(run)
    if note:
        print(f"hgreport export: {run.path}: {note}; the gaps span what is missing",
              file=sys.stderr)
    if str(output) == "-":
        for line in hourglass.lines(run):
            sys.stdout.write(line)
        return 0
    path = output or run.path / "export" / "hourglass.txt"
    safeout.make_dir(path.parent)
    n = 0
    with safeout.open_out(path, "w") as f:
        for line in hourglass.lines(run):
            f.write(line)
            n += 1
    print(f"{path}: {n} lines")
    return 0


COMMAND = Command("export", "trace.bin and latency.bin as JSON lines, the latency "
                  "histograms in cyclictest's -h layout, or Hourglass's own output lines",
                  _arguments, _run,
                  "RUN_DIR [--format jsonl|cyclictest|hourglass] [--buckets N] [-o OUT]")
