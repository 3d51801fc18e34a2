#!/usr/bin/env python3
"""The measuring loop's cost, side by side: `hgrun calibrate --json` of two or
more hgrun binaries, interleaved (A B A B ...) so that the machine's drift
hits each alike, then the median loop cost of each and its ratio to the
first.  Use it before and after a change to the runner:

    git worktree add /tmp/base main && cmake -S /tmp/base -B /tmp/base/build \
        -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/base/build
    bench/loop_cost.py /tmp/base/build/hgrun build/hgrun --rounds 15
"""
import argparse
import json
import statistics
import subprocess
import sys


def loop_ns(binary: str) -> float:
    out = subprocess.run([binary, "calibrate", "--json"], check=True, capture_output=True,
                         text=True, timeout=60).stdout
    return float(json.loads(out)["gap"]["loop_ns"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+", help="hgrun binaries; the first is the reference")
    ap.add_argument("--rounds", type=int, default=11, help="calibrations per binary")
    a = ap.parse_args()
    samples = {b: [] for b in a.binaries}
    for _ in range(a.rounds):
        for b in a.binaries:
            samples[b].append(loop_ns(b))
    ref = statistics.median(samples[a.binaries[0]])
    print(f"{'binary':50} {'median ns':>10} {'min ns':>8} {'max ns':>8} {'ratio':>6}")
    for b in a.binaries:
        med = statistics.median(samples[b])
        print(f"{b[-50:]:50} {med:10.2f} {min(samples[b]):8.2f} {max(samples[b]):8.2f} "
              f"{med / ref:6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
