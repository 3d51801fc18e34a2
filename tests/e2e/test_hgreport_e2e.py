"""hgreport on fresh runs of the real runner (the analysis tests in tests/analysis read
checked-in golden directories instead): run -> hgreport -> the report agrees with the run."""
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

MIX = """\
hgrun: 1
name: mix
duration: 500ms
trace: {series: 100ms}
threads:
  - {name: rt, cpus: [0], priority: RTHIGH, workload: {type: periodic, exec: 1ms, period: 5ms}}
  - {name: hog, count: 2, cpus: [0], priority: NORMAL, workload: {type: cpu}}
  - {name: lat, cpus: [0], priority: RTMED, workload: {type: latency, period: 2ms}}
loads:
  - {name: burn, type: cpu, start: 200ms, stop: 400ms, cpus: [0]}
"""


def hgreport(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "analysis"))
    return subprocess.run([sys.executable, "-m", "hgreport", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_report_of_a_fresh_run(hgrun, scenario, tmp_path):
    run = tmp_path / "run"
    r = hgrun(scenario(MIX), "-o", run, "--quiet")
    assert r.rc in (0, 1), r.err
    proc = hgreport(run)
    assert proc.returncode == 0, proc.stderr
    res = json.loads((run / "result.json").read_text())
    s = json.loads((run / "report" / "summary.json").read_text())
    for row, t in zip(s["threads"], res["threads"], strict=True):
        st = t["stats"]
        assert row["trace_intervals"] == st["records"] == st["intervals"] - st["records_dropped"]
        assert row["cpu_ns"] == st["cpu_ns"]
    lat = next(r for r in s["dispatch_latency"]["threads"] if r["label"] == "lat")
    assert lat["samples"] == next(t for t in res["threads"] if t["name"] == "lat")["stats"]["latency"]["samples"]
    for name in ("report.md", "timeline.png", "gaps.png", "latency.png"):
        assert (run / "report" / name).stat().st_size > 0
    assert f"report: {run / 'report' / 'report.md'}" in proc.stdout


def test_report_of_a_fresh_sweep(hgrun, scenario, tmp_path):
    text = MIX.replace("loads:\n  - {name: burn, type: cpu, start: 200ms, stop: 400ms, cpus: [0]}\n",
                       "sweep:\n  grid:\n    threads[hog].count: [1, 2]\n")
    r = hgrun("sweep", scenario(text), "-o", tmp_path / "sw", "--duration", "200ms", "--quiet")
    assert r.rc in (0, 1), r.err
    proc = hgreport("sweep", tmp_path / "sw")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "sw" / "report" / "sweep.md").exists()
