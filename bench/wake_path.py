#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a timer wake-up's lateness goes, hgrun beside cyclictest, alternated.

Each round runs `cyclictest -m -q -pPRIO -i1000 -aCPU -t1` and hgrun's
`latency` thread set up alike (as bench/peer_latency.py does), each under a
tracefs instance of its own on the measured CPU (trace clock `mono`:
hrtimer_start, hrtimer_expire_entry, sched_switch, the return from
clock_nanosleep), and splits each wake-up
of the measuring thread (the task that armed an absolute hrtimer_wakeup on
that CPU) into:

  irq delay       the hrtimer interrupt's clock reading (`now`) less the
                  timer's expiry (`expires`, the intended wake-up): the
                  timer interrupt's own lateness, before any code of the tool
  to return       from that interrupt to the thread's return from
                  clock_nanosleep (raw_syscalls/sys_exit, trace timestamps,
                  whole us): the wake-up, the switch into the thread and the
                  way out of the kernel.  (Not to the sched_switch into the
                  thread: this guest's kernel (6.18) traces no switch out of
                  the idle task, so that figure only counted the wake-ups
                  that preempted a task.)

beside each tool's own lateness of the same run (hgrun: latency.bin;
cyclictest: its histogram, bucket middles) and the lateness the trace saw
(`traced`: the return from clock_nanosleep less the timer's expiry, whole
us).  For hgrun the same wake-ups are matched by their intended time
(latency.bin counts from time zero, result.json's tsc.start_monotonic_ns):
`own-traced`, p50 and max, is what hgrun's record holds beyond the trace's
return from the syscall (its clock read, and the trace's truncation to
whole us).  Tracing slows every wake-up alike; compare the tools, not these
figures with peer_latency.py's.

--early US lists the run's fastest wake-ups, those back from clock_nanosleep
less than US after the timer's expiry, with the CPU's last event before
their interrupt (another timer's expiry names who armed it) and, pooled, how
many came in the interrupt of another timer that expired at most 5 us
before: the timer interrupt then needs no delivery of its own.  A tool
minimum comes from such wake-ups.

--late US lists each wake-up whose timer interrupt came US or more after the
timer's expiry, with the task the interrupt came in (`<idle>`: the CPU
was idle, interrupts open; a user task: it cannot hold interrupts off;
either way nothing of the guest delayed the interrupt) and the CPU's last traced event before the interrupt: a
wake-up milliseconds late with the CPU idle and no event in between was
held up outside the guest's kernel (the host did not run the vCPU).

    sudo bench/wake_path.py --rounds 6 --lock /work/coord/rt.lock
    sudo bench/wake_path.py --rounds 4 --duration 10 --early 10

Measured 2026-11-27 (bench/README.md), 4 rounds of 5 s, load 1.9-3.2,
pooled: lateness p50 14.8 us for hgrun, 14.5 for cyclictest (rounds
14.5-16.3 and 14.5-15.5); the interrupt's own delay p50 7.1 against 7.0;
from it to the return from clock_nanosleep p50 7 against 7 in every round.
The interrupts 300 us or more late came in the idle task after a host stall
(nothing traced for up to 9.2 ms) or in the sandbox's agent, a user task,
under both tools.

Again 2026-11-27 21:33 UTC, `--rounds 4 --duration 10 --early 10`, load
1.69 falling to 0.60, about 10,000 wake-ups a run, pooled: lateness p10 /
p50 13.3 / 14.3 us for hgrun, 13.5 / 14.5 for cyclictest; traced 12.8 /
13.8 against 13.0 / 14.2; irq delay 6.3 / 6.8 against 6.3 / 6.9; to return
6 / 7 for both; hgrun's record less the trace's return, the same wake-ups,
p50 0.5 us.  Wake-ups back within 10 us of the expiry: cyclictest 14, 8 of
them in the interrupt of a timer its main thread armed (its 10 ms sleep on
the measured CPU) that expired 2-3 us before; hgrun 0.  In an earlier run
of 4 rounds (load 2.4-1.4): cyclictest 22, hgrun 3.  That is the minimum
lateness of cyclictest's that was 1-5 us below hgrun's: a few wake-ups a
run that ride another timer's interrupt, the timers of cyclictest's own
main thread among them, not a difference in what the tools measure.
"""
import argparse
import contextlib
import fcntl
import json
import os
import pathlib
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
INSTANCE = pathlib.Path("/sys/kernel/tracing/instances") / f"wake_path_{os.getpid()}"
WAKEUP = struct.Struct("<qqIIQ")     # latency.bin record (docs/results.md)
HEADER = 64
CLOCK_NANOSLEEP = 230                 # x86_64's syscall number
LINE = re.compile(r"\s*(.+)-(\d+)\s+\[\d+\]\s+\S+\s+(\d+\.\d+): (\w+): (.*)")


def traced(cmd, cpu):
    """Runs cmd with the measured CPU traced; returns the trace text."""
    INSTANCE.mkdir()
    try:
        (INSTANCE / "tracing_cpumask").write_text(format(1 << cpu, "x"))
        (INSTANCE / "trace_clock").write_text("mono")
        (INSTANCE / "buffer_size_kb").write_text("8192")
        for ev in ("timer/hrtimer_start", "timer/hrtimer_expire_entry", "sched/sched_switch",
                   "raw_syscalls/sys_exit"):
            (INSTANCE / "events" / ev / "enable").write_text("1")
        (INSTANCE / "events/raw_syscalls/sys_exit/filter").write_text(
            f"id == {CLOCK_NANOSLEEP}")
        (INSTANCE / "tracing_on").write_text("1")
        subprocess.run(cmd, check=True, capture_output=True)
        (INSTANCE / "tracing_on").write_text("0")
        text = (INSTANCE / "trace").read_text()
        (INSTANCE / "events" / "enable").write_text("0")
    finally:
        INSTANCE.rmdir()
    return text


def split(text, late_us=None, early_us=None):
    """(irq delays, interrupt to the return from clock_nanosleep) in us,
    the first and last 50 left out; with late_us the wake-ups whose
    interrupt came that late: (irq delay us, the task the interrupt came in
    (the trace line's own), us since the CPU's last event before the
    interrupt, that event); with early_us the wake-ups whose return from
    clock_nanosleep came less than early_us after the timer's expiry:
    (that lateness us, irq delay us, interrupt to return us, the task the
    interrupt came in, us since the last event before it, that event)."""
    armed, woken, irq, switch, late, early, exits, owner = {}, {}, [], [], [], [], {}, {}
    last = (0.0, "")
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, ts, ev, rest = m.group(1).strip(), int(m.group(2)), float(m.group(3)), \
            m.group(4), m.group(5)
        what = ev
        if ev.startswith("hrtimer"):
            what += " " + rest.split(" ")[1]
            h = re.search(r"hrtimer=(\w+)", rest).group(1)
            if ev == "hrtimer_start":
                owner[h] = f"{comm}-{pid}"
            elif h in owner:
                what += f" (armed by {owner[h]})"
        prev, last = last, (ts, what)
        if ev == "hrtimer_start" and "function=hrtimer_wakeup" in rest and "mode=ABS" in rest:
            armed[re.search(r"hrtimer=(\w+)", rest).group(1)] = (
                pid, int(re.search(r" expires=(\d+)", rest).group(1)))
        elif ev == "hrtimer_expire_entry" and "hrtimer_wakeup" in rest:
            h = re.search(r"hrtimer=(\w+)", rest).group(1)
            if h in armed:
                pid, expires = armed.pop(h)
                irq.append((int(re.search(r"now=(\d+)", rest).group(1)) - expires) / 1e3)
                woken[pid] = (ts, expires, irq[-1], comm, (ts - prev[0]) * 1e6, prev[1])
                if late_us is not None and irq[-1] >= late_us:
                    late.append((irq[-1], comm, (ts - prev[0]) * 1e6, prev[1]))
        elif ev == "sys_exit" and pid in woken:
            t_irq, expires, delay, task, quiet, event = woken.pop(pid)
            switch.append((ts - t_irq) * 1e6)
            total = ts * 1e6 - expires / 1e3
            exits[expires] = total
            if early_us is not None and total < early_us:
                early.append((total, delay, switch[-1], task, quiet, event))
    return irq[50:-50], switch[50:-50], late, early, exits


def own_records(tmp):
    """hgrun's wake-ups: {intended (ns, CLOCK_MONOTONIC): lateness us}; the
    records count from time zero (docs/results.md)."""
    t0 = json.loads((tmp / "out" / "result.json").read_text())["tsc"]["start_monotonic_ns"]
    d = (tmp / "out" / "latency.bin").read_bytes()[HEADER:]
    return {t0 + i: (a - i) / 1e3
            for i, a, _, _, _ in WAKEUP.iter_unpack(d[:len(d) - len(d) % 32])}


def lateness(tool, tmp):
    if tool == "hgrun":
        return list(own_records(tmp).values())
    th = json.loads((tmp / "ct.json").read_text())["thread"]["0"]
    return [int(b) + 0.5 for b, c in th["histogram"].items() for _ in range(c)]


def q(values, p):
    return statistics.quantiles(values, n=100)[p - 1] if len(values) > 1 else float("nan")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--duration", type=int, default=5, help="seconds per run")
    p.add_argument("--cpu", type=int, default=1)
    p.add_argument("--priority", type=int, default=95)
    p.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"))
    p.add_argument("--lock", help="flock this file for each round")
    p.add_argument("--late", type=float, metavar="US",
                   help="list the wake-ups whose timer interrupt came US or more late")
    p.add_argument("--early", type=float, metavar="US",
                   help="list the wake-ups whose return from clock_nanosleep came less than US "
                        "after the timer's expiry (the run's fastest)")
    a = p.parse_args()
    tools = ["cyclictest", "hgrun"]
    pooled = {t: ([], [], [], []) for t in tools}
    pooled["diff"] = []
    shared = {t: [0, 0] for t in tools}    # --early: wake-ups, those after another timer
    print(f"wake-up path, FIFO {a.priority}, CPU {a.cpu}, every 1000 us, {a.duration} s per run, "
          f"{a.rounds} rounds alternated; us: p10 / p50")
    print(f"{'round':<6}{'load':>6}  {'tool':<11}{'wake-ups':>9}{'lateness':>16}{'traced':>16}"
          f"{'irq delay':>16}{'to return':>16}{'own-traced':>16}")
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        scenario = tmp / "wake_path.yaml"
        from peer_latency import cyclictest_scenario    # this script's folder: bench/
        scenario.write_text(cyclictest_scenario("wake_path", f"{a.duration}s", a.cpu, a.priority,
                                                1000))
        cmds = {"cyclictest": ["cyclictest", "-m", "-q", f"-p{a.priority}", "-i1000", f"-a{a.cpu}",
                               "-t1", f"-D{a.duration}", "-h", "20000", f"--json={tmp / 'ct.json'}"],
                "hgrun": [a.hgrun, "run", str(scenario), "-o", str(tmp / "out"), "--quiet"]}
        for r in range(a.rounds):
            order = tools if r % 2 == 0 else tools[::-1]
            with open(a.lock, "a") if a.lock else contextlib.nullcontext() as lk:
                if lk:
                    fcntl.flock(lk, fcntl.LOCK_EX)
                load = pathlib.Path("/proc/loadavg").read_text().split()[0]
                for t in order:
                    shutil.rmtree(tmp / "out", ignore_errors=True)
                    irq, switch, late, early, exits = split(traced(cmds[t], a.cpu), a.late, a.early)
                    own = lateness(t, tmp)
                    seen = sorted(exits.values())[50:-50]
                    for acc, v in zip(pooled[t], (own, seen, irq, switch)):
                        acc.extend(v)
                    extra = ""
                    if t == "hgrun":    # the same wake-ups: hgrun's record less the trace's
                        d = sorted(late_us - exits[i] for i, late_us in own_records(tmp).items()
                                   if i in exits)
                        pooled["diff"].extend(d)
                        extra = f"{q(d, 50):>8.1f}{d[-1]:>8.1f}" if d else ""
                    print(f"{r + 1:<6}{load:>6}  {t:<11}{len(irq):>9}"
                          + "".join(f"{q(v, 10):>8.1f}{q(v, 50):>8.1f}"
                                    for v in (own, seen, irq, switch)) + extra, flush=True)
                    for us, task, quiet, event in late:
                        print(f"{'':<14}interrupt {us:9.1f} us late, came in {task}; "
                              f"its last event {event}, {quiet:.1f} us before", flush=True)
                    shared[t][0] += len(early)
                    shared[t][1] += sum(1 for e in early if e[5].startswith("hrtimer_expire_entry")
                                        and e[4] <= 5)
                    for us, delay, ret, task, quiet, event in early:
                        print(f"{'':<14}returned {us:5.1f} us after expiry: interrupt {delay:.1f} "
                              f"us late (in {task}; last event {event}, {quiet:.1f} us before), "
                              f"{ret:.1f} us to return", flush=True)
    print("\npooled")
    for t in tools:
        print(f"{'':<12}  {t:<11}{len(pooled[t][2]):>9}"
              + "".join(f"{q(v, 10):>8.1f}{q(v, 50):>8.1f}" for v in pooled[t])
              + (f"{q(pooled['diff'], 50):>8.1f}{max(pooled['diff']):>8.1f}"
                 if t == "hgrun" and pooled["diff"] else ""))
    if a.early is not None:
        for t in tools:
            print(f"{t}: {shared[t][0]} wake-ups returned less than {a.early:g} us after expiry, "
                  f"{shared[t][1]} of them in the interrupt of another timer that expired "
                  "at most 5 us before")
    return 0


if __name__ == "__main__":
    sys.exit(main())
