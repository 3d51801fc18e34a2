# SPDX-License-Identifier: GPL-2.0-or-later
"""compare: rows labelled by --name, else by what differs between them, else by directory."""
from pathlib import Path

import pytest

from hgreport.read.rungroups import Group, assign_labels, facts, gather
from hgreport.base.errors import InputError
from hgreport.read.rundir import Run


def _run(path, kernel="6.1.0", preempt="none", host="vm", name="rx", overrides=None, point=None,
         loads=("rx",)):
    return Run(Path(path), {
        "scenario": {"name": name, "duration_ns": 2_000_000_000,
                     "loads": [{"name": n} for n in loads]},
        "host": {"kernel_release": kernel, "preempt": preempt, "hostname": host},
        "overrides": overrides or {}, "sweep_point": point, "threads": []})


def _labels(*runs_per_group, names=None):
    groups = [Group(str(rs[0].path), list(rs)) for rs in runs_per_group]
    for g, n in zip(groups, names or [None] * len(groups)):
        g.name = n
    return assign_labels(groups), [g.label for g in groups]


def test_facts():
    f = facts(_run("a", overrides={"threads[rt].priority": "RTHIGH"},
                   point={"id": "p001", "index": 1, "overrides": {"threads[v].timer": "sleep"}}))
    assert f == {"scenario": "rx", "kernel": "6.1.0", "preempt": "none", "host": "vm",
                 "duration": "2.000 s", "loads": "rx", "--set threads[rt].priority": "RTHIGH",
                 "threads[v].timer": "sleep"}


def test_labels_from_kernel_and_preemption():
    diff, labels = _labels([_run("r/a")], [_run("r/b", kernel="6.12.0", preempt="full")])
    assert diff == ["kernel", "preempt"]
    assert labels == ["kernel 6.1.0, preempt none", "kernel 6.12.0, preempt full"]


def test_labels_from_overrides_scenario_loads_and_sweep_points():
    _, labels = _labels([_run("a")], [_run("b", overrides={"threads[rt].priority": "RTHIGH"})])
    assert labels == ["as in the scenario", "priority=RTHIGH"]
    _, labels = _labels([_run("a", overrides={"threads[a].priority": "RTLOW"})],
                        [_run("b", overrides={"threads[b].priority": "RTHIGH"})])
    assert labels == ["threads[a].priority=RTLOW", "threads[b].priority=RTHIGH"]   # not unique
    _, labels = _labels([_run("a", name="rx_deadline")], [_run("b", name="rx_sender")])
    assert labels == ["rx_deadline", "rx_sender"]
    _, labels = _labels([_run("a", loads=())], [_run("b")])
    assert labels == ["loads none", "loads rx"]
    p = [{"id": f"p00{i}", "index": i, "overrides": {"threads[v].workload.exec": e}}
         for i, e in enumerate(("12ms", "17ms"))]
    _, labels = _labels([_run("s/p000/r0", point=p[0]), _run("s/p000/r1", point=p[0])],
                        [_run("s/p001/r0", point=p[1])])
    assert labels == ["exec=12ms", "exec=17ms"]


def test_labels_of_identical_runs_are_their_directories():
    diff, labels = _labels([_run("results/rx/20260101T0000Z")], [_run("results/rx/20260102T0000Z")])
    assert diff == [] and labels == ["20260101T0000Z", "20260102T0000Z"]
    _, labels = _labels([_run("x/one/run")], [_run("y/one/run")])
    assert labels == ["x/one/run", "y/one/run"]


def test_names_win_and_repeats_disagreeing_read_mixed():
    _, labels = _labels([_run("a")], [_run("b", kernel="6.12")], names=["old", None])
    assert labels == ["old", "kernel 6.12"]
    diff, labels = _labels([_run("a"), _run("b", kernel="6.12")], [_run("c", kernel="6.12")])
    assert labels == ["kernel (mixed)", "kernel 6.12"]


def test_gather_refuses_unknown_dir(tmp_path):
    with pytest.raises(InputError, match="no result.json in or below it"):
        gather([tmp_path], [])
    with pytest.raises(InputError, match="no such directory"):
        gather([tmp_path / "nope"], [])
