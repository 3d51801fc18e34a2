#!/usr/bin/env python3
"""hgrun next to cyclictest: the same timer wake-up test, one after the other.

Both run one SCHED_FIFO thread pinned to one CPU that sleeps until an
absolute time every INTERVAL (clock_nanosleep, TIMER_ABSTIME, CLOCK_MONOTONIC)
and records how late each wake-up was.  hgrun's scenario is written to match
cyclictest's defaults: `latency` workload, `align: absolute` (the next
wake-up is the intended one plus the period, as cyclictest does), timer
`absolute`, priority 98 (RTHIGH), memory locked, and /dev/cpu_dma_latency
held at 0 (cyclictest's default: no deep idle states).

    sudo bench/peer_latency.py --duration 30s --cpu 1
    sudo bench/peer_latency.py --rounds 3       # alternate the tools 3 times

Needs rt-tests (apt-get install rt-tests) and a built build/hgrun.  This is a
benchmark, not a test: the numbers depend on the machine and its noise.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def percentile(sorted_values, q):
    """Nearest rank, as hgrun's stats.c."""
    if not sorted_values:
        return 0
    rank = max(1, int(-(-q * len(sorted_values) // 1)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def from_histogram(hist_us):
    """Expands cyclictest's {us: count} histogram into sorted samples (us)."""
    values = []
    for us, count in sorted(hist_us.items()):
        values += [us] * count
    return values


def run_cyclictest(args, tmp):
    out = tmp / "cyclictest.json"
    cmd = ["cyclictest", "-m", "-q", f"-p{args.priority}", f"-i{args.interval_us}",
           f"-a{args.cpu}", "-t1", f"-D{args.duration}", "-h", str(args.hist_us),
           f"--histfile={tmp / 'hist.txt'}", f"--json={out}"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    data = json.loads(out.read_text())
    thread = data["thread"]["0"]
    hist = {int(k): v for k, v in thread["histogram"].items()}
    values = from_histogram(hist)
    overflow = thread["cycles"] - len(values)
    return {"tool": "cyclictest", "samples": thread["cycles"], "min_us": thread["min"],
            "p50_us": percentile(values, 0.5), "p99_us": percentile(values, 0.99),
            "p999_us": percentile(values, 0.999), "max_us": thread["max"],
            "note": f"{overflow} beyond {args.hist_us} us" if overflow else ""}


def run_hgrun(args, tmp):
    scenario = tmp / "peer_latency.yaml"
    scenario.write_text(f"""\
hgrun: 1
name: peer_latency
duration: {args.duration}
cpu_dma_latency: 0us
threads:
  - name: lat
    cpus: [{args.cpu}]
    priority: {{policy: fifo, priority: {args.priority}}}
    timer: absolute
    workload: {{type: latency, period: {args.interval_us}us, align: absolute}}
""")
    out = tmp / "hgrun"
    subprocess.run([str(args.hgrun), "run", str(scenario), "-o", str(out), "--quiet"], check=True)
    result = json.loads((out / "result.json").read_text())
    lat = result["threads"][0]["stats"]["latency"]
    return {"tool": "hgrun", "samples": lat["count"], "min_us": lat["min_ns"] / 1e3,
            "p50_us": lat["p50_ns"] / 1e3, "p99_us": lat["p99_ns"] / 1e3,
            "p999_us": lat["p999_ns"] / 1e3, "max_us": lat["max_ns"] / 1e3, "note": ""}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duration", default="10s", help="per run, e.g. 10s or 1m (default 10s)")
    p.add_argument("--interval-us", type=int, default=1000)
    p.add_argument("--cpu", type=int, default=1)
    p.add_argument("--priority", type=int, default=98)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--hist-us", type=int, default=20000, help="cyclictest histogram range")
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for r in range(args.rounds):
            tmp = pathlib.Path(d) / f"round{r}"
            tmp.mkdir()
            rows.append(run_cyclictest(args, tmp))
            rows.append(run_hgrun(args, tmp))
    print(f"timer wake-up latency, FIFO {args.priority}, CPU {args.cpu}, every {args.interval_us} us, "
          f"{args.duration} per run")
    print(f"{'tool':<11} {'samples':>8} {'min':>8} {'p50':>8} {'p99':>8} {'p99.9':>9} {'max':>9}  (us)")
    for row in rows:
        print(f"{row['tool']:<11} {row['samples']:>8} {row['min_us']:>8.1f} {row['p50_us']:>8.1f} "
              f"{row['p99_us']:>8.1f} {row['p999_us']:>9.1f} {row['max_us']:>9.1f}  {row['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
