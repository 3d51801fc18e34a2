"""Sweeps: a real `hgrun sweep`, aggregation over constructed repeats, the cache penalty."""
import csv
import json
import math
import shutil

import pytest

from hgreport.tables.cache_penalty import penalty_ns, penalty_per_cpu_ns


def test_real_sweep(sweep_dir, hgreport):
    rc, out, err = hgreport("sweep", sweep_dir)
    assert rc == 0, err
    index = json.loads((sweep_dir / "sweep.json").read_text())
    rep = sweep_dir / "report"
    for name in ("sweep.md", "sweep.csv", "sweep.png", "summary.json"):
        assert (rep / name).exists()
    s = json.loads((rep / "summary.json").read_text())
    assert [p["id"] for p in s["points"]] == [p["id"] for p in index["points"]]
    assert all(p["runs"] == 2 for p in s["points"])
    for p in s["points"]:
        work = next(m for m in p["metrics"] if m["metric"] == "work_units")
        assert work["n"] == 2 and work["half_width"] is not None
    assert "| p000 | 1 | 16KiB | 2 |" in out


def test_cache_penalty_of_a_real_sweep(sweep_dir, hgreport):
    rc, out, err = hgreport("cache-penalty", sweep_dir)
    assert rc == 0, err
    rows = json.loads((sweep_dir / "report" / "cache_penalty.json").read_text())
    assert [r["working_set_bytes"] for r in rows] == [16384, 262144]
    for r in rows:
        assert len(r["penalty_ns"]) == 2 and all(n > 0 for n in r["n10"])
        assert len(r["penalty_cpu_ns"]) == 2 and r["mean_cpu_ns"] is not None
    assert (sweep_dir / "report" / "cache_penalty.png").exists()
    rc, out, _ = hgreport("cache-penalty", sweep_dir, "--one", "p000", "--many", "p002",
                          "-o", sweep_dir / "cp2")
    assert rc == 0 and "p000" in out
    rc, _, err = hgreport("cache-penalty", sweep_dir, "--one", "p000", "--many", "p999")
    assert rc == 2 and "no point 'p999'" in err


def test_penalty_formula():
    # a tenth of the work lost over 45 s in 4500 switches: 1 ms per switch
    assert penalty_ns(1000, 900, 45e9, 4500) == pytest.approx(1e6)
    with pytest.raises(ValueError):
        penalty_ns(0, 0, 1, 1)


def test_penalty_per_cpu_formula():
    # CPU owned for 45 s by both runs: the paper's C
    assert penalty_per_cpu_ns(1000, 45e9, 900, 45e9, 4500) == pytest.approx(1e6)
    # shared CPU: the ten threads got twice the CPU and did twice the work at 90% of the
    # rate: the per-run formula sees a gain, the per-CPU one the same 10% loss
    assert penalty_ns(1000, 1800, 45e9, 4500) < 0
    assert penalty_per_cpu_ns(1000, 20e9, 1800, 40e9, 4000) == pytest.approx(1e6)
    with pytest.raises(ValueError):
        penalty_per_cpu_ns(1000, 0, 900, 1, 1)


def _constructed(root, template, values, index=True):
    """Point p000 (exec=1ms) and p001 (exec=2ms), three repeats each; deadlines_missed of the
    `lo` thread set from `values`."""
    points = []
    for k, (ident, ex) in enumerate((("p000", "1ms"), ("p001", "2ms"))):
        runs = []
        for r, missed in enumerate(values[ident]):
            d = root / ident / f"r{r}"
            shutil.copytree(template, d, ignore=shutil.ignore_patterns("report"))
            doc = json.loads((d / "result.json").read_text())
            overrides = {"threads[lo].workload.exec": ex}
            doc["sweep_point"] = {"index": k, "id": ident, "overrides": overrides}
            for t in doc["threads"]:
                if t["name"] == "lo":
                    st = t["stats"]
                    st["deadlines_missed"], st["deadlines_hit"] = missed, 100 - missed
                    st["releases"] = 100
            (d / "result.json").write_text(json.dumps(doc))
            runs.append(f"{ident}/r{r}")
        points.append({"index": k, "id": ident, "overrides": overrides, "runs": runs})
    if index:
        (root / "sweep.json").write_text(json.dumps({
            "format": "hgrun-sweep/1", "scenario": {}, "repeat": 3, "runs": 6,
            "axes": [{"path": "threads[lo].workload.exec", "values": ["1ms", "2ms"]}],
            "points": points}))
    return root


@pytest.mark.parametrize("index", [True, False])
def test_aggregation_mean_and_ci(miss_run, tmp_path, hgreport, index):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [10, 10, 10]}, index)
    rc, out, err = hgreport("sweep", root, "--metric", "deadlines_missed", "--metric",
                            "deadline_miss_ratio")
    assert rc == 0, err
    rows = list(csv.DictReader((root / "report" / "sweep.csv").open()))
    got = {(r["point"], r["subject"], r["metric"]): r for r in rows}
    a = got[("p000", "lo", "deadlines_missed")]
    assert int(a["n"]) == 3 and float(a["mean"]) == 2
    hw = 4.302653 * 1 / math.sqrt(3)
    assert float(a["half_width"]) == pytest.approx(hw, rel=1e-5)
    assert float(a["ci95_low"]) == pytest.approx(2 - hw, rel=1e-5)
    assert a["values"] == "1;2;3"
    b = got[("p001", "lo", "deadline_miss_ratio")]
    assert float(b["mean"]) == pytest.approx(0.1) and float(b["half_width"]) == 0
    assert "threads[lo].workload.exec" in out and "2 ± 2" in out
    if not index:
        assert "no sweep.json" in out


def test_missing_runs_of_a_shard_are_noted(miss_run, tmp_path, hgreport):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    shutil.rmtree(root / "p001" / "r2")
    rc, out, _ = hgreport("sweep", root)
    assert rc == 0 and "p001/r2: no result.json yet" in out
