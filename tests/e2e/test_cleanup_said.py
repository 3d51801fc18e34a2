# SPDX-License-Identifier: GPL-2.0-or-later
"""Cleanup that finishes or says so (docs/loads.md, docs/hardening.md): a stress_ng load's
scratch directory is removed whatever its depth (a dirdeep stressor killed after its grace
leaves thousands of levels), and what cannot be removed is said in a warning and listed in
result.json's files."""
import json
import os
import shutil
import subprocess
import time

import pytest

from runhelp import scenario_text

THREAD = "{name: be, workload: {type: cpu}}"

pytestmark = pytest.mark.skipif(shutil.which("stress-ng") is None,
                                reason="stress-ng is not installed")


def test_a_dirdeep_stressors_tree_is_removed_entirely(hgrun, scenario, tmp_path):
    """Before, the tree was removed 3 levels deep, in silence: exit 0, no warning, and
    load-d.tmp/ ~2000 levels deep left in the result directory, unlisted."""
    load = "loads:\n  - {name: d, type: stress_ng, stressor: dirdeep, workers: 1}\n"
    path = scenario(scenario_text("deep", [THREAD], duration="1500ms", extra=load))
    out = tmp_path / "out"
    r = hgrun("run", path, "-o", out, "--quiet", timeout=90)
    assert r.rc == 0, r.err
    assert not (out / "load-d.tmp").exists(), "stress-ng's directory is left"
    result = json.loads((out / "result.json").read_text())
    assert not any("could not be removed" in w for w in result["warnings"]), result["warnings"]
    assert "load.d.left" not in result["files"]


def test_what_cannot_be_removed_is_said_and_listed(hgrun_bin, scenario, tmp_path):
    """Another user's file in stress-ng's directory (beside its tmp-stress-ng-*, which
    stress-ng empties itself): hgrun removes the rest, leaves that, and says so (a warning
    naming it, files' load.NAME.left). Before: no word of it."""
    if os.geteuid() != 0:
        pytest.skip("another user's file needs root")
    load = "loads:\n  - {name: disk, type: stress_ng, stressor: hdd, options: {hdd-bytes: 1M}}\n"
    path = scenario(scenario_text("left", [THREAD], duration="1500ms", extra=load))
    out = tmp_path / "out"
    tmp = out / "load-disk.tmp"
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", out, "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not any(tmp.glob("tmp-stress-ng-hdd-*")):
            time.sleep(0.01)
        planted = tmp / "theirs"
        planted.write_text("x")
        os.chown(planted, 4242, 4242)
        _, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    result = json.loads((out / "result.json").read_text())
    said = [w for w in result["warnings"] if "load-disk.tmp could not be removed" in w]
    assert said and "the first theirs: another user's" in said[0], result["warnings"]
    assert "remove it by hand" in said[0]
    assert result["files"]["load.disk.left"] == "load-disk.tmp"
    assert planted.exists() and [p.name for p in tmp.iterdir()] == ["theirs"]
