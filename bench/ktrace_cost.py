#!/usr/bin/env python3
"""The kernel trace's own cost and what it explains (docs/kernel-trace.md):
the same scenario (bench/ktrace_mix.yaml by default: a CPU hog per CPU, a
periodic real-time thread, a loopback TCP stream) run with and without
--kernel-trace, interleaved (off on off on ...), then per mode the medians
of: CPU received by each thread, gaps per second, the real-time thread's
missed deadlines and p99/max gap; and for the traced runs: events per
second, the reader thread's CPU time, the share of gaps >= 50 us
attributed (dominant cause seen by the kernel) or touched by a kernel
event, and the recall of the kernel's involuntary switch-outs >= 5 us.

    sudo bench/ktrace_cost.py --rounds 3
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def gaps_of(run_dir: pathlib.Path, thread: str):
    prev = None
    out = []
    for line in (run_dir / "trace.jsonl").read_text().splitlines():
        r = json.loads(line)
        if r["thread"] != thread:
            continue
        if prev is not None and prev["end"] == "preempted":
            out.append(r["start_ns"] - prev["end_ns"])
        prev = r
    return out


def pct(v, q):
    if not v:
        return 0.0
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]


def one_run(hgrun: str, scenario: str, traced: bool, duration: str, work: pathlib.Path):
    out = work / f"run{len(list(work.iterdir()))}"
    args = [hgrun, "run", scenario, "-o", str(out), "--quiet", "--duration", duration]
    if traced:
        args.append("--kernel-trace")
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        sys.exit(f"hgrun failed ({p.returncode}): {p.stderr}")
    r = json.loads((out / "result.json").read_text())
    dur = r["scenario"]["duration_ns"] / 1e9
    m = {}
    for t in r["threads"]:
        s = t["stats"]
        gaps = gaps_of(out, t["name"])
        m[f"{t['os_name']} cpu s"] = s["cpu_ns"] / 1e9
        m[f"{t['os_name']} gaps/s"] = s["gaps"] / dur
        m[f"{t['os_name']} gap p99 us"] = pct(gaps, 0.99) / 1e3
        m[f"{t['os_name']} gap max us"] = max(gaps, default=0) / 1e3
        if s["releases"]:
            m[f"{t['os_name']} missed"] = s["deadlines_missed"]
    kt = r["kernel_trace"]
    if kt["enabled"]:
        big = kt["gaps_ge_50us"] or 1
        m["events/s"] = kt["events"] / dur
        m["reader cpu ms"] = kt["reader_cpu_ns"] / 1e6
        m["lost events"] = kt["lost"] + kt["events_not_kept"]
        m[">=50us attributed %"] = 100 * kt["attributed_ge_50us"] / big
        m[">=50us with events %"] = 100 * kt["with_events_ge_50us"] / big
        m["switch-out recall %"] = 100 * kt["switch_outs_matched"] / max(1, kt["switch_outs_ge_5us"])
        m["switch-outs >=5us"] = kt["switch_outs_ge_5us"]
        m["gaps >=50us"] = kt["gaps_ge_50us"]
    return m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--scenario", default=str(ROOT / "bench" / "ktrace_mix.yaml"))
    ap.add_argument("--duration", default="4s")
    ap.add_argument("--rounds", type=int, default=3, help="runs per mode")
    a = ap.parse_args()
    runs = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        for _ in range(a.rounds):
            for traced in (False, True):
                runs[traced].append(one_run(a.hgrun, a.scenario, traced, a.duration, work))
    keys = list(dict.fromkeys(k for mode in (False, True) for m in runs[mode] for k in m))
    print(f"{a.scenario}, {a.duration} per run, {a.rounds} runs per mode, medians")
    print(f"{'measure':28} {'no trace':>12} {'kernel trace':>14}")
    for k in keys:
        vals = [statistics.median([m[k] for m in runs[mode] if k in m]) if any(k in m for m in runs[mode])
                else None for mode in (False, True)]
        cells = [f"{v:12.2f}" if v is not None else f"{'-':>12}" for v in vals]
        print(f"{k:28} {cells[0]} {cells[1]:>14}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
