# SPDX-License-Identifier: GPL-2.0-or-later
"""Every failure reaches the run: a load that did not run as asked (refused
connect, command not found, a command that exits at once, a keeper killed
from outside, a refused priority) and a thread that ran outside its CPUs
(one taken offline) are in result.json's warnings and the summary, and
make --strict exit 4."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from runhelp import scenario_text

THREAD = "{name: be, workload: {type: cpu}}"
MARK = "4343.4343"


def run(hgrun, scenario, tmp_path, loads, *args, duration="400ms", threads=(THREAD,), extra=""):
    """A short run with `loads`: (Result, result.json); what is asserted is the warnings."""
    path = scenario(scenario_text("loadfail", list(threads), duration=duration,
                                  extra=extra + "loads:\n" + "".join(f"  - {l}\n" for l in loads)))
    out = tmp_path / "out"
    r = hgrun("run", path, "-o", out, *args, timeout=60)
    result = json.loads((out / "result.json").read_text())
    shutil.rmtree(out)
    return r, result


CASES = [
    ('{name: refused, type: tcp_stream, connect: "127.0.0.1:9"}',
     "connect 127.0.0.1:9: Connection refused ("),
    ('{name: nocmd, type: exec, command: "no_such_command_4343"}', "status 127 (command not found)"),
    ('{name: quick, type: exec, command: "true"}', "the command exited with status 0 before"),
]


@pytest.mark.parametrize("load,message", CASES, ids=["connect", "127", "exits"])
def test_load_failure_is_a_run_warning(hgrun, scenario, tmp_path, load, message):
    r, result = run(hgrun, scenario, tmp_path, [load])
    assert r.rc == 0, r.err
    assert any(message in w for w in result["warnings"]), result["warnings"]
    assert message in r.out
    strict, _ = run(hgrun, scenario, tmp_path, [load], "--strict")
    assert strict.rc == 4, strict.err


def test_a_load_that_runs_as_asked_gives_no_warning(hgrun, scenario, tmp_path):
    r, result = run(hgrun, scenario, tmp_path, ['{name: ok, type: exec, command: "sleep 5"}'],
                    "--strict")
    assert not [w for w in result["warnings"] if "load ok" in w and "after its" not in w]
    assert r.rc == 0, r.err


def keeper_of(marker):
    """The exec load's keeper: the parent of the shell running `marker`."""
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if marker in cmd and cmd.startswith("sh "):
                stat = (proc / "stat").read_text()
                return int(stat.rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
    return None


def test_keeper_killed_mid_run_is_warned(hgrun_bin, scenario, tmp_path):
    path = scenario(scenario_text("killed", [THREAD], duration="2s",
                                  extra=f'loads:\n  - {{name: k, type: exec, command: "sleep {MARK}"}}\n'))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", out, "--strict"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    keeper = None
    for _ in range(100):
        keeper = keeper_of(MARK)
        if keeper:
            break
        time.sleep(0.02)
    assert keeper, "the exec load did not start"
    os.kill(keeper, signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=60)
    result = json.loads((out / "result.json").read_text())
    assert any("load k:" in w and ("killed by signal 9" in w or "killed by SIGKILL" in w) for w in result["warnings"]), \
        result["warnings"]
    assert proc.returncode == 4, stderr


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"),
                    reason="drops root with setpriv to have a priority refused")
def test_refused_load_priority_is_warned(hgrun_bin):
    d = tempfile.mkdtemp(prefix="hg-loadprio-")
    try:
        os.chmod(d, 0o777)
        path = os.path.join(d, "s.yaml")
        with open(path, "w") as f:
            f.write(scenario_text("prio", [THREAD], duration="500ms",
                                  extra="lock_memory: false\nloads:\n"
                                        "  - {name: p, type: cpu, workers: 1, priority: RTLOW}\n"))
        cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", str(hgrun_bin),
               "run", path, "-o", os.path.join(d, "out")]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert "load p: scheduling policy fifo not granted" in proc.stdout
        shutil.rmtree(os.path.join(d, "out"))
        strict = subprocess.run(cmd + ["--strict"], capture_output=True, text=True, timeout=60)
        assert strict.returncode == 4, strict.stderr
    finally:
        shutil.rmtree(d, ignore_errors=True)


def cpu1_can_go_offline():
    online = pathlib.Path("/sys/devices/system/cpu/cpu1/online")
    return os.geteuid() == 0 and online.exists() and online.read_text().strip() == "1"


@pytest.mark.skipif(not cpu1_can_go_offline(), reason="needs root and a cpu1 that can go offline")
def test_cpu_taken_offline_during_the_run_is_warned(hgrun_bin, scenario, tmp_path):
    online = pathlib.Path("/sys/devices/system/cpu/cpu1/online")
    path = scenario(scenario_text("offline", ["{name: pinned, cpus: [1], workload: {type: cpu}}"],
                                  duration="2s", extra="lock_memory: false\n"))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", out, "--strict"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.7)
        try:
            online.write_text("0")
        except OSError as e:
            proc.kill()
            proc.wait()
            pytest.skip(f"cpu1 cannot go offline: {e}")
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        for _ in range(50):
            try:
                online.write_text("1")
                break
            except OSError:
                time.sleep(0.1)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    result = json.loads((out / "result.json").read_text())
    warnings = " | ".join(result["warnings"])
    assert "CPU 1 went offline during the run" in warnings, warnings
    assert "outside its cpus 1" in warnings, warnings
    assert proc.returncode == 4, stderr
