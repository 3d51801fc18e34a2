# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport hourglass-table1 RUN_DIR...` (also `dispatch`): the dispatch-latency table
(Hourglass section 5.3, table 1): wake-ups later than each threshold, a row per latency thread
of each run."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import argtypes
from ..base.units import DEFAULT_THRESHOLDS_NS
from .command import Command


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", type=Path, nargs="+",
                   help="run directories, or another tool's output (cyclictest --json or -h "
                        "text, oslat --json, rtla timerlat hist, stress-ng's cyclic log); with "
                        "several, a row per run (labelled by what differs)")
    p.add_argument("--thresholds", type=argtypes.thresholds, metavar="DUR,DUR,...",
                   default=list(DEFAULT_THRESHOLDS_NS),
                   help="count the wake-ups later than these (default 1ms,5ms,10ms,50ms)")
    p.add_argument("--json", action="store_true")


def _run(args: argparse.Namespace) -> int:
    from ..analyses.summary import dispatch_table
    from ..base.markdown import table
    from ..base.units import fmt_ns
    from ..read.peers import read_any
    from ..read.rungroups import Group, assign_labels
    from ..tables import verdicts
    runs = [read_any(p) for p in args.run_dir]
    groups = [Group(str(r.path), [r]) for r in runs]
    assign_labels(groups)
    rows = []
    for g, run in zip(groups, runs):
        lat = {run.label(i): t["stats"]["latency"] for i, t in enumerate(run.threads)
               if t["stats"].get("latency")}
        for r in dispatch_table(run, args.thresholds):
            rows.append(dict(r, run=g.label if len(runs) > 1 else str(run.path),
                             max_ns=lat[r["label"]].get("max_ns"), p99_ns=lat[r["label"]].get("p99_ns")))
    configs = verdicts.compute(verdicts.configurations(runs), _values)
    if args.json:
        print(json.dumps({"thresholds_ns": args.thresholds, "rows": rows,
                          "configurations": configs}, indent=2))
        return 0
    ths = args.thresholds
    body = [[r["run"], r["label"], r["samples"], r["skipped"], r["over"]]
            + [("≥" if str(x) in r.get("at_least", ()) else "")
               + _share(r["later_than"][str(x)], r["over"]) for x in ths]
            + [fmt_ns(r["p99_ns"]), fmt_ns(r["max_ns"])] for r in rows]
    print(f"# Dispatch latency (Hourglass table 1): {len(runs)} run{'s' if len(runs) > 1 else ''}\n")
    print(table(["run", "thread", "wake-ups", "skipped", "over"] + [f"> {fmt_ns(x)}" for x in ths]
                + ["p99", "max"], body, "ll" + "r" * (len(ths) + 5)))
    print("\nwake-ups: stored in latency.bin; skipped: slots of align: absolute whose time had "
          "passed; over: what the shares are of (the skipped count as later than every "
          "threshold unless the scenario said skipped_slots: ignored); p99 and max: of the "
          "released wake-ups (result.json)")
    for r in rows:
        if r["samples_dropped"]:
            print(f"- {r['run']} {r['label']}: {r['samples_dropped']} samples not stored; the "
                  "table counts the stored ones")
        if r["skipped"]:
            how = ("counted as later than every threshold" if r["skipped_counted_late"]
                   else "left out of the shares (skipped_slots: ignored)")
            print(f"- {r['run']} {r['label']}: {r['skipped']} slots skipped, {how}")
    if not rows:
        print("\nno latency threads in these runs (workload type: latency)")
    section = verdicts.section(configs)
    if section:
        print("\n" + "\n".join(section).rstrip())
    return 0


def _share(count: int, over: int) -> str:
    return f"{count} ({100 * count / over:.1f}%)" if over else str(count)


def _values(run) -> dict:
    """A run's figures the table's verdicts compare: each latency thread's p99 and max."""
    out = {}
    for i, t in enumerate(run.threads):
        lat = t["stats"].get("latency")
        if lat:
            out[(run.label(i), "latency_p99_ns")] = lat.get("p99_ns")
            out[(run.label(i), "latency_max_ns")] = lat.get("max_ns")
    return out


COMMAND = Command("hourglass-table1", "Hourglass's table 1 (section 5.3, dispatch latency): "
                  "wake-ups later than each threshold, a row per latency thread of each run",
                  _arguments, _run, "RUN_DIR... [--thresholds 1ms,5ms,...] [--json]",
                  aliases=("dispatch",),
                  examples=('hgreport hourglass-table1 /tmp/noload /tmp/load', 'hgreport dispatch ct.json RUN_DIR --thresholds 50us,100us,1ms'))
