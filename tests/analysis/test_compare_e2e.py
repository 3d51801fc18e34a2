"""hgreport compare on real short runs of one scenario with and without a CPU load: the table,
the figures, the differences and the --fail-if verdicts; repeats grouped by --name; a sweep."""
import json

import pytest

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
def runs(make_run):
    return {"quiet": make_run(QUIET, "cmp_quiet"), "quiet2": make_run(QUIET, "cmp_quiet2"),
            "busy": make_run(BUSY, "cmp_busy"), "busy2": make_run(BUSY, "cmp_busy2")}


def test_compare_with_and_without_load(runs, hgreport, tmp_path):
    out = tmp_path / "cmp"
    rc, text, err = hgreport("compare", runs["quiet"], runs["busy"], "-o", out,
                             "--fail-if", "cpu_received[hog]<-20%", "--fail-if", "cpu[rt]<-50%")
    assert rc == 1, err
    assert "fail-if cpu_received[hog]<-20%: true for loads burn: hog:" in text
    assert "fail-if cpu[rt]<-50%" not in text
    assert "| **baseline** loads none | 1 | yes | none |" in text
    assert "## Thread `lat`" in text and "## Load `burn`" in text
    for f in ("compare.md", "compare.json", "latency_ccdf.png", "gaps.png", "switch_costs.png"):
        assert (out / f).stat().st_size > 1000, f
    doc = json.loads((out / "compare.json").read_text())
    assert doc["labels"] == ["loads none", "loads burn"] and doc["differing"] == ["loads"]
    lat = doc["subjects"]["lat"]["metrics"]["latency_p99"]
    d = lat["diff"]["loads burn"]
    assert d["method"].startswith("bootstrap") and d["low"] <= d["high"]
    assert d["delta"] == lat["values"]["loads burn"] - lat["values"]["loads none"]
    res = json.loads((runs["busy"] / "result.json").read_text())
    assert doc["subjects"]["rt"]["metrics"]["deadline_misses"]["values"]["loads burn"] == \
        res["threads"][1]["stats"]["deadlines_missed"]
    verdicts = {(v["condition"], v["subject"]): v["true"] for v in doc["fail_if"]}
    assert verdicts == {("cpu_received[hog]<-20%", "hog"): True, ("cpu[rt]<-50%", "rt"): False}
    # the same seed gives the same interval
    rc, _, _ = hgreport("compare", runs["quiet"], runs["busy"], "-o", tmp_path / "again")
    again = json.loads((tmp_path / "again" / "compare.json").read_text())
    assert again["subjects"]["lat"]["metrics"]["latency_p99"]["diff"] == lat["diff"]


def test_compare_two_runs_of_one_scenario(runs, hgreport, tmp_path):
    rc, text, err = hgreport("compare", runs["quiet"], runs["quiet2"], "-o", tmp_path)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["differing"] == [] and doc["labels"] == ["cmp_quiet0/run", "cmp_quiet20/run"]


def test_repeats_grouped_by_name_get_a_rank_test(runs, hgreport, tmp_path):
    rc, _, err = hgreport("compare", "--name", f"quiet={runs['quiet']}", "--name", f"quiet={runs['quiet2']}",
                          "--name", f"busy={runs['busy']}", "--name", f"busy={runs['busy2']}",
                          "-o", tmp_path)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["labels"] == ["quiet", "busy"] and [len(g["runs"]) for g in doc["groups"]] == [2, 2]
    cpu = doc["subjects"]["hog"]["metrics"]["cpu"]
    assert len(cpu["runs"]["busy"]) == 2
    assert cpu["values"]["busy"] == pytest.approx(sum(cpu["runs"]["busy"]) / 2)
    d = cpu["diff"]["busy"]
    assert d["method"] == "Mann-Whitney U (exact), 2 vs 2 runs" and d["p"] >= 1 / 3 - 1e-9


def test_sweep_points_are_rows(sweep_dir, hgreport, tmp_path):
    rc, _, err = hgreport("compare", sweep_dir, "-o", tmp_path)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert len(doc["groups"]) == 4 and all(len(g["runs"]) == 2 for g in doc["groups"])
    assert doc["labels"][0] == "threads[scan].count=1, threads[scan].workload.working_set=16KiB"


def test_errors(runs, hgreport, tmp_path):
    rc, _, err = hgreport("compare", runs["quiet"], runs["busy"], "--fail-if", "p99_latncy>+10%")
    assert rc == 3 and "did you mean 'p99_latency'" in err
    rc, _, err = hgreport("compare", runs["quiet"], tmp_path / "missing", "-o", tmp_path)
    assert rc == 2 and "missing: no such directory" in err
    rc, _, err = hgreport("compare", runs["quiet"], runs["busy"], "--fail-if", "gap_max[video]>0",
                          "-o", tmp_path)
    assert rc == 3 and "no thread named 'video'" in err
