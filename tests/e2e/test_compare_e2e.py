# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport compare on fresh short runs of the real runner, one scenario with and without a CPU
load: the table, the figures, the differences and the --fail-if verdicts (inconclusive over a
run another process disturbed); repeats grouped by --name are compared run against run.
(tests/analysis/test_compare.py covers the rest on golden runs.)"""
import json
import math
import subprocess
import sys

import pytest

from runhelp import ROOT

sys.path.insert(0, str(ROOT / "analysis"))
from hgreport.cli import main  # noqa: E402
from hgreport.compare import plots as compare_plots  # noqa: E402

QUIET = """\
hgrun: 1
name: lat
duration: 600ms
threads:
  - name: lat
    cpus: [0]
    priority: RTHIGH
    workload: {type: latency, period: 1ms}
  - name: rt
    cpus: [0]
    priority: RTMED
    workload: {type: periodic, exec: 1ms, period: 5ms}
  - name: hog
    cpus: [0]
    priority: NORMAL
    workload: {type: cpu}
"""
BUSY = QUIET + """\
loads:
  - {name: burn, type: cpu, cpus: [0]}
"""


@pytest.fixture(scope="module")
def runs(hgrun_bin, tmp_path_factory):
    base = tmp_path_factory.mktemp("cmp")
    out = {}
    for name, text in (("quiet", QUIET), ("quiet2", QUIET), ("busy", BUSY), ("busy2", BUSY)):
        (base / f"{name}.yaml").write_text(text)
        proc = subprocess.run([str(hgrun_bin), base / f"{name}.yaml", "-o", base / name, "--quiet"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        out[name] = base / name
    return out


@pytest.fixture
def hgreport(capsys, monkeypatch):
    """hgreport(*args, figures=True) -> (exit code, stdout, stderr), in-process. figures=False
    draws no figure (compare/plots.py's write_all writes none and names none), for a test
    that reads only the tables and compare.json: the figures are most of a compare's time."""
    def run(*args, figures=True):
        with monkeypatch.context() as m:
            if not figures:
                m.setattr(compare_plots, "write_all", lambda table, out, *more: [])
            rc = main([str(a) for a in args])
        got = capsys.readouterr()
        return rc, got.out, got.err
    return run


def test_compare_with_and_without_load(runs, hgreport, tmp_path):
    out = tmp_path / "cmp"
    rc, text, err = hgreport("compare", runs["quiet"], runs["busy"], "-o", out,
                             "--fail-if", "cpu_ns[hog]<-20%", "--fail-if", "cpu_ns[rt]<-50%")
    # The verdicts follow the runs' own numbers (the load usually halves hog's CPU, but a
    # machine busy with other work can starve the quiet run too): derive what they must be.
    def cpu(run, name):
        doc = json.loads((run / "result.json").read_text())
        return next(t["stats"]["cpu_ns"] for t in doc["threads"] if t["name"] == name)
    hog_down = cpu(runs["busy"], "hog") / cpu(runs["quiet"], "hog") - 1 < -0.20
    rt_down = cpu(runs["busy"], "rt") / cpu(runs["quiet"], "rt") - 1 < -0.50
    doc = json.loads((out / "compare.json").read_text())
    # a check over a disturbed run (other processes on CPU 0: a shared machine) is inconclusive
    disturbed = any(doc["disturbances"].values())
    want = {("cpu_ns[hog]<-20%", "hog"): hog_down, ("cpu_ns[rt]<-50%", "rt"): rt_down}
    results = {(v["condition"], v["subject"]): v["result"] for v in doc["fail_if"]}
    assert results == {k: ("inconclusive" if disturbed else "true" if t else "false")
                       for k, t in want.items()}
    assert rc == (6 if disturbed else 5 if hog_down or rt_down else 0), err
    assert doc["exit_status"] == rc and f"exit status {rc} " in text
    assert ("fail-if cpu_ns[hog]<-20%: true for loads burn: hog:" in text) == (hog_down and not disturbed)
    assert "| **baseline** loads none | 1 | yes |" in text
    assert "## Thread `lat`" in text and "## Load `burn`" in text
    for f in ("compare.md", "compare.json", "latency_ccdf.png", "gaps.png", "switch_costs.png"):
        assert (out / f).stat().st_size > 1000, f
    assert doc["labels"] == ["loads none", "loads burn"] and doc["differing"] == ["loads"]
    lat = doc["subjects"]["lat"]["metrics"]["latency_p99_ns"]
    d = lat["diff"]["loads burn"]
    # one run a side: no verdict, whatever the wake-ups say; each run's own spread instead
    assert d["verdict"] == "not enough runs to tell" and d["significant"] is None
    assert d["delta"] == lat["values"]["loads burn"] - lat["values"]["loads none"]
    low, high = lat["within_run"]["loads burn"]
    assert low <= lat["values"]["loads burn"] <= high
    res = json.loads((runs["busy"] / "result.json").read_text())
    assert lat["values"]["loads burn"] == res["threads"][0]["stats"]["latency"]["p99_ns"]
    assert doc["subjects"]["rt"]["metrics"]["deadlines_missed"]["values"]["loads burn"] == \
        res["threads"][1]["stats"]["deadlines_missed"]
    # the same seed gives the same within-run interval
    rc, _, _ = hgreport("compare", runs["quiet"], runs["busy"], "-o", tmp_path / "again",
                        figures=False)
    again = json.loads((tmp_path / "again" / "compare.json").read_text())
    assert again["subjects"]["lat"]["metrics"]["latency_p99_ns"]["within_run"] == lat["within_run"]


def test_compare_two_runs_of_one_scenario(runs, hgreport, tmp_path):
    rc, text, err = hgreport("compare", runs["quiet"], runs["quiet2"], "-o", tmp_path,
                             figures=False)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["differing"] == [] and doc["labels"] == ["quiet", "quiet2"]


def test_repeats_grouped_by_name_are_compared_run_against_run(runs, hgreport, tmp_path):
    rc, _, err = hgreport("compare", "--name", f"quiet={runs['quiet']}", "--name", f"quiet={runs['quiet2']}",
                          "--name", f"busy={runs['busy']}", "--name", f"busy={runs['busy2']}",
                          "-o", tmp_path, figures=False)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["labels"] == ["quiet", "busy"] and [len(g["runs"]) for g in doc["groups"]] == [2, 2]
    cpu = doc["subjects"]["hog"]["metrics"]["cpu_ns"]
    assert len(cpu["runs"]["busy"]) == 2
    # a duration over runs: their geometric mean; two runs a side: too few for a verdict
    assert cpu["values"]["busy"] == pytest.approx(math.sqrt(math.prod(cpu["runs"]["busy"])))
    d = cpu["diff"]["busy"]
    assert d["verdict"] == "not enough runs to tell" and d["n"] == [2, 2] and d["p"] is None
