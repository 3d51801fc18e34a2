# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgrun run`: every workload and every timer, and their accounting."""
import statistics

import pytest

from runhelp import run_scenario, scenario_text

MS = 1_000_000


def run1(hgrun, scenario, tmp_path, thread, duration="500ms", extra=""):
    r = run_scenario(hgrun, scenario, tmp_path, scenario_text("t", [thread], extra=extra),
                     duration=duration)
    assert r.rc == 0, r.err
    assert r.result["complete"] is True
    r.validate()
    return r


def check_trace_accounting(r, os_name):
    s = r.stats(os_name)
    assert s["records_dropped"] == 0
    assert s["records"] == s["intervals"]
    name = r.thread(os_name)["name"]
    mine = [x for x in r.trace() if x["thread"] == name]
    assert len(mine) == s["records"]
    total = sum(x["end_ns"] - x["start_ns"] for x in mine)
    assert abs(total - s["cpu_ns"]) <= max(1000, s["cpu_ns"] // 1000)


def test_cpu(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path, "{name: c, workload: {type: cpu}}")
    s = r.stats("c")
    assert s["cpu_ns"] > 50 * MS
    assert s["intervals"] >= 1 and s["gaps"] == s["intervals"] - 1
    assert s["releases"] == 0 and s["latency"] is None
    check_trace_accounting(r, "c")


def test_cpu_scan_counts_passes(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: s, workload: {type: cpu_scan, working_set: 64KiB}}")
    assert r.stats("s")["work_units"] > 100
    check_trace_accounting(r, "s")


@pytest.mark.parametrize("wtype,extra", [("cpu_yield", ""),
                                         ("cpu_scan_yield", ", working_set: 16KiB")])
def test_yield_slices_near_yield_after(hgrun, scenario, tmp_path, wtype, extra):
    r = run1(hgrun, scenario, tmp_path,
             f"{{name: y, workload: {{type: {wtype}, yield_after: 2ms{extra}}}}}")
    trace = [x for x in r.trace() if x["thread"] == "y"]
    slices, cur = [], 0
    for x in trace:
        cur += x["end_ns"] - x["start_ns"]
        if x["end"] == "yielded":
            slices.append(cur)
            cur = 0
    assert len(slices) >= 10
    # CPU received between two yields is yield_after (plus at most one loop step)
    assert 1.9 * MS <= statistics.median(slices) <= 2.2 * MS
    assert r.stats("y")["yields"] == len(slices)


def test_periodic_accounting(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: p, priority: RTMED, timer: absolute, "
             "workload: {type: periodic, exec: 2ms, period: 10ms}}")
    s = r.stats("p")
    assert s["deadlines_hit"] + s["deadlines_missed"] == s["releases"]
    assert 25 <= s["releases"] <= 50
    # every completed job received its exec, measured by the gap trace
    assert s["jobs"] >= s["deadlines_hit"]
    assert s["cpu_ns"] >= s["jobs"] * 2 * MS * 0.999
    assert s["cpu_ns"] <= (s["jobs"] + 1) * 2 * MS * 1.05
    ends = {x["end"] for x in r.trace()}
    assert "blocked" in ends


def test_periodic_exec_list(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: p, priority: RTMED, timer: absolute, "
             "workload: {type: periodic, exec: [1ms, 3ms], period: 10ms}}")
    s = r.stats("p")
    assert s["jobs"] >= 20
    assert s["cpu_ns"] >= (s["jobs"] // 2) * 4 * MS * 0.999


@pytest.mark.parametrize("dist,lo,hi", [
    ("{dist: uniform, min: 1ms, max: 3ms, seed: 5}", 1, 3),
    ("{dist: normal, mean: 2ms, stddev: 0.5ms, min: 1ms, max: 3ms}", 1, 3),
])
def test_periodic_exec_distributions(hgrun, scenario, tmp_path, dist, lo, hi):
    r = run1(hgrun, scenario, tmp_path,
             "{name: p, priority: RTMED, timer: absolute, "
             f"workload: {{type: periodic, exec: {dist}, period: 10ms}}}}")
    s = r.stats("p")
    assert s["deadlines_hit"] + s["deadlines_missed"] == s["releases"]
    assert s["jobs"] >= 20
    # each job received a draw in [lo, hi]; the last job may be cut short
    per_job = s["cpu_ns"] / s["jobs"]
    assert lo * MS * 0.999 <= per_job <= hi * MS * 1.05 + hi * MS / s["jobs"]
    # the mean draw lies near the middle of [lo, hi]
    assert (hi + lo) / 2 * MS * 0.6 <= per_job <= (hi + lo) / 2 * MS * 1.4


def test_cpu_periodic_windows(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: g, workload: {type: cpu_periodic, exec: 2ms, period: 50ms}}")
    s = r.stats("g")
    assert s["deadlines_hit"] + s["deadlines_missed"] == s["releases"]
    assert 8 <= s["releases"] <= 10           # whole 50 ms windows in 500 ms
    assert s["jobs"] > s["releases"]          # never blocks: many frames per window
    assert not any(x["end"] == "blocked" for x in r.trace())


def test_latency_samples(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: l, priority: RTHIGH, timer: absolute, workload: {type: latency, period: 2ms}}")
    lat = r.stats("l")["latency"]
    assert 125 <= lat["count"] <= 255
    assert lat["min_ns"] <= lat["p50_ns"] <= lat["p99_ns"] <= lat["p999_ns"] <= lat["max_ns"]
    h = lat["histogram"]
    assert sum(h["counts"]) + h["overflow"] == lat["count"]
    samples = r.wakeups()
    assert len(samples) == lat["samples"] == lat["count"]
    assert [x["seq"] for x in samples] == list(range(len(samples)))
    for a, b in zip(samples, samples[1:]):
        assert b["intended_ns"] == a["actual_ns"] + 2 * MS   # the paper's rule
    assert all(x["late_ns"] == x["actual_ns"] - x["intended_ns"] >= 0 for x in samples)


def test_latency_align_absolute(hgrun, scenario, tmp_path):
    r = run1(hgrun, scenario, tmp_path,
             "{name: l, priority: RTHIGH, timer: absolute, "
             "workload: {type: latency, period: 2ms, align: absolute}}")
    samples = r.wakeups()
    assert len(samples) >= 125
    assert all(x["intended_ns"] % (2 * MS) == 0 for x in samples)


@pytest.mark.parametrize("timer", ["sleep", "absolute", "timerfd", "signal", "spin"])
def test_each_timer(hgrun, scenario, tmp_path, timer):
    r = run1(hgrun, scenario, tmp_path,
             f"{{name: l, priority: RTMED, timer: {timer}, workload: {{type: latency, period: 5ms}}}}",
             duration="500ms")
    assert r.thread("l")["timer"] == timer
    assert 50 <= r.stats("l")["latency"]["count"] <= 101


@pytest.mark.parametrize("timer", ["sleep", "timerfd", "signal", "spin"])
def test_periodic_on_each_timer(hgrun, scenario, tmp_path, timer):
    r = run1(hgrun, scenario, tmp_path,
             f"{{name: p, priority: RTMED, timer: {timer}, "
             "workload: {type: periodic, exec: 1ms, period: 10ms}}", duration="500ms")
    s = r.stats("p")
    assert s["deadlines_hit"] + s["deadlines_missed"] == s["releases"]
    assert 25 <= s["releases"] <= 50
