# SPDX-License-Identifier: GPL-2.0-or-later
"""An exec load's processes (docs/loads.md, "Lifetime"): whatever the
command starts dies with the load, also after leaving its process group and
also when hgrun itself is SIGKILLed; its output is bounded by output_max and
named in result.json's files."""
import json
import os
import pathlib
import signal
import subprocess

from runhelp import scenario_text, wait_for

THREAD = "{name: be, workload: {type: cpu}}"


def pids_running(marker):
    found = []
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmd and state != "Z":
            found.append(int(proc.name))
    return found


def test_escaped_descendants_die_with_a_sigkilled_hgrun(hgrun_bin, scenario, tmp_path):
    # One leaves the group with setsid, one more below it with another setsid
    # (its parent alive), one stays in the group.
    marks = ["31.41591", "31.41592", "31.41593"]
    cmd = (f"setsid sleep {marks[0]} & setsid sh -c 'setsid sleep {marks[1]} & sleep {marks[2]}' & "
           "sleep 30")
    extra = f'loads:\n  - {{name: esc, type: exec, command: "{cmd}"}}\n'
    path = scenario(scenario_text("esc", [THREAD], duration="10s", extra=extra))
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", tmp_path / "out", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: all(pids_running(f"sleep {m}") for m in marks), 10, poll=0.02), \
            "the command did not start its processes"
        proc.kill()
        proc.wait(timeout=10)
        left = lambda: [p for m in marks for p in pids_running(f"sleep {m}")]  # noqa: E731
        assert wait_for(lambda: not left(), 5, poll=0.02), f"survived hgrun's SIGKILL: {left()}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for m in marks:
            for pid in pids_running(f"sleep {m}"):
                os.kill(pid, signal.SIGKILL)


def test_exec_output_is_bounded_and_listed(hgrun, scenario, tmp_path):
    extra = ('loads:\n  - {name: y, type: exec, command: "yes hostile", output_max: 64KiB}\n'
             '  - {name: q, type: exec, command: "echo out; echo err >&2; sleep 30"}\n')
    path = scenario(scenario_text("yes", [THREAD], duration="400ms", extra=extra))
    out = tmp_path / "out"
    r = hgrun("run", path, "-o", out, timeout=60)
    assert r.rc == 0, r.err
    result = json.loads((out / "result.json").read_text())
    assert (out / "load-y.out").stat().st_size == 65536
    assert (out / "load-q.out").read_text() == "out\n"
    assert (out / "load-q.err").read_text() == "err\n"
    y, q = result["loads"]
    assert y["output"]["max_bytes"] == 65536
    assert y["output"]["stdout"]["bytes"] == 65536
    assert y["output"]["stdout"]["discarded_bytes"] > 0
    assert 0 <= y["output"]["stdout"]["cut_at_ns"] < 400_000_000
    assert q["output"]["stdout"] == {"file": "load-q.out", "bytes": 4, "discarded_bytes": 0,
                                     "cut_at_ns": None}
    warnings = " | ".join(result["warnings"])
    assert "load y: its stdout reached output_max (64 KiB) at " in warnings, warnings
    assert not [w for w in result["warnings"] if w.startswith("load q:") and
                ("output_max" in w or "process group" in w)], warnings
    files = result["files"]
    for name in ("y", "q"):
        for ext in ("out", "err"):
            assert files[f"load.{name}.{ext}"] == f"load-{name}.{ext}"
