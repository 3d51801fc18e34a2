# SPDX-License-Identifier: GPL-2.0-or-later
"""A gap in which the measuring thread itself blocked is never blamed on whoever ran next
(docs/kernel-trace.md, "How a gap is attributed"): a real-time thread spinning on CPU 0 beside
a CPU load is stopped from outside for 60 ms (ptrace's PTRACE_INTERRUPT stops that one thread:
the kernel switches it out not runnable, as a read from a disk would), while the load runs on
its CPU. That gap must be `blocked` (the thread's own), with the load's share of it only what
followed the thread's wake-up."""
import ctypes
import json
import os
import pathlib
import subprocess
import time

import pytest

from runhelp import Run, scenario_text

PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT = 17, 0x4206, 0x4207
STOP_S = 0.06

TEXT = scenario_text(
    "blocked", ["{name: rt, cpus: [0], priority: RTLOW, workload: {type: cpu}}"],
    extra="trace: {kernel: true}\nloads:\n  - {name: burn, type: cpu, cpus: [0], priority: LOW}")


def _tid(pid, name, deadline):
    while time.monotonic() < deadline:
        task = pathlib.Path(f"/proc/{pid}/task")
        for t in task.iterdir() if task.exists() else []:
            try:
                if (t / "comm").read_text().strip() == name:
                    return int(t.name)
            except OSError:
                pass
        time.sleep(0.01)
    return None


def _stop_thread(tid, seconds):
    """Stops one thread (not its process) for `seconds` with ptrace, then lets it go."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(PTRACE_SEIZE, tid, None, None) != 0:
        return os.strerror(ctypes.get_errno())
    try:
        libc.ptrace(PTRACE_INTERRUPT, tid, None, None)
        os.waitpid(tid, 0x40000000)     # __WALL: the thread is in its ptrace stop
        time.sleep(seconds)
    finally:
        libc.ptrace(PTRACE_DETACH, tid, None, None)
    return None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (the kernel trace, ptrace)")
def test_a_blocked_gap_is_the_threads_own(hgrun_bin, tmp_path):
    if not pathlib.Path("/sys/kernel/tracing/instances").is_dir():
        pytest.skip("needs tracefs")
    s = tmp_path / "s.yaml"
    s.write_text(TEXT)
    out = tmp_path / "out"
    p = subprocess.Popen([str(hgrun_bin), "run", str(s), "-o", str(out), "--duration", "1.5s",
                          "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        tid = _tid(p.pid, "rt", time.monotonic() + 5)
        assert tid is not None, "the measuring thread never appeared"
        time.sleep(0.6)
        why = _stop_thread(tid, STOP_S)
        if why:
            p.kill()
            pytest.skip(f"ptrace refused here: {why}")
        so, se = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, se

    class Proc:
        rc, out, err = p.returncode, so, se
    r = Run(Proc, out)
    causes = r.result["kernel_trace"]["causes"]
    recs = r.trace()
    gaps = [(recs[i + 1]["start_ns"] - x["end_ns"], x["cause"]) for i, x in enumerate(recs[:-1])
            if x["end"] == "preempted" and recs[i + 1]["thread"] == x["thread"]]
    big = [(ns, causes[c]) for ns, c in gaps if ns >= STOP_S * 0.8e9]
    assert big, f"no gap of about {STOP_S * 1e3:.0f} ms: {sorted(gaps)[-3:]}"
    assert all(c == "blocked" for _, c in big), big
    by = r.thread("rt")["gap_causes"]["by_cause"]
    assert by["blocked"]["ns"] >= STOP_S * 0.8e9, by
    top = r.thread("rt")["gap_causes"]["top"][0]
    assert top["cause"] == "blocked" and top["pid"] == tid, top
    r.validate()
    assert json.loads((out / "result.json").read_text())["complete"] is True
