# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU the scenario did not get (docs/results.md): from the gap trace, per CPU and phase,
the time the scenario's threads wanted a CPU and none of them ran there. A busy loop started
outside hgrun on CPU 0 shows up as such and warns; a quiet run does not warn."""
import os
import subprocess
import threading
import time

import pytest

from runhelp import Run

HOG = """\
hgrun: 1
name: hog
duration: 3s
threads:
  - {name: hog, cpus: [0], priority: NORMAL, workload: {type: cpu}}
"""

QUIET = """\
hgrun: 1
name: quiet
duration: 2s
threads:
  - {name: rt, cpus: [0], priority: RTHIGH, timer: absolute,
     workload: {type: periodic, exec: 1ms, period: 10ms}}
"""

PHASED = """\
hgrun: 1
name: phased
duration: 2s
threads:
  - {name: hog, cpus: [0], priority: NORMAL, workload: {type: cpu}}
loads:
  - {name: bg, type: cpu, workers: 1, cpus: [0], start: 1s, stop: 2s}
"""


def run(hgrun, scenario, tmp_path, text):
    out = tmp_path / "out"
    return Run(hgrun("run", scenario(text), "-o", out, timeout=30), out)


class RunTime:
    """Samples a process's CPU time (/proc/PID/schedstat, ns) against CLOCK_MONOTONIC every
    5 ms, to know how much it ran inside a window of the run."""

    def __init__(self, pid):
        self.pid, self.samples, self.stop = pid, [], threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stop.is_set():
            with open(f"/proc/{self.pid}/schedstat") as f:
                self.samples.append((time.monotonic_ns(), int(f.read().split()[0])))
            time.sleep(0.005)

    def finish(self):
        self.stop.set()
        self.thread.join()

    def ran_between(self, a, b):
        """CPU time between the first and the last sample inside monotonic [a, b]."""
        inner = [s for s in self.samples if a <= s[0] <= b]
        if not inner:
            return 0
        return inner[-1][1] - inner[0][1]


def warnings_about(result):
    return [w for w in result["warnings"] if w.startswith("CPU not received")]


@pytest.fixture
def busy_loop_on_cpu0():
    """A shell loop pinned to CPU 0 (no fork in the loop: /proc sees all of its time), at
    nice -10 so that it, not the other tenants of a shared machine, takes most of the CPU."""
    if not os.sched_getaffinity(0) >= {0}:
        pytest.skip("needs CPU 0")
    try:
        subprocess.run(["nice", "-n", "-10", "true"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs CAP_SYS_NICE for nice -10")
    proc = subprocess.Popen(["nice", "-n", "-10", "taskset", "-c", "0", "sh", "-c",
                             "while :; do :; done"])
    time.sleep(0.2)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_a_busy_loop_outside_is_reported_and_warned(hgrun, scenario, tmp_path, busy_loop_on_cpu0):
    sampler = RunTime(busy_loop_on_cpu0.pid)
    try:
        r = run(hgrun, scenario, tmp_path, HOG)
    finally:
        sampler.finish()
    assert r.rc == 0, r.err
    r.validate()
    nr = r.result["cpu_not_received"]
    cpu0 = next(c for c in nr["cpus"] if c["cpu"] == 0)
    t = r.result["threads"][0]
    hog = t["stats"]["cpu_ns"]
    assert abs(cpu0["received_ns"] - hog) < 0.01 * hog + 1e6, "received is the thread's CPU time"
    # The hog wanted CPU 0 all the time it ran: received + not received ~ its window.
    window = t["stopped_ns"] - t["started_ns"]
    assert 0.9 * window < cpu0["received_ns"] + cpu0["not_received_ns"] < 1.02 * window, cpu0
    # Every ns the loop ran on CPU 0 inside the window is one the hog did not get (others
    # on a shared machine take more): at least that much is reported, and it is most.
    zero = r.result["tsc"]["start_monotonic_ns"]
    took = sampler.ran_between(zero + t["started_ns"] + 20_000_000, zero + t["stopped_ns"] - 20_000_000)
    assert took > 0.1 * window, "the loop ran"
    assert cpu0["not_received_ns"] > 0.85 * took, (cpu0, took)
    assert cpu0["share"] > 0.5, cpu0
    [w] = warnings_about(r.result)
    assert "on CPU 0 from 0s to 3s" in w and "--kernel-trace" in w, w
    assert "warning: CPU not received: on CPU 0" in r.out, "the summary shows it"
    competition = r.result["competition"]
    assert 0 <= competition["outsiders_share"] <= 1
    assert competition["not_received_ns"] == cpu0["not_received_ns"]


def test_a_quiet_run_does_not_warn(hgrun, scenario, tmp_path):
    r = run(hgrun, scenario, tmp_path, QUIET)
    assert r.rc == 0, r.err
    r.validate()
    cpu0 = r.result["cpu_not_received"]["cpus"][0]
    assert cpu0["cpu"] == 0 and cpu0["received_ns"] > 0.1e9
    assert cpu0["share"] < 0.05, cpu0
    assert warnings_about(r.result) == []


def test_phases_and_the_scenarios_own_loads(hgrun, scenario, tmp_path):
    """A load of the scenario on the CPU takes its time by design: reported, not warned."""
    r = run(hgrun, scenario, tmp_path, PHASED)
    assert r.rc == 0, r.err
    phases = r.result["cpu_not_received"]["phases"]
    assert [(p["from_ns"], p["to_ns"], p["loads"]) for p in phases] == \
        [(0, 1_000_000_000, None), (1_000_000_000, 2_000_000_000, "bg")]
    shared = phases[1]["cpus"][0]
    assert shared["share"] > 0.25, phases
    assert not [w for w in warnings_about(r.result) if "from 1s to 2s" in w]
