# SPDX-License-Identifier: GPL-2.0-or-later
"""What hgrun records of the kernel it runs on (docs/kernel-trace.md, "Host facts"; the
kernels hgrun's users run): the preemption model agrees with the build string (`uname -v`)
and the dynamic mode has its own field; kernel lockdown is read and named when it hides
tracefs (simulated with $HGRUN_LOCKDOWN and an empty tracefs root, as the kernel matrix shows
the real one); and tracefs that hgrun mounts for a run is unmounted after it, in a private
mount namespace where nothing had mounted it."""
import os
import pathlib
import platform
import shutil
import subprocess

import pytest

from runhelp import run_scenario, scenario_text

HOG = scenario_text("kf", ["{name: hog, cpus: [0], workload: {type: cpu}}"])
CONFIDENTIAL = "none integrity [confidentiality]\n"


def test_the_preemption_model_agrees_with_the_build_string(hgrun, scenario, tmp_path):
    r = run_scenario(hgrun, scenario, tmp_path, HOG, duration="200ms")
    assert r.rc == 0, r.err
    host = r.result["host"]
    version = platform.uname().version.split()
    assert host["kernel_version"] == platform.uname().version
    assert host["cmdline"] == (pathlib.Path("/proc/cmdline").read_text().strip() or None)
    if "PREEMPT_RT" in version:
        assert host["preempt"] == "rt"
    elif "PREEMPT_DYNAMIC" in version:
        assert host["preempt_dynamic_source"] is not None
        if host["preempt_dynamic"] is not None:
            assert host["preempt"] == host["preempt_dynamic"]
        else:
            assert host["preempt"] == "dynamic"
    else:
        assert host["preempt_dynamic"] is None and host["preempt_dynamic_source"] is None
    lockdown = pathlib.Path("/sys/kernel/security/lockdown")
    if lockdown.exists():
        assert f"[{host['lockdown']}]" in lockdown.read_text()
    else:
        assert host["lockdown"] is None
    r.validate()


def test_lockdown_is_read_from_its_file(hgrun, scenario, tmp_path, monkeypatch):
    f = tmp_path / "lockdown"
    f.write_text("none [integrity] confidentiality\n")
    monkeypatch.setenv("HGRUN_LOCKDOWN", str(f))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, duration="200ms")
    assert r.rc == 0, r.err
    assert r.result["host"]["lockdown"] == "integrity"


def test_an_empty_tracefs_under_lockdown_is_named(hgrun, scenario, tmp_path, monkeypatch):
    """Under lockdown=confidentiality tracefs has no files at all: the reason says lockdown."""
    (tmp_path / "tracefs").mkdir()
    f = tmp_path / "lockdown"
    f.write_text(CONFIDENTIAL)
    monkeypatch.setenv("HGRUN_TRACEFS", str(tmp_path / "tracefs"))
    monkeypatch.setenv("HGRUN_LOCKDOWN", str(f))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", duration="200ms")
    assert r.rc == 0, r.err
    reason = r.result["kernel_trace"]["reason"]
    assert "kernel lockdown is 'confidentiality'" in reason and str(f) in reason, reason
    assert any("kernel lockdown" in w for w in r.result["warnings"])
    assert r.result["host"]["lockdown"] == "confidentiality"
    r.validate()


def test_under_lockdown_strict_exits_4_naming_it(hgrun, scenario, tmp_path, monkeypatch):
    (tmp_path / "tracefs").mkdir()
    f = tmp_path / "lockdown"
    f.write_text(CONFIDENTIAL)
    monkeypatch.setenv("HGRUN_TRACEFS", str(tmp_path / "tracefs"))
    monkeypatch.setenv("HGRUN_LOCKDOWN", str(f))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", "--strict",
                     duration="200ms")
    assert r.rc == 4
    assert "kernel lockdown is 'confidentiality'" in r.err
    assert not r.dir.exists()


def test_without_lockdown_nothing_is_said_of_it(hgrun, scenario, tmp_path, monkeypatch):
    (tmp_path / "tracefs").mkdir()
    f = tmp_path / "lockdown"
    f.write_text("[none] integrity confidentiality\n")
    monkeypatch.setenv("HGRUN_TRACEFS", str(tmp_path / "tracefs"))
    monkeypatch.setenv("HGRUN_LOCKDOWN", str(f))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", duration="200ms")
    assert r.rc == 0, r.err
    assert "kernel lockdown" not in r.result["kernel_trace"]["reason"]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="needs root and unshare")
def test_tracefs_mounted_for_the_run_is_unmounted_after_it(hgrun_bin, tmp_path):
    """In a mount namespace of its own with every tracefs unmounted, hgrun mounts tracefs for
    the run (mounted_by_hgrun) and leaves no mount behind."""
    s = tmp_path / "s.yaml"
    s.write_text(HOG)
    out = tmp_path / "out"
    script = f"""
set -e
grep ' tracefs ' /proc/self/mounts | awk '{{print $2}}' | sort -r | while read m; do umount -l "$m"; done
echo "before: $(grep -c ' tracefs ' /proc/self/mounts || true)"
"{hgrun_bin}" run "{s}" -o "{out}" --duration 300ms --quiet --kernel-trace || echo "rc=$?"
echo "after: $(grep -c ' tracefs ' /proc/self/mounts || true)"
"""
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                       capture_output=True, text=True, timeout=60)
    if "before: 0" not in p.stdout:
        pytest.skip(f"cannot unmount tracefs in a private namespace here: {p.stdout} {p.stderr}")
    assert "rc=" not in p.stdout, p.stdout + p.stderr
    import json
    kt = json.loads((out / "result.json").read_text())["kernel_trace"]
    assert kt["enabled"] and kt["mounted_by_hgrun"] is True and kt["removed"] is True, kt
    assert "after: 0" in p.stdout, p.stdout
