# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport compare RUN...`: runs (or sweep points, their repeats grouped) side by side, the
differences from the first with a confidence interval or a rank test, --fail-if gates."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .command import Command, UsageError
from ..base import safeout

EXIT_CONDITION = 5      # a --fail-if condition is true: a finding, as hgrun's 5 (docs/cli.md)


def _name(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    if not sep or not name.strip() or not path:
        raise argparse.ArgumentTypeError(f"want NAME=RUN (e.g. base=results/rx/run1), got {text!r}")
    return name.strip(), Path(path)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", type=Path, nargs="*", metavar="RUN",
                   help="run directories, sweep directories (a row per point, its repeats "
                        "grouped) or sweep point directories; the first row is the baseline")
    p.add_argument("--name", type=_name, action="append", default=[], metavar="NAME=RUN",
                   help="label RUN's row NAME (RUN given above or added after them); runs named "
                        "alike are one row of repeats")
    p.add_argument("-o", "--output", type=Path,
                   help="output directory for compare.md, compare.json and the figures "
                        "(default ./compare)")
    p.add_argument("--fail-if", action="append", default=[], metavar="COND",
                   help="exit 5 if COND is true for a row other than the baseline: "
                        "METRIC[NAME] OP VALUE, e.g. latency_p99_ns>+10%%, deadlines_missed>0, "
                        "gap_max_ns>+20%%, throughput<-5%%; METRIC: a name of hgrun list metrics")
    p.add_argument("--significant-only", action="store_true",
                   help="a --fail-if change (+/-, %%) counts only when the difference is "
                        "significant: its bootstrap interval excludes 0, or the rank test's p < 0.05")
    p.add_argument("--by-host", action="store_true",
                   help="split each row's runs by machine (hostname and kernel): the host "
                        "becomes a factor instead of a warning about mixed machines")
    p.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    p.add_argument("--json", action="store_true", help="print compare.json instead of the tables")


def _warn_about_machines(groups: list, differing: list[str]) -> None:
    """Notes when a row's repeats ran on several machines, or when rows that differ in the
    factor under study also ran on different machines (the two are confounded)."""
    from ..read import rungroups
    for g in groups:
        note = rungroups.mixed_hosts_note(f"row {g.label!r}", g.runs)
        if note:
            g.notes.append(note)
    machine = [k for k in differing if k in ("host", "kernel")]
    other = [k for k in differing if k not in ("host", "kernel", "duration")]
    if machine and other and groups:
        groups[0].notes.append(
            f"warning: the rows differ in {' and '.join(machine)} as well as in "
            f"{', '.join(other)}: each difference is the machines' and the factor's together")


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
    if args.by_host:
        groups = compare_groups.split_by_host(groups)
    differing = compare_groups.assign_labels(groups)
    _warn_about_machines(groups, differing)
    table = compare.build(groups, seed=args.seed)
    verdicts = compare_failif.evaluate(conds, table.rows, table.labels, args.significant_only)
    out = args.output or Path("compare")
    safeout.make_dir(out)
    figures = compare_plots.write_all(table, out)
    doc = compare.to_json(table, groups, differing)
    doc["fail_if"] = verdicts
    doc["figures"] = figures
    safeout.write_text(out / "compare.json", json.dumps(doc, indent=2) + "\n")
    md = compare_render.render(table, groups, differing, verdicts, figures)
    safeout.write_text(out / "compare.md", md)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(md.split("\n## Figures")[0].rstrip())
        print(f"\nwritten: {out}/compare.md, compare.json" + "".join(f", {f}" for f in figures))
    if len(groups) == 1:
        print("note: one row only; nothing to compare against (give two runs or more)")
    true = [v for v in verdicts if v["true"]]
    for v in true:
        print(f"fail-if {v['condition']}: true for {v['run']}: {v['detail']}")
    return EXIT_CONDITION if true else 0


COMMAND = Command("compare", "runs side by side: key figures, differences from the first with "
                  "a confidence interval or rank test, overlaid figures, --fail-if gates",
                  _arguments, _run, "RUN... [--name NAME=RUN]... [-o OUT] [--fail-if COND]... [--significant-only] "
                  "[--by-host]")
