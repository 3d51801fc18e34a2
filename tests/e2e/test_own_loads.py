# SPDX-License-Identifier: GPL-2.0-or-later
"""The scenario's own loads are never competition (docs/kernel-trace.md, "Competition"):
stress-ng's workers and a fork load's children are processes the load started, not other
processes on the scenario's CPUs, with the kernel trace (its segments, the gaps they
caused) and without it (/proc)."""
import pytest

from runhelp import missing_programs, run_scenario, scenario_text
from test_kernel_trace import can_trace

WHY_NOT = missing_programs({"stress-ng": "stress-ng"})
needs = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")

TEXT = scenario_text(
    "own", ["{name: hog, cpus: [0], priority: NORMAL, workload: {type: cpu}}"],
    extra="loads:\n"
          "  - {name: vm, type: stress_ng, stressor: vm, workers: 2, cpus: [0]}\n"
          "  - {name: forker, type: fork, cpus: [0]}\n")
OURS = ("stress-ng", "forker", "vm", "hgrun")


def _not_ours(comp):
    return [t for t in comp["top"] if t["name"].startswith(OURS)]


@needs
@pytest.mark.skipif(not can_trace(), reason="needs root and tracefs")
def test_a_traced_stress_ng_load_is_no_competition(hgrun, scenario, tmp_path):
    r = run_scenario(hgrun, scenario, tmp_path, TEXT, "--kernel-trace", duration="1s")
    assert r.rc == 0, r.err
    comp = r.result["competition"]
    assert comp["source"] == "kernel_trace"
    assert not _not_ours(comp), comp["top"]
    for w in r.result["warnings"]:
        assert not (w.startswith("competition") and ("stress-ng" in w or "forker" in w)), w
    # the gaps they caused are the load's
    top = r.thread("hog")["gap_causes"]["top"]
    workers = [t for t in top if t["name"].startswith("stress-ng-")]
    assert workers and all(t["cause"] == "load" for t in workers), top
    assert all(t["cause"] == "load" for t in top if t["name"] == "forker"), top
    assert r.thread("hog")["gap_causes"]["by_cause"]["load"]["ns"] > 0


@needs
def test_an_untraced_stress_ng_load_is_no_competition(hgrun, scenario, tmp_path):
    r = run_scenario(hgrun, scenario, tmp_path, TEXT, duration="1s")
    assert r.rc == 0, r.err
    comp = r.result["competition"]
    assert comp["source"] == "procfs"
    assert not _not_ours(comp), comp["top"]
