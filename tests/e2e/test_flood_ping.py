# SPDX-License-Identifier: GPL-2.0-or-later
"""The flood_ping load (docs/loads.md): it floods both ways over a veth pair
between two network namespaces of its own, counts requests and replies, and
leaves no namespace, interface or process behind, after a normal end and
after hgrun is SIGKILLed; without root it is unsupported with the reason."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from runhelp import children, missing_programs, proc_stat, scenario_text, wait_for

THREAD = "{name: lat, workload: {type: latency, period: 1ms}}"
PROGRAMS = {"ping": "iputils-ping", "ip": "iproute2"}
WHY_NOT = ("needs root (network namespaces, a veth pair, ping -f)" if os.geteuid() != 0
           else missing_programs(PROGRAMS))
needs_root = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
needs_unshare = pytest.mark.skipif(missing_programs({"unshare": "util-linux"}) is not None,
                                   reason=missing_programs({"unshare": "util-linux"}) or "")


def netns(pid):
    try:
        return os.readlink(f"/proc/{pid}/ns/net")
    except OSError:
        return None


def holders(namespaces):
    """Processes whose network namespace is one of these, and nsfs mounts of them."""
    held = [p.name for p in pathlib.Path("/proc").iterdir()
            if p.name.isdigit() and netns(p.name) in namespaces]
    mounts = pathlib.Path("/proc/self/mountinfo").read_text()
    held += [ns for ns in namespaces if ns in mounts]
    return held


def host_state():
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    names = {line.split(":")[1].strip().split("@")[0] for line in links.splitlines()}
    named = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return names, named


def start(hgrun_bin, scenario, tmp_path, duration):
    text = scenario_text("flood", [THREAD], duration=duration,
                         extra="loads:\n  - {name: flood, type: flood_ping}\n")
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", str(scenario(text)), "-o", str(out),
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    return proc, out


def watch_sides(proc):
    """The load process, its two pings and their namespaces, once flooding."""
    (load,) = wait_for(lambda: children(proc.pid, "flood"), 10, poll=0.05)
    pings = wait_for(lambda: (lambda p: p if len(p) == 2 else None)(children(load, "ping")), 10,
                     poll=0.05)
    assert pings, f"no two pings under the load process {load}"
    spaces = {netns(p) for p in pings}
    assert len(spaces) == 2 and netns(os.getpid()) not in spaces, spaces
    return load, pings, spaces


def assert_nothing_left(load, pings, spaces, before):
    gone = wait_for(lambda: all(proc_stat(p) is None for p in [load, *pings]), 10, poll=0.05)
    assert gone, "the load process or a ping outlived hgrun"
    assert wait_for(lambda: not holders(spaces), 10, poll=0.05), \
        f"namespaces still held: {holders(spaces)}"
    links, named = host_state()
    assert not {f"hg{load}a", f"hg{load}b"} & links, links
    assert (links, named) == before


@needs_root
def test_floods_both_ways_and_leaves_nothing(hgrun_bin, scenario, tmp_path):
    before = host_state()
    proc, out = start(hgrun_bin, scenario, tmp_path, "2s")
    try:
        load, pings, spaces = watch_sides(proc)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, proc.stderr.read()
    assert_nothing_left(load, pings, spaces, before)
    result = json.loads((out / "result.json").read_text())
    (ld,) = result["loads"]
    st = ld["stats"]
    assert ld["type"] == "flood_ping" and ld["flood_ping"] == {"mode": "veth", "peer": None}
    # both directions: each ping's requests are answered by the other side
    assert st["requests"] > 1000 and st["ops_per_s"] > 0, st
    assert 0.5 * st["requests"] < st["replies"] <= st["requests"], st
    assert not [w for w in result["warnings"] if "reply" in w], result["warnings"]
    series = [json.loads(line) for line in (out / "series.jsonl").read_text().splitlines()]
    assert any(s.get("load") == "flood" and s.get("requests", 0) > 0 for s in series)


@needs_root
def test_sigkilled_hgrun_leaves_no_namespace_or_interface(hgrun_bin, scenario, tmp_path):
    before = host_state()
    proc, _ = start(hgrun_bin, scenario, tmp_path, "30s")
    try:
        load, pings, spaces = watch_sides(proc)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_nothing_left(load, pings, spaces, before)


def run_isolated(hgrun_bin, scenario, tmp_path, peer):
    """hgrun with a flood_ping to peer, inside a network namespace of the test's own
    (unshare -n: only its loopback), so that nothing leaves this machine."""
    text = scenario_text("flood", [THREAD], duration="1s",
                         extra=f"loads:\n  - {{name: flood, type: flood_ping, peer: {peer}}}\n")
    out = tmp_path / "out"
    proc = subprocess.run(["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh",
                           str(hgrun_bin), "run", str(scenario(text)), "-o", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "result.json").read_text())


@needs_root
@needs_unshare
def test_peer_is_flooded(hgrun_bin, scenario, tmp_path):
    result = run_isolated(hgrun_bin, scenario, tmp_path, "127.0.0.1")
    (ld,) = result["loads"]
    assert ld["flood_ping"] == {"mode": "peer", "peer": "127.0.0.1"}
    assert ld["stats"]["requests"] > 100 and ld["stats"]["replies"] > 0, ld["stats"]


@needs_root
@needs_unshare
def test_unreachable_peer_is_warned_with_pings_reason(hgrun_bin, scenario, tmp_path):
    # 192.0.2.0/24 is for documentation (RFC 5737), and the namespace has no route anyway
    result = run_isolated(hgrun_bin, scenario, tmp_path, "192.0.2.1")
    assert ("load flood: process 0: ping ended before the stop (exit 2): "
            "ping: connect: Network is unreachable") in result["warnings"], result["warnings"]


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv")
def test_without_root_unsupported_and_refused(hgrun_bin):
    """As another user, with ping and ip on PATH (stand-ins: without them the run stops
    for them first, tests/e2e/test_missing_tools.py)."""
    d = tempfile.mkdtemp(prefix="hg-flood-")
    try:
        os.chmod(d, 0o777)
        os.mkdir(os.path.join(d, "bin"), 0o755)
        for prog in PROGRAMS:
            with open(os.path.join(d, "bin", prog), "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(os.path.join(d, "bin", prog), 0o755)
        env = dict(os.environ, PATH=os.path.join(d, "bin") + ":" + os.environ.get("PATH", ""))
        path = os.path.join(d, "s.yaml")
        with open(path, "w") as f:
            f.write(scenario_text("flood", [THREAD], duration="500ms",
                                  extra="lock_memory: false\nloads:\n"
                                        "  - {name: flood, type: flood_ping}\n"))
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", str(hgrun_bin)]
        listed = subprocess.run(drop + ["list"], capture_output=True, text=True, timeout=30,
                                env=env)
        line = next(l for l in listed.stdout.splitlines() if l.strip().startswith("flood_ping"))
        assert "unsupported here: needs root" in line, line
        run = subprocess.run(drop + ["run", path, "-o", os.path.join(d, "out")],
                             capture_output=True, text=True, timeout=60, env=env)
        assert run.returncode != 0
        assert "flood" in run.stderr and "needs root" in run.stderr, run.stderr
    finally:
        shutil.rmtree(d, ignore_errors=True)
