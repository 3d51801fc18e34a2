# SPDX-License-Identifier: GPL-2.0-or-later
"""cpu_scan's `pattern` (docs/cache.md): accepted, echoed, defaulted, refused
where it does not belong, and a random chase that runs and counts lines."""
import pytest

from runhelp import run_scenario, scenario_text


def resolved_workload(hgrun, scenario, workload):
    r = hgrun("validate", "--resolved", scenario(scenario_text("t", [
        f"{{name: s, workload: {workload}}}"])))
    assert r.rc == 0, r.err
    return r.json()["threads"][0]["workload"]


@pytest.mark.parametrize("wtype", ["cpu_scan", "cpu_scan_yield"])
def test_pattern_echoed_and_defaults_to_sequential(hgcli, scenario, wtype):
    extra = ", yield_after: 1ms" if wtype == "cpu_scan_yield" else ""
    w = resolved_workload(hgcli, scenario, f"{{type: {wtype}, working_set: 4KiB{extra}}}")
    assert w["pattern"] == "sequential"
    w = resolved_workload(hgcli, scenario,
                          f"{{type: {wtype}, working_set: 4KiB, pattern: RANDOM{extra}}}")
    assert w["pattern"] == "random"


def test_pattern_from_defaults(hgcli, scenario):
    text = scenario_text("t", ["{name: s, workload: {type: cpu_scan, working_set: 4KiB}}",
                               "{name: p, workload: {type: cpu}}"],
                         extra="defaults: {workload: {pattern: random}}")
    r = hgcli("validate", "--resolved", scenario(text))
    assert r.rc == 0, r.err
    s, p = r.json()["threads"]
    assert s["workload"]["pattern"] == "random"
    assert "pattern" not in p["workload"]    # a default that does not apply is not echoed


def test_unknown_pattern_is_refused_with_a_suggestion(hgcli, scenario):
    path = scenario(scenario_text("t", [
        "{name: s, workload: {type: cpu_scan, working_set: 4KiB, pattern: randon}}"]))
    r = hgcli("validate", path)
    assert r.rc == 2
    assert "threads[0].workload.pattern" in r.err
    assert "unknown pattern 'randon'; did you mean 'random'?" in r.err


def test_pattern_on_another_workload_is_refused(hgcli, scenario):
    path = scenario(scenario_text("t", ["{name: s, workload: {type: cpu, pattern: random}}"]))
    r = hgcli("validate", path)
    assert r.rc == 2
    assert "workload 'cpu' takes no parameters, not 'pattern'" in r.err


def test_random_chase_runs_and_counts_lines(hgrun, scenario, tmp_path):
    # 1 MiB = 16384 lines: a second of chasing laps it many times over
    r = run_scenario(hgrun, scenario, tmp_path, scenario_text("t", [
        "{name: s, workload: {type: cpu_scan, working_set: 1MiB, pattern: random}}"]))
    assert r.rc == 0, r.err
    r.validate()
    s = r.stats("s")
    assert s["work_units"] > 16384
    assert r.result["scenario"]["threads"][0]["workload"]["pattern"] == "random"
