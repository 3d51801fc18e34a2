# SPDX-License-Identifier: GPL-2.0-or-later
"""Streaming (docs/results.md): series.jsonl, the trace modes, checkpoints and kill -9,
memory that does not grow with the run, progress lines."""
import json
import os
import signal
import subprocess
import time

import hgbin
import numpy as np
from runhelp import Run, run_scenario, scenario_text

MS = 1_000_000
S = 1_000_000_000


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def children(pid):
    """Direct child processes of pid (all its threads)."""
    out = set()
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            out |= {int(x) for x in open(f"/proc/{pid}/task/{tid}/children").read().split()}
        except FileNotFoundError:
            pass
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def start(hgrun_bin, path, out_dir, *args):
    return subprocess.Popen([str(hgrun_bin), "run", str(path), "-o", str(out_dir), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_series_adds_up_to_the_totals(hgrun, scenario, tmp_path):
    text = scenario_text("ser", [
        "{name: c, workload: {type: cpu}}",
        "{name: p, priority: RTHIGH, workload: {type: periodic, exec: 1ms, period: 10ms}}",
        "{name: l, priority: RTHIGH, workload: {type: latency, period: 2ms}}"],
        extra="trace: {series: 250ms}\nloads:\n  - {name: burn, type: cpu, workers: 1}")
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="1100ms")
    assert r.rc == 0, r.err
    r.validate()
    lines = r.lines("series.jsonl")
    assert len(lines) == r.result["trace"]["written"]["series"]
    for i, t in enumerate(r.result["threads"]):
        mine = [x for x in lines if x.get("thread") == i]
        assert [x["t_ns"] for x in mine] == [250 * MS, 500 * MS, 750 * MS, 1000 * MS, 1100 * MS]
        assert [x["span_ns"] for x in mine] == [250 * MS] * 4 + [100 * MS]
        st = t["stats"]
        assert st["records_dropped"] == 0 and sum(x["dropped"] for x in mine) == 0
        assert sum(x["intervals"] for x in mine) == st["intervals"]
        assert sum(x["gaps"] for x in mine) == st["gaps"]
        assert abs(sum(x["cpu_ns"] for x in mine) - st["cpu_ns"]) <= max(10_000, st["cpu_ns"] // 1000)
    p = [x for x in lines if x.get("thread") == 1]
    assert sum(x["releases"] for x in p) == r.stats("p")["releases"]
    assert sum(x["misses"] for x in p) == r.stats("p")["deadlines_missed"]
    assert all(x["releases"] >= 15 for x in p[:4])          # of 25 a bin
    lat = [x for x in lines if x.get("thread") == 2]
    assert sum(x["wakeups"] for x in lat) == r.stats("l")["latency"]["count"]
    for x in lat:
        assert x["lat_min_ns"] <= x["lat_p99_ns"] <= x["lat_max_ns"]
    assert max(x["lat_max_ns"] for x in lat) == r.stats("l")["latency"]["max_ns"]
    assert "releases" not in lines[0] and "wakeups" not in lines[0]
    burn = [x for x in lines if x.get("load") == "burn"]
    assert len(burn) == 5 and sum(x["ops"] for x in burn) > 0


def test_none_mode_writes_series_only(hgrun, scenario, tmp_path):
    text = scenario_text("none", ["{name: l, priority: RTHIGH, workload: {type: latency, period: 1ms}}"],
                         extra="trace: {mode: none}")
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="600ms")
    assert r.rc == 0, r.err
    r.validate()
    assert r.result["files"] == {"series": "series.jsonl"}
    assert not (r.dir / "trace.bin").exists() and not (r.dir / "latency.bin").exists()
    assert r.result["trace"]["mode"] == "none"
    assert r.stats("l")["latency"]["count"] >= 300 and r.stats("l")["latency"]["samples"] == 0
    assert sum(x["wakeups"] for x in r.lines("series.jsonl") if "thread" in x) == r.stats("l")["latency"]["count"]


def test_outliers_capture_a_forced_gap_and_nothing_else(hgrun, scenario, tmp_path):
    """A SCHED_FIFO job of 3 ms every 200 ms on the CPU of a lower SCHED_FIFO cpu thread: each
    job is a gap of ~3 ms in the cpu thread's trace, longer than outlier_gap (1.5 ms), so it
    opens a window; the file holds that gap with the victim's intervals on both sides and the
    job's own intervals, and no record outside a window.  (On a shared machine other gaps,
    RT throttling's among them, open windows too; windows that overlap merge.)"""
    text = scenario_text("outl", [
        "{name: v, cpus: [0], priority: RTLOW, workload: {type: cpu}}",
        "{name: hi, cpus: [0], priority: RTHIGH, workload: {type: periodic, exec: 3ms, period: 200ms}}"],
        extra="trace: {mode: outliers, outlier_gap: 1500us, before: 2ms, after: 2ms}")
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="1s")
    assert r.rc == 0, r.err
    r.validate()
    tr = r.result["trace"]
    assert tr["mode"] == "outliers" and tr["switched"] == []
    windows = tr["outliers"]
    assert windows and all(w["kind"] == "gap" and w["value_ns"] > 1500_000 for w in windows)
    assert all(w["to_ns"] - w["trigger_ns"] >= w["value_ns"] + 2 * MS for w in windows)
    recs = hgbin.read(r.dir / "trace.bin")
    assert len(recs) == tr["written"]["trace"] > 0
    by_id = {w["id"]: w for w in windows}
    assert all(recs["flags"] & 1) and all(recs["window"] > 0)
    for rec in recs:      # nothing outside a window
        w = by_id[int(rec["window"])]
        assert rec["end_ns"] >= w["from_ns"] and rec["start_ns"] <= w["to_ns"]
    assert len(recs) < sum(t["stats"]["intervals"] for t in r.result["threads"])
    victim = np.sort(recs[recs["thread"] == 0], order="start_ns")
    jobs = recs[(recs["thread"] == 1)]
    captured = 0
    for a, b in zip(victim, victim[1:]):  # a gap of the victim with the job inside it
        if 2500_000 <= b["start_ns"] - a["end_ns"] <= 20 * MS and a["window"] == b["window"]:
            inside = jobs[(jobs["start_ns"] >= a["end_ns"]) & (jobs["end_ns"] <= b["start_ns"])]
            captured += len(inside) > 0
    assert captured >= 1, (windows, len(victim), len(jobs))


def test_kill_9_leaves_a_readable_checkpoint(hgrun_bin, scenario, tmp_path):
    path = scenario(scenario_text("k9", [
        "{name: c, workload: {type: cpu}}",
        "{name: l, priority: RTHIGH, workload: {type: latency, period: 1ms}}"],
        duration="20s", extra="loads:\n  - {name: burn, type: cpu, workers: 2}"))
    out = tmp_path / "out"
    began = time.monotonic()
    proc = start(hgrun_bin, path, out, "--quiet")
    while time.monotonic() - began < 15:     # the checkpoint of 4 s (one every 2 s)
        time.sleep(0.1)
        try:
            if json.loads((out / "result.json").read_text())["checkpoint"]["covers_ns"] >= 3 * S:
                break
        except (FileNotFoundError, json.JSONDecodeError, KeyError, TypeError):
            pass
    loads = children(proc.pid)
    assert len(loads) >= 2, "the cpu load's processes run"
    proc.send_signal(signal.SIGKILL)
    ran_ns = int((time.monotonic() - began) * S)
    proc.communicate(timeout=10)
    deadline = time.time() + 3
    while any(alive(p) for p in loads) and time.time() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in loads), "a load process survived kill -9"
    res = json.loads((out / "result.json").read_text())
    r = Run(type("P", (), {"rc": None, "out": "", "err": ""}), out)
    r.validate()
    assert res["complete"] is False and res["exit_status"] is None
    cp = res["checkpoint"]
    assert 3 * S <= cp["covers_ns"] <= ran_ns, (cp, ran_ns)
    trace = hgbin.read(out / "trace.bin")
    wake = hgbin.read(out / "latency.bin")
    assert len(trace) >= cp["written"]["trace"] > 0
    assert len(wake) >= cp["written"]["latency"] >= 2500
    lines = (out / "series.jsonl").read_text().splitlines()
    assert len(lines) >= cp["written"]["series"] > 0
    for line in lines[:cp["written"]["series"]]:
        json.loads(line)
    kept = wake[:cp["written"]["latency"]]
    assert list(kept["seq"]) == list(range(len(kept)))
    assert kept["actual_ns"].max() >= 2500 * MS
    st = res["threads"][1]["stats"]
    assert st["latency"]["count"] >= cp["written"]["latency"] * 0.9


def test_memory_does_not_grow_with_the_run(hgrun_bin, scenario, tmp_path):
    """RSS after the first checkpoint and 4 s later agree within 10% while the writer streams
    trace records (a yield every 20 us: more records between the two reads than a thread
    yielding every 100 us writes in 6 s) and 2000 wake-ups a second."""
    path = scenario(scenario_text("mem", [
        "{name: y, workload: {type: cpu_yield, yield_after: 20us}}",
        "{name: l, priority: RTHIGH, workload: {type: latency, period: 500us}}"], duration="7s"))
    proc = start(hgrun_bin, path, tmp_path / "out", "--quiet")
    time.sleep(2.5)            # after the first checkpoint (2 s)
    early = rss_kib(proc.pid)
    time.sleep(4)
    late = rss_kib(proc.pid)
    proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert abs(late - early) <= early * 0.10, (early, late)
    assert (tmp_path / "out" / "trace.bin").stat().st_size > 2**20  # it did write


def test_a_two_day_run_starts_small(hgrun_bin, scenario, tmp_path):
    """duration: 2d with a 1 kHz latency thread: the rings do not depend on the duration
    (before streaming, 1 GiB of samples was allocated and touched up front)."""
    path = scenario(scenario_text("days", ["{name: l, workload: {type: latency, period: 1ms}}"],
                                  duration="2d"))
    proc = start(hgrun_bin, path, tmp_path / "out", "--quiet")
    time.sleep(1.5)
    rss = rss_kib(proc.pid)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=20)
    assert proc.returncode == 130
    assert rss < 100 * 1024, f"{rss} KiB resident"
    res = json.loads((tmp_path / "out" / "result.json").read_text())
    assert res["scenario"]["duration_ns"] == 2 * 86400 * S


def test_progress_lines(hgrun, scenario, tmp_path):
    path = scenario(scenario_text("prog", ["{name: c, workload: {type: cpu}}"]))
    r = hgrun("run", path, "-o", tmp_path / "out", "--duration", "300ms")
    assert r.rc == 0, r.err
    first = r.err.splitlines()[0]
    assert first.startswith("hgrun: running prog for 300ms (1 thread, 0 loads, trace full) into ")
    assert str(tmp_path / "out") in first and "Ctrl-C keeps a partial result" in first
    q = hgrun("run", path, "-o", tmp_path / "q", "--duration", "300ms", "--quiet")
    assert q.rc == 0 and q.err == "" and q.out == ""


def test_duration_in_hours(hgrun, scenario, tmp_path):
    path = scenario(scenario_text("hours", ["{name: c, workload: {type: cpu}}"], duration="1h"))
    r = hgrun("validate", "--resolved", path)
    assert r.rc == 0, r.err
    assert r.json()["duration_ns"] == 3600 * S
    r = hgrun("run", path, "-o", tmp_path / "o", "--duration", "0.0001h", "--quiet")
    assert r.rc == 0, r.err
    assert json.loads((tmp_path / "o" / "result.json").read_text())["scenario"]["duration_ns"] == 360 * MS


def test_budget_switches_full_to_outliers(hgrun, scenario, tmp_path):
    text = scenario_text("bud", ["{name: y, workload: {type: cpu_yield, yield_after: 20us}}"],
                         extra="trace: {budget: 64KiB}")
    path = scenario(text)
    r = hgrun("run", path, "-o", tmp_path / "out", "--duration", "1s")
    assert r.rc == 0, r.err
    assert "hgrun: warning: trace.mode full may write about" in r.err   # said at the start
    res = json.loads((tmp_path / "out" / "result.json").read_text())
    tr = res["trace"]
    assert tr["mode_asked"] == "full" and tr["limit_bytes"] == 65536
    first = tr["switched"][0]
    assert first["from"] == "full" and first["to"] == "outliers" and "trace.budget" in first["why"]
    assert any("switched from full to outliers" in w for w in res["warnings"])
    recs = hgbin.read(tmp_path / "out" / "trace.bin")
    full_part = recs[recs["window"] == 0]
    assert 65536 * 0.89 <= len(full_part) * 32 <= 65536 * 0.9
    assert all(recs[len(full_part):]["window"] > 0)    # after the switch: windows only
    assert len(recs) * 32 <= 65536                     # never past the budget
    assert res["threads"][0]["stats"]["intervals"] > len(recs)


def test_series_has_the_interrupts_of_each_scenario_cpu(hgrun, scenario, tmp_path):
    """One CPU line per scenario CPU and series interval (docs/results.md), counted between two
    reads of /proc/interrupts: they add up to what /proc/interrupts counted meanwhile."""
    def total(cpu):
        lines = open("/proc/interrupts").read().splitlines()
        col = lines[0].split().index(f"CPU{cpu}")
        n = len(lines[0].split())
        return sum(int(x.split()[1 + col]) for x in lines[1:]
                   if len(x.split()) > n and all(v.isdigit() for v in x.split()[1:1 + n]))
    text = scenario_text("irq", ["{name: h, cpus: [1], workload: {type: cpu}}"],
                         extra="trace: {series: 300ms}")
    before = total(1)
    r = run_scenario(hgrun, scenario, tmp_path, text, duration="1s")
    after = total(1)
    assert r.rc == 0, r.err
    cpus = [x for x in r.lines("series.jsonl") if "cpu" in x and "thread" not in x]
    assert [x["cpu"] for x in cpus] == [1] * 4                 # 300, 600, 900, 1000 ms
    assert [x["t_ns"] for x in cpus] == [300 * MS, 600 * MS, 900 * MS, 1000 * MS]
    reads = [x["read_ns"] for x in cpus]
    assert reads == sorted(reads) and all(x["read_ns"] >= x["t_ns"] for x in cpus)
    counted = sum(x["interrupts"] for x in cpus)
    assert 0 < counted <= after - before
    assert counted >= 0.2 * (after - before), (counted, after - before)   # hgrun starts, stops
