# SPDX-License-Identifier: GPL-2.0-or-later
"""One statistical method (docs/statistics.md): one data set, two configurations with n = 1,
3 and 10 runs each, read by `sweep`, `compare` and the dispatch table: they give the same
verdict on the same figure, and one run a side is never "significant"."""
import json
import shutil

import numpy as np
import pytest

SIGNIFICANT, NOT_SIGNIFICANT, TOO_FEW = "significant", "not significant", "not enough runs to tell"
AXIS = "threads[lat].priority"


def _dataset(root, template, n, factor, seed):
    """A sweep directory of two points (lat at RTLOW and RTHIGH), n repeats each, the latency
    thread's p99 drawn log-normal (sd 0.15 of the log) around 100 us and around factor x that."""
    rng = np.random.default_rng(seed)
    points = []
    for k, (ident, prio, centre) in enumerate((("p000", "RTLOW", 100e3), ("p001", "RTHIGH", 100e3 * factor))):
        runs = []
        for r in range(n):
            d = root / ident / f"r{r}"
            shutil.copytree(template, d, ignore=shutil.ignore_patterns("report"))
            doc = json.loads((d / "result.json").read_text())
            doc["sweep_point"] = {"index": k, "id": ident, "overrides": {AXIS: prio}}
            doc["warnings"] = []
            for t in doc["threads"]:
                if t["name"] == "lat":
                    lat = t["stats"]["latency"]
                    lat["p99_ns"] = int(centre * np.exp(rng.normal(0, 0.15)))
                    lat["max_ns"] = max(lat["max_ns"], lat["p99_ns"])
            (d / "result.json").write_text(json.dumps(doc))
            runs.append(f"{ident}/r{r}")
        points.append({"index": k, "id": ident, "overrides": {AXIS: prio}, "runs": runs})
    (root / "sweep.json").write_text(json.dumps({
        "format": "hgrun-sweep/1", "scenario": {}, "repeat": n, "runs": 2 * n,
        "axes": [{"path": AXIS, "values": ["RTLOW", "RTHIGH"]}], "points": points}))
    return root, [root / p["id"] / r.split("/")[1] for p in points for r in p["runs"]]


def _verdicts(hgreport, root, runs, tmp_path):
    rc, _, err = hgreport("sweep", root, "--metric", "latency_p99_ns", "-o", tmp_path / "sw")
    assert rc == 0, err
    sweep = json.loads((tmp_path / "sw" / "summary.json").read_text())
    by_sweep = next(e["verdict"] for e in sweep["extremes"]
                    if (e["subject"], e["metric"]) == ("lat", "latency_p99_ns"))
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp", "--fail-if",
                            "latency_p99_ns[lat]>+20%", "--significant-only")
    doc = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    diff = doc["subjects"]["lat"]["metrics"]["latency_p99_ns"]["diff"][doc["labels"][1]]
    assert rc == {SIGNIFICANT: 5, NOT_SIGNIFICANT: 0, TOO_FEW: 6}[diff["verdict"]], out
    rc, out, err = hgreport("dispatch", *runs, "--json")
    assert rc == 0, err
    table = json.loads(out)["configurations"]
    by_table = next(c["verdict"] for c in table["comparisons"]
                    if (c["subject"], c["metric"]) == ("lat", "latency_p99_ns"))
    return by_sweep, diff["verdict"], by_table


@pytest.mark.parametrize("n, factor, want", [(1, 2.0, TOO_FEW), (3, 2.0, SIGNIFICANT),
                                             (10, 2.0, SIGNIFICANT), (10, 1.0, NOT_SIGNIFICANT)])
def test_sweep_compare_and_tables_agree(mix_run, tmp_path, hgreport, n, factor, want):
    root, runs = _dataset(tmp_path / "data", mix_run, n, factor, seed=5)
    got = _verdicts(hgreport, root, runs, tmp_path)
    assert got == (want, want, want), got


def test_one_run_a_side_is_never_significant(mix_run, tmp_path, hgreport):
    """However large the difference, two single runs cannot tell it: their wake-ups are not
    independent samples of the configurations."""
    root, runs = _dataset(tmp_path / "data", mix_run, 1, 50.0, seed=1)
    assert _verdicts(hgreport, root, runs, tmp_path) == (TOO_FEW, TOO_FEW, TOO_FEW)
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert "**significant**" not in md and "exit status 6" in md
