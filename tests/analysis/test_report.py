# SPDX-License-Identifier: GPL-2.0-or-later
"""The report of one real run: summary.json against result.json, the trace and the figures."""
import json
import pathlib
import sys
from collections import defaultdict

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "e2e"))
from hgbin import read as records  # noqa: E402  (trace.bin, latency.bin: docs/results.md)


@pytest.fixture(scope="module")
def report(mix_run):
    from hgreport.cli import main
    out = mix_run / "report"
    assert main([str(mix_run), "--thresholds", "20us,1ms,5ms,10ms,50ms"]) == 0
    return out


def load(path):
    return json.loads(path.read_text())


def trace_lines(run):
    """trace.bin's intervals as {thread, instance} dicts."""
    threads = load(run / "result.json")["threads"]
    return [{"thread": threads[r["thread"]]["name"], "instance": threads[r["thread"]]["instance"]}
            for r in records(run / "trace.bin")]


def test_report_writes_every_file(report):
    for name in ("report.md", "summary.json", "timeline.png", "gaps.png", "latency.png",
                 "trace.perfetto-trace"):
        assert (report / name).stat().st_size > 0, name
    assert (report / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("case", ["mix", "outliers", "none"])
def test_summary_lists_every_file_the_report_writes(case, rendered):
    """summary.json's `files`: every file in the report's directory, each once; each figure
    linked in report.md (a run without a trace draws no timeline and no gaps.png)."""
    r = rendered(case)
    assert r.rc == 0, r.stderr
    files = load(r.out / "summary.json")["files"]
    assert sorted(files) == sorted(p.name for p in r.out.iterdir())
    assert len(set(files)) == len(files)
    md = (r.out / "report.md").read_text()
    for name in files:
        if name.endswith(".png"):
            assert md.count(f"![{name}]({name})") == 1, name
    if case == "none":
        assert not {"timeline.png", "gaps.png"} & set(files)


def test_summary_numbers_match_result(mix_run, report):
    s = load(report / "summary.json")
    res = load(mix_run / "result.json")
    lines = trace_lines(mix_run)
    per = defaultdict(int)
    for rec in lines:
        per[(rec["thread"], rec["instance"])] += 1
    assert s["run"]["complete"] is True
    assert len(s["threads"]) == len(res["threads"])
    for row, t in zip(s["threads"], res["threads"]):
        st = t["stats"]
        assert row["label"] == t["os_name"]
        for key in ("cpu_ns", "intervals", "gaps", "releases", "deadlines_hit",
                    "deadlines_missed", "work_units", "records", "records_dropped"):
            assert row[key] == st[key], key
        assert row["deadlines_hit"] + row["deadlines_missed"] == row["releases"]
        assert row["trace_intervals"] == per[(t["name"], t["instance"])] == st["records"]
        assert st["intervals"] == st["records"] + st["records_dropped"]
        assert row["policy"] == t["granted"]["policy"]
    rt = next(r for r in s["threads"] if r["label"] == "rt")
    assert rt["releases"] > 0 and rt["jobs_rebuilt"]["agrees_with_counters"]
    lat = next(r for r in s["threads"] if r["label"] == "lat")
    res_lat = next(t for t in res["threads"] if t["name"] == "lat")["stats"]["latency"]
    for key in ("count", "min_ns", "p50_ns", "p99_ns", "p999_ns", "max_ns"):
        assert lat["latency"][key] == res_lat[key]
    assert [ld["name"] for ld in s["loads"]] == ["burn"]
    assert s["loads"][0]["started_ns"] == res["loads"][0]["started_ns"]


def test_dispatch_table_counts_samples(mix_run, report):
    s = load(report / "summary.json")
    (row,) = s["dispatch_latency"]["threads"]
    w = records(mix_run / "latency.bin")
    late = [int(x) for x in w["actual_ns"] - w["intended_ns"]]
    assert s["dispatch_latency"]["thresholds_ns"] == [20_000, 1_000_000, 5_000_000, 10_000_000, 50_000_000]
    assert row["samples"] == len(late)
    for th, n in row["later_than"].items():
        assert n == sum(1 for v in late if v > int(th))
    counts = [row["later_than"][str(t)] for t in s["dispatch_latency"]["thresholds_ns"]]
    assert counts == sorted(counts, reverse=True)


def test_context_switches_are_split_by_kind(report):
    sw = load(report / "summary.json")["context_switches"]
    assert sw["all"]["count"] == sw["voluntary"]["count"] + sw["involuntary"]["count"]
    # rt and lat block on their timers, the hogs are preempted: both kinds happen on CPU 0
    assert sw["voluntary"]["count"] > 0 and sw["involuntary"]["count"] > 0
    assert 0 <= sw["involuntary"]["min_ns"] <= sw["involuntary"]["median_ns"] <= sw["involuntary"]["max_ns"]


def test_report_markdown(report):
    md = (report / "report.md").read_text()
    for heading in ("## Host", "## Calibration", "## Warnings", "## Threads", "## Dispatch latency",
                    "Hourglass table 1", "## Gaps and context switches", "## Loads"):
        assert heading in md
    assert "| rt | periodic | fifo" in md
    assert "incomplete" not in md


def test_incomplete_run_is_reported(mix_run, copy_run, hgreport, tmp_path):
    def interrupt(doc):
        doc["complete"] = False
        doc["exit_status"] = 130
    run = copy_run(mix_run, interrupt)
    rc, out, _ = hgreport(run, "-o", tmp_path / "rep", "--window", "100ms:50ms")
    assert rc == 0 and "incomplete" in out
    assert "**This run is incomplete**" in (tmp_path / "rep" / "report.md").read_text()
    assert load(tmp_path / "rep" / "summary.json")["run"]["complete"] is False


def test_jobs_rebuilt_from_the_trace_agree_with_the_runner(miss_run):
    from hgreport.read.rundir import read_run
    from hgreport.analyses.summary import periodic_jobs
    run = read_run(miss_run)
    for i, t in enumerate(run.threads):
        jobs = periodic_jobs(run, i)
        # The runner decides hit/miss on CLOCK_MONOTONIC at completion, the
        # rebuild on the counter at the interval's end: a job finishing
        # within the gap threshold of its deadline may land on either side.
        releases, missed = t["stats"]["releases"], t["stats"]["deadlines_missed"]
        slack = 1 + releases // 50
        assert abs(len(jobs) - releases) <= slack, (len(jobs), releases)
        assert abs(sum(j.missed for j in jobs) - missed) <= slack, (sum(j.missed for j in jobs), missed)
    lo = run.threads.index(next(t for t in run.threads if t["name"] == "lo"))
    assert any(j.missed for j in periodic_jobs(run, lo))
