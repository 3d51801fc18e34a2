# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs that this machine cannot give refuse to start, with a message, and
leave nothing behind."""
from runhelp import run_scenario, scenario_text


def test_a_run_that_would_exhaust_memory_refuses_to_start(hgrun, scenario, tmp_path):
    text = scenario_text("huge", ["{name: a, count: 1024, workload: {type: cpu}}"],
                         extra="trace: {records: 100000000}")
    r = run_scenario(hgrun, scenario, tmp_path, text, timeout=20)
    assert r.rc == 1
    assert "error: this run needs" in r.err and "lower trace.records" in r.err
    assert "1024 threads x 100000000 records" in r.err
    assert not r.dir.exists(), "nothing ran: no result directory"
