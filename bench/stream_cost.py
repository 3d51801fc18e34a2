#!/usr/bin/env python3
"""The cost of streaming records to disk while measuring (docs/results.md).

Runs the same scenarios with `trace.mode: full` (every record written during the run) and
`trace.mode: none` (rings still drained, series written, no record files), interleaved, and
optionally with a baseline hgrun binary that predates streaming (it keeps records in memory
and writes them at the end): then compares what the measured threads saw (gaps per second,
CPU received, the longest gap, latency percentiles) and the writer's own CPU time.

    bench/stream_cost.py --repeat 3 --duration 5s
    bench/stream_cost.py --baseline /tmp/base/build/hgrun      # also the pre-streaming runner
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

SCENARIOS = {
    # Hourglass's dispatch latency next to a CPU hog: the latency percentiles matter.
    "latency": """hgrun: 1
name: sc_latency
duration: 5s
{trace}
threads:
  - {{name: lat, priority: RTHIGH, workload: {{type: latency, period: 1ms}}}}
  - {{name: hog, workload: {{type: cpu}}}}
""",
    # The most records per second: four yielding threads (millions of intervals), and a
    # real-time cpu thread whose gaps show what the writer takes from the CPUs.
    "yielders": """hgrun: 1
name: sc_yield
duration: 5s
{trace}
threads:
  - {{name: y, count: 4, workload: {{type: cpu_yield, yield_after: 50us}}}}
  - {{name: rt, priority: RTMED, workload: {{type: periodic, exec: 2ms, period: 10ms}}}}
""",
}


def gaps_from_series(run_dir, index):
    """The longest gap of a thread from series.jsonl (all modes of the streaming runner)."""
    path = run_dir / "series.jsonl"
    if not path.exists():
        return None
    worst = 0
    for line in path.read_text().splitlines():
        x = json.loads(line)
        if x.get("thread") == index:
            worst = max(worst, x["gap_max_ns"])
    return worst


def gaps_from_jsonl(run_dir, os_name, thread, instance):
    """The longest gap from trace.jsonl (the pre-streaming runner)."""
    path = run_dir / "trace.jsonl"
    if not path.exists():
        return None
    prev, worst = None, 0
    for line in path.read_text().splitlines():
        x = json.loads(line)
        if x["thread"] != thread or x["instance"] != instance:
            continue
        if prev and prev["end"] == "preempted":
            worst = max(worst, x["start_ns"] - prev["end_ns"])
        prev = x
    return worst


def run_once(binary, path, out):
    proc = subprocess.run([binary, "run", str(path), "-o", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=120)
    res = json.loads((out / "result.json").read_text())
    if proc.returncode not in (0, 5):
        raise SystemExit(f"{binary}: exit {proc.returncode}: {proc.stderr}")
    rows = {}
    dur = res["scenario"]["duration_ns"] / 1e9
    for i, t in enumerate(res["threads"]):
        st = t["stats"]
        g = gaps_from_series(out, i)
        if g is None:
            g = gaps_from_jsonl(out, t["os_name"], t["name"], t["instance"])
        row = {"gaps_per_s": st["gaps"] / dur, "cpu_share": st["cpu_ns"] / 1e9 / dur,
               "gap_max_us": (g or 0) / 1e3, "dropped": st.get("records_dropped", 0)}
        lat = st.get("latency")
        if lat:
            row.update(p50_us=lat["p50_ns"] / 1e3, p99_us=lat["p99_ns"] / 1e3,
                       max_us=lat["max_ns"] / 1e3)
        rows[t["os_name"]] = row
    tr = res.get("trace") or {}
    writer = tr.get("writer_cpu_ns")
    return rows, (writer / 1e9 if writer is not None else None), sum(
        f.stat().st_size for f in out.iterdir() if f.suffix in (".bin", ".jsonl"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--baseline", help="an hgrun binary from before streaming")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--duration", default="5s")
    ap.add_argument("--scenarios", nargs="*", default=list(SCENARIOS))
    a = ap.parse_args()
    variants = [("full", a.hgrun, "trace: {mode: full}"), ("none", a.hgrun, "trace: {mode: none}")]
    if a.baseline:
        variants.append(("pre-streaming", a.baseline, ""))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name in a.scenarios:
            samples = {v[0]: [] for v in variants}
            for rep in range(a.repeat):
                for label, binary, trace in variants:
                    text = SCENARIOS[name].format(trace=trace).replace(
                        "duration: 5s", f"duration: {a.duration}")
                    path = tmp / f"{name}-{label}.yaml"
                    path.write_text(text)
                    out = tmp / f"{name}-{label}-{rep}"
                    samples[label].append(run_once(binary, path, out))
            print(f"\n## {name} ({a.repeat} runs of {a.duration} each, medians)\n")
            print(f"{'variant':14} {'thread':6} {'gaps/s':>8} {'cpu':>6} {'gap max us':>10} "
                  f"{'p50 us':>7} {'p99 us':>7} {'max us':>8} {'dropped':>7} "
                  f"{'writer s':>8} {'MB':>7}")
            for label, _, _ in variants:
                runs = samples[label]
                writer = [w for _, w, _ in runs if w is not None]
                mb = statistics.median(b for _, _, b in runs) / 1e6
                for th in runs[0][0]:
                    def med(key):
                        vals = [r[th][key] for r, _, _ in runs if key in r[th]]
                        return statistics.median(vals) if vals else float("nan")
                    print(f"{label:14} {th:6} {med('gaps_per_s'):8.0f} {med('cpu_share'):6.3f} "
                          f"{med('gap_max_us'):10.0f} {med('p50_us'):7.1f} {med('p99_us'):7.1f} "
                          f"{med('max_us'):8.0f} {med('dropped'):7.0f} "
                          f"{(statistics.median(writer) if writer else float('nan')):8.3f} "
                          f"{mb:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
