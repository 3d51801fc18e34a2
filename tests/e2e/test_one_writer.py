# SPDX-License-Identifier: GPL-2.0-or-later
"""Root-safe result directories (docs/cli.md, "Result directories"): names
read from a shard's sweep.json are never made into paths outside OUT, links
in shards are not followed, one writer per run or sweep directory (a lock
held for the run; a second writer refused naming the first; a killed
writer's lock taken over), and --resume/--force handle hgrun's own
leftovers."""
import json
import os
import shutil
import signal

import pytest

from runhelp import (CPU_THREAD, TWO_POINT_SWEEP, kill_when, missing_programs, scenario_text,
                     start, sweep_shard, wait_for)

def test_merge_refuses_run_names_outside_out(hgrun, scenario, tmp_path):
    shard = sweep_shard(hgrun, scenario, tmp_path)
    victim = tmp_path / "victim" / "cron.d"
    victim.mkdir(parents=True)
    # A planted run directory a name like ../../victim/cron.d leads to.
    (tmp_path / "victim" / "cron.d" / "result.json").write_text('{"complete": true}')
    index = json.loads((shard / "sweep.json").read_text())
    index["points"][0]["runs"][0] = "../../victim/cron.d"
    (shard / "sweep.json").write_text(json.dumps(index))
    out = tmp_path / "merged" / "out"
    r = hgrun("sweep-merge", out, shard, timeout=60)
    assert r.rc == 3, (r.rc, r.err)
    assert "is not a run name (pNNN/rM)" in r.err and "../../victim/cron.d" in r.err, r.err
    assert sorted(p.name for p in victim.iterdir()) == ["result.json"]
    assert not out.exists() or not any(out.rglob("result.json"))


def test_merge_does_not_follow_links_in_a_shard(hgrun, scenario, tmp_path):
    shard = sweep_shard(hgrun, scenario, tmp_path)
    secret = tmp_path / "secret"
    (secret / "r0").mkdir(parents=True)
    (secret / "r0" / "result.json").write_text('{"complete": true, "secret": 1}')
    # p001 becomes a link to a directory of someone else's files.
    os.rename(shard / "p001", tmp_path / "p001.away")
    os.symlink(secret, shard / "p001")
    out = tmp_path / "merged"
    r = hgrun("sweep-merge", out, shard, timeout=60)
    assert r.rc == 1, (r.rc, r.err)          # p001/r0 is missing, not read through the link
    assert "run p001/r0: no shard holds it complete" in r.err, r.err
    assert not (out / "p001").exists()
    assert json.loads((out / "p000" / "r0" / "result.json").read_text())["complete"] is True


def test_two_runs_on_one_dir_the_second_is_refused(hgrun_bin, hgrun, scenario, tmp_path):
    path = scenario(scenario_text("lock", [CPU_THREAD], duration="2s"))
    out = tmp_path / "out"
    first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
    try:
        # trace.bin exists once the run writes (its lock is taken before anything is).
        assert wait_for(lambda: (out / "trace.bin").exists())
        second = hgrun("run", path, "-o", out, "--quiet", timeout=60)
        forced = hgrun("run", path, "-o", out, "--force", "--quiet", timeout=60)
        _, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    for r in (second, forced):
        assert r.rc == 3, (r.rc, r.err)
        assert "another hgrun is writing there (pid " in r.err, r.err
        assert f"pid {first.pid} on " in r.err and "hgrun run lock" in r.err, r.err
    assert first.returncode == 0, err
    result = json.loads((out / "result.json").read_text())
    assert result["complete"] is True and result["pid"] == first.pid
    # The first run's files are whole: trace.bin holds what result.json says.
    records = ((out / "trace.bin").stat().st_size - 64) // 32
    assert records == result["trace"]["written"]["trace"]
    assert not (out / ".hgrun-lock").exists()


def test_a_killed_runs_lock_is_taken_over(hgrun_bin, hgrun, scenario, tmp_path):
    path = scenario(scenario_text("stale", [CPU_THREAD], duration="5s"))
    out = tmp_path / "out"
    first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
    kill_when(first, lambda: (out / "trace.bin").exists())
    assert (out / ".hgrun-lock").exists()     # left behind, but not held: flock died with it
    r = hgrun("run", path, "-o", out, "--force", "--quiet", "--duration", "100ms", timeout=60)
    assert r.rc == 0, r.err
    assert json.loads((out / "result.json").read_text())["complete"] is True


def test_two_resumes_at_once_the_second_is_refused(hgrun_bin, hgrun, scenario, tmp_path):
    path = scenario(TWO_POINT_SWEEP)
    out = tmp_path / "sw"
    first = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "1500ms", "--quiet")
    try:
        assert wait_for(lambda: (out / "p000" / "r0" / "trace.bin").exists())
        second = hgrun("sweep", path, "-o", out, "--duration", "1500ms", "--resume", "--quiet",
                       timeout=60)
        shard = hgrun("sweep", path, "-o", out, "--duration", "1500ms", "--resume", "--quiet",
                      "--shard", "0/2", timeout=60)
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    for r in (second, shard):
        assert r.rc == 3, (r.rc, r.err)
        assert "another hgrun is writing there (pid " in r.err and "hgrun sweep" in r.err, r.err
    assert not (out / "p001" / "r0").exists()    # nothing of the refused sweeps ran


def test_resume_reruns_a_killed_run_with_an_exec_load(hgrun_bin, hgrun, scenario, tmp_path):
    text = (TWO_POINT_SWEEP +
            'loads:\n  - {name: hog, type: exec, command: "echo started; sleep 30"}\n')
    path = scenario(text)
    out = tmp_path / "sw"
    # --grid-order: p000/r0 is the first run, the one killed.
    first = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "1s", "--quiet", "--grid-order")
    kill_when(first, lambda: (out / "p000" / "r0" / "load-hog.out").exists() and
                     (out / "p000" / "r0" / "load-hog.out").stat().st_size > 0)
    # The run the kill cut off (p000/r0, or p001/r0 on a slow machine) has
    # the exec output; add what a kill while writing kernel.jsonl leaves.
    cut = [d for d in sorted(out.glob("p*/r0")) if not (d / "result.json").exists() or
           not json.loads((d / "result.json").read_text())["complete"]]
    assert cut and (cut[0] / "load-hog.out").exists(), cut
    run = cut[0]
    (run / "kernel.jsonl.tmp.0123456789abcdef").write_text("partial")
    r = hgrun("sweep", path, "-o", out, "--duration", "1s", "--resume", "--quiet", timeout=90)
    assert r.rc == 0, r.err
    assert ", 0 failed" in r.out and "sweep: 0 succeeded" not in r.out, r.out
    assert json.loads((run / "result.json").read_text())["complete"] is True
    assert not list(run.glob("*.tmp.*"))
    # And --force starts over from it.
    r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--force", "--quiet", timeout=90)
    assert r.rc == 0, r.err


def test_force_removes_by_name_and_owner_never_what_result_json_lists(hgrun, scenario, tmp_path):
    path = scenario(scenario_text("own", [CPU_THREAD], duration="100ms"))
    out = tmp_path / "out"
    assert hgrun("run", path, "-o", out, "--quiet").rc == 0
    precious = tmp_path / "precious.txt"
    precious.write_text("keep")
    result = json.loads((out / "result.json").read_text())
    result["files"]["notes"] = "notes.txt"
    (out / "result.json").write_text(json.dumps(result))
    (out / "notes.txt").write_text("a user's notes")
    r = hgrun("run", path, "-o", out, "--force", "--quiet")
    assert r.rc == 3 and "notes.txt" in r.err, r.err
    assert (out / "notes.txt").exists()
    os.unlink(out / "notes.txt")
    if os.geteuid() == 0:
        os.chown(out / "series.jsonl", 4242, 4242)    # another user's file at our name
        r = hgrun("run", path, "-o", out, "--force", "--quiet")
        assert r.rc == 3 and "series.jsonl (owned by uid 4242)" in r.err, r.err
        assert (out / "series.jsonl").exists()


def test_a_link_planted_mid_sweep_is_not_followed(hgrun_bin, scenario, tmp_path):
    path = scenario(TWO_POINT_SWEEP)
    out = tmp_path / "sw"
    victim = tmp_path / "victim"
    victim.mkdir()
    proc = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "1500ms", "--quiet")
    try:
        assert wait_for(lambda: (out / "p000" / "r0" / "trace.bin").exists())
        os.symlink(victim, out / "p001")       # before the sweep gets to p001
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert list(victim.iterdir()) == [], list(victim.iterdir())
    assert proc.returncode == 1, err
    assert "p001/r0: a symbolic link or a file where hgrun makes its run directory: not followed" \
        in err, err


@pytest.mark.skipif(missing_programs({"stress-ng": "stress-ng"}) is not None,
                    reason=missing_programs({"stress-ng": "stress-ng"}) or "")
def test_force_and_resume_clear_a_killed_stress_ng_loads_temporaries(hgrun_bin, hgrun, scenario,
                                                                     tmp_path):
    """A kill -9 leaves the stress_ng load's load-NAME.tmp/ (stress-ng's
    --temp-path, with tmp-stress-ng-hdd-PID-N/ in it) and its outputs: hgrun's
    own, so --force reruns there, and so does sweep --resume."""
    load = "loads:\n  - {name: disk, type: stress_ng, stressor: hdd, options: {hdd-bytes: 1M}}\n"
    path = scenario(scenario_text("sngkill", [CPU_THREAD], duration="10s", extra=load))
    out = tmp_path / "out"
    tmp = out / "load-disk.tmp"
    first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
    kill_when(first, lambda: tmp.exists() and any(tmp.glob("tmp-stress-ng-hdd-*")))
    assert tmp.is_dir()
    r = hgrun("run", path, "-o", out, "--force", "--quiet", "--duration", "1s", timeout=60)
    assert r.rc == 0, (r.rc, r.err)
    assert json.loads((out / "result.json").read_text())["complete"] is True
    assert not tmp.exists()
    # The same leftovers in a sweep's run: --resume clears and reruns it.
    sweep = scenario(TWO_POINT_SWEEP + load, name="sw.yaml")
    sw = tmp_path / "sw"
    first = start(hgrun_bin, "sweep", sweep, "-o", sw, "--quiet", "--grid-order", "--duration",
                  "1500ms")
    run = sw / "p000" / "r0"
    kill_when(first, lambda: any((run / "load-disk.tmp").glob("tmp-stress-ng-hdd-*")))
    r = hgrun("sweep", sweep, "-o", sw, "--resume", "--quiet", "--duration", "1500ms", timeout=120)
    assert r.rc == 0, (r.rc, r.err)
    assert json.loads((run / "result.json").read_text())["complete"] is True
    assert not (run / "load-disk.tmp").exists()


def test_force_reruns_after_a_kill_with_every_load_type(hgrun_bin, hgrun, scenario, tmp_path):
    """Whatever loads a SIGKILLed run had, what it left is hgrun's own: --force on the same -o
    reruns (nothing there counted as foreign), and the io load's directory outside it is gone
    after the next run that uses the same dir."""
    iodir = tmp_path / "io"
    iodir.mkdir()
    loads = [
        "{name: c, type: cpu, workers: 1}",
        "{name: m, type: memory, size: 4MiB}",
        f"{{name: d, type: io, size: 256KiB, dir: {iodir}}}",
        "{name: f, type: fork}",
        "{name: p, type: procfs}",
        "{name: t, type: tcp_stream}",
        '{name: x, type: exec, command: "echo out; echo err >&2; sleep 30"}',
    ]
    if shutil.which("stress-ng"):
        loads.append("{name: s, type: stress_ng, stressor: hdd, options: {hdd-bytes: 1M}}")
    if os.geteuid() == 0 and shutil.which("ping") and shutil.which("ip"):
        loads.append("{name: fl, type: flood_ping}")
    extra = "loads:\n" + "".join(f"  - {load}\n" for load in loads)
    path = scenario(scenario_text("every", [CPU_THREAD], duration="10s", extra=extra))
    out = tmp_path / "out"
    first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
    kill_when(first, lambda: (out / "load-x.err").exists() and
                     (out / "load-x.err").stat().st_size > 0 and
                     any(p.name.startswith("hgrun-io-") for p in iodir.iterdir()) and
                     (not shutil.which("stress-ng") or
                      any((out / "load-s.tmp").glob("tmp-stress-ng-*"))), settle=0.3)
    r = hgrun("run", path, "-o", out, "--force", "--quiet", "--duration", "500ms", timeout=60)
    assert r.rc == 0, (r.rc, r.err)
    assert "holds more than a run's results" not in r.err, r.err
    result = json.loads((out / "result.json").read_text())
    assert result["pid"] != first.pid and result["checkpoint"] is None
    assert [p.name for p in iodir.iterdir()] == []
    assert not list(out.glob("load-*.tmp")) and not list(out.glob("*.tmp.*"))


def test_force_clears_a_killed_io_loads_directory_in_the_result_dir(hgrun_bin, hgrun, scenario,
                                                                   tmp_path):
    """An io load whose dir is the result directory itself: a SIGKILLed run leaves
    hgrun-io-PID-NAME-XXXXXX/ there, hgrun's own once that pid is gone, so --force reruns."""
    out = tmp_path / "out"
    out.mkdir()
    extra = f"loads:\n  - {{name: d, type: io, size: 256KiB, dir: {out}}}\n"
    path = scenario(scenario_text("iohere", [CPU_THREAD], duration="10s", extra=extra))
    first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
    kill_when(first, lambda: any(p.name.startswith("hgrun-io-") and any(p.iterdir())
                                 for p in out.iterdir() if p.is_dir()))
    r = hgrun("run", path, "-o", out, "--force", "--quiet", "--duration", "300ms", timeout=60)
    assert r.rc == 0, (r.rc, r.err)
    assert json.loads((out / "result.json").read_text())["complete"] is True
    assert not [p for p in out.iterdir() if p.name.startswith("hgrun-io-")]
