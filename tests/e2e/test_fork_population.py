# SPDX-License-Identifier: GPL-2.0-or-later
"""The fork load's `population` (docs/loads.md): N children alive mid-run,
none after the load's window, none after hgrun is SIGKILLed; the bounds
and the cap on load processes refused with a message."""
import json
import os
import signal
import subprocess
import time

import pytest

from runhelp import children, proc_stat, scenario_text, wait_for

THREAD = "{name: lat, workload: {type: latency, period: 10ms}}"


def start(hgrun_bin, scenario, tmp_path, loads, duration):
    text = scenario_text("pop", [THREAD], duration=duration,
                         extra="loads:\n" + "".join(f"  - {l}\n" for l in loads))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", str(scenario(text)), "-o", str(out),
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    return proc, out


def test_population_alive_mid_run_and_gone_after(hgrun_bin, scenario, tmp_path):
    proc, out = start(hgrun_bin, scenario, tmp_path,
                      ["{name: pop, type: fork, population: 50, stop: 2s}"], "3s")
    seen, counts = set(), []
    try:
        (load,) = wait_for(lambda: children(proc.pid, "pop"), 5, poll=0.05)
        wait_for(lambda: len(children(load)) >= 40, 2, poll=0.05)
        for _ in range(10):                  # ~1 s of the window
            kids = children(load)
            counts.append(len(kids))
            seen.update(kids)
            time.sleep(0.1)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read()
    # never more than 50; close to 50 once up (a few may be between their exit and their
    # replacement, more when the machine is busy and the keeper waits for a CPU)
    assert max(counts) <= 50 and max(counts) >= 40, counts
    assert len(seen) > 50                    # they die and are replaced
    assert not any(proc_stat(p) for p in seen) and proc_stat(load) is None
    result = json.loads((out / "result.json").read_text())
    (l,) = result["loads"]
    assert l["stats"]["ops"] >= 100          # forks: the first 50 and the replacements
    assert result["scenario"]["loads"][0]["population"] == 50


def test_sigkill_of_hgrun_leaves_no_child(hgrun_bin, scenario, tmp_path):
    proc, _ = start(hgrun_bin, scenario, tmp_path,
                    ["{name: pop, type: fork, population: 50}"], "10s")
    try:
        (load,) = wait_for(lambda: children(proc.pid, "pop"), 5, poll=0.05)
        kids = wait_for(lambda: (k := children(load)) and len(k) >= 40 and k, 5, poll=0.05)
        assert kids, "the population did not come up"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    gone = wait_for(lambda: not any(proc_stat(p) and proc_stat(p)[1] != "Z" for p in kids + [load]),
                    5, poll=0.05)
    assert gone, [proc_stat(p) for p in kids + [load] if proc_stat(p)]


@pytest.mark.parametrize("loads,message", [
    (["{name: f, type: fork, population: 0}"], "loads[0].population"),
    (["{name: f, type: fork, population: 5000}"], "loads[0].population"),
    (["{name: f, type: fork, workers: 4, population: 2}"],
     "population 2 is shared among 4 workers"),
    (["{name: c, type: cpu, population: 10}"], "load 'cpu' takes only workers, stagger, not 'population' (fork takes it)"),
    (["{name: a, type: fork, population: 3000}", "{name: b, type: fork, population: 3000}"],
     "the loads ask for about 6002 processes in all: at most 4096, workers and fork populations"),
])
def test_population_bounds(hgcli, scenario, loads, message):
    text = scenario_text("pop", [THREAD],
                         extra="loads:\n" + "".join(f"  - {l}\n" for l in loads))
    r = hgcli("validate", scenario(text))
    assert r.rc == 2 and message in r.err, r.err
