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

With --baseline OTHER_HGRUN, a third mode runs that build with the trace,
interleaved with the others: the attribution before and after a change,
on the same minutes of the machine (the host's noise varies from minute
to minute).  The share attributed among gaps of 5 us or more is read back
from trace.bin (bench/ktrace_gaps.py).
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from ktrace_gaps import gaps_of_run, share  # noqa: E402


INTERVAL = np.dtype([("start_ns", "<i8"), ("end_ns", "<i8"), ("thread", "<u4"), ("cpu", "<i2"),
                     ("end", "u1"), ("flags", "u1"), ("window", "<u4"), ("cause", "<u4")])


def gaps_of(run_dir: pathlib.Path, thread: int):
    """Gap lengths of one thread (index) from trace.bin (docs/results.md)."""
    data = (run_dir / "trace.bin").read_bytes()
    n = (len(data) - 64) // INTERVAL.itemsize
    r = np.frombuffer(data, dtype=INTERVAL, count=n, offset=64)
    r = r[r["thread"] == thread]
    pre = (r["end"][:-1] == 0) & (r["window"][:-1] == r["window"][1:])
    return list(r["start_ns"][1:][pre] - r["end_ns"][:-1][pre])


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
    if p.returncode not in (0, 5):
        sys.exit(f"hgrun failed ({p.returncode}): {p.stderr}")
    r = json.loads((out / "result.json").read_text())
    dur = r["scenario"]["duration_ns"] / 1e9
    m = {}
    for i, t in enumerate(r["threads"]):
        s = t["stats"]
        gaps = gaps_of(out, i)
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
        ok, n = share(gaps_of_run(out, 5000), 5000)
        m[">=5us attributed %"] = 100 * ok / max(1, n)
        m["invisible ms"] = sum(t["gap_causes"].get("invisible_ns", t["gap_causes"].get(
            "by_cause", {}).get("invisible", {}).get("ns", 0)) for t in r["threads"]) / 1e6
        m["missed switches"] = kt.get("missed_switches", 0)
        m["steal ms (all CPUs)"] = r["competition"]["steal_ns"] / 1e6
    return m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    ap.add_argument("--scenario", default=str(ROOT / "bench" / "ktrace_mix.yaml"))
    ap.add_argument("--duration", default="4s")
    ap.add_argument("--rounds", type=int, default=3, help="runs per mode")
    ap.add_argument("--baseline", help="another hgrun build, run with the trace as a third mode")
    a = ap.parse_args()
    modes = [("no trace", a.hgrun, False), ("kernel trace", a.hgrun, True)]
    if a.baseline:
        modes.append(("baseline trace", a.baseline, True))
    runs = {name: [] for name, _, _ in modes}
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        for _ in range(a.rounds):
            for name, binary, traced in modes:
                runs[name].append(one_run(binary, a.scenario, traced, a.duration, work))
    keys = list(dict.fromkeys(k for name in runs for m in runs[name] for k in m))
    print(f"{a.scenario}, {a.duration} per run, {a.rounds} runs per mode, medians")
    print(f"{'measure':28}" + "".join(f" {name:>15}" for name, _, _ in modes))
    for k in keys:
        cells = []
        for name, _, _ in modes:
            v = [m[k] for m in runs[name] if k in m]
            cells.append(f"{statistics.median(v):15.2f}" if v else f"{'-':>15}")
        print(f"{k:28} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
