#!/usr/bin/env python3
"""hgrun next to oslat: how often, and for how long, a spinning real-time
thread on one CPU loses that CPU.

oslat spins reading the TSC and keeps a histogram of loop-iteration times
in microseconds; hgrun's `cpu` workload does the same loop and records every
gap above its threshold (Hourglass's execution trace).  Same CPU, SCHED_FIFO
priority, duration; run one after the other.  Both show the 50 ms RT
throttling each second when sched_rt_runtime_us is 950000.

    sudo bench/peer_oslat.py --duration 10 --cpu 1

Needs rt-tests (oslat) and build/hgrun.  A benchmark, not a test.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
EDGES_US = (2, 10, 32, 100, 1000)


def oslat(args, tmp):
    out = tmp / "oslat.json"
    subprocess.run(["oslat", "-c", str(args.cpu), "-D", str(args.duration), "-f", str(args.priority),
                    "-q", "-b", "1024", f"--json={out}"], check=True, capture_output=True)
    t = json.loads(out.read_text())["thread"]["0"]
    hist = {int(k): v for k, v in t["histogram"].items()}
    # bucket k counts iterations that took [k-1, k) us; the last bucket is "k or more"
    counts = {e: sum(v for k, v in hist.items() if k > e) for e in EDGES_US}
    return {"tool": "oslat", "counts": counts, "max_us": t["max"]}


def hgrun(args, tmp):
    scenario = tmp / "peer_oslat.yaml"
    scenario.write_text(f"""\
hgrun: 1
name: peer_oslat
duration: {args.duration}s
trace: {{records: 2000000}}
threads:
  - {{name: spin, cpus: [{args.cpu}], priority: {{policy: fifo, priority: {args.priority}}}}}
""")
    out = tmp / "hgrun"
    subprocess.run([str(args.hgrun), "run", str(scenario), "-o", str(out), "--quiet"], check=True)
    data = (out / "trace.bin").read_bytes()[64:]          # docs/results.md: 32-byte records
    rec = np.frombuffer(data[:len(data) // 32 * 32], np.dtype([
        ("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"), ("cpu", "<i2"), ("end", "u1"),
        ("flags", "u1"), ("window", "<u4"), ("cause", "<u4")]))
    rec = np.sort(rec, order="start_ns")
    gaps_us = list((rec["start_ns"][1:] - rec["end_ns"][:-1]) / 1e3)
    counts = {e: sum(1 for g in gaps_us if g >= e) for e in EDGES_US}
    return {"tool": "hgrun", "counts": counts, "max_us": max(gaps_us, default=0.0)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duration", type=int, default=10, help="seconds per run (default 10)")
    p.add_argument("--cpu", type=int, default=1)
    p.add_argument("--priority", type=int, default=98)
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rows = [oslat(args, pathlib.Path(d)), hgrun(args, pathlib.Path(d))]
    print(f"CPU lost by a spinning FIFO {args.priority} thread on CPU {args.cpu}, {args.duration} s each")
    print(f"{'tool':<7}" + "".join(f"{'>=' + str(e) + 'us':>10}" for e in EDGES_US) + f"{'max us':>10}")
    for r in rows:
        print(f"{r['tool']:<7}" + "".join(f"{r['counts'][e]:>10}" for e in EDGES_US) + f"{r['max_us']:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
