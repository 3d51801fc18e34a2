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
    assert r.rc in (0, 5), r.err
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
    assert r.rc in (0, 5), r.err
    proc = hgreport("sweep", tmp_path / "sw")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "sw" / "report" / "sweep.md").exists()


def test_over_time_rates_of_a_load_that_starts_and_stops_inside_intervals(hgrun, scenario,
                                                                         tmp_path):
    """series.jsonl says when each load line's counters were read (read_ns), so the bins where
    a load starts and stops are rated over the time it ran: their mean agrees with the load's
    own ops/s (without read_ns the first and last bins were diluted by the rest of their
    intervals)."""
    text = ("hgrun: 1\nname: edges\nduration: 1500ms\ntrace: {series: 100ms}\n"
            "threads:\n  - {name: be, cpus: [1], workload: {type: cpu}}\n"
            "loads:\n  - {name: burn, type: cpu, start: 250ms, stop: 1250ms, cpus: [0]}\n")
    run = tmp_path / "run"
    r = hgrun(scenario(text), "-o", run, "--quiet")
    assert r.rc == 0, r.err
    lines = [json.loads(x) for x in (run / "series.jsonl").read_text().splitlines()]
    loads = [x for x in lines if "load" in x]
    assert loads and all(x["read_ns"] >= x["t_ns"] for x in loads)
    proc = hgreport("series", run, "-o", tmp_path / "rep")
    assert proc.returncode == 0, proc.stderr
    res = json.loads((run / "result.json").read_text())
    want = res["loads"][0]["stats"]["ops_per_s"]
    got = json.loads((tmp_path / "rep" / "series.json").read_text())["loads"][0]["ops_per_s"]
    rates = [x for x in got if x is not None]
    assert len(rates) >= 10
    assert abs(sum(rates) / len(rates) / want - 1) < 0.2, (rates, want)
    assert min(rates) > 0.5 * want, (rates, want)     # no diluted edge bin
