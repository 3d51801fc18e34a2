# SPDX-License-Identifier: GPL-2.0-or-later
"""Shards and run order of a sweep (docs/cli.md, "Shards and run order"): every value of
every axis on every shard as evenly as the grid allows (whole replicates when repeat >= N),
a warning when that is impossible, and each replicate's points shuffled with a recorded seed."""
import json
from collections import Counter

import pytest

from runhelp import ROOT

SWEEP06 = ROOT / "experiments" / "06_sweep.yaml"


def grid(axes, repeat):
    lines = ["hgrun: 1", "name: g", "duration: 100ms", "threads:",
             "  - {name: rt, workload: {type: periodic, exec: 1ms, period: 10ms}}",
             "sweep:", "  grid:"]
    lines += [f"    {path}: [{', '.join(values)}]" for path, values in axes]
    return "\n".join(lines + [f"  repeat: {repeat}"]) + "\n"


def listed(hgrun, path, *args):
    r = hgrun("sweep", path, "--list", *args)
    assert r.rc == 0, r.err
    runs = []
    for line in r.out.splitlines():
        number, point, rep, *values = line.split()
        runs.append((int(number), point, rep, dict(v.split("=", 1) for v in values)))
    return runs, r.err


def shards(hgrun, path, n):
    return [listed(hgrun, path, "--shard", f"{k}/{n}") for k in range(n)]


def test_06_sweep_gives_each_shard_both_timers_and_all_execs(hgcli):
    all_runs, _ = listed(hgcli, SWEEP06)
    for runs, err in shards(hgcli, SWEEP06, 2):
        assert "warning" not in err
        assert {v["threads[rt].timer"] for *_, v in runs} == {"absolute", "sleep"}
        assert {v["threads[rt].workload.exec"] for *_, v in runs} == {"2ms", "5ms", "8ms", "9.5ms"}
        # repeat 3 >= 2 shards: whole replicates, every point on each shard.
        assert len({p for _, p, _, _ in runs}) == 8
        assert len({r for _, _, r, _ in runs}) in (1, 2)
    numbers = sorted(n for runs, _ in shards(hgcli, SWEEP06, 2) for n, *_ in runs)
    assert numbers == sorted(n for n, *_ in all_runs) == list(range(24))


E = ("threads[rt].workload.exec", ["1ms", "2ms", "3ms", "4ms", "5ms", "6ms", "7ms", "8ms", "9ms"])
T = ("threads[rt].timer", ["sleep", "absolute", "timerfd", "spin"])
P = ("threads[rt].priority", ["RTLOW", "RTMED"])


def cut(axis, n):
    return (axis[0], axis[1][:n])


@pytest.mark.parametrize("axes, repeat, n", [
    ([cut(E, 3), T], 1, 3),
    ([cut(E, 2), cut(T, 2), P], 1, 4),
    ([cut(E, 4), cut(T, 3)], 2, 3),
    ([cut(E, 6), T], 1, 4),
    ([E, cut(T, 3)], 2, 5),
])
def test_every_value_on_every_shard_as_evenly_as_the_grid_allows(hgcli, scenario, axes, repeat, n):
    path = scenario(grid(axes, repeat))
    parts = shards(hgcli, path, n)
    numbers = sorted(num for runs, _ in parts for num, *_ in runs)
    points = 1
    for _, values in axes:
        points *= len(values)
    assert numbers == list(range(points * repeat)), "every run on exactly one shard"
    sizes = [len(runs) for runs, _ in parts]
    assert max(sizes) - min(sizes) <= 1
    for axis, values in axes:
        for value in values:
            counts = [sum(v[axis] == value for *_, v in runs) for runs, _ in parts]
            assert min(counts) >= 1, (axis, value, counts)
            assert max(counts) - min(counts) <= 1, (axis, value, counts)
    assert all("warning" not in err for _, err in parts)


def test_a_grid_too_small_for_the_shards_is_warned(hgcli, scenario):
    path = scenario(grid([cut(E, 5)], 2))
    parts = shards(hgcli, path, 4)
    err = parts[0][1]
    assert "not every value runs on every shard" in err and "repeat 4 or more" in err
    assert "threads[rt].workload.exec=1ms runs on 2 of 4 shards (2 runs)" in err
    for value in E[1][:5]:
        counts = [sum(v[E[0]] == value for *_, v in runs) for runs, _ in parts]
        assert sorted(counts) == [0, 0, 1, 1], (value, counts)


def test_each_replicate_is_shuffled_with_a_recorded_seed(hgrun, scenario, tmp_path):
    path = scenario(grid([cut(E, 4), T], 2))
    runs, _ = listed(hgrun, path)
    assert [r for _, _, r, _ in runs] == ["r0"] * 16 + ["r1"] * 16, "replicate by replicate"
    for rep in ("r0", "r1"):
        assert sorted(p for _, p, r, _ in runs if r == rep) == [f"p{i:03d}" for i in range(16)]
    order0 = [p for _, p, r, _ in runs if r == "r0"]
    order1 = [p for _, p, r, _ in runs if r == "r1"]
    assert order0 != sorted(order0) and order0 != order1, "shuffled, each replicate its own way"
    again, _ = listed(hgrun, path)
    assert again == runs, "the default seed comes from the sweep: the same every time"
    grid_runs, _ = listed(hgrun, path, "--grid-order")
    assert [n for n, *_ in grid_runs] == list(range(32))
    seeded, _ = listed(hgrun, path, "--seed", "7")
    assert seeded != runs and seeded == listed(hgrun, path, "--seed", "7")[0]
    r = hgrun("sweep", path, "--list", "--seed", "7", "--grid-order")
    assert r.rc == 3 and "does not go with it" in r.err
    # sweep.json and each run record the order; the runs go as listed.
    out = tmp_path / "sw"
    small = scenario(grid([cut(E, 2), cut(T, 2)], 1), "small.yaml")
    r = hgrun("sweep", small, "-o", out, "--quiet", "--seed", "3", timeout=60)
    assert r.rc == 0, r.err
    index = json.loads((out / "sweep.json").read_text())
    assert index["order"]["within_replicate"] == "shuffled" and index["order"]["seed"] == 3
    order = [n for n, *_ in listed(hgrun, small, "--seed", "3")[0]]
    positions = {}
    for run in (out / p / "r0" for p in ("p000", "p001", "p002", "p003")):
        sp = json.loads((run / "result.json").read_text())["sweep_point"]
        positions[sp["run"]] = sp["position"]
    assert sorted(positions, key=positions.get) == order
    r = hgrun("sweep", small, "-o", out, "--quiet", "--resume", timeout=60)
    assert r.rc == 0 and "0 succeeded, 0 failed, 4 skipped" in r.out, r.out + r.err
