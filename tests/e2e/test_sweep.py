# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgrun sweep`: one run per grid point and repeat, sweep.json, shards."""
import json

SWEEP = """\
hgrun: 1
name: swr
duration: 5s
threads:
  - name: rt
    priority: RTHIGH
    workload: {type: periodic, exec: 1ms, period: 5ms}
sweep:
  grid:
    threads[rt].workload.exec: [1ms, 2ms]
    threads[rt].timer: [absolute, sleep]
  repeat: 2
"""


def results(root):
    return {str(p.parent.relative_to(root)): json.loads(p.read_text())
            for p in root.glob("p*/r*/result.json")}


def test_sweep_runs_every_point_and_repeat(hgrun, scenario, tmp_path):
    out = tmp_path / "sw"
    r = hgrun("sweep", scenario(SWEEP), "-o", out, "--duration", "100ms", "--quiet", timeout=60)
    assert r.rc == 0, r.err
    assert "sweep: 8 succeeded, 0 failed, 0 skipped" in r.out
    index = json.loads((out / "sweep.json").read_text())
    assert index["format"] == "hgrun-sweep/1" and index["repeat"] == 2 and index["runs"] == 8
    assert [a["path"] for a in index["axes"]] == ["threads[rt].workload.exec", "threads[rt].timer"]
    runs = results(out)
    assert sorted(runs) == sorted(run for p in index["points"] for run in p["runs"])
    for point in index["points"]:
        for run in point["runs"]:
            res = runs[run]
            assert res["sweep_point"]["id"] == point["id"]
            assert res["sweep_point"]["overrides"] == point["overrides"]
            (t,) = res["scenario"]["threads"]
            exec_ns = {"1ms": 1_000_000, "2ms": 2_000_000}[point["overrides"]["threads[rt].workload.exec"]]
            assert t["workload"]["exec"]["values_ns"] == [exec_ns]
            assert t["timer"] == point["overrides"]["threads[rt].timer"]
            assert res["scenario"]["duration_ns"] == 100_000_000
            assert res["complete"] and res["threads"][0]["stats"]["releases"] > 0


def test_shards_split_the_runs(hgrun, scenario, tmp_path):
    path = scenario(SWEEP)
    out = tmp_path / "sw"
    seen = []
    for k in range(3):
        r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--shard", f"{k}/3",
                  timeout=60)
        assert r.rc == 0, r.err
        listed = hgrun("sweep", path, "--list", "--shard", f"{k}/3").out.split("\n")
        seen += [line.split()[0] for line in listed if line]
    assert sorted(map(int, seen)) == list(range(8))
    assert len(results(out)) == 8
    # argv as typed: `--shard 1/3`, not `--shard 1` (the option's value was once cut at
    # its slash in place)
    for res in results(out).values():
        line = res["command_line"]
        assert line[line.index("--shard") + 1] in ("0/3", "1/3", "2/3"), line
    # each run of this sweep says so (sweep.json's id), and of which point and repeat
    index = json.loads((out / "sweep.json").read_text())
    assert len(index["id"]) == 64
    for name, res in results(out).items():
        assert res["sweep_point"]["sweep_id"] == index["id"]
        assert f'{res["sweep_point"]["id"]}/r{res["sweep_point"]["repeat"]}' == name
        assert res["file_bytes"] == {f: (out / name / f).stat().st_size
                                     for f in res["files"].values()}


def test_list_runs_nothing(hgcli, scenario, tmp_path):
    r = hgcli("sweep", scenario(SWEEP), "--list", "--grid-order", cwd=tmp_path)
    assert r.rc == 0
    lines = r.out.splitlines()
    assert len(lines) == 8
    assert lines[0] == "0 p000 r0 threads[rt].workload.exec=1ms threads[rt].timer=absolute"
    assert not (tmp_path / "results").exists()


def test_sweep_errors(hgrun, scenario, tmp_path):
    plain = scenario(SWEEP.split("sweep:")[0], "plain.yaml")
    r = hgrun("sweep", plain, "-o", tmp_path / "x")
    assert r.rc == 2 and "has no sweep: section" in r.err
    r = hgrun("sweep", scenario(SWEEP), "--shard", "0/2")
    assert r.rc == 3 and "--shard needs -o DIR" in r.err
    r = hgrun("sweep", scenario(SWEEP), "--shard", "2/2", "-o", tmp_path / "y")
    assert r.rc == 3
    r = hgrun("run", scenario(SWEEP), "--shard", "0/2")
    assert r.rc == 3


def test_sigint_stops_a_sweep_with_130(hgrun_bin, scenario, tmp_path):
    import signal
    import subprocess
    import time
    out = tmp_path / "sw"
    proc = subprocess.Popen([str(hgrun_bin), "sweep", str(scenario(SWEEP)), "-o", str(out),
                             "--duration", "400ms", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "sweep stopped after" in err
    done = results(out)
    assert 0 < len(done) < 8
    # every run that has a result has a valid one; the interrupted one says so
    assert all(r["complete"] or r["exit_status"] == 130 for r in done.values())
