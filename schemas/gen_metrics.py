#!/usr/bin/env python3
"""Writes schemas/metrics.json, the metric vocabulary (format hgrun-metrics/1),
from the runner's one metric table (runner/plan/metrics.c) through
`hgrun list metrics --json`.  hgreport reads it as package data
(analysis/hgreport/schemas/metrics.json links to it; hgreport/base/metrics.py)
for the names, units, scopes and labels of `compare` and `sweep --metric`,
so a metric is declared once, in the runner.

Each metric: name (the unit in the name where the value has one), unit
("ns", "count", "ratio", "1/s", "ops/s"), scope ("any", "periodic",
"latency": which threads have it; "load": a load's), label (a table's
column), summary, and expect (true: the runner computes it per thread and
expect: can bound it; false: only hgreport computes it, from the trace).

    python3 schemas/gen_metrics.py          # rewrite the file
    python3 schemas/gen_metrics.py --check  # exit 1 if it is stale
    (--hgrun PATH: the hgrun to ask; default build/hgrun)
"""
import argparse
import json
import pathlib
import subprocess
import sys

from generated import write_or_check

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "schemas" / "metrics.json"
FIELDS = ("name", "unit", "scope", "label", "summary", "expect")


def build(hgrun: str) -> dict:
    out = subprocess.run([hgrun, "list", "metrics", "--json"], check=True,
                         capture_output=True, text=True).stdout
    metrics = [{k: m[k] for k in FIELDS} for m in json.loads(out)]
    return {"format": "hgrun-metrics/1",
            "source": "runner/plan/metrics.c, written by schemas/gen_metrics.py",
            "metrics": metrics}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"),
                    help="the hgrun whose table to read (default build/hgrun)")
    args = ap.parse_args()
    return write_or_check(OUT, json.dumps(build(args.hgrun), indent=2) + "\n", args.check,
                          "the runner's metric table changed", "python3 schemas/gen_metrics.py")


if __name__ == "__main__":
    sys.exit(main())
