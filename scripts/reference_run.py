#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The cross-tool reference run (docs/reference-run.md): hgrun's latency thread, cyclictest and
stress-ng's cyclic stressor, set up alike, run alternately under the same loads, then read
with hgreport's readers (docs/peers.md) and reconciled in one table.

    scripts/reference_run.py -o /tmp/ref                       # 5 rounds, 10 s per run
    scripts/reference_run.py -o /tmp/ref --rounds 1 --lock /path/rt.lock   # one round per call
    scripts/reference_run.py -o /tmp/ref --table-only          # the table of what DIR holds

Each round runs, for each load (started before and stopped after each tool, so every tool
sees it alike), every tool once, in an order rotated from round to round: `hgrun` (the
scenario experiments/reference_latency.yaml: FIFO 90, 1 ms, absolute wake-ups, as cyclictest),
`hgrun-sleep` (the same with a relative sleep, as stress-ng), `cyclictest` (-m -p 90 -i 1000
-h 2000) and `stress-ng` (--cyclic with FIFO 90, a 1 ms clock_ns sleep, --cyclic-dist 1000).
Rounds already in DIR are kept: run it again to add rounds. Then it writes DIR/reference.md
and DIR/reference.json (the table and every run's figures) and `hgreport compare` of every
output into DIR/compare/ (one row per tool and load, the rounds as repeats).

Needs root (real-time priorities), rt-tests and stress-ng (apt-get install rt-tests stress-ng),
a built hgrun (build/hgrun, or --hgrun) and hgreport's Python packages."""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "analysis"))

TOOLS = ("hgrun", "hgrun-sleep", "cyclictest", "stress-ng")
LOADS = {
    "idle": None,
    # a CPU hog and a memory thrasher on the measured CPU, SCHED_OTHER (docs/reference-run.md)
    "busy": ["stress-ng", "--cpu", "1", "--vm", "1", "--vm-bytes", "128M", "--taskset", "{cpu}",
             "-t", "1h"],
}
HOW = {
    "hgrun": "hgrun latency: FIFO 90, clock_nanosleep absolute (timer absolute, align absolute), "
             "CLOCK_MONOTONIC via the TSC, ns, cpu_dma_latency 0",
    "hgrun-sleep": "hgrun latency with timer sleep, align relative: a relative sleep of 1 ms, as "
                   "stress-ng's; otherwise as hgrun",
    "cyclictest": "cyclictest -m -p 90 -i 1000 -a CPU -h 2000: FIFO 90, clock_nanosleep absolute, "
                  "CLOCK_MONOTONIC, us truncated, holds /dev/cpu_dma_latency at 0",
    "stress-ng": "stress-ng --cyclic 1 --cyclic-policy fifo --cyclic-prio 90 --cyclic-sleep "
                 "1000000 --cyclic-method clock_ns: a relative clock_nanosleep on CLOCK_REALTIME, "
                 "elapsed - asked in ns, the first 10000 samples, no PM QoS",
}


def command(tool: str, out: Path, args: argparse.Namespace) -> tuple[list[str], Path]:
    """The command line of one tool's run and the file hgreport reads."""
    secs = str(args.duration)
    if tool.startswith("hgrun"):
        cmd = [args.hgrun, "run", str(ROOT / "experiments" / "reference_latency.yaml"), "-o",
               str(out), "--quiet", "--set", f"duration={secs}s", "--set",
               f"threads[lat].cpus={args.cpu}"]
        if tool == "hgrun-sleep":
            cmd += ["--set", "threads[lat].timer=sleep", "--set",
                    "threads[lat].workload.align=relative"]
        return cmd, out
    out.mkdir(parents=True, exist_ok=True)
    if tool == "cyclictest":
        f = out / "cyclictest.json"
        return ["cyclictest", "-m", "-q", "-p", "90", "-i", "1000", "-t", "1", "-a",
                str(args.cpu), "-D", secs, "-h", "2000", f"--json={f}"], f
    f = out / "stress-ng.log"
    return ["stress-ng", "--cyclic", "1", "--cyclic-policy", "fifo", "--cyclic-prio", "90",
            "--cyclic-sleep", "1000000", "--cyclic-method", "clock_ns", "--cyclic-dist", "1000",
            "--cyclic-samples", "10000", "--taskset", str(args.cpu), "-t", secs,
            "-Y", str(out / "stress-ng.yaml")], f


@contextlib.contextmanager
def load(name: str, cpu: int):
    """The load running (its own process group), stopped and reaped at the end."""
    argv = LOADS[name]
    if argv is None:
        yield
        return
    p = subprocess.Popen([a.format(cpu=cpu) for a in argv], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(1.0)                       # let it reach its steady state
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def one(tool: str, where: Path, args: argparse.Namespace) -> dict:
    cmd, target = command(tool, where, args)
    t0 = time.time()
    log = where.parent / f"{tool}.out" if tool != "stress-ng" else target
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode
    if rc not in (0, 5):
        raise SystemExit(f"reference_run: {' '.join(cmd)} exited {rc} (see {log})")
    return {"tool": tool, "command": cmd, "file": str(target.relative_to(args.output)),
            "started": t0, "loadavg": os.getloadavg()[0]}


def run_round(r: int, args: argparse.Namespace) -> None:
    rdir = args.output / f"r{r}"
    if (rdir / "round.json").exists():
        return
    runs = []
    for load_name in args.loads:
        order = list(args.tools[r % len(args.tools):] + args.tools[:r % len(args.tools)])
        for tool in order:
            with load(load_name, args.cpu):
                runs.append(dict(one(tool, rdir / load_name / tool, args), load=load_name,
                                 round=r))
    (rdir / "round.json").write_text(json.dumps({"round": r, "runs": runs}, indent=1) + "\n")
    print(f"reference_run: round {r} done ({len(runs)} runs, load average "
          f"{os.getloadavg()[0]:.2f})")


def figures(path: Path) -> dict:
    """One run's latency figures through hgreport's readers (docs/peers.md)."""
    from hgreport.read.peers import read_any
    run = read_any(path)
    lat = next(t["stats"]["latency"] for t in run.threads if t["stats"].get("latency"))
    out = {k: lat.get(k) for k in ("count", "min_ns", "mean_ns", "p50_ns", "p99_ns", "p999_ns",
                                   "max_ns")}
    out["warnings"] = [w for w in run.result.get("warnings") or []]
    out["host"] = {k: (run.result.get("host") or {}).get(k) for k in ("hostname", "kernel_release",
                                                                        "preempt")}
    return out


def med(xs: list) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def us(v: float | None) -> str:
    return "–" if v is None else f"{v / 1e3:.1f}"


def table(args: argparse.Namespace) -> dict:
    runs = []
    for f in sorted(args.output.glob("r*/round.json")):
        for x in json.loads(f.read_text())["runs"]:
            x.update(figures(args.output / x["file"]))
            runs.append(x)
    if not runs:
        raise SystemExit(f"reference_run: no rounds in {args.output}")
    rows = []
    loads = list(dict.fromkeys(x["load"] for x in runs))
    tools = list(dict.fromkeys(x["tool"] for x in runs))
    for ld in loads:
        base = {k: med([x[k] for x in runs if x["load"] == ld and x["tool"] == "hgrun"])
                for k in ("min_ns", "p50_ns", "p99_ns", "max_ns")}
        for tool in tools:
            xs = [x for x in runs if x["load"] == ld and x["tool"] == tool]
            row = {"load": ld, "tool": tool, "runs": len(xs), "samples": med([x["count"] for x in xs]),
                   "loadavg": med([x["loadavg"] for x in xs])}
            for k in ("min_ns", "p50_ns", "p99_ns", "max_ns"):
                vals = [x[k] for x in xs if x[k] is not None]
                row[k] = med(vals)
                row[k + "_range"] = [min(vals), max(vals)] if vals else None
                row[k + "_vs_hgrun"] = (row[k] - base[k]) if row[k] is not None and base[k] is not None else None
            rows.append(row)
    commands = {x["tool"]: " ".join(x["command"]) for x in runs}
    keep = ("tool", "load", "round", "file", "loadavg", "count", "min_ns", "mean_ns", "p50_ns",
            "p99_ns", "p999_ns", "max_ns", "warnings")
    return {"format": "hgrun-reference-run/1", "how": HOW, "commands": commands, "rows": rows,
            "runs": [{k: x.get(k) for k in keep} for x in runs],
            "host": runs[0]["host"], "duration_s": args.duration, "cpu": args.cpu}


def markdown(doc: dict) -> str:
    lines = [f"Host {doc['host']['hostname']}, kernel {doc['host']['kernel_release']}, preempt "
             f"{doc['host']['preempt']}; CPU {doc['cpu']}, {doc['duration_s']} s per run; medians "
             "over the rounds [lowest, highest]; us.", "",
             "| load | tool | runs | samples | min | p50 | p99 | max | p50 − hgrun | p99 − hgrun | load avg |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in doc["rows"]:
        def cell(k: str) -> str:
            rng = r[k + "_range"]
            return f"{us(r[k])} [{us(rng[0])}, {us(rng[1])}]" if rng else "–"
        d50, d99 = r["p50_ns_vs_hgrun"], r["p99_ns_vs_hgrun"]
        lines.append(f"| {r['load']} | {r['tool']} | {r['runs']} | {r['samples']:.0f} | "
                     f"{cell('min_ns')} | {cell('p50_ns')} | {cell('p99_ns')} | {cell('max_ns')} | "
                     f"{'–' if d50 is None else f'{d50 / 1e3:+.1f}'} | "
                     f"{'–' if d99 is None else f'{d99 / 1e3:+.1f}'} | {r['loadavg']:.2f} |")
    return "\n".join(lines) + "\n"


def compare(args: argparse.Namespace, doc: dict) -> None:
    """hgreport compare of every output: a row per tool and load, the rounds as repeats."""
    names = []
    for x in doc["runs"]:
        names += ["--name", f"{x['tool']} {x['load']}={args.output / x['file']}"]
    subprocess.run([sys.executable, "-m", "hgreport", "compare", *names, "-o",
                    str(args.output / "compare"), "--by-cpu"], env=dict(os.environ,
                   PYTHONPATH=str(ROOT / "analysis")), stdout=subprocess.DEVNULL, check=False)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", type=Path, required=True, help="the directory of the rounds")
    p.add_argument("--rounds", type=int, default=5, help="rounds to have in DIR (default 5)")
    p.add_argument("--duration", type=int, default=10, help="seconds per run (default 10)")
    p.add_argument("--cpu", type=int, default=1, help="the measured CPU (default 1)")
    p.add_argument("--loads", default="idle,busy", help="of: " + ", ".join(LOADS))
    p.add_argument("--tools", default=",".join(TOOLS), help="of: " + ", ".join(TOOLS))
    p.add_argument("--lock", type=Path, help="hold this file's flock during each round (a shared "
                   "machine's lock for real-time work), not between rounds")
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    p.add_argument("--table-only", action="store_true", help="only the table of what DIR holds")
    args = p.parse_args()
    args.loads = [x for x in args.loads.split(",") if x]
    args.tools = [x for x in args.tools.split(",") if x]
    for x in args.loads + args.tools:
        if x not in LOADS and x not in TOOLS:
            p.error(f"unknown load or tool {x!r}")
    args.output.mkdir(parents=True, exist_ok=True)
    if not args.table_only:
        for r in range(args.rounds):
            if (args.output / f"r{r}" / "round.json").exists():
                continue
            with open(args.lock, "a") if args.lock else contextlib.nullcontext() as lk:
                if lk:
                    fcntl.flock(lk, fcntl.LOCK_EX)
                run_round(r, args)
            if args.lock:
                break                     # one round per hold: call again for the next
    doc = table(args)
    (args.output / "reference.json").write_text(json.dumps(doc, indent=1) + "\n")
    md = markdown(doc)
    (args.output / "reference.md").write_text(md)
    compare(args, doc)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
