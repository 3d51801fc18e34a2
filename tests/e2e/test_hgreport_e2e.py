# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport on fresh runs of the real runner (the analysis tests in tests/analysis read
checked-in golden directories instead): run -> hgreport -> the report agrees with the run."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

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
                                                                         tmp_path, monkeypatch):
    """series.jsonl says when each load line's counters were read (read_ns), and hgreport rates
    each bin over the time the load ran in it (from its start to its SIGTERM), spreading each
    line's ops over the time between its reads: so the bins' rates, each times the load's time
    in its bin, add up to the load's ops, and their mean over that time is the load's ops/s.
    That holds however unevenly the load got the CPU: a bin diluted by time the load did not
    run in (its start or stop inside the interval), or rated over the microseconds between two
    reads of a writer that fell behind (a bin of 0 ops/s), breaks the sum."""
    text = ("hgrun: 1\nname: edges\nduration: 1500ms\ntrace: {series: 100ms}\n"
            "threads:\n  - {name: be, cpus: [1], workload: {type: cpu}}\n"
            "loads:\n  - {name: burn, type: cpu, start: 250ms, stop: 1250ms, cpus: [0]}\n")
    run = tmp_path / "run"
    r = hgrun(scenario(text), "-o", run, "--quiet")
    assert r.rc == 0, r.err
    lines = [json.loads(x) for x in (run / "series.jsonl").read_text().splitlines()]
    loads = [x for x in lines if "load" in x]
    assert loads and all(x["read_ns"] >= x["t_ns"] for x in loads)
    # What `hgreport series` writes (its Over time section and series.json), in-process and
    # without drawing series.png, which is not read here
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.read.rundir import read_run
    from hgreport.figures import series as series_figure
    from hgreport.report.sections import over_time
    monkeypatch.setattr(series_figure, "plot_series", lambda *args, **kwargs: None)
    text, _ = over_time.section(read_run(run), tmp_path / "rep")
    assert "### Loads over time" in text
    load = json.loads((run / "result.json").read_text())["loads"][0]
    ops = sum(x["ops"] for x in loads)
    assert ops == load["stats"]["ops"], (loads, load)
    start = load["started_ns"]
    stop = min(load["stop_requested_ns"], load["stopped_ns"])
    assert ops / ((stop - start) / 1e9) == pytest.approx(load["stats"]["ops_per_s"], rel=1e-3)
    stop = min(stop, max(x["read_ns"] for x in loads))     # the series measured up to there
    got = json.loads((tmp_path / "rep" / "series.json").read_text())
    width = got["bin_ns"]
    ran = [max(0, min(stop, (k + 1) * width) - max(start, k * width)) for k in range(got["bins"])]
    rates = got["loads"][0]["ops_per_s"]
    assert [k for k, x in enumerate(rates) if x is not None] == [k for k, t in enumerate(ran) if t]
    assert len([x for x in rates if x is not None]) >= 10
    assert sum(x * t for x, t in zip(rates, ran) if t) / 1e9 == pytest.approx(ops, rel=1e-3), \
        (rates, ran, ops)
