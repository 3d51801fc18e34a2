# SPDX-License-Identifier: GPL-2.0-or-later
"""Inter-activation times (Abeni et al., figure 2): summary.json's numbers equal those computed
here straight from the binary files, and report.md shows their density next to the 1 - CDF."""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "e2e"))
import hgbin  # noqa: E402


def _report(rendered, case):
    r = rendered(case)
    assert r.rc == 0, r.stderr
    return r.run, json.loads((r.out / "summary.json").read_text()), \
        (r.out / "report.md").read_text()


def test_latency_and_periodic_threads_get_their_inter_activation_times(rendered):
    run, s, page = _report(rendered, "mix")
    res = json.loads((run / "result.json").read_text())
    scen = {(t["name"], t["instance"]): t for t in res["scenario"]["threads"]}
    rows = {r["thread"]: r for r in s["inter_activation"]}
    wk, iv = hgbin.read(run / "latency.bin"), hgbin.read(run / "trace.bin")
    kinds = set()
    for i, t in enumerate(res["threads"]):
        w = scen[(t["name"], t["instance"])]["workload"]
        if w["type"] not in ("latency", "periodic"):
            assert i not in rows
            continue
        kinds.add(w["type"])
        if w["type"] == "latency":
            mine = np.sort(wk[wk["thread"] == i], order="seq")
            g = np.diff(mine["actual_ns"].astype(np.int64))[np.diff(mine["seq"].astype(np.int64)) == 1]
        else:
            mine = np.sort(iv[iv["thread"] == i], order="start_ns", kind="stable")
            after = np.flatnonzero(mine["end"][:-1] == 2) + 1       # after an interval that blocked
            g = np.diff(mine["start_ns"][after].astype(np.int64))
        r = rows[i]
        assert r["period_ns"] == w["period_ns"] and r["count"] == len(g) > 10
        d = g - w["period_ns"]
        assert r["min_ns"] == d.min() and r["max_ns"] == d.max()
        assert abs(r["mean_ns"] - d.mean()) < 1e-6 * max(1, abs(d.mean()))
    assert kinds == {"latency", "periodic"}
    # the density figure follows the latency section's table, as the experiment's header says
    assert page.index("## Dispatch latency") < page.index("## Inter-activation times") \
        < page.index("![interactivation.png](interactivation.png)")
    assert (run / "report" / "interactivation.png").stat().st_size > 1000


def test_a_partial_trace_pairs_no_activations_that_had_others_between(rendered):
    run, s, _ = _report(rendered, "outliers")
    res = json.loads((run / "result.json").read_text())
    wk = hgbin.read(run / "latency.bin")
    assert [r["label"] for r in s["inter_activation"]] == ["lat"]
    for r in s["inter_activation"]:
        mine = wk[wk["thread"] == r["thread"]]
        consecutive = int((np.diff(np.sort(mine["seq"].astype(np.int64))) == 1).sum())
        assert r["count"] == consecutive
        assert 0 < r["count"] < len(mine)       # some stored wake-ups are not consecutive
