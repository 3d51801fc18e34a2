# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/two_host_rx.sh: Hourglass 5.4 with the stream sent from another "host" (a second
network namespace joined by a veth pair). Runs the script with 1 s phases and checks both
result directories and that the namespaces are gone afterwards, also after a SIGTERM.

Needs root, `ip netns`, two CPUs and python3; skipped otherwise (with the reason)."""
import json
import os
import signal
import subprocess
import time

import pytest

from runhelp import ROOT, hgrun_path, missing_programs

SCRIPT = ROOT / "scripts" / "two_host_rx.sh"


def _why_not():
    if os.geteuid() != 0:
        return "needs root (network namespaces, RTHIGH threads)"
    if missing_programs({"ip": "iproute2"}):
        return missing_programs({"ip": "iproute2"})
    if (os.cpu_count() or 1) < 2:
        return "needs 2 CPUs"
    if not hgrun_path().exists():
        return f"{hgrun_path()} does not exist: build first"
    probe = f"hgrx-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


WHY_NOT = _why_not()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")


def _our_namespaces():
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.startswith("hgrx-")}


def _run(tmp_path, *args, timeout=60):
    return subprocess.run([str(SCRIPT), "--hgrun", str(hgrun_path()), "-o", str(tmp_path), *args],
                          capture_output=True, text=True, timeout=timeout)


def _load(result, name):
    return next(ld for ld in result["loads"] if ld["name"] == name)


def _thread(result, name):
    return next(t for t in result["threads"] if t["name"] == name)


def test_two_namespaces_receive_and_the_thread_runs(tmp_path, hgrun_bin):
    before = _our_namespaces()
    proc = _run(tmp_path, "--phase", "1")     # the default link: 100 Mbit/s, RPS to CPU 0
    assert proc.returncode == 0, proc.stdout + proc.stderr
    receiver = json.loads((tmp_path / "receiver" / "result.json").read_text())
    sender = json.loads((tmp_path / "sender" / "result.json").read_text())
    assert receiver["complete"] and sender["complete"]

    # The streams crossed the veth pair: the receiver counted bytes in both windows.
    for name in ("rx_alone", "rx"):
        stats = _load(receiver, name)["stats"]
        assert stats["bytes"] > 0 and stats["mbps"] > 0, (name, stats)
    for name in ("tx_alone", "tx"):
        load = _load(sender, name)
        assert load["stats"]["bytes"] > 0, (name, load["stats"])
        assert not any("refused" in w for w in load["warnings"]), load["warnings"]

    # Each thread ran its 1 s window of 5 ms periods: about 200 releases, every one counted.
    for name in ("rt", "alone"):
        stats = _thread(receiver, name)["stats"]
        assert 100 <= stats["releases"] <= 201, (name, stats["releases"])
        assert stats["deadlines_hit"] + stats["deadlines_missed"] <= stats["releases"]
        assert stats["deadlines_hit"] + stats["deadlines_missed"] >= stats["releases"] - 1

    # The summary printed by the script is the receiver's table 2.
    assert "rt + rx" in proc.stdout and "rx_alone" in proc.stdout
    assert not (_our_namespaces() - before), "namespaces left behind"   # others may come and go


def test_sigterm_removes_the_namespaces(tmp_path, hgrun_bin):
    before = _our_namespaces()
    proc = subprocess.Popen([str(SCRIPT), "--hgrun", str(hgrun_bin), "-o", str(tmp_path),
                             "--phase", "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 10
        while len(_our_namespaces() - before) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_our_namespaces() - before) == 2, "the script did not create its two namespaces"
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143
    assert not (_our_namespaces() - before), "namespaces left behind"   # others may come and go
    receiver = json.loads((tmp_path / "receiver" / "result.json").read_text())
    assert receiver["complete"] is False and receiver["interrupted_by"] == "SIGTERM"


@pytest.mark.parametrize("args, message", [
    (("--phase", "0.5"), "--phase: '0.5' is not a whole number"),
    (("--rate", "fast"), "--rate: 'fast' is not a tc rate"),
    (("--bogus",), "unknown argument '--bogus'"),
])
def test_bad_arguments_are_refused_before_any_namespace(tmp_path, args, message):
    before = _our_namespaces()
    proc = _run(tmp_path, *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert not (_our_namespaces() - before), "namespaces left behind"   # others may come and go
