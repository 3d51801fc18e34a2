# SPDX-License-Identifier: GPL-2.0-or-later
"""The command line: exit codes, messages, validate, --resolved, list."""
import json
import os
import re

import pytest

VALID = """\
hgrun: 1
name: demo
duration: 2s
threads:
  - name: rt
    priority: RTHIGH
    workload: {type: periodic, exec: 4ms, period: 5ms}
"""

ERROR_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<path>[^:]+): (?P<msg>.+)$")


def test_version(hgcli):
    r = hgcli("--version")
    assert r.rc == 0
    assert re.match(r"hgrun \d+\.\d+\.\d+", r.out)


def test_help_lists_commands_and_exit_codes(hgcli):
    r = hgcli("--help")
    assert r.rc == 0
    for word in ("validate", "list", "calibrate", "--duration", "--strict", "exit codes"):
        assert word in r.out


@pytest.mark.parametrize("args", [[], ["--bogus"], ["validate"], ["run"], ["run", "a.yaml", "b.yaml"],
                                  ["list", "a", "b"], ["list", "frobs"], ["sweep-merge", "out"],
                                  ["sweep", "s.yaml", "--resume"], ["run", "s.yaml", "--force"],
                                  ["run", "s.yaml", "--set", "novalue"], ["version", "x"],
                                  ["calibrate", "x"], ["run", "x.yaml", "--duration", "5"],
                                  ["validate", "--strict", "x.yaml"], ["run", "-o"]])
def test_bad_command_lines_exit_3(hgrun, args):
    r = hgrun(*args)
    assert r.rc == 3, r.err
    assert r.err.strip(), "a usage error says what is wrong"
    assert r.out == ""


def test_validate_ok(hgcli, scenario):
    path = scenario(VALID)
    r = hgcli("validate", path)
    assert r.rc == 0, r.err
    assert "ok" in r.out and "1 thread" in r.out


def test_validate_missing_file_exits_2(hgcli, tmp_path):
    r = hgcli("validate", tmp_path / "nope.yaml")
    assert r.rc == 2
    assert "nope.yaml: error: cannot open" in r.err


def test_error_format_names_file_line_column_and_key(hgcli, scenario):
    path = scenario(VALID.replace("exec: 4ms", "exec: 4"))
    r = hgcli("validate", path)
    assert r.rc == 2
    m = ERROR_LINE.match(r.err.splitlines()[0])
    assert m, r.err
    assert m["file"] == str(path)
    assert (int(m["line"]), int(m["col"])) == (7, 38)
    assert m["path"] == "threads[0].workload.exec"
    assert "needs a unit" in m["msg"]


def test_all_errors_reported_in_file_order(hgcli, scenario):
    text = VALID.replace("duration: 2s", "duration: 2").replace("RTHIGH", "RTHIHG") + "bogus: 1\n"
    r = hgcli("validate", scenario(text))
    assert r.rc == 2
    lines = [ERROR_LINE.match(l) for l in r.err.splitlines()]
    assert all(lines), r.err
    # shape errors (unknown key) stop before values are parsed: one error then
    assert [m["path"] for m in lines] == ["bogus"]
    r = hgcli("validate", scenario(text.replace("bogus: 1\n", "")))
    lines = [ERROR_LINE.match(l) for l in r.err.splitlines()]
    assert [m["path"] for m in lines] == ["duration", "threads[0].priority"]


def test_validate_several_files_reports_each(hgcli, scenario):
    good = scenario(VALID, "good.yaml")
    bad = scenario(VALID.replace("period: 5ms", "period: 3ms"), "bad.yaml")
    r = hgcli("validate", good, bad)
    assert r.rc == 2
    assert f"{good}: ok" in r.out
    assert f"{bad}:7:" in r.err and "exec 4ms is longer than the period 3ms" in r.err


def test_resolved_fills_defaults_and_units(hgcli, scenario):
    r = hgcli("validate", "--resolved", scenario(VALID))
    assert r.rc == 0, r.err
    s = r.json()
    assert s["hgrun"] == 1 and s["name"] == "demo" and s["duration_ns"] == 2_000_000_000
    assert s["trace"] == {"records": 65536, "gap_auto": True, "gap_ns": None, "mode": "full",
                          "series_ns": 1_000_000_000, "outlier_gap_ns": 500_000,
                          "outlier_latency_ns": 500_000, "before_ns": 5_000_000,
                          "after_ns": 5_000_000, "budget_bytes": None, "kernel": False,
                          "late_wakeup_ns": 50_000}
    assert s["lock_memory"] is True
    (t,) = s["threads"]
    assert t["os_name"] == "rt" and t["instance"] == 0
    assert t["priority"] == {"level": "RTHIGH", "policy": "fifo", "priority": 98, "nice": 0}
    assert t["timer"] == "absolute" and t["start_ns"] == 0 and t["finish_ns"] == 2_000_000_000
    assert t["workload"] == {"type": "periodic", "period_ns": 5_000_000,
                             "exec": {"kind": "fixed", "values_ns": [4_000_000]}}
    assert t["reservation"] is None and t["cpus"] is None


def test_resolved_applies_defaults_and_expands_sets(hgcli, scenario):
    text = """\
hgrun: 1
name: sets
duration: 1s
defaults:
  priority: {policy: other, nice: 5}
  workload: {type: cpu_yield, yield_after: 0.9ms}
threads:
  - name: hog
    count: 3
  - name: pin
    count: per_cpu
    priority: rtlow
  - name: one
    workload: {type: latency, period: 1ms}
"""
    r = hgcli("validate", "--resolved", scenario(text))
    assert r.rc == 0, r.err
    threads = r.json()["threads"]
    hogs = [t for t in threads if t["name"] == "hog"]
    assert [t["os_name"] for t in hogs] == ["hog.0", "hog.1", "hog.2"]
    assert all(t["priority"]["nice"] == 5 and t["workload"]["yield_after_ns"] == 900_000 for t in hogs)
    pins = [t for t in threads if t["name"] == "pin"]
    assert len(pins) == len(os.sched_getaffinity(0))
    assert [t["pinned_cpu"] for t in pins] == sorted(os.sched_getaffinity(0))
    assert all(t["priority"]["level"] == "RTLOW" for t in pins)
    (one,) = [t for t in threads if t["name"] == "one"]
    # a workload type of the thread's own replaces the default type; the
    # default yield_after does not belong to latency and is not applied
    assert one["workload"] == {"type": "latency", "period_ns": 1_000_000, "align": "relative",
                               "skipped_slots": "late"}


def test_resolved_reservation_and_distributions(hgcli, scenario):
    text = """\
hgrun: 1
name: res
duration: 1s
threads:
  - name: a
    reservation: {budget: 3.1ms, period: 8ms, mode: SOFT}
    workload: {type: periodic, exec: [1ms, 2ms, 3ms], period: 8ms}
  - name: b
    timer: TimerFD
    workload:
      type: periodic
      period: 33ms
      exec: {dist: normal, mean: 12ms, stddev: 2ms, max: 17ms, seed: 7}
"""
    r = hgcli("validate", "--resolved", scenario(text))
    assert r.rc == 0, r.err
    a, b = r.json()["threads"]
    assert a["reservation"] == {"budget_ns": 3_100_000, "period_ns": 8_000_000,
                                "deadline_ns": 8_000_000, "mode": "soft"}
    assert a["priority"]["policy"] == "deadline"
    assert a["workload"]["exec"] == {"kind": "list", "values_ns": [1_000_000, 2_000_000, 3_000_000]}
    assert b["timer"] == "timerfd"
    assert b["workload"]["exec"] == {"kind": "normal", "mean_ns": 12_000_000, "stddev_ns": 2_000_000,
                                     "min_ns": 0, "max_ns": 17_000_000, "seed": 7}


def test_list_text_and_json_agree(hgcli):
    text = hgcli("list")
    assert text.rc == 0
    data = json.loads(hgcli("list", "--json").out)
    for section in ("workloads", "timers", "priorities", "loads", "metrics"):
        assert data[section], section
        for item in data[section]:
            assert item["name"] in text.out
    assert {w["name"] for w in data["workloads"]} == {
        "cpu", "cpu_scan", "cpu_yield", "cpu_scan_yield", "periodic", "cpu_periodic", "latency"}
    assert {t["name"] for t in data["timers"]} == {"sleep", "absolute", "timerfd", "signal", "spin"}
    assert [p["name"] for p in data["priorities"]] == [
        "IDLE", "LOW", "NORMAL", "HIGH", "HIGHEST", "RTLOW", "RTMED", "RTHIGH"]
    one = json.loads(hgcli("list", "timers", "--json").out)
    assert one == data["timers"]


def test_command_typo_is_named(hgrun):
    r = hgrun("valdate", "x.yaml")
    assert r.rc == 3
    assert "unknown command 'valdate'; did you mean 'validate'?" in r.err
