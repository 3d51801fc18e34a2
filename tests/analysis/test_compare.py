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
    assert d["method"].startswith("Mann-Whitney U")


def test_a_run_against_itself(mix_run, copy_run, hgreport, tmp_path):
    other = copy_run(mix_run, lambda d: d["host"].update(kernel_release="9.9.9"), "other")
    kernel = json.loads((mix_run / "result.json").read_text())["host"]["kernel_release"]
    rc, out, err = hgreport("compare", mix_run, other, "-o", tmp_path, "--fail-if", "latency_p99_ns>+0%",
                            "--fail-if", "deadlines_missed>+0")
    assert rc == 0, err
    doc = json.loads((tmp_path / "compare.json").read_text())
    assert doc["labels"] == [f"kernel {kernel}", "kernel 9.9.9"] and doc["differing"] == ["kernel"]
    for s in doc["subjects"].values():
        for key, m in s["metrics"].items():
            for d in m["diff"].values():
                assert d["delta"] == 0, key
                if d["low"] is not None:
                    assert d["low"] <= 0 <= d["high"] and d["significant"] is False
    assert all(not v["true"] for v in doc["fail_if"]) and len(doc["fail_if"]) >= 2
    assert "| **baseline** kernel" in out and "0 of" in out
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


def test_a_true_fail_if_is_a_finding_exit_5(mix_run, copy_run, hgreport, tmp_path):
    """A --fail-if that holds exits 5, hgrun's code for a failed expectation, not 1 (a
    broken run) nor 2 (bad input)."""
    def slower(d):
        for t in d["threads"]:
            t["stats"]["cpu_ns"] //= 2
    other = copy_run(mix_run, slower, "other")
    rc, out, err = hgreport("compare", mix_run, other, "-o", tmp_path, "--fail-if", "cpu_ns<-20%")
    assert rc == 5, err
    assert "fail-if cpu_ns<-20%: true for" in out
    rc, out, err = hgreport("compare", mix_run, other, "-o", tmp_path, "--fail-if", "cpu_ns<-60%")
    assert rc == 0, err
