# SPDX-License-Identifier: GPL-2.0-or-later
"""Staggered load workers (docs/loads.md): worker i begins its work at the load's start +
i * stagger, on the run's timeline (--scale scales it too); a stagger that would start a
worker at or after the load's stop is refused naming the largest that fits."""
import json

import pytest

SCENARIO = """\
hgrun: 1
name: stag
duration: {duration}
threads:
  - name: w
    workload: {{type: latency, period: 10ms}}
loads:
  - {{name: spin, type: {type}, workers: 3, stagger: {stagger}, start: 100ms, priority: LOW{extra}}}
"""


def _run(hgrun, tmp_path, *extra_args, type="cpu", extra="", duration="1500ms",
         stagger="400ms"):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(type=type, extra=extra, duration=duration, stagger=stagger))
    r = hgrun("run", str(path), "-o", str(tmp_path / "run"), "--quiet", *extra_args, timeout=60)
    assert r.rc == 0, r.err
    res = json.loads((tmp_path / "run" / "result.json").read_text())
    return res["loads"][0]["processes"]


@pytest.mark.parametrize("type,extra", [("cpu", ""), ("procfs", "")])
def test_worker_i_begins_at_start_plus_i_stagger(hgrun, tmp_path, type, extra):
    procs = _run(hgrun, tmp_path, type=type, extra=extra)
    assert len(procs) == 3
    for i, p in enumerate(procs):
        want = 100_000_000 + i * 400_000_000
        # forked together at the start; working from its own offset (a busy 2-CPU VM may
        # wake a sleeper late, never early)
        assert abs(p["started_ns"] - 100_000_000) < 100_000_000, p
        assert want - 1_000_000 <= p["working_ns"] < want + 150_000_000, (i, p)
        assert p["ended_ns"] > p["working_ns"]


def test_scale_scales_the_stagger(hgrun, tmp_path):
    procs = _run(hgrun, tmp_path, "--scale", "0.5")
    for i, p in enumerate(procs):
        want = 50_000_000 + i * 200_000_000
        assert want - 1_000_000 <= p["working_ns"] < want + 150_000_000, (i, p)


def test_a_shorter_duration_says_which_workers_never_ran(hgrun, tmp_path):
    procs = _run(hgrun, tmp_path, "--duration", "700ms", "--cut", stagger="300ms")
    res = json.loads((tmp_path / "run" / "result.json").read_text())
    # start 100ms, stop 700ms: worker 2 would begin at 700ms
    assert "worker 2 starts after the stop (stagger 0.300 s): did not run" in \
        " ".join(res["loads"][0].get("warnings") or res.get("warnings") or [])
    assert procs[1]["working_ns"] is not None


def test_a_stagger_past_the_stop_is_refused(hgrun, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(type="cpu", extra="", duration="1s", stagger="500ms"))
    r = hgrun("validate", str(path))
    assert r.rc == 2
    assert ("loads[0].stagger: worker 2 would start at 1.1s, not before the load's stop 1s: "
            "give a stagger below 450ms") in r.err


def test_a_load_of_one_process_takes_no_stagger(hgrun, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("hgrun: 1\nname: s\nduration: 1s\nthreads:\n  - name: w\nloads:\n"
                    "  - {name: x, type: exec, command: 'sleep 1', stagger: 1s}\n")
    r = hgrun("validate", str(path))
    assert r.rc == 2 and "loads[0].stagger" in r.err
