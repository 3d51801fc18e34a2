# SPDX-License-Identifier: GPL-2.0-or-later
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
        # two repeats: the value, no interval, and the method says why
        assert work["n"] == 2 and work["low"] is None and work["high"] is None
        assert "n < 3" in work["method"]
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
def test_aggregation_value_and_interval(miss_run, tmp_path, hgreport, index):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [10, 10, 10]}, index)
    rc, out, err = hgreport("sweep", root, "--metric", "deadlines_missed", "--metric",
                            "deadline_miss_ratio")
    assert rc == 0, err
    rows = list(csv.DictReader((root / "report" / "sweep.csv").open()))
    got = {(r["point"], r["subject"], r["metric"]): r for r in rows}
    a = got[("p000", "lo", "deadlines_missed")]
    assert int(a["n"]) == 3 and float(a["value"]) == 2 and a["values"] == "1;2;3"
    # the runs are the replicates: mean 2, sd 1, t(0.975, 2) = 4.303: 2 ± 2.484, not below 0
    assert float(a["ci95_low"]) == 0 and float(a["ci95_high"]) == pytest.approx(4.4841, abs=1e-4)
    assert "t interval" in a["method"]
    b = got[("p001", "lo", "deadline_miss_ratio")]
    # three runs of 10% each: the runs do not vary, the interval is the value (no Wilson
    # interval over releases treated as independent)
    assert float(b["value"]) == pytest.approx(0.1)
    assert float(b["ci95_low"]) == float(b["ci95_high"]) == pytest.approx(0.1)
    assert "threads[lo].workload.exec" in out and "10.00% [10.00%, 10.00%]" in out
    # 1-3 misses against 10: Welch's t = 8 / √(1/3), df 2, p = 0.0052
    assert ("`lo deadlines_missed`: lowest p000 2, highest p001 10: **significant** (p = 0.0052"
            in out)
    if not index:
        assert "no sweep.json" in out


def _errorbar_extents(monkeypatch, root, hgreport, *args):
    """Run hgreport sweep and collect every error bar's (low, high) and every plotted line's
    x-data from sweep.png's axes, per panel y label."""
    from hgreport.tables import sweep as sweep_table
    seen = {}

    def keep(fig, path):
        for ax in fig.axes:
            bars = []
            for c in ax.containers:
                for seg in c.lines[2][0].get_segments() if c.lines[2] else []:
                    bars.append((seg[0][1], seg[1][1]))
            seen[ax.get_ylabel()] = {"bars": bars, "lines": [ln for ln in ax.get_lines()
                                                            if len(ln.get_xdata()) > 1],
                                     "ylim": ax.get_ylim()}
        return path
    monkeypatch.setattr(sweep_table, "save", keep)
    rc, out, err = hgreport("sweep", root, *args)
    assert rc == 0, err
    return seen, out


def test_ratio_intervals_stay_inside_zero_and_hundred_percent(miss_run, tmp_path, hgreport,
                                                               monkeypatch):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [0, 0, 0], "p001": [100, 100, 100]})
    seen, out = _errorbar_extents(monkeypatch, root, hgreport, "--metric", "deadline_miss_ratio")
    bars = seen["lo deadline_miss_ratio (%)"]["bars"]
    assert len(bars) == 2, "one interval per point"
    for lo, hi in bars:
        assert 0 <= lo <= hi <= 100, bars
    assert min(lo for lo, _ in bars) == 0 and max(hi for _, hi in bars) == 100
    rows = list(csv.DictReader((root / "report" / "sweep.csv").open()))
    for r in rows:
        assert 0 <= float(r["ci95_low"]) <= float(r["value"]) <= float(r["ci95_high"]) <= 1


def test_one_repeat_draws_no_interval(miss_run, tmp_path, hgreport, monkeypatch):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1], "p001": [50]})
    seen, out = _errorbar_extents(monkeypatch, root, hgreport, "--metric", "deadline_miss_ratio",
                                  "--metric", "cpu_ns")
    assert all(not panel["bars"] for panel in seen.values()), seen
    rows = list(csv.DictReader((root / "report" / "sweep.csv").open()))
    assert rows and all(r["ci95_low"] == "" and "n < 3" in r["method"] for r in rows)
    assert "not enough runs to tell (1 vs 1 runs: a verdict needs 3 runs on each side)" in out


def test_categorical_axes_are_not_joined(miss_run, tmp_path, hgreport, monkeypatch):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    index = json.loads((root / "sweep.json").read_text())
    index["axes"][0] = {"path": "threads[lo].priority", "values": ["RTLOW", "RTHIGH"]}
    for p, v in zip(index["points"], ("RTLOW", "RTHIGH")):
        p["overrides"] = {"threads[lo].priority": v}
    (root / "sweep.json").write_text(json.dumps(index))
    seen, _ = _errorbar_extents(monkeypatch, root, hgreport, "--metric", "deadlines_missed")
    panel = seen["lo deadlines_missed"]
    assert len(panel["bars"]) == 2 and not panel["lines"], "categories: markers, no joining line"
    root2 = _constructed(tmp_path / "sw2", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    seen, _ = _errorbar_extents(monkeypatch, root2, hgreport, "--metric", "deadlines_missed")
    assert seen["lo deadlines_missed"]["lines"], "a numeric axis (exec) is joined by a line"


def test_missing_runs_of_a_shard_are_noted(miss_run, tmp_path, hgreport):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    shutil.rmtree(root / "p001" / "r2")
    rc, out, _ = hgreport("sweep", root)
    assert rc == 0 and "p001/r2: no result.json yet" in out


def _set_host(run_dir, name):
    doc = json.loads((run_dir / "result.json").read_text())
    doc["host"]["hostname"] = name
    (run_dir / "result.json").write_text(json.dumps(doc))


def test_points_from_different_machines_are_warned_and_can_be_split(miss_run, tmp_path,
                                                                     hgreport):
    # one shard per machine: p000 on alpha, p001 on beta (the confounding a modulo shard makes)
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    for r in range(3):
        _set_host(root / "p000" / f"r{r}", "alpha")
        _set_host(root / "p001" / f"r{r}", "beta")
    rc, out, err = hgreport("sweep", root, "--metric", "deadlines_missed")
    assert rc == 0, err
    assert "the points ran on different machines (p000: alpha; p001: beta)" in out
    # a point whose repeats mix machines
    _set_host(root / "p000" / "r2", "beta")
    rc, out, err = hgreport("sweep", root, "--metric", "deadlines_missed")
    assert "point p000 mixes runs of 2 machines or kernels: alpha (2), beta (1)" in out
    rc, out, err = hgreport("sweep", root, "--metric", "deadlines_missed", "--by-host")
    assert rc == 0, err
    rows = list(csv.DictReader((root / "report" / "sweep.csv").open()))
    got = {(r["point"], r["host"]): int(r["n"]) for r in rows if r["subject"] == "lo"}
    assert got == {("p000@alpha", "alpha"): 2, ("p000@beta", "beta"): 1, ("p001@beta", "beta"): 3}
    assert "mixes runs" not in out


def test_compare_warns_when_a_row_mixes_machines(miss_run, tmp_path, hgreport):
    root = _constructed(tmp_path / "sw", miss_run, {"p000": [1, 2, 3], "p001": [4, 5, 6]})
    _set_host(root / "p001" / "r0", "beta")
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp")
    assert "row 'host (mixed), exec=2ms' mixes runs of 2 machines or kernels" in out, out
    assert "the rows differ in host as well as in threads[lo].workload.exec" in out
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp2", "--by-host")
    assert "mixes runs" not in out
    assert "host beta" in out and "host vm" in out
