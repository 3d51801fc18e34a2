# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs with background loads: windows on the run's timeline, statistics in
result.json, and no load process left behind, even after SIGINT."""
import json
import os
import pathlib
import signal
import subprocess
import time

from runhelp import Run, run_scenario, scenario_text

MARK = "4242.4242"   # a unique argument of the exec loads' sleep: findable in /proc


def live_pids_with(marker):
    pids = []
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = next(l for l in (proc / "status").read_text().splitlines() if l.startswith("State:"))
        except (OSError, StopIteration):
            continue
        if marker in cmdline and "Z (zombie)" not in state:
            pids.append(int(proc.name))
    return pids


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = next(l for l in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines()
                     if l.startswith("State:"))
        return "zombie" not in state
    except (OSError, StopIteration):
        return False


LOADS = f"""\
loads:
  - {{name: rx, type: tcp_stream, start: 0.2s, stop: 0.8s}}
  - {{name: mem, type: memory, size: 16MiB, start: 0.1s, stop: 0.5s}}
  - {{name: forks, type: fork, start: 0.3s}}
  - {{name: stubborn, type: exec, command: "trap '' TERM; sleep {MARK}", start: 0.1s, stop: 0.6s}}
"""


def test_loads_run_in_their_windows_and_report(hgrun, scenario, tmp_path):
    text = scenario_text("loaded", ["{name: rt, priority: RTHIGH, workload: {type: periodic, exec: 1ms, period: 5ms}}"],
                         extra=LOADS)
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="1.2s")
    assert r.rc == 0, r.err
    r.validate()
    loads = {l["name"]: l for l in r.result["loads"]}
    windows = {"rx": (0.2, 0.8), "mem": (0.1, 0.5), "forks": (0.3, 1.2), "stubborn": (0.1, 0.6)}
    for name, (start, stop) in windows.items():
        l = loads[name]
        assert abs(l["started_ns"] / 1e9 - start) < 0.15, (name, l["started_ns"])
        # a load is stopped at its stop time; one that ignores SIGTERM lives
        # on for the grace period (0.5 s), then is killed
        assert stop - 0.05 < l["stopped_ns"] / 1e9 < stop + 0.8, (name, l["stopped_ns"])
        assert l["stats"]["ops"] > 0 or name == "stubborn", (name, l["stats"])
        assert not any(alive(p) for p in l["pids"]), name
    assert loads["rx"]["stats"]["mbps"] > 0
    assert loads["stubborn"]["killed"] >= 1
    assert not live_pids_with(MARK)


def test_sigint_during_a_loaded_run_leaves_no_process(hgrun_bin, scenario, tmp_path):
    text = scenario_text("loaded_sigint", ["{name: hog, workload: {type: cpu}}"], duration="20s",
                         extra=LOADS.replace("stop: 0.6s", "stop: 19s").replace("stop: 0.8s", "stop: 19s"))
    path = scenario(text)
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", str(path), "-o", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 5
        while not live_pids_with(MARK) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live_pids_with(MARK), "the exec load did not start"
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    result = json.loads((out / "result.json").read_text())
    assert result["complete"] is False
    pids = [p for l in result["loads"] for p in l["pids"]]
    assert pids and not any(alive(p) for p in pids)
    assert not live_pids_with(MARK)


def test_a_load_that_never_started_still_gives_a_valid_result(hgrun, scenario, tmp_path):
    text = scenario_text("late_load", ["{name: c, workload: {type: cpu}}"], duration="5s",
                         extra="loads:\n  - {name: late, type: cpu, start: 4s}")
    r = run_scenario(hgrun, scenario, tmp_path, text, "--cut", duration="300ms")
    assert r.rc == 0, r.err
    r.validate()
    (late,) = r.result["loads"]
    assert late["started_ns"] is None and late["stats"] == {} and late["granted"] == {}
