#!/usr/bin/env python3
"""How many runs a comparison needs (docs/statistics.md, "How many runs"): the run-to-run
spread of a latency scenario's figures, measured from repeated runs, and the number of runs
per configuration that Welch's t on the log values (hgreport's one method, base/stats.py)
needs to call a given change significant 80% of the time at the 5% level.

The runs are hgrun result directories of one configuration each (give the groups with
--group NAME=DIR... ; DIR may hold several run directories). The power comes from simulating
the test on log-normal run values with each group's measured standard deviation of the log
(20 000 trials per cell, seeded), not from a normal approximation, which is optimistic for
the few runs that matter here.

    # the runs, under the RT lock: SCENARIOS below, one file per configuration
    for i in $(seq 1 12); do build/hgrun /tmp/p/idle.yaml -o /tmp/p/idle/r$i --quiet; done
    bench/power_table.py --group idle=/tmp/p/idle --group loaded=/tmp/p/loaded

SCENARIOS (docs/statistics.md measured these, 12 runs each, interleaved):

    hgrun: 1
    name: power_idle
    duration: 3s
    threads:
      - {name: lat, cpus: [0], priority: RTHIGH, timer: absolute,
         workload: {type: latency, period: 1ms}}

and power_loaded: the same with
    loads:
      - {name: burn, type: cpu, workers: 2, cpus: [0]}
"""
import argparse
import json
import math
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analysis"))

import numpy as np  # noqa: E402

from hgreport.base import stats  # noqa: E402

FIGURES = ("p50_ns", "p99_ns", "p999_ns", "max_ns")
CHANGES = (1.1, 1.25, 1.5, 2.0, 4.0)
NS = (3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 40, 50, 75, 100)


def runs_of(path: pathlib.Path) -> list[dict]:
    files = sorted(path.glob("*/result.json")) or sorted(path.glob("result.json"))
    return [json.loads(f.read_text()) for f in files]


def latency(doc: dict) -> dict:
    return next(t["stats"]["latency"] for t in doc["threads"] if t["stats"].get("latency"))


def power(sd: float, change: float, n: int, trials: int, rng: np.random.Generator) -> float:
    """The share of `trials` comparisons of n runs against n, log values normal with this
    sd and means ln(change) apart, that Welch's t calls significant (p < 0.05)."""
    a = rng.normal(0.0, sd, (trials, n))
    b = rng.normal(math.log(change), sd, (trials, n))
    va, vb = a.var(axis=1, ddof=1) / n, b.var(axis=1, ddof=1) / n
    t = (b.mean(axis=1) - a.mean(axis=1)) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (n - 1) + vb ** 2 / (n - 1))
    crit = np.array([stats.t_quantile(0.975, round(float(d), 1)) for d in df])
    return float(np.mean(np.abs(t) > crit))


def needed(sd: float, change: float, trials: int, seed: int) -> int | None:
    """The fewest runs per configuration (of NS) with power >= 0.8, or None beyond them."""
    rng = np.random.default_rng(seed)
    for n in NS:
        if power(sd, change, n, trials, rng) >= 0.8:
            return n
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--trials", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sds: dict[tuple[str, str], float] = {}
    for g in args.group:
        name, _, path = g.partition("=")
        docs = runs_of(pathlib.Path(path))
        print(f"{name}: {len(docs)} runs of {docs[0]['scenario']['name']}, "
              f"{docs[0]['scenario']['duration_ns'] / 1e9:g} s each")
        for fig in FIGURES:
            vals = [latency(d)[fig] for d in docs]
            logs = [math.log(v) for v in vals]
            sds[(name, fig)] = statistics.stdev(logs)
            print(f"  {fig}: geometric mean {math.exp(statistics.fmean(logs)) / 1e3:.1f} us, "
                  f"min {min(vals) / 1e3:.1f} us, max {max(vals) / 1e3:.1f} us, "
                  f"sd of ln {sds[(name, fig)]:.3f}")
    print()
    head = " | ".join(f"×{c:g}" for c in CHANGES)
    print(f"| configuration | figure | sd of ln | {head} |")
    print("|---|---|---:|" + "---:|" * len(CHANGES))
    for (name, fig), sd in sds.items():
        cells = [needed(sd, c, args.trials, args.seed) for c in CHANGES]
        print(f"| {name} | {fig} | {sd:.3f} | "
              + " | ".join(str(n) if n else f"> {NS[-1]}" for n in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
