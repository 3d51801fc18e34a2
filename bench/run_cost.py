#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""hgrun's fixed cost per run, side by side: the wall time of `hgrun run` of
a short scenario (one 1 kHz latency thread, 100 ms by default) less its
duration, for two or more hgrun binaries, interleaved (the order rotated
every round) so that the machine's drift hits each alike.

    bench/run_cost.py --baseline /tmp/old/build/hgrun -n 10
    bench/run_cost.py --baseline /tmp/old/build/hgrun --phases   # where it goes

The wall time splits at the run's own clock readings (result.json, CLOCK_MONOTONIC
like the script's): from the spawn to time zero (`tsc.start_monotonic_ns`;
it includes the 5 ms lead from the gate), the run, and from its end
(`tsc.end_monotonic_ns`) to the exit.  --phases adds one run of each binary
under strace (only execve, openat, mlockall, exit_group are stopped on, so
the run is slowed little) and splits the time before time zero at files
every hgrun opens on its way: the scenario (the program has started), the
first /proc/cpuinfo (the calibration starts), /sys/kernel/realtime (the
host's facts), the result directory's reserve file, mlockall (the gate).

--lock FILE holds an flock on FILE for each round, for machines shared with
other timing work.  A benchmark, not a test: run it as root, as the runs
it measures would be.
"""
import argparse
import contextlib
import fcntl
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

SCENARIO = """\
hgrun: 1
name: run_cost
duration: {duration}
threads:
  - name: lat
    cpus: [{cpu}]
    priority: {{policy: fifo, priority: 95}}
    timer: absolute
    workload: {{type: latency, period: 1ms, align: absolute}}
"""

# (label, regular expression on strace's line): the first match ends the phase
MARKS = [("start-up", r'openat\(.*"[^"]*run_cost\.yaml"'),
         ("scenario", r'openat\(.*"/proc/cpuinfo"'),
         ("calibration", r'openat\(.*"/sys/kernel/realtime"'),
         ("host facts, result directory", r'openat\(.*\.hgrun-reserve"'),
         ("threads set up", r"mlockall\(")]


def one_run(binary, scenario, out):
    shutil.rmtree(out, ignore_errors=True)
    t = time.monotonic_ns()
    subprocess.run([binary, "run", str(scenario), "-o", str(out), "--quiet"], check=True)
    e = time.monotonic_ns()
    tsc = json.loads((out / "result.json").read_text())["tsc"]
    t0, end = tsc["start_monotonic_ns"], tsc["end_monotonic_ns"]
    return {"total": (e - t) / 1e6, "to time zero": (t0 - t) / 1e6, "run": (end - t0) / 1e6,
            "after the end": (e - end) / 1e6, "kept": tsc.get("kept")}


def phases(binary, scenario, out, tmp):
    """One run under strace: ms per phase before time zero."""
    shutil.rmtree(out, ignore_errors=True)
    log = tmp / "strace.txt"
    t = time.monotonic_ns()
    subprocess.run(["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=execve,openat,mlockall,exit_group",
                    "-e", "signal=none", "--timestamps=unix,ns", "-o", str(log),
                    binary, "run", str(scenario), "-o", str(out), "--quiet"], check=True)
    tsc = json.loads((out / "result.json").read_text())["tsc"]
    # strace's wall clock against CLOCK_MONOTONIC: the first line is the execve
    lines = log.read_text().splitlines()
    stamp = [float(re.match(r"\d+ (\d+\.\d+)", x).group(1)) for x in lines]
    offset = stamp[0] * 1e9 - t
    times, at = [], 0
    for label, pattern in MARKS:
        found = next((i for i in range(at, len(lines)) if re.search(pattern, lines[i])), None)
        times.append((label, None if found is None else stamp[found] * 1e9 - offset))
        at = found if found is not None else at
    times.append(("gate to time zero", tsc["start_monotonic_ns"]))
    out_ms, last = {}, t
    for label, when in times:
        out_ms[label] = None if when is None else (when - last) / 1e6
        last = when if when is not None else last
    return out_ms


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    p.add_argument("--baseline", action="append", default=[], help="an older hgrun (repeatable)")
    p.add_argument("-n", "--rounds", type=int, default=10)
    p.add_argument("--duration", default="100ms")
    p.add_argument("--cpu", type=int, default=1)
    p.add_argument("--phases", action="store_true", help="one strace'd run each: where the time goes")
    p.add_argument("--lock", help="flock this file for each round")
    a = p.parse_args()
    binaries = a.baseline + [a.hgrun]
    names = [f"old{i + 1}" if len(a.baseline) > 1 else "old" for i in range(len(a.baseline))] + ["new"]
    samples = {n: [] for n in names}
    load = [pathlib.Path("/proc/loadavg").read_text().split()[0]]
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        scenario = tmp / "run_cost.yaml"
        scenario.write_text(SCENARIO.format(duration=a.duration, cpu=a.cpu))
        ph = {}
        for r in range(a.rounds + (1 if a.phases else 0)):
            k = r % len(binaries)
            order = list(zip(names, binaries))[k:] + list(zip(names, binaries))[:k]
            with open(a.lock, "a") if a.lock else contextlib.nullcontext() as lk:
                if lk:
                    fcntl.flock(lk, fcntl.LOCK_EX)
                for n, b in order:
                    if r == a.rounds:
                        ph[n] = phases(b, scenario, tmp / "out", tmp)
                    else:
                        samples[n].append(one_run(b, scenario, tmp / "out"))
        load.append(pathlib.Path("/proc/loadavg").read_text().split()[0])
    print(f"hgrun run of a {a.duration} latency thread, {a.rounds} rounds interleaved, "
          f"load average {load[0]} before, {load[1]} after; ms, median (min-max)")
    keys = ["total", "to time zero", "run", "after the end"]
    print(f"{'':6}" + "".join(f"{k:>22}" for k in keys) + f"{'fixed cost':>22}{'ratio':>7}")
    fixed_ref = None
    for n in names:
        v = samples[n]
        row = f"{n:6}"
        for k in keys:
            xs = [x[k] for x in v]
            row += f"{statistics.median(xs):>8.1f} ({min(xs):5.1f}-{max(xs):5.1f})"
        fixed = [x["total"] - x["run"] for x in v]
        med = statistics.median(fixed)
        fixed_ref = fixed_ref or med
        row += f"{med:>8.1f} ({min(fixed):5.1f}-{max(fixed):5.1f}){med / fixed_ref:7.2f}"
        kept = sum(1 for x in v if x["kept"])
        print(row + (f"  calibration kept in {kept}/{len(v)}" if kept else ""))
    if a.phases:
        print("\nbefore time zero, one strace'd run each (ms)")
        labels = list(next(iter(ph.values())).keys())
        print(f"{'':6}" + "".join(f"{x[:22]:>24}" for x in labels))
        for n in names:
            print(f"{n:6}" + "".join(f"{'?' if ph[n][x] is None else format(ph[n][x], '.1f'):>24}"
                                     for x in labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
