# SPDX-License-Identifier: GPL-2.0-or-later
"""Driving runs and sweeps (docs/cli.md): safe -o, --set, sweep --resume,
progress and counts, sweep-merge."""
import json
import os
import re
import signal
import subprocess
import time

import pytest

RUN = """\
hgrun: 1
name: drv
duration: 5s
threads:
  - name: rt
    priority: RTLOW
    workload: {type: periodic, exec: 1ms, period: 5ms}
"""

SWEEP = RUN + """\
sweep:
  grid:
    threads[rt].workload.exec: [1ms, 2ms]
  repeat: 2
"""


def result(d):
    return json.loads((d / "result.json").read_text())


def runs_of(root):
    return {str(p.parent.relative_to(root)): p for p in root.glob("p*/r*/result.json")}


def complete_runs(root):
    """The runs whose result.json is final (not a checkpoint, not half written)."""
    done = {}
    for run, p in runs_of(root).items():
        try:
            if json.loads(p.read_text())["complete"]:
                done[run] = p
        except (ValueError, OSError):
            pass
    return done


# ---- 1. safe output --------------------------------------------------------

def test_non_empty_output_is_refused_untouched_and_force_replaces(hgrun, scenario, tmp_path):
    path = scenario(RUN)
    out = tmp_path / "out"
    assert hgrun("run", path, "-o", out, "--duration", "100ms", "--quiet").rc == 0
    (out / "report").mkdir()
    (out / "report" / "report.md").write_text("old report")
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.iterdir() if p.is_file()}
    r = hgrun("run", path, "-o", out, "--duration", "100ms", "--quiet")
    assert r.rc == 3
    assert f"-o {out}: the directory holds an earlier run's results" in r.err
    assert "--force" in r.err
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.iterdir() if p.is_file()}
    assert after == before and (out / "report" / "report.md").exists()
    old_start = result(out)["started_utc"]
    r = hgrun("run", path, "-o", out, "--duration", "100ms", "--quiet", "--force")
    assert r.rc == 0, r.err
    assert result(out)["started_utc"] != old_start or result(out)["pid"] != 0
    assert not (out / "report").exists(), "the old run's report described another run"


def test_force_never_removes_files_hgrun_did_not_write(hgrun, scenario, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    for extra in ([], ["--force"]):
        r = hgrun("run", scenario(RUN), "-o", out, "--duration", "100ms", "--quiet", *extra)
        assert r.rc == 3
        assert "holds more than a run's results (notes.txt)" in r.err
        assert (out / "notes.txt").read_text() == "keep me"
    assert not (out / "result.json").exists()


def test_default_directories_never_collide(hgrun_bin, scenario, tmp_path):
    path = scenario(RUN)
    procs = [subprocess.Popen([str(hgrun_bin), "run", str(path), "--duration", "100ms", "--quiet"],
                              cwd=tmp_path) for _ in range(3)]
    assert [p.wait(timeout=30) for p in procs] == [0, 0, 0]
    dirs = sorted((tmp_path / "results" / "drv").iterdir())
    assert len(dirs) == 3 and all((d / "result.json").exists() for d in dirs)


def test_default_sweep_directories_never_collide(hgrun_bin, scenario, tmp_path):
    one = SWEEP.replace("repeat: 2", "repeat: 1").replace("[1ms, 2ms]", "[1ms]")
    path = scenario(one)
    procs = [subprocess.Popen([str(hgrun_bin), "sweep", str(path), "--duration", "100ms", "--quiet"],
                              cwd=tmp_path, stdout=subprocess.DEVNULL) for _ in range(2)]
    assert [p.wait(timeout=30) for p in procs] == [0, 0]
    dirs = sorted((tmp_path / "results" / "drv").iterdir())
    assert len(dirs) == 2 and all(len(runs_of(d)) == 1 for d in dirs)


# ---- 3. --set ----------------------------------------------------------------

def test_set_changes_priority_and_exec_and_is_recorded(hgrun, scenario, tmp_path):
    out = tmp_path / "out"
    r = hgrun("run", scenario(RUN), "-o", out, "--duration", "200ms", "--quiet",
              "--set", "threads[rt].priority=RTHIGH", "--set", "threads[rt].workload.exec=2ms")
    assert r.rc == 0, r.err
    res = result(out)
    (t,) = res["scenario"]["threads"]
    assert t["workload"]["exec"]["values_ns"] == [2_000_000]
    assert res["overrides"] == {"threads[rt].priority": "RTHIGH",
                                "threads[rt].workload.exec": "2ms"}
    # The command line as typed: values of --set kept, the file where it was written.
    assert res["command_line"][1:] == ["run", str(scenario(RUN)), "-o", str(out), "--duration",
                                       "200ms", "--quiet", "--set", "threads[rt].priority=RTHIGH",
                                       "--set", "threads[rt].workload.exec=2ms"]
    assert t["priority"] != json.loads(hgrun("validate", "--resolved", scenario(RUN, "b.yaml")).out)[
        "threads"][0]["priority"]


def test_set_without_options_records_no_overrides(hgrun, scenario, tmp_path):
    out = tmp_path / "out"
    assert hgrun("run", scenario(RUN), "-o", out, "--duration", "100ms", "--quiet").rc == 0
    assert result(out)["overrides"] == {}


@pytest.mark.parametrize("opt, message", [
    ("threads[rt].priorty=X",
     "hgrun: --set threads[rt].priorty=X: unknown key 'priorty'; did you mean 'priority'?"),
    ("threads[rx].priority=RTHIGH",
     "hgrun: --set threads[rx].priority=RTHIGH: no thread set is named 'rx'; did you mean 'rt'?"),
    ("threads[rt].workload.exec=7ms",
     "hgrun: --set threads[rt].workload.exec=7ms: exec 7ms is longer than the period 5ms"),
    ("duration=2x", "hgrun: --set duration=2x: unknown unit 'x' in '2x'"),
    ("threads[rt].priority=RTHIGHEST",
     "hgrun: --set threads[rt].priority=RTHIGHEST: unknown priority 'RTHIGHEST'; did you mean 'RTHIGH'?"),
])
def test_set_errors_name_the_option(hgrun, scenario, tmp_path, opt, message):
    for cmd in (["validate"], ["run", "-o", tmp_path / "o", "--duration", "100ms"]):
        r = hgrun(*cmd, scenario(RUN), "--set", opt)
        assert r.rc == 2, r.err
        assert message in r.err
    assert not (tmp_path / "o").exists()


def test_set_of_a_swept_path_is_refused(hgrun, scenario, tmp_path):
    r = hgrun("sweep", scenario(SWEEP), "-o", tmp_path / "sw", "--set", "threads[rt].workload.exec=2ms")
    assert r.rc == 2
    assert "sweep.grid varies threads[rt].workload.exec already" in r.err


def test_set_in_a_sweep_applies_to_every_run(hgrun, scenario, tmp_path):
    out = tmp_path / "sw"
    r = hgrun("sweep", scenario(SWEEP), "-o", out, "--duration", "100ms", "--quiet",
              "--set", "threads[rt].workload.period=10ms")
    assert r.rc == 0, r.err
    assert json.loads((out / "sweep.json").read_text())["overrides"] == {
        "threads[rt].workload.period": "10ms"}
    for p in runs_of(out).values():
        res = json.loads(p.read_text())
        assert res["scenario"]["threads"][0]["workload"]["period_ns"] == 10_000_000
        assert res["overrides"] == {"threads[rt].workload.period": "10ms"}


# ---- 2. and 4. resume, progress, counts ---------------------------------------

def test_killed_sweep_resumes_rerunning_only_what_is_missing(hgrun_bin, hgrun, scenario, tmp_path):
    path = scenario(SWEEP)
    out = tmp_path / "sw"
    proc = subprocess.Popen([str(hgrun_bin), "sweep", str(path), "-o", str(out), "--duration", "300ms",
                             "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not complete_runs(out) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    before = {run: p.stat().st_mtime_ns for run, p in complete_runs(out).items()}
    assert 1 <= len(before) < 4
    r = hgrun("sweep", path, "-o", out, "--duration", "300ms", "--quiet")
    assert r.rc == 3 and "add --resume" in r.err
    r = hgrun("sweep", path, "-o", out, "--duration", "300ms", "--resume", timeout=60)
    assert r.rc == 0, r.err
    after = runs_of(out)
    assert sorted(after) == ["p000/r0", "p000/r1", "p001/r0", "p001/r1"]
    for run, mtime in before.items():
        assert after[run].stat().st_mtime_ns == mtime, f"{run} was complete and rerun"
    ran = [line for line in r.out.splitlines() if line.startswith("== run ")]
    assert len(ran) == 4 - len(before)
    assert f"sweep: {4 - len(before)} succeeded, 0 failed, {len(before)} skipped" in r.out
    assert all(json.loads(p.read_text())["complete"] for p in after.values())
    assert not list(out.glob("p*/r*/*.tmp.*"))


def test_resume_refuses_another_sweep_naming_the_difference(hgrun, scenario, tmp_path):
    out = tmp_path / "sw"
    assert hgrun("sweep", scenario(SWEEP), "-o", out, "--duration", "100ms", "--quiet").rc == 0
    changed = scenario(SWEEP.replace("RTLOW", "RTHIGH"), "changed.yaml")
    r = hgrun("sweep", changed, "-o", out, "--duration", "100ms", "--resume")
    assert r.rc == 3
    assert "holds another sweep (scenario.threads[0].priority" in r.err
    r = hgrun("sweep", scenario(SWEEP), "-o", out, "--duration", "200ms", "--resume")
    assert r.rc == 3 and "scenario.duration_ns: sweep.json has 100000000, this one has 200000000" in r.err
    grid = scenario(SWEEP.replace("[1ms, 2ms]", "[1ms, 3ms]"), "grid.yaml")
    r = hgrun("sweep", grid, "-o", out, "--duration", "100ms", "--resume")
    assert r.rc == 3 and 'sweep.json has "2ms", this one has "3ms"' in r.err


def test_progress_shows_time_left_and_quiet_keeps_failures(hgrun, scenario, tmp_path):
    text = SWEEP + "expect:\n  - {thread: rt, metric: releases, max: 0}\n"
    r = hgrun("sweep", scenario(text), "-o", tmp_path / "a", "--duration", "100ms")
    assert r.rc == 5, "every run complete, expectations failed: a finding"
    lines = [line for line in r.out.splitlines() if line.startswith("== run ")]
    assert len(lines) == 4
    assert "(4 to go, at least" in lines[0] and "left)" in lines[0]
    assert all("about" in line and "left)" in line for line in lines[1:])
    assert "sweep: 4 succeeded (4 with a failed expectation), 0 failed, 0 skipped" in r.out
    r = hgrun("sweep", scenario(text), "-o", tmp_path / "b", "--duration", "100ms", "--quiet")
    assert r.rc == 5
    assert r.out.splitlines() == [f"sweep: 4 succeeded (4 with a failed expectation), 0 failed, "
                                  f"0 skipped (complete already); "
                                  f"results in {tmp_path / 'b'} (index: sweep.json)"]
    failures = r.err.splitlines()
    assert len(failures) == 4, "--quiet: one line per failed run"
    assert re.fullmatch(rf"hgrun: run 1/4 (p00\d/r\d): an expectation failed \(exit 5\): "
                        rf"{tmp_path / 'b'}/\1: "
                        r"expectation failed: rt: releases = \d+, bound max 0", failures[0])
    assert all(line.startswith("hgrun: run ") for line in failures)
    r = hgrun("sweep", scenario(text), "-o", tmp_path / "b", "--duration", "100ms", "--resume",
              "--quiet")
    assert r.rc == 0 and "0 succeeded, 0 failed, 4 skipped" in r.out, \
        "a finding is a complete run: --resume keeps it"


def test_sweep_exit_separates_broken_runs_from_findings(hgrun, scenario, tmp_path):
    """One point fails its expectation (5), the other cannot run here (its CPU
    is not online): the sweep reports the failure, exit 1, not 5."""
    text = SWEEP.replace("threads[rt].workload.exec: [1ms, 2ms]",
                         "threads[rt].cpus: [0, 1000]").replace("duration: 5s", "duration: 100ms") + \
        "expect:\n  - {thread: rt, metric: releases, max: 0}\n"
    # No --duration or --set: points are then checked as each run starts.
    r = hgrun("sweep", scenario(text), "-o", tmp_path / "m", "--quiet")
    assert "(exit 5)" in r.err and "failed (exit 2)" in r.err, r.err
    assert "succeeded (2 with a failed expectation), 2 failed" in r.out, r.out
    assert r.rc == 1


# ---- 5. shards anywhere ----------------------------------------------------------

def test_merge_brings_shards_together_and_refuses_other_sweeps(hgrun, scenario, tmp_path):
    path = scenario(SWEEP)
    shards = [tmp_path / f"node{k}" for k in range(3)]
    for k, d in enumerate(shards):
        r = hgrun("sweep", path, "-o", d, "--duration", "100ms", "--quiet", "--shard", f"{k}/3")
        assert r.rc == 0, r.err
    out = tmp_path / "all"
    r = hgrun("sweep-merge", out, *shards[:2])
    assert r.rc == 1 and "run p000/r1: no shard holds it complete" in r.err
    assert "--resume" in r.err
    out2 = tmp_path / "all2"
    r = hgrun("sweep-merge", out2, *shards)
    assert r.rc == 0, r.err
    assert "sweep-merge: 4 runs from 3 shard directories" in r.out
    assert sorted(runs_of(out2)) == ["p000/r0", "p000/r1", "p001/r0", "p001/r1"]
    assert json.loads((out2 / "sweep.json").read_text()) == json.loads((shards[0] / "sweep.json").read_text())
    other = tmp_path / "other"
    assert hgrun("sweep", scenario(SWEEP.replace("5ms", "6ms"), "o.yaml"), "-o", other,
                 "--duration", "100ms", "--quiet", "--shard", "0/3").rc == 0
    r = hgrun("sweep-merge", tmp_path / "all3", shards[1], other)
    assert r.rc == 3
    assert "are shards of different sweeps (scenario.threads[0].workload.period_ns: " in r.err
    assert f"{shards[1]} has 5000000, {other} has 6000000" in r.err
    assert not (tmp_path / "all3").exists()
    # and the merged directory finishes with --resume
    r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--resume")
    assert r.rc == 0 and "1 succeeded, 0 failed, 3 skipped" in r.out


def test_shards_share_a_directory_but_not_runs(hgrun, scenario, tmp_path):
    path = scenario(SWEEP)
    out = tmp_path / "sw"
    assert hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--shard", "0/2").rc == 0
    assert hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--shard", "1/2").rc == 0
    r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--shard", "1/2")
    assert r.rc == 3 and "already holds runs of this shard" in r.err
