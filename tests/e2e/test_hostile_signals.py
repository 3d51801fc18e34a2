# SPDX-License-Identifier: GPL-2.0-or-later
"""Signals: SIGHUP and SIGQUIT end a run like SIGTERM (a result, exit 128 +
signal); SIGUSR1 prints a status line and the run goes on; every one of
them leaves no io directory behind, and a directory left by a SIGKILLed
hgrun is removed by the next run that uses the same dir."""
import json
import os
import signal
import subprocess
import time

import pytest

from runhelp import scenario_text

THREAD = "{name: be, workload: {type: cpu}}"


def io_scenario(scenario, dir, duration):
    extra = f"loads:\n  - {{name: disk, type: io, size: 64KiB, dir: {dir}}}\n"
    return scenario(scenario_text("sig", [THREAD], duration=duration, extra=extra))


def io_dirs(dir):
    return [p for p in os.listdir(dir) if p.startswith("hgrun-io-")]


def start(hgrun_bin, path, out):
    return subprocess.Popen([str(hgrun_bin), "run", path, "-o", out], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_io_dir(dir):
    for _ in range(200):
        if io_dirs(dir):
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("sig,code,name", [(signal.SIGHUP, 129, "SIGHUP"),
                                           (signal.SIGQUIT, 131, "SIGQUIT")])
def test_hup_and_quit_end_the_run_with_a_result(hgrun_bin, scenario, tmp_path, sig, code, name):
    iodir = tmp_path / "io"
    iodir.mkdir()
    path = io_scenario(scenario, iodir, "5s")
    out = tmp_path / "out"
    proc = start(hgrun_bin, path, out)
    assert wait_for_io_dir(iodir)
    time.sleep(0.3)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == code, stderr
    result = json.loads((out / "result.json").read_text())
    assert result["complete"] is False
    assert result["interrupted_by"] == name
    assert io_dirs(iodir) == []


def test_usr1_prints_status_and_the_run_goes_on(hgrun_bin, scenario, tmp_path):
    iodir = tmp_path / "io"
    iodir.mkdir()
    path = io_scenario(scenario, iodir, "1500ms")
    out = tmp_path / "out"
    proc = start(hgrun_bin, path, out)
    assert wait_for_io_dir(iodir)
    time.sleep(0.3)
    proc.send_signal(signal.SIGUSR1)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 0, stderr
    assert "hgrun: sig: " in stderr and " s of 1.5 s, results in " in stderr
    result = json.loads((out / "result.json").read_text())
    assert result["complete"] is True
    assert io_dirs(iodir) == []


def test_sigkill_leftovers_are_removed_by_the_next_run(hgrun_bin, scenario, tmp_path):
    iodir = tmp_path / "io"
    iodir.mkdir()
    path = io_scenario(scenario, iodir, "5s")
    proc = start(hgrun_bin, path, tmp_path / "out1")
    assert wait_for_io_dir(iodir)
    time.sleep(0.3)
    proc.kill()
    proc.communicate(timeout=30)
    left = io_dirs(iodir)
    assert left, "SIGKILL should leave the io directory (nothing can remove it then)"
    # A name that is not an io directory, and a link named like one, stay.
    (iodir / "mine").mkdir()
    os.symlink(tmp_path, iodir / "hgrun-io-999999999-x-AAAAAA")
    path2 = io_scenario(scenario, iodir, "300ms")
    r = subprocess.run([str(hgrun_bin), "run", path2, "-o", tmp_path / "out2", "--quiet"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(iodir)) == ["hgrun-io-999999999-x-AAAAAA", "mine"]
