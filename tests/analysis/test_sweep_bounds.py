# SPDX-License-Identifier: GPL-2.0-or-later
"""hgreport's sweep inputs are bounded as hgrun bounds a sweep (docs/scenario.md, Limits;
read/sweepdir.py LIMITS): a sweep.json or a result.json past them is a one-line error (exit
2) at once, not minutes of work, and a sweep at the limits is drawn with a bounded number of
labels. Before, 3000 axis values took 20-40 s, 32 axes of 1000 values were killed at 60 s,
and 100,000 points naming two runs took minutes (each read again per point)."""
import json
import shutil
import time

import pytest


def _sweep(root, miss_run, edit, index=True):
    """Points p000 and p001 with one run each (copies of the golden `miss` run), their
    sweep.json edited by `edit(doc)`."""
    points = []
    for k, ident in enumerate(("p000", "p001")):
        d = root / ident / "r0"
        shutil.copytree(miss_run, d, ignore=shutil.ignore_patterns("report"))
        doc = json.loads((d / "result.json").read_text())
        doc["sweep_point"] = {"index": k, "id": ident, "overrides": {"a": str(k)}}
        (d / "result.json").write_text(json.dumps(doc))
        points.append({"index": k, "id": ident, "overrides": {"a": str(k)},
                       "runs": [f"{ident}/r0"]})
    doc = {"format": "hgrun-sweep/1", "scenario": {}, "repeat": 1, "runs": 2,
           "axes": [{"path": "a", "values": ["0", "1"]}], "points": points}
    edit(doc)
    if index:
        (root / "sweep.json").write_text(json.dumps(doc))
    return root


def _many_values(doc):
    doc["axes"][0]["values"] = [str(i) for i in range(1025)]


def _many_axes(doc):
    doc["axes"] = [{"path": f"a{i}", "values": [str(k) for k in range(30)]} for i in range(33)]


def _wide_grid(doc):
    doc["axes"] = [{"path": f"a{i}", "values": [str(k) for k in range(1000)]} for i in range(32)]


def _many_points(doc):
    doc["points"] += [{"index": i, "id": f"p{i:06d}", "overrides": {"a": "0"},
                       "runs": [f"p{i:06d}/r0"]} for i in range(2, 100_001)]


def _runs_named_twice(doc):
    doc["points"] = [{"index": i, "id": f"p{i:06d}", "overrides": {"a": str(i % 2)},
                      "runs": [f"p00{i % 2}/r0"]} for i in range(100_000)]


def _long_label(doc):
    doc["axes"][0]["values"][1] = "x" * 4097


def _many_repeats(doc):
    doc["points"][1]["runs"] += [f"p001/r{r}" for r in range(1, 1001)]


CASES = [
    (_many_values, "values: 1025 past hgrun's limit of 1024"),
    (_many_axes, "axes: 33 past hgrun's limit of 32"),
    (_wide_grid, "values: 2000 past hgrun's limit of 1024"),
    (_many_points, "points: 100001 past hgrun's limit of 100000"),
    (_runs_named_twice, "run 'p000/r0' is named twice (points[0] and points[2])"),
    (_long_label, "axes[0].values[1]: 4097 characters, past the limit of 4096"),
    (_many_repeats, "repeat: 1001 past hgrun's limit of 1000"),
]
IDS = ["values", "axes", "32x1000", "points", "runs-named-twice", "label", "repeats"]
# every command on the small cases; the two of 100,000 points (seconds to build) on one
PARAMS = [pytest.param(e, m, c, id=f"{c}-{i}") for (e, m), i in zip(CASES, IDS)
          for c in (["sweep"] if e in (_many_points, _runs_named_twice)
                    else ["sweep", "compare", "cache-penalty"])]


@pytest.mark.parametrize("edit,message,command", PARAMS)
def test_past_the_limits_is_a_one_line_error(miss_run, tmp_path, hgreport, edit, message,
                                             command):
    root = _sweep(tmp_path / "sw", miss_run, edit)
    start = time.monotonic()
    rc, out, err = hgreport(command, root, "-o", tmp_path / "out")
    assert rc == 2, (rc, err[-500:])
    assert err.count("\n") == 1 and message in err and "sweep.json" in err, err
    assert time.monotonic() - start < 30


def test_overrides_past_the_limits_in_result_json(miss_run, tmp_path, hgreport):
    """Without sweep.json, the points come from the runs' result.json: the same bounds (the
    result schema's maxProperties says it first)."""
    def many(doc):
        doc["points"][0]["overrides"] = {f"k{i}": "v" for i in range(33)}
    root = _sweep(tmp_path / "sw", miss_run, many, index=False)
    doc = json.loads((root / "p000" / "r0" / "result.json").read_text())
    doc["sweep_point"]["overrides"] = {f"k{i}": "v" for i in range(33)}
    (root / "p000" / "r0" / "result.json").write_text(json.dumps(doc))
    rc, _, err = hgreport("sweep", root, "-o", tmp_path / "out")
    assert rc == 2 and err.count("\n") == 1 and "sweep_point.overrides" in err, err


def test_an_axis_of_1024_values_draws_at_most_40_labels(miss_run, tmp_path, hgreport,
                                                        monkeypatch):
    """The largest axis hgrun writes: a label every 26 values (drawing one per value took
    seconds per hundred, and they ran together)."""
    from hgreport.tables import sweep as sweep_table
    root = _sweep(tmp_path / "sw", miss_run,
                  lambda doc: doc["axes"][0].update(values=[str(i) for i in range(1024)]))
    labels = []
    monkeypatch.setattr(sweep_table, "save", lambda fig, path: labels.extend(
        len([t for t in ax.get_xticklabels() if t.get_text()]) for ax in fig.axes) or path)
    rc, _, err = hgreport("sweep", root, "-o", tmp_path / "out")
    assert rc == 0, err
    assert labels and max(labels) <= 40, labels


def test_missing_runs_are_counted_past_twenty(miss_run, tmp_path, hgreport):
    def more(doc):
        doc["points"] += [{"index": i, "id": f"p{i:03d}", "overrides": {"a": "1"},
                           "runs": [f"p{i:03d}/r0"]} for i in range(2, 102)]
    root = _sweep(tmp_path / "sw", miss_run, more)
    rc, out, err = hgreport("sweep", root, "-o", tmp_path / "out")
    assert rc == 0, err
    assert "p021/r0: no result.json yet" in out and "p022/r0: no result.json" not in out
    assert "... and 80 more runs without a result.json (100 in all)" in out
