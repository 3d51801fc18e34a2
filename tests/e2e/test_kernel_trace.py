# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel trace (docs/kernel-trace.md): a run's own tracefs instance is
removed after the run and after SIGINT, a stale one of a dead run is
cleaned, gaps get causes (trace.bin's cause field), a competing process is named in the warnings, and
without tracefs the run goes on with a warning (exit 4 with --strict)."""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from runhelp import run_scenario, scenario_text


def tracefs_root():
    for line in pathlib.Path("/proc/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) > 2 and parts[2] == "tracefs" and (pathlib.Path(parts[1]) / "instances").is_dir():
            return pathlib.Path(parts[1])
    return None


def can_trace():
    return os.geteuid() == 0 and (tracefs_root() is not None or pathlib.Path("/sys/kernel/tracing").is_dir())


needs_tracefs = pytest.mark.skipif(not can_trace(), reason="needs root and tracefs")



@pytest.fixture
def mounted_tracefs():
    """tracefs's root, mounted for the test when nothing had mounted it (a fresh machine:
    hgrun mounts it only for its run), and unmounted afterwards."""
    root = tracefs_root()
    if root is not None:
        yield root
        return
    subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"], check=True)
    try:
        yield tracefs_root()
    finally:
        subprocess.run(["umount", "/sys/kernel/tracing"], check=False)


# The competitor of the competition tests runs at SCHED_FIFO 1 (as root): it takes CPU 0 but
# for RT throttling's 5%, from the hog and from every other process (their CPU time, as the
# machine has two CPUs, stays below its own), so it is among the three the warnings name.
# A nice value would not do: the other processes may be in other cgroups.
TOP = ["chrt", "-f", "1"] if os.geteuid() == 0 else []

HOG = scenario_text("kt", ["{name: hog, cpus: [0], workload: {type: cpu}}"])


def our_instances():
    root = tracefs_root()
    if root is None:
        return []
    return sorted(p.name for p in (root / "instances").iterdir() if p.name.startswith("hgrun-"))


def test_without_tracefs_the_run_goes_on_with_a_warning(hgrun, scenario, tmp_path, monkeypatch):
    monkeypatch.setenv("HGRUN_TRACEFS", str(tmp_path / "missing"))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", duration="300ms")
    assert r.rc == 0, r.err
    assert any(w.startswith("kernel trace off: $HGRUN_TRACEFS=") for w in r.result["warnings"])
    kt = r.result["kernel_trace"]
    assert kt["enabled"] is False and "not a tracefs root" in kt["reason"]
    causes = r.thread("hog")["gap_causes"]
    assert causes["available"] is False and "not a tracefs root" in causes["reason"]
    assert "kernel" not in r.result["files"]
    assert all(x["cause"] == 0 for x in r.trace())
    r.validate()


def test_without_tracefs_strict_exits_4_before_anything_runs(hgrun, scenario, tmp_path,
                                                              monkeypatch):
    monkeypatch.setenv("HGRUN_TRACEFS", str(tmp_path / "missing"))
    r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", "--strict",
                     duration="300ms")
    assert r.rc == 4
    assert "error: trace.kernel: $HGRUN_TRACEFS=" in r.err and "without --strict" in r.err
    assert not r.dir.exists()


def test_not_asked_for_says_so(hgrun, scenario, tmp_path):
    r = run_scenario(hgrun, scenario, tmp_path, HOG, duration="200ms")
    assert r.rc == 0, r.err
    assert r.result["kernel_trace"]["enabled"] is False
    assert r.thread("hog")["gap_causes"]["reason"].startswith("kernel trace not asked for")
    comp = r.result["competition"]
    assert comp["source"] == "procfs" and comp["window_ns"] > 0
    assert [c["cpu"] for c in comp["per_cpu"]] == [0]


@needs_tracefs
def test_gaps_get_causes_and_the_instance_is_removed(hgrun, scenario, tmp_path):
    text = scenario_text("kt", ["{name: hog, cpus: [0], workload: {type: cpu}}"],
                         extra="trace: {kernel: true}")
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="500ms")
    assert r.rc == 0, r.err
    kt = r.result["kernel_trace"]
    assert kt["enabled"] is True and kt["removed"] is True, kt
    assert kt["clock"] == "mono" and kt["cpus"] == [0]
    assert kt["events"] > 0 and kt["causes"][0] == "unattributed"
    assert f"hgrun-{r.result['pid']}" not in our_instances()
    assert r.result["files"]["kernel"] == "kernel.jsonl"
    segs = r.lines("kernel.jsonl")
    assert segs and all(s["cpu"] == 0 and s["end_ns"] > s["start_ns"] for s in segs)
    causes = r.thread("hog")["gap_causes"]
    assert causes["available"] is True
    recs = r.trace()
    preempted = [x for x in recs[:-1] if x["end"] == "preempted"]
    # Every gap of trace.bin gets a cause (a short run of one thread drops no record).
    assert r.stats("hog")["records_dropped"] == 0
    assert causes["gaps"] == len(preempted) == r.stats("hog")["gaps"]
    assert causes["switch_outs_matched"] <= causes["switch_outs_ge_5us"]
    assert 0 <= causes["explained_ns"] <= causes["gap_ns"]
    assert 0 <= causes["interrupt_entry_ns"] <= causes["explained_ns"]
    assert causes["invisible_ns"] >= causes["by_cause"].get("invisible", {}).get("ns", 0)
    assert causes["invisible_ns"] + causes["explained_ns"] <= causes["gap_ns"]
    assert kt["invisible_ns"] == causes["invisible_ns"]
    # Unconfirmed segments come only after a missed switch, and unconfirmed_ns is what is
    # left of them once the threads' own intervals took theirs back (docs/kernel-trace.md).
    unconfirmed = [s for s in segs if s.get("unconfirmed")]
    assert kt["missed_switches"] > 0 or not unconfirmed
    assert kt["unconfirmed_ns"] == sum(s["end_ns"] - s["start_ns"] for s in unconfirmed)
    assert all(s["kind"] == "task" for s in unconfirmed)
    by = causes["by_cause"]
    assert set(by) <= set(kt["causes"])
    assert preempted and all(1 <= x["cause"] < len(kt["causes"]) for x in preempted)
    assert all(x["cause"] == 0 for x in recs if x["end"] != "preempted")
    r.validate()


@needs_tracefs
def test_a_stale_instance_of_a_dead_run_is_removed(hgrun, scenario, tmp_path, mounted_tracefs):
    r0 = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", duration="100ms")
    assert r0.rc == 0
    root = mounted_tracefs
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = root / "instances" / f"hgrun-{dead.pid}"
    stale.mkdir()
    r = run_scenario(hgrun, scenario, tmp_path / "b", HOG, "--kernel-trace", duration="100ms")
    assert r.rc == 0, r.err
    assert not stale.exists()
    assert r.result["kernel_trace"]["stale_removed"] >= 1


@needs_tracefs
def test_sigint_removes_the_instance(hgrun_bin, scenario, tmp_path):
    path = scenario(scenario_text("kt", ["{name: hog, cpus: [0], workload: {type: cpu}}"],
                                  duration="5s"))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", str(path), "-o", str(out), "--quiet",
                             "--kernel-trace"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    name = f"hgrun-{proc.pid}"
    deadline = time.time() + 3
    while name not in our_instances() and time.time() < deadline:
        time.sleep(0.05)
    assert name in our_instances(), "the run's instance exists while it runs"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert name not in our_instances()
    result = json.loads((out / "result.json").read_text())
    assert result["kernel_trace"]["removed"] is True and result["interrupted_by"] == "SIGINT"


def _beside_a_competitor(hgrun, scenario, tmp_path, *args):
    """A 1 s run of a hog on CPU 0 beside `yes` (as `competitor`) on CPU 0: (the run, its
    competition), the competitor checked to be in both and named in the scenario-wide
    competition warning, which says what its share is of."""
    competitor = tmp_path / "competitor"
    competitor.symlink_to(shutil.which("yes"))
    text = scenario_text("kt", ["{name: hog, cpus: [0], priority: NORMAL, workload: {type: cpu}}"])
    with open(os.devnull, "w") as null:
        other = subprocess.Popen(["taskset", "-c", "0", *TOP, str(competitor)], stdout=null)
    try:
        time.sleep(0.1)
        r = run_scenario(hgrun, scenario, tmp_path, text, *args, duration="1s")
    finally:
        other.kill()
        other.wait()
    assert r.rc == 0, r.err
    comp = r.result["competition"]
    names = [(t["name"], t["pid"]) for t in comp["top"]]
    assert ("competitor", other.pid) in names
    # the scenario-wide warning (with the kernel trace a thread's own may come first)
    warning = next(w for w in r.result["warnings"]
                   if w.startswith("competition: other processes took"))
    assert f"competitor (pid {other.pid})" in warning
    _says_what_the_share_is_of(warning)
    return r, comp


@needs_tracefs
def test_a_competing_process_is_named_in_the_warnings(hgrun, scenario, tmp_path):
    r, comp = _beside_a_competitor(hgrun, scenario, tmp_path, "--kernel-trace")
    assert comp["source"] == "kernel_trace"
    assert comp["outsiders_share"] > 0.2
    top = r.thread("hog")["gap_causes"]["top"]
    assert any(t["cause"] == "process" and t["name"] == "competitor" for t in top), top


def test_a_competing_process_is_named_without_the_kernel_trace(hgrun, scenario, tmp_path):
    _, comp = _beside_a_competitor(hgrun, scenario, tmp_path)
    assert comp["source"] == "procfs"


def _says_what_the_share_is_of(warning):
    """A share with its absolute size beside it (docs/kernel-trace.md): "took 71.1% of the
    scenario's CPUs (0) during the run (710.3 ms of 1.000 s)", each process's time in readable
    units, never "0.000 s"."""
    m = re.search(r"during the run \(([0-9.]+ [mun]?s) of ([0-9.]+ [mun]?s)\)", warning)
    assert m, warning
    assert not re.search(r"\) 0\.000 s", warning), warning


@needs_tracefs
def test_the_top_level_buffer_and_other_instances_are_untouched(hgrun, scenario, tmp_path,
                                                                 mounted_tracefs):
    root = mounted_tracefs
    files = ["trace_clock", "buffer_size_kb", "tracing_cpumask", "set_event", "tracing_on"]
    before = {f: (root / f).read_text() for f in files}
    other = root / "instances" / f"hgtest-{os.getpid()}"
    other.mkdir()
    try:
        (other / "events" / "sched" / "sched_switch" / "enable").write_text("1")
        r = run_scenario(hgrun, scenario, tmp_path, HOG, "--kernel-trace", duration="300ms")
        assert r.rc == 0, r.err
        assert {f: (root / f).read_text() for f in files} == before
        assert (other / "events" / "sched" / "sched_switch" / "enable").read_text().strip() == "1"
        assert (other / "tracing_on").read_text().strip() == "1"
        assert "sched_switch" in (other / "trace").read_text()
    finally:
        (other / "events" / "sched" / "sched_switch" / "enable").write_text("0")
        other.rmdir()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv")
def test_without_privilege_strict_exits_4_and_says_why(hgrun_bin):
    work = pathlib.Path(tempfile.mkdtemp(prefix="hg-ktrace-"))   # pytest's tmp is root-only
    try:
        work.chmod(0o777)
        path = work / "s.yaml"
        path.write_text(HOG)
        path.chmod(0o644)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            str(hgrun_bin), "run", str(path), "-o", str(work / "out"),
                            "--duration", "200ms", "--quiet", "--kernel-trace", "--strict"],
                           capture_output=True, text=True, timeout=30)
        if p.returncode == 126 or "Permission denied" in p.stderr and "trace" not in p.stderr:
            pytest.skip(f"hgrun cannot run as nobody here: {p.stderr}")
        assert p.returncode == 4, p.stderr
        assert "error: trace.kernel:" in p.stderr and "(needs root" in p.stderr
        assert not (work / "out").exists()
    finally:
        shutil.rmtree(work)
