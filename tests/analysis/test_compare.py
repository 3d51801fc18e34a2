# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport compare on the golden runs: a sweep's points as rows of repeats, a run against a
copy of itself (labels from the kernel, zero differences, intervals around 0), errors."""
import json


def test_sweep_points_are_rows(sweep_dir, hgreport, tmp_path):
    rc, _, err = hgreport("compare", sweep_dir, "-o", tmp_path)
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    sweep = json.loads((sweep_dir / "sweep.json").read_text())
    assert len(doc["groups"]) == len(sweep["points"])
    assert [len(g["runs"]) for g in doc["groups"]] == [len(p["runs"]) for p in sweep["points"]]
    first = sweep["points"][0]["overrides"]
    assert doc["labels"][0] == ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in first.items())
    d = next(iter(doc["subjects"].values()))["metrics"]["cpu_ns"]["diff"][doc["labels"][1]]
    # two repeats a point: no verdict (base/stats.py needs three runs a side)
    assert d["verdict"] == "not enough runs to tell" and d["significant"] is None
    assert d["n"] == [2, 2] and "needs 3 runs" in d["method"]


def test_a_run_against_itself(mix_run, copy_run, hgreport, tmp_path):
    other = copy_run(mix_run, lambda d: d["host"].update(kernel_release="9.9.9"), "other")
    kernel = json.loads((mix_run / "result.json").read_text())["host"]["kernel_release"]
    rc, out, err = hgreport("compare", mix_run, other, "-o", tmp_path, "--fail-if", "latency_p99_ns>+0%",
                            "--fail-if", "deadlines_missed>+0")
    # the golden run saw competition (its warnings): no gate over it passes or fails
    assert rc == 6, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["labels"] == [f"kernel {kernel}", "kernel 9.9.9"] and doc["differing"] == ["kernel"]
    for s in doc["subjects"].values():
        for key, m in s["metrics"].items():
            for d in m["diff"].values():
                assert d["delta"] == 0, key
                assert d["verdict"] == "not enough runs to tell", key
    assert all(not v["true"] for v in doc["fail_if"]) and len(doc["fail_if"]) >= 2
    assert {v["result"] for v in doc["fail_if"]} == {"inconclusive"} and doc["exit_status"] == 6
    assert "| **baseline** kernel" in out and "0 of" in out and "exit status 6" in out
    # the within-run spread of one run's percentiles, labelled as such
    assert "not a test between rows" in out
    lat = doc["subjects"]["lat"]["metrics"]["latency_p99_ns"]["within_run"]
    assert set(lat) == set(doc["labels"]) and lat[doc["labels"][0]][0] <= lat[doc["labels"][0]][1]
    assert {"latency_ccdf.png", "gaps.png"} <= set(doc["figures"])


def test_names_and_errors(mix_run, miss_run, hgreport, tmp_path):
    rc, _, err = hgreport("compare", "--name", f"a={mix_run}", "--name", f"b={miss_run}", "-o", tmp_path)
    assert rc == 0, err
    assert json.loads((tmp_path / "compare.json").read_text())["labels"] == ["a", "b"]
    rc, _, err = hgreport("compare", mix_run, miss_run, "--fail-if", "latncy_p99_ns>+10%")
    assert rc == 3 and "did you mean 'latency_p99_ns'" in err
    rc, _, err = hgreport("compare", mix_run, tmp_path / "missing", "-o", tmp_path)
    assert rc == 2 and "missing: no such directory" in err
    rc, _, err = hgreport("compare", mix_run, miss_run, "--fail-if", "gap_max_ns[video]>0", "-o", tmp_path)
    assert rc == 3 and "no thread named 'video'" in err
    rc, _, err = hgreport("compare", mix_run, "--name", "oops", "-o", tmp_path)
    assert rc == 3 and "want NAME=RUN" in err
    rc, _, err = hgreport("compare", "-o", tmp_path)
    assert rc == 3 and "no runs" in err


def _quiet(d):
    d["warnings"] = []


def test_a_true_fail_if_is_a_finding_exit_5(mix_run, copy_run, hgreport, tmp_path):
    """A --fail-if that holds exits 5, hgrun's code for a failed expectation, not 1 (a
    broken run) nor 2 (bad input); compare.md and stdout say the status the process ends
    with."""
    def slower(d):
        _quiet(d)
        for t in d["threads"]:
            t["stats"]["cpu_ns"] //= 2
    base = copy_run(mix_run, _quiet, "base")
    other = copy_run(mix_run, slower, "other")
    rc, out, err = hgreport("compare", base, other, "-o", tmp_path, "--fail-if", "cpu_ns<-20%")
    assert rc == 5, err
    assert "fail-if cpu_ns<-20%: true for" in out
    assert "exit status 5" in out and "exit status 5" in (tmp_path / "compare.md").read_text()
    rc, out, err = hgreport("compare", base, other, "-o", tmp_path, "--fail-if", "cpu_ns<-60%")
    assert rc == 0, err
    assert "exit status 0" in (tmp_path / "compare.md").read_text()


def test_a_disturbed_baseline_makes_the_gate_inconclusive(mix_run, copy_run, hgreport, tmp_path):
    """The baseline's result says other processes took 45% of its CPUs: a gate that would
    trip ends inconclusive (exit 6), and compare.md shows the warning and the true status."""
    noise = ("competition: other processes took 45.0% of the scenario's CPUs (0) during the run, "
             "more than 5%: stress (pid 4242) 0.270 s")

    def noisy(d):
        d["warnings"] = [noise]

    def slower(d):
        _quiet(d)
        for t in d["threads"]:
            t["stats"]["cpu_ns"] //= 2
    base = copy_run(mix_run, noisy, "base")
    other = copy_run(mix_run, slower, "other")
    rc, out, err = hgreport("compare", base, other, "-o", tmp_path, "--fail-if", "cpu_ns<-20%")
    assert rc == 6, err
    md = (tmp_path / "compare.md").read_text()
    assert noise in md and "exit status 6" in md and "exit status 1" not in md
    assert "fail-if cpu_ns<-20%: inconclusive for" in out and "competition in the baseline" in out
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["exit_status"] == 6
    assert [d["kind"] for d in doc["disturbances"][doc["labels"][0]]] == ["competition"]
