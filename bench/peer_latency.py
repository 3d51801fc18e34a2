#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""hgrun next to cyclictest: the same timer wake-up test, alternated in rounds.

Both run one SCHED_FIFO thread pinned to one CPU that sleeps until an
absolute time every INTERVAL (clock_nanosleep, TIMER_ABSTIME, CLOCK_MONOTONIC)
and records how late each wake-up was.  hgrun's scenario is written to match
cyclictest's defaults: `latency` workload, `align: absolute` (the next
wake-up is the intended one plus the period, as cyclictest does), timer
`absolute`, memory locked, and /dev/cpu_dma_latency held at 0 (cyclictest's
default: no deep idle states).

    sudo bench/peer_latency.py --duration 10s --cpu 1 --rounds 7
    sudo bench/peer_latency.py --baseline /tmp/old/build/hgrun   # old vs new vs cyclictest

Each round runs every tool once, the order rotated from round to round, so
the machine's drift hits each alike.  The table compares at cyclictest's
resolution: cyclictest truncates each wake-up's lateness to whole
microseconds (its calcdiff() divides nanoseconds by 1000) and its
histogram has 1 us buckets, so hgrun's exact lateness (latency.bin) is
truncated the same way before its percentiles are taken; the `exact`
columns are hgrun's percentiles of the untruncated values (result.json's
are the upper edges of 100 ns buckets).  Comparing hgrun's result.json
with cyclictest's output instead puts hgrun about half a microsecond
higher than the same wake-ups measured by cyclictest.  Ratios are hgrun's
over cyclictest's in the same round.

--switches traces the measured CPU during each run (a tracefs instance of
its own): how often each of the tool's own threads other than the
measuring one was switched in there, and the IPIs the CPU took.

--control runs cyclictest a second time in each round (`cyclictest2`): its
ratio to the first is the tool measured against itself, the spread that
rounds alone give a ratio on this machine.  A ratio of hgrun's inside that
spread is not a difference between the tools.  (--baseline with the same
build as --hgrun does the same for hgrun.)

--lock FILE holds an flock on FILE for each round (not between rounds), for
machines shared with other timing work.

Needs rt-tests (apt-get install rt-tests) and a built build/hgrun.  This is a
benchmark, not a test: the numbers depend on the machine and its noise.

Measured 2026-11-27 on the 2-CPU KVM guest (bench/README.md), two runs of
7 rounds, --control, --baseline the same build, ratios to cyclictest median
(min-max).  Load 0.04-2.4: hgrun p50 1.00x (0.87-1.00), p99 0.95x
(0.79-1.18); the same build again p50 1.00x (0.87-1.14), p99 1.15x
(0.83-3.21); cyclictest again p50 1.00x (0.93-1.08), p99 0.94x (0.70-2.33).
Load 0.07-1.63: hgrun p50 0.94x (0.62-1.61), p99 1.12x (0.82-1.59); the
same build again 0.88x (0.64-1.00), 0.86x (0.73-1.03); cyclictest again
0.88x (0.55-1.22), 0.92x (0.73-1.19).  A tool against itself spreads as
widely as hgrun against cyclictest.
Again 21:38 UTC, 7 rounds, --control, --baseline main at 87e5bfc, load 2.21
falling to 0.12: hgrun p50 1.00x (0.93-1.08), p99 0.88x (0.51-1.65); the
old build 1.00x (0.93-1.00), 1.00x (0.58-1.50); cyclictest again 1.00x
(0.93-1.00), 0.95x (0.57-1.15).  With --switches (21:46, load 1.77 to
0.10): hgrun 1.08x (0.93-2.00), 0.92x (0.76-1.64); old 1.00x (1.00-1.62),
0.98x (0.89-1.62); cyclictest again 1.00x (0.93-1.08), 1.04x (0.82-1.35);
no switch into hgrun's other threads on the CPU, cyclictest's main 7-68/s.
21:59 UTC, load 2.09 to 0.04: hgrun 1.00x (1.00-1.08), 1.23x (1.00-1.79);
old 1.00x (1.00-1.08), 1.00x (0.87-1.35); cyclictest again 1.00x (1.00-1.08),
1.14x (0.84-1.27): hgrun and old ran the same code here (the one runner
change concerned loads), so 1.23x against 1.00x is one build against itself.

The script keeps itself off the measured CPU when there is another (the
tools start with the CPUs it had).  `p0.1` stands beside the minimum: the
minimum is the fastest of a few wake-ups a run whose timer interrupt came
early (bench/wake_path.py --early), and cyclictest's main thread, asleep on
the measured CPU, hands it some of those (docs/peers.md).
"""
import argparse
import contextlib
import fcntl
import json
import os
import pathlib
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
TRACEFS = pathlib.Path("/sys/kernel/tracing")
WAKEUP = struct.Struct("<qqIIQ")     # latency.bin record (docs/results.md)
HEADER = 64


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


def loadavg():
    return pathlib.Path("/proc/loadavg").read_text().split()[0]


class CpuTrace:
    """sched_switch and IPIs of one CPU while a tool runs, in a tracefs
    instance of its own; `own` counts switches into the tool's threads."""
    EVENTS = ["sched/sched_switch", "irq_vectors/call_function_entry",
              "irq_vectors/call_function_single_entry", "irq_vectors/reschedule_entry"]

    def __init__(self, cpu):
        self.cpu = cpu
        self.dir = TRACEFS / "instances" / f"peer_latency_{os.getpid()}"
        self.tids = {}

    def __enter__(self):
        self.dir.mkdir()
        (self.dir / "tracing_cpumask").write_text(format(1 << self.cpu, "x"))
        (self.dir / "buffer_size_kb").write_text("4096")
        for ev in self.EVENTS:
            (self.dir / "events" / ev / "enable").write_text("1")
        (self.dir / "tracing_on").write_text("1")
        return self

    def watch(self, proc):
        """Notes the tool's threads (tid -> name) while it runs."""
        def poll():
            while proc.poll() is None:
                with contextlib.suppress(OSError):
                    for t in os.listdir(f"/proc/{proc.pid}/task"):
                        with contextlib.suppress(OSError):
                            name = pathlib.Path(f"/proc/{proc.pid}/task/{t}/comm").read_text()
                            name = name.strip()
                            self.tids[int(t)] = name + " (main)" if int(t) == proc.pid else name
                time.sleep(0.05)
        th = threading.Thread(target=poll, daemon=True)
        th.start()
        return th

    def __exit__(self, *exc):
        (self.dir / "tracing_on").write_text("0")
        self.text = (self.dir / "trace").read_text()
        (self.dir / "events" / "enable").write_text("0")
        self.dir.rmdir()

    def summary(self, measuring):
        """Switches into the tool's other threads and IPIs, per second, while
        its measuring thread runs."""
        events = []
        for line in self.text.splitlines():
            m = re.search(r" (\d+\.\d+): (\w+):(?:.* next_comm=(.+) next_pid=(\d+))?", line)
            if m:
                events.append((float(m.group(1)), m.group(2),
                               self.tids.get(int(m.group(4))) if m.group(4) else None,
                               m.group(3)))
        # the measuring: its 10th to its last but 10 switches in (not set-up, not the end)
        times = [t for t, ev, name, _ in events if ev == "sched_switch" and name == measuring]
        if len(times) < 30:    # the thread not seen (its tid missed): no window
            return False, None
        first, last = times[10], times[-10]
        own, ipis, others = {}, 0, {}
        for t, ev, name, comm in events:
            if not first <= t <= last:
                continue
            if ev == "sched_switch" and name and name != measuring:
                own[name] = own.get(name, 0) + 1
            elif ev == "sched_switch" and not name and comm != "swapper/1":
                comm = re.sub(r"\d+", "N", comm)
                others[comm] = others.get(comm, 0) + 1
            elif ev.endswith("_entry"):
                ipis += 1
        span = last - first
        self.others = {k: v / span for k, v in others.items()}
        return {k: v / span for k, v in own.items()}, ipis / span


TOOL_CPUS = None    # the CPUs the tools start with (main's, before it moved)


def tool_cpus():
    if TOOL_CPUS:
        os.sched_setaffinity(0, TOOL_CPUS)


def run_tool(cmd, args, measuring):
    """Runs cmd, traced on the CPU with --switches; returns (own, ipis,
    other tasks), switches per second."""
    if not args.switches:
        subprocess.run(cmd, check=True, capture_output=True, text=True, preexec_fn=tool_cpus)
        return None, None, None
    with CpuTrace(args.cpu) as tr:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=tool_cpus)
        watcher = tr.watch(proc)
        _, err = proc.communicate()
        watcher.join()
        if proc.returncode:
            raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {err}")
    own, ipis = tr.summary(measuring)
    return own, ipis, getattr(tr, "others", None)


def row(tool, us_values, exact_ns, own, ipis, others):
    us_values.sort()
    r = {"tool": tool, "samples": len(us_values),
         "min": us_values[0] if us_values else 0, "p0.1": percentile(us_values, 0.001),
         "p50": percentile(us_values, 0.5),
         "p99": percentile(us_values, 0.99), "p999": percentile(us_values, 0.999),
         "max": us_values[-1] if us_values else 0, "values": us_values}
    if exact_ns is not None:
        exact_ns.sort()
        r["exact_p50"] = percentile(exact_ns, 0.5) / 1e3
        r["exact_p99"] = percentile(exact_ns, 0.99) / 1e3
    if isinstance(own, dict):
        r["own"] = ", ".join(f"{k} {v:.1f}/s" for k, v in sorted(own.items())) or "-"
        r["ipis"] = f"{ipis:.1f}/s"
        top = sorted(others.items(), key=lambda kv: -kv[1])[:4]
        r["others"] = ", ".join(f"{k} {v:.1f}/s" for k, v in top) or "-"
    elif own is False:
        r["own"], r["ipis"], r["others"] = "not seen (no measuring thread found)", "-", "-"
    return r


def run_cyclictest(args, tmp, tool):
    out = tmp / f"{tool}.json"
    cmd = ["cyclictest", "-m", "-q", f"-p{args.priority}", f"-i{args.interval_us}",
           f"-a{args.cpu}", "-t1", f"-D{args.duration}", "-h", str(args.hist_us),
           f"--histfile={tmp / 'hist.txt'}", f"--json={out}"]
    own, ipis, others = run_tool(cmd, args, "cyclictest")
    thread = json.loads(out.read_text())["thread"]["0"]
    values = from_histogram({int(k): v for k, v in thread["histogram"].items()})
    # beyond the histogram's range: only the max is known
    values += [thread["max"]] * (thread["cycles"] - len(values))
    return row(tool, values, None, own, ipis, others)


def cyclictest_scenario(name: str, duration: str, cpu: int, priority: int,
                        period_us: int) -> str:
    """hgrun's scenario for the timer wake-up test cyclictest runs (one FIFO thread on one
    CPU, clock_nanosleep to absolute times, memory locked, /dev/cpu_dma_latency held at 0);
    this script's and bench/wake_path.py's."""
    return f"""\
hgrun: 1
name: {name}
duration: {duration}
cpu_dma_latency: 0us
threads:
  - name: lat
    cpus: [{cpu}]
    priority: {{policy: fifo, priority: {priority}}}
    timer: absolute
    workload: {{type: latency, period: {period_us}us, align: absolute}}
"""


def run_hgrun(args, tmp, tool, binary):
    scenario = tmp / "peer_latency.yaml"
    scenario.write_text(cyclictest_scenario("peer_latency", args.duration, args.cpu,
                                            args.priority, args.interval_us))
    out = tmp / tool
    own, ipis, others = run_tool([binary, "run", str(scenario), "-o", str(out), "--quiet"], args, "lat")
    data = (out / "latency.bin").read_bytes()[HEADER:]
    late = [a - i for i, a, _, _, _ in WAKEUP.iter_unpack(data[:len(data) - len(data) % 32])]
    return row(tool, [max(v, 0) // 1000 for v in late], late, own, ipis, others)


def print_round(r, rows, load):
    print(f"\nround {r + 1} (load average {load})")
    print(f"{'tool':<11} {'samples':>8} {'min':>6} {'p0.1':>6} {'p50':>6} {'p99':>6} {'p99.9':>7} {'max':>7}"
          f" {'exact p50':>10} {'exact p99':>10}  (us)")
    for x in rows:
        ex = (f" {x['exact_p50']:>10.2f} {x['exact_p99']:>10.2f}" if "exact_p50" in x
              else f" {'':>10} {'':>10}")
        extra = (f"  own threads on the CPU: {x['own']}; IPIs {x['ipis']}; "
                 f"other tasks: {x['others']}" if "own" in x else "")
        print(f"{x['tool']:<11} {x['samples']:>8} {x['min']:>6} {x['p0.1']:>6} {x['p50']:>6} {x['p99']:>6} "
              f"{x['p999']:>7} {x['max']:>7}{ex}{extra}")
    ref = next(x for x in rows if x["tool"] == "cyclictest")
    for x in rows:
        if x is not ref:
            print(f"  {x['tool']}/cyclictest: p50 {ratio(x['p50'], ref['p50']):.2f}x, "
                  f"p99 {ratio(x['p99'], ref['p99']):.2f}x, max {ratio(x['max'], ref['max']):.2f}x")


def ratio(a, b):
    return a / b if b else float("inf")


def print_summary(tools, rounds):
    print(f"\nsummary of {len(rounds)} rounds (per-round ratio to cyclictest: median, min-max; "
          "pooled: percentiles of all rounds' wake-ups)")
    pooled = {t: sorted(v for rows in rounds for x in rows if x["tool"] == t for v in x["values"])
              for t in tools}
    for t in tools:
        p = pooled[t]
        line = f"{t:<11} pooled p0.1 {percentile(p, 0.001):>3} p50 {percentile(p, 0.5):>4} p99 {percentile(p, 0.99):>5} max {p[-1]:>6}"
        if t != "cyclictest":
            for q in ("p50", "p99"):
                rs = [ratio(next(x for x in rows if x["tool"] == t)[q],
                            next(x for x in rows if x["tool"] == "cyclictest")[q]) for rows in rounds]
                line += (f" | {q} ratio {statistics.median(rs):.2f}x ({min(rs):.2f}-{max(rs):.2f}), "
                         f"<= 1 in {sum(r <= 1 for r in rs)}/{len(rs)}")
        print(line)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--duration", default="10s", help="per run, e.g. 10s or 1m (default 10s)")
    p.add_argument("--interval-us", type=int, default=1000)
    p.add_argument("--cpu", type=int, default=1)
    p.add_argument("--priority", type=int, default=95)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--hist-us", type=int, default=20000, help="cyclictest histogram range")
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    p.add_argument("--baseline", help="an older hgrun binary to run beside (as `old`)")
    p.add_argument("--switches", action="store_true",
                   help="trace the CPU: the tools' own threads switched in there, IPIs")
    p.add_argument("--control", action="store_true",
                   help="run cyclictest twice a round: the ratio of the tool to itself")
    p.add_argument("--lock", help="flock this file for each round")
    args = p.parse_args()
    tools = (["cyclictest", "hgrun"] + (["old"] if args.baseline else [])
             + (["cyclictest2"] if args.control else []))
    runners = {"cyclictest": lambda tmp: run_cyclictest(args, tmp, "cyclictest"),
               "cyclictest2": lambda tmp: run_cyclictest(args, tmp, "cyclictest2"),
               "hgrun": lambda tmp: run_hgrun(args, tmp, "hgrun", args.hgrun),
               "old": lambda tmp: run_hgrun(args, tmp, "old", args.baseline)}
    print(f"timer wake-up latency, FIFO {args.priority}, CPU {args.cpu}, every {args.interval_us} us, "
          f"{args.duration} per run, {args.rounds} rounds; whole us truncated as cyclictest does")
    # This script (and its tracing thread) off the measured CPU, when there is
    # another; each tool starts with the CPUs it had (hgrun refuses CPUs it may
    # not use) and pins its measuring thread itself.
    global TOOL_CPUS
    TOOL_CPUS = os.sched_getaffinity(0)
    if TOOL_CPUS - {args.cpu}:
        os.sched_setaffinity(0, TOOL_CPUS - {args.cpu})
    rounds = []
    with tempfile.TemporaryDirectory() as d:
        for r in range(args.rounds):
            tmp = pathlib.Path(d) / f"round{r}"
            tmp.mkdir()
            order = tools[r % len(tools):] + tools[:r % len(tools)]
            with open(args.lock, "a") if args.lock else contextlib.nullcontext() as lk:
                if lk:
                    fcntl.flock(lk, fcntl.LOCK_EX)
                load = loadavg()
                rows = {t: runners[t](tmp) for t in order}
            rows = [rows[t] for t in tools]
            print_round(r, rows, load)
            sys.stdout.flush()
            rounds.append(rows)
    print_summary(tools, rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
