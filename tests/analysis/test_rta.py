# SPDX-License-Identifier: GPL-2.0-or-later
"""Response-time analysis: the paper's section 5.5 numbers, and tasks from a real run."""
import json

import pytest

from hgreport.analyses.rta import Task, analyse, response_time, with_overrides

MS = 1_000_000
AUDIO = Task("audio", 3 * MS, 8 * MS, 50)
VIDEO = Task("video", 17 * MS, 33 * MS, 1)


def test_paper_task_set_is_feasible():
    r = {v.task.name: v for v in analyse([VIDEO, AUDIO])}
    assert r["audio"].response_ns == 3 * MS and r["audio"].schedulable
    assert r["video"].response_ns == 29 * MS and r["video"].schedulable
    assert r["video"].interferers == ("audio",)


def test_paper_jitter_and_busy_wait_make_it_infeasible():
    tasks = with_overrides([AUDIO, VIDEO], jitter={"video": 8 * MS}, blocking={},
                           execs={"video": 19 * MS})
    r = {v.task.name: v for v in analyse(tasks)}
    assert r["video"].response_ns == 39 * MS and not r["video"].schedulable
    assert r["audio"].response_ns == 3 * MS


def test_reduced_exec_is_feasible_and_blocking_adds():
    assert response_time(Task("v", 12 * MS, 33 * MS, 1), [AUDIO]) <= 33 * MS
    assert response_time(Task("a", 3 * MS, 8 * MS, 50, blocking_ns=2 * MS), []) == 5 * MS


def test_higher_priority_jitter_and_overload():
    # hp jitter makes interference burstier: w = 1 + ceil((w + 4)/5)*2 -> 5
    assert response_time(Task("x", 1, 100, 1), [Task("h", 2, 5, 9, jitter_ns=4)]) == 5
    assert response_time(Task("x", 1, 10, 1), [Task("h", 5, 5, 9)]) is None


def test_tasks_on_other_cpus_do_not_interfere():
    a = Task("a", 3 * MS, 8 * MS, 50, cpus=frozenset({0}))
    b = Task("b", 6 * MS, 8 * MS, 1, cpus=frozenset({1}))
    r = {v.task.name: v.response_ns for v in analyse([a, b], uniprocessor=False)}
    assert r["b"] == 6 * MS
    r = {v.task.name: v.response_ns for v in analyse([a, b], uniprocessor=True)}
    assert r["b"] == 12 * MS


def test_unknown_override_names_the_thread():
    with pytest.raises(KeyError):
        with_overrides([AUDIO], {"nosuch": 1}, {}, {})


def test_rta_of_a_run_shows_measured_misses(miss_run, hgreport):
    rc, out, err = hgreport("rta", miss_run, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    result = json.loads((miss_run / "result.json").read_text())
    stats = {t["name"]: t["stats"] for t in result["threads"]}
    tasks = {t["task"]: t for t in doc["tasks"]}
    assert tasks["hi"]["response_ns"] == 3 * MS and tasks["hi"]["schedulable"]
    # lo: w = 3 + ceil(w/4)*3 -> 3+3=6, 3+6=9, 3+9=12, 3+9=12 -> 12 ms > 8 ms
    assert tasks["lo"]["response_ns"] == 12 * MS and not tasks["lo"]["schedulable"]
    for name in ("hi", "lo"):
        assert tasks[name]["measured"]["missed"] == stats[name]["deadlines_missed"]
        assert tasks[name]["measured"]["releases"] == stats[name]["releases"]
    assert stats["lo"]["deadlines_missed"] > 0
    rc, out, _ = hgreport("rta", miss_run, "--jitter", "lo=1ms", "--blocking", "hi=1ms")
    assert rc == 0 and "| lo |" in out and "1.000 ms" in out


def test_rta_of_a_resolved_scenario(tmp_path, hgreport):
    doc = {"hgrun": 1, "name": "rm", "duration_ns": 10**10, "threads": [
        {"name": n, "instance": 0, "os_name": n, "cpus": [0], "reservation": None,
         "priority": {"policy": "fifo", "priority": p},
         "workload": {"type": "periodic", "exec": {"kind": "fixed", "values_ns": [c]},
                      "period_ns": t}}
        for n, p, c, t in (("audio", 50, 3 * MS, 8 * MS), ("video", 1, 17 * MS, 33 * MS))]}
    path = tmp_path / "rm.json"
    path.write_text(json.dumps(doc))
    rc, out, _ = hgreport("rta", path, "--json", "--jitter", "video=8ms", "--exec", "video=19ms")
    assert rc == 0
    assert {t["task"]: t["response_ns"] for t in json.loads(out)["tasks"]} == {
        "audio": 3 * MS, "video": 39 * MS}
    rc, _, err = hgreport("rta", path, "--jitter", "radio=1ms")
    assert rc == 2 and "radio" in err
