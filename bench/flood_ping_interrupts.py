#!/usr/bin/env python3
"""Interrupts per second per CPU with and without a flood_ping load (docs/loads.md#flood_ping).

Runs, alternately, N scenarios of one RTHIGH 1 kHz latency thread per CPU without and with
`{type: flood_ping}` (root), and prints for each run the per-CPU interrupt rate from
series.jsonl (docs/results.md: the CPU lines' `interrupts` over their `span_ns`), the load's
echo requests/s and the NET_RX softirqs/s of the whole machine during the run
(/proc/softirqs, other work included), then the mean per-CPU rate of each side.

    bench/flood_ping_interrupts.py [-n 3] [--duration 4s] [--hgrun build/hgrun]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCENARIO = """hgrun: 1
name: flood_irq
duration: {duration}
threads:
  - {{name: lat, count: per_cpu, priority: RTHIGH, workload: {{type: latency, period: 1ms}}}}
"""
LOAD = "loads:\n  - {name: flood, type: flood_ping}\n"


def net_rx():
    for line in pathlib.Path("/proc/softirqs").read_text().splitlines():
        if line.strip().startswith("NET_RX:"):
            return sum(int(x) for x in line.split()[1:])
    return 0


def per_cpu_rates(run):
    counts, spans = {}, {}
    for line in (run / "series.jsonl").read_text().splitlines():
        x = json.loads(line)
        if "cpu" in x and "interrupts" in x:
            counts[x["cpu"]] = counts.get(x["cpu"], 0) + x["interrupts"]
            spans[x["cpu"]] = spans.get(x["cpu"], 0) + x["span_ns"]
    return {c: counts[c] / (spans[c] / 1e9) for c in counts}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3, help="runs of each side (default 3)")
    ap.add_argument("--duration", default="4s")
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    args = ap.parse_args()
    means = {"without": [], "with": []}
    with tempfile.TemporaryDirectory(prefix="hg-floodirq-") as tmp:
        tmp = pathlib.Path(tmp)
        for side in means:
            (tmp / f"{side}.yaml").write_text(SCENARIO.format(duration=args.duration) +
                                              (LOAD if side == "with" else ""))
        for i in range(args.n):
            for side in means:
                out = tmp / f"{side}-{i}"
                before, t0 = net_rx(), time.monotonic()
                p = subprocess.run([args.hgrun, "run", str(tmp / f"{side}.yaml"), "-o", str(out),
                                    "--quiet"], capture_output=True, text=True)
                softirqs = (net_rx() - before) / (time.monotonic() - t0)
                if p.returncode not in (0, 5):
                    sys.exit(f"{side} run {i}: exit {p.returncode}: {p.stderr.strip()}")
                rates = per_cpu_rates(out)
                result = json.loads((out / "result.json").read_text())
                pps = [ld["stats"]["ops_per_s"] for ld in result.get("loads", [])]
                means[side].append(statistics.mean(rates.values()))
                print(f"{side:7} run {i}: interrupts/s per CPU "
                      + ", ".join(f"cpu{c} {r:,.0f}" for c, r in sorted(rates.items()))
                      + f"; NET_RX softirqs/s {softirqs:,.0f}"
                      + (f"; echo requests/s {pps[0]:,.0f}" if pps else ""))
    for side, m in means.items():
        print(f"{side:7} mean per-CPU interrupts/s: {statistics.mean(m):,.0f} "
              f"(runs: {', '.join(f'{x:,.0f}' for x in m)}; n = {len(m)})")


if __name__ == "__main__":
    main()
