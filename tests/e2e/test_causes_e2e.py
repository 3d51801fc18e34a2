# SPDX-License-Identifier: GPL-2.0-or-later
"""The cause report on a fresh run recorded with `--kernel-trace` (docs/kernel-trace.md): the
report's tables agree with result.json and trace.bin, and the largest gaps name a culprit the
kernel saw. Skipped without root and tracefs, or when the kernel refuses the trace."""
import json
import os
import pathlib
import sys

import pytest

import hgbin

ROOT = pathlib.Path(__file__).resolve().parents[2]

SCENARIO = """\
hgrun: 1
name: causes
duration: 1500ms
threads:
  - {name: rt, cpus: [0], priority: RTHIGH, workload: {type: periodic, exec: 2ms, period: 10ms}}
  - {name: hog, cpus: [0], workload: {type: cpu}}
loads:
  - {name: burn, type: cpu, start: 500ms, stop: 1s, cpus: [0]}
"""

can_trace = os.geteuid() == 0 and pathlib.Path("/sys/kernel/tracing").is_dir()


@pytest.mark.skipif(not can_trace, reason="needs root and /sys/kernel/tracing")
def test_cause_report_of_a_traced_run(hgrun, scenario, tmp_path):
    run = tmp_path / "run"
    r = hgrun(scenario(SCENARIO), "-o", run, "--quiet", "--kernel-trace", timeout=60)
    assert r.rc in (0, 5), r.err
    res = json.loads((run / "result.json").read_text())
    kt = res["kernel_trace"]
    if not kt["enabled"]:
        pytest.skip(f"the kernel trace is off here: {kt['reason']}")
    # The report's cause section as report.md has it, and its timeline (the whole report of a
    # fresh run is test_hgreport_e2e.py's; the other figures and sections are not read here).
    sys.path.insert(0, str(ROOT / "analysis"))
    from hgreport.analyses.summary import summarize
    from hgreport.figures import timeline
    from hgreport.read.rundir import read_run
    from hgreport.report.section import Context
    from hgreport.report.sections import causes
    report = read_run(run)
    (run / "report").mkdir()
    timeline.plot_default(report, run / "report" / "timeline.png")
    md = causes.SECTION.markdown(Context(report, summarize(report), run / "report"))
    part = md.split("## Why the gaps (kernel trace)")[1]
    # The table of causes: one row per (thread, cause) of result.json, with its gap count.
    for t in res["threads"]:
        for name, c in t["gap_causes"]["by_cause"].items():
            assert f"| {t['os_name']} | {name} |" in part
    # The largest gaps: the hog's, behind rt (2 ms every 10 ms) or the load, with a culprit.
    top = part.split("largest gaps")[1].split("\n## ")[0].splitlines()
    rows = [x for x in top if x.startswith("| ") and not x.startswith("| at") and "---" not in x]
    assert 1 <= len(rows) <= 20
    rec = hgbin.read(run / "trace.bin")
    assert (rec["cause"] > 0).any(), "trace.bin carries the cause codes after the run"
    first = [c.strip() for c in rows[0].strip("|").split("|")]
    at, length, thread, cpu, cause, who = first
    assert thread == "hog" and cpu == "0"
    assert cause in kt["causes"]
    assert who != "–"
    if cause == "scenario_thread":
        assert who.startswith("rt (")
    if cause == "load":
        assert who.startswith("burn (")
    # The timeline is coloured by cause: its figure is drawn.
    assert (run / "report" / "timeline.png").stat().st_size > 0
