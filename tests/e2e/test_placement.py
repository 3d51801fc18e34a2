# SPDX-License-Identifier: GPL-2.0-or-later
"""hgrun's own threads stay off the measured CPUs while the threads
measure (docs/architecture.md, "The threads of a run"): the writer, the
watchdog and main run on the CPUs no thread of the plan may use; when the
plan may use every CPU, they are not moved."""
import os
import subprocess

import pytest

from runhelp import scenario_text
from test_status_truth import wait_until


def cpu_list(text):
    cpus = set()
    for part in text.strip().split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def online():
    with open("/sys/devices/system/cpu/online") as f:
        return cpu_list(f.read())


def threads(pid):
    """{name: allowed CPUs} of the process's threads ("main" for the process itself)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = "main" if int(tid) == pid else f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                line = next(x for x in f if x.startswith("Cpus_allowed_list:"))
            out[name] = cpu_list(line.split(":", 1)[1])
        except (OSError, StopIteration):
            pass
    return out


def during_run(hgrun_bin, path, out, until):
    """Runs the scenario; returns the threads' CPUs once until(threads) holds."""
    proc = subprocess.Popen([str(hgrun_bin), "run", str(path), "-o", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = {}
    try:
        def check():
            seen.update(threads(proc.pid))
            return until(seen)
        ok = wait_until(lambda: proc.poll() is not None or check())
        assert ok and proc.poll() is None, f"the run ended first: {seen}"
        return dict(seen)
    finally:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err


@pytest.mark.skipif(len(online()) < 2, reason="needs two online CPUs")
def test_own_threads_leave_the_measured_cpu(hgrun_bin, scenario, tmp_path):
    measured = max(online())
    rest = online() - {measured}
    path = scenario(scenario_text("placement", [
        f"{{name: lat, cpus: [{measured}], workload: {{type: latency, period: 1ms}}}}"],
        duration="1500ms"))
    seen = during_run(hgrun_bin, path, tmp_path / "out",
                      lambda t: all(t.get(n) == rest for n in ("main", "hgrun-watchdog", "hg-writer")))
    assert seen["lat"] == {measured}
    assert seen["main"] == rest, seen
    assert seen["hgrun-watchdog"] == rest, seen
    assert seen["hg-writer"] == rest, seen


def test_nothing_moves_when_every_cpu_is_measured(hgrun_bin, scenario, tmp_path):
    path = scenario(scenario_text("placement", [
        "{name: lat, workload: {type: latency, period: 1ms}}"], duration="1500ms"))
    seen = during_run(hgrun_bin, path, tmp_path / "out",
                      lambda t: "hgrun-watchdog" in t and "hg-writer" in t)
    for name in ("main", "hgrun-watchdog", "hg-writer"):
        assert seen[name] == online(), (name, seen)


@pytest.mark.skipif(len(online()) < 2, reason="needs two online CPUs")
def test_load_supervisor_leaves_the_measured_cpu(hgrun_bin, scenario, tmp_path):
    """hg-loads runs at a FIFO priority above the measuring threads': on a
    measured CPU each of its wake-ups would preempt one."""
    measured = max(online())
    rest = online() - {measured}
    path = scenario(scenario_text("placement", [
        f"{{name: lat, cpus: [{measured}], workload: {{type: latency, period: 1ms}}}}"],
        duration="1500ms",
        extra='loads:\n  - {name: idle, type: exec, command: "sleep 30"}'))
    seen = during_run(hgrun_bin, path, tmp_path / "out",
                      lambda t: t.get("hg-loads") == rest and "hg-writer" in t)
    assert seen["hg-loads"] == rest, seen
    assert seen["lat"] == {measured}
