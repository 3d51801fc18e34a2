# SPDX-License-Identifier: GPL-2.0-or-later
"""A plan cut by --duration --cut (docs/cli.md): what does not run is a
warning in result.json, not only a note on stderr, and an expectation on a
thread that never ran fails as "nothing measured" instead of passing."""
import json

from runhelp import scenario_text


def test_cut_threads_and_loads_are_warned_and_judge_nothing(hgrun, scenario, tmp_path):
    extra = ("loads:\n  - {name: c, type: cpu, workers: 1, start: 1500ms}\n"
             "expect:\n  - {thread: late, metric: deadlines_missed, max: 0}\n"
             "  - {thread: be, metric: intervals, min: 1}\n")
    path = scenario(scenario_text("cut", [
        "{name: be, workload: {type: cpu}}",
        "{name: late, start: 1s, workload: {type: periodic, exec: 1ms, period: 10ms}}"],
        duration="2s", extra=extra))
    out = tmp_path / "out"
    r = hgrun("run", path, "-o", out, "--duration", "200ms", "--cut", timeout=60)
    result = json.loads((out / "result.json").read_text())
    warnings = result["warnings"]
    assert any(w.startswith("late does not run: its start 1s is at or after the run's end 200ms")
               for w in warnings), warnings
    assert any(w.startswith("load c does not run: its start 1.5s") for w in warnings), warnings
    late, be = result["expectations"]
    assert late["pass"] is False and late["value"] is None, late
    assert be["pass"] is True
    assert r.rc != 0
    assert "late: deadlines_missed = nothing measured" in r.err, r.err
