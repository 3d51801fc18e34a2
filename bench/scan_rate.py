#!/usr/bin/env python3
"""cpu_scan's rate against its working set, for both patterns side by side
(docs/cache.md): one short run per (size, pattern), the two patterns
interleaved at each size and the sizes repeated in rounds, so that the
machine's drift hits both alike.  The rate is work units (lines touched)
per second of CPU *received* (work_units / cpu_ns), so other work on the
machine lowers the CPU a run gets, not its rate.

    bench/scan_rate.py                        # 4 KiB .. 64 MiB, 3 rounds of 1 s
    bench/scan_rate.py --hgrun build/hgrun --cpu 1 --rounds 5 --duration 2s
    bench/scan_rate.py --markdown             # the table of docs/cache.md
    bench/scan_rate.py --json                 # every run's rate, the medians, the machine
                                              # (docs/data/, by scripts/reproduce.py scan_rate)
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
SIZES = ["4KiB", "16KiB", "32KiB", "64KiB", "256KiB", "1MiB", "2MiB", "4MiB", "16MiB",
         "64MiB"]
PATTERNS = ["sequential", "random"]

SCENARIO = """hgrun: 1
name: scan_rate
duration: {duration}
threads:
  - name: scan
    cpus: [{cpu}]
    workload: {{type: cpu_scan, working_set: {size}, pattern: {pattern}}}
"""


def rate(hgrun: str, work: pathlib.Path, size: str, pattern: str, cpu: int,
         duration: str, seen: list | None = None) -> float:
    """Lines per second of CPU received, from one run (its result.json's facts appended to
    `seen`: the machine, and the other processes' share of the CPU)."""
    path = work / "s.yaml"
    path.write_text(SCENARIO.format(duration=duration, cpu=cpu, size=size, pattern=pattern))
    out = work / f"{size}-{pattern}"
    subprocess.run([hgrun, "run", str(path), "-o", str(out), "--quiet", "--force"],
                   check=True, capture_output=True, text=True, timeout=120)
    res = json.loads((out / "result.json").read_text())
    stats = res["threads"][0]["stats"]
    if seen is not None:
        host = res.get("host") or {}
        seen.append({"hostname": host.get("hostname"), "kernel_release": host.get("kernel_release"),
                     "started_utc": res.get("started_utc"),
                     "outsiders_share": (res.get("competition") or {}).get("outsiders_share"),
                     "competition": any(str(w).startswith("competition:")
                                        for w in res.get("warnings") or [])})
    return stats["work_units"] / (stats["cpu_ns"] / 1e9)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--cpu", type=int, default=1, help="CPU the scanning thread is pinned to")
    ap.add_argument("--rounds", type=int, default=3, help="runs per size and pattern")
    ap.add_argument("--duration", default="1s", help="length of each run")
    ap.add_argument("--sizes", nargs="+", default=SIZES)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json", action="store_true", help="print every rate and the medians as JSON")
    a = ap.parse_args()
    samples = {(s, p): [] for s in a.sizes for p in PATTERNS}
    seen: list = []
    with tempfile.TemporaryDirectory(prefix="scan_rate-") as tmp:
        work = pathlib.Path(tmp)
        for _ in range(a.rounds):
            for size in a.sizes:
                for pattern in PATTERNS:
                    samples[(size, pattern)].append(
                        rate(a.hgrun, work, size, pattern, a.cpu, a.duration, seen))
    first = {p: statistics.median(samples[(a.sizes[0], p)]) for p in PATTERNS}
    if a.json:
        print(json.dumps({"rounds": a.rounds, "duration": a.duration, "cpu": a.cpu,
                          "unit": "lines per second of CPU received",
                          "sizes": [{"size": s, **{p: {"rates": samples[(s, p)],
                                                       "median": statistics.median(samples[(s, p)])}
                                                   for p in PATTERNS}} for s in a.sizes],
                          "runs": seen}, indent=1))
        return 0
    if a.markdown:
        print("| working set | sequential (M lines/s) | random (M lines/s) | random / sequential "
              "| random vs smallest |")
        print("|---:|---:|---:|---:|---:|")
    else:
        print(f"{'working set':>12} {'sequential':>12} {'random':>12} {'rnd/seq':>8} "
              f"{'rnd vs first':>12}   (M lines per CPU-second, median of {a.rounds})")
    for size in a.sizes:
        seq = statistics.median(samples[(size, "sequential")])
        rnd = statistics.median(samples[(size, "random")])
        cells = (f"{seq / 1e6:.1f}", f"{rnd / 1e6:.1f}", f"{rnd / seq:.2f}",
                 f"{rnd / first['random']:.2f}")
        if a.markdown:
            print(f"| {size} | " + " | ".join(cells) + " |")
        else:
            print(f"{size:>12} {cells[0]:>12} {cells[1]:>12} {cells[2]:>8} {cells[3]:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
