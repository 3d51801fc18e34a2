# SPDX-License-Identifier: GPL-2.0-or-later
"""The "Over time" section and `hgreport series` on real runs: a complete one, an `outliers`-mode
one with windows, and one killed with SIGKILL part-way (the report reads what was measured up to
the last checkpoint: docs/results.md)."""
import json

import numpy as np
import pytest

from hgreport.report.sections.over_time import section
from hgreport.figures.outliers import largest as windows
from hgreport.read.rundir import read_run

@pytest.fixture(scope="module")
def outliers_run(golden_session):
    return golden_session("windows")


@pytest.fixture(scope="module")
def killed_run(golden_session):
    """Killed with SIGKILL after its first checkpoint (tests/analysis/make_golden.sh)."""
    return golden_session("killed")



def test_report_of_a_complete_run_has_the_section(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    md = (r.out / "report.md").read_text()
    assert "## Over time" in md and "![series.png](series.png)" in md
    assert (r.out / "series.png").read_bytes()[:4] == b"\x89PNG"
    assert "incomplete" not in md.split("## Over time")[1].split("##")[0]


def test_series_command(mix_run, hgreport, tmp_path):
    rc, out, err = hgreport("series", mix_run, "-o", tmp_path)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("mix: 600 ms in ")
    assert "bins of" not in lines[0] or "bins of 100 ms" in lines[0]
    assert any(x.startswith("rt: ") and "deadlines missed" in x for x in lines)
    assert any(x.startswith("lat: ") and "latency max" in x for x in lines)
    assert (tmp_path / "series.md").read_text().startswith("# mix: over time")


def test_series_command_without_series_says_so(mix_run, copy_run, hgreport, tmp_path):
    dst = copy_run(mix_run, lambda d: d["files"].pop("series"))
    rc, out, err = hgreport("series", dst, "-o", tmp_path)
    assert rc == 2
    assert "result.json: the run has no series.jsonl" in err


def test_outlier_windows_are_tabled_and_drawn(outliers_run, tmp_path):
    run = read_run(outliers_run)
    ws = windows(run)
    assert len(ws) >= 3, "every 200 ms rt delays lat's wake-up by ~2 ms: a window each"
    md, summary = section(run, tmp_path)
    part = md.split("### Outlier windows")[1]
    assert f"{len(ws)} windows" in part
    rows = [x for x in part.splitlines() if x.startswith("| #")]
    assert len(rows) == min(len(ws), 20)
    biggest = max(ws, key=lambda w: w["value_ns"])
    assert rows[0].startswith(f"| #{biggest['id']} |")
    assert (tmp_path / "outliers.png").stat().st_size > 0
    assert summary[-1] == f"outlier windows: {len(ws)}"


def test_killed_run_reads_up_to_its_checkpoint(killed_run, rendered, tmp_path):
    doc = json.loads((killed_run / "result.json").read_text())
    assert doc["complete"] is False and doc["checkpoint"]["covers_ns"] >= 1_000_000_000
    r = rendered("killed")
    assert r.rc == 0, r.stderr
    md = (r.out / "report.md").read_text()
    over = md.split("## Over time")[1]
    assert "**The run is incomplete** (its last checkpoint covers" in over
    assert "of the 6 s asked" in over
    run = read_run(killed_run)
    md2, summary = section(run, tmp_path / "again")
    assert "(run incomplete)" in summary[0]


def test_killed_run_with_a_torn_line(killed_run, copy_run, hgreport, tmp_path):
    dst = copy_run(killed_run, name="torn")
    with (dst / "series.jsonl").open("a") as f:
        f.write('{"t_ns":9000000000,"span_ns":500000000,"thread":0,"cpu_')
    rc, out, err = hgreport("series", dst, "-o", tmp_path)
    assert rc == 0, err
    assert "1 torn line(s) at the end of the file" in (tmp_path / "series.md").read_text()


def test_series_json_holds_the_bins_of_the_figure(mix_run, tmp_path):
    run = read_run(mix_run)
    section(run, tmp_path)
    doc = json.loads((tmp_path / "series.json").read_text())
    assert doc["complete"] is True and doc["bins"] == len(doc["threads"][0]["cpu_share"])
    by = {t["thread"]: t for t in doc["threads"]}
    res = {run.label(i): t["stats"] for i, t in enumerate(run.threads)}
    assert sum(x or 0 for x in by["rt"]["misses"]) == res["rt"]["deadlines_missed"]
    assert max(x or 0 for x in by["lat"]["lat_max_ns"]) == res["lat"]["latency"]["max_ns"]
    assert "misses" not in by["hog.0"] and "lat_max_ns" not in by["rt"]
    assert doc["loads"][0]["load"] == "burn"


def _bins(run, bin_ns=None):
    from hgreport.analyses.series_bins import covered_ns
    from hgreport.read.series import read_series
    from hgreport.analyses.series_bins import aggregate
    s = read_series(run)
    return aggregate(s, len(run.threads), bin_ns=bin_ns, covered_ns=covered_ns(run, s))


@pytest.mark.parametrize("bin_ns", [None, 200_000_000, 300_000_000])
def test_per_bin_p99_is_the_nearest_rank_of_the_bins_wakeups(mix_run, bin_ns):
    """Bins of one and of several series intervals: each bin's p99 is that of the wake-ups
    latency.bin holds in it, counted by brute force here."""
    import math

    from hgreport.analyses.series_bins import sample_p99
    run = read_run(mix_run)
    b = _bins(run, bin_ns)
    got = sample_p99(run, b)
    assert got is not None
    w = run.samples
    for i in range(len(run.threads)):
        for k in range(b.n):
            sel = (w.thread == i) & (np.clip(w.actual // b.bin_ns, 0, b.n - 1) == k)
            late = sorted(max(int(x), 0) for x in w.late[sel])
            want = late[math.ceil(0.99 * len(late)) - 1] if late else -1
            assert got[i, k] == want, (i, k, late)
    assert (got >= 0).sum() == (b.wakeups > 0).sum() > 0


def test_per_bin_p99_only_when_latency_bin_holds_every_wakeup(mix_run, copy_run, golden_session):
    from hgreport.analyses.series_bins import sample_p99
    outl = read_run(golden_session("outliers"))          # trace mode outliers: not every one
    assert sample_p99(outl, _bins(outl)) is None
    run = read_run(mix_run)
    b = _bins(run)
    assert sample_p99(run, b, max_samples=len(run.samples) - 1) is None
    from dataclasses import replace
    more = b.wakeups.copy()
    more[more > 0] += 1                                  # the series counted more than stored
    assert sample_p99(run, replace(b, wakeups=more)) is None
    dropped = b.dropped.copy()
    dropped[0, 0] = 1                                    # a ring dropped: in neither file
    assert sample_p99(run, replace(b, dropped=dropped)) is None
    moved = b.wakeups.copy()                             # the series put wake-ups that reached
    i = int(np.flatnonzero(moved.sum(axis=1))[0])        # the writer late in later intervals:
    k = int(np.flatnonzero(moved[i])[0])                 # still every one is stored
    moved[i, k + 1] += moved[i, k]
    moved[i, k] = 0
    assert sample_p99(run, replace(b, wakeups=moved)) is not None


def test_series_json_and_report_say_which_p99(mix_run, outliers_run, tmp_path):
    text, _ = section(read_run(mix_run), tmp_path / "full")
    rows = json.loads((tmp_path / "full" / "series.json").read_text())["threads"]
    lat = next(r for r in rows if r["thread"] == "lat")
    assert "lat_p99_ns" in lat and "lat_p99_max_ns" in lat
    assert "; p99 per bin: median" in text
    text, _ = section(read_run(outliers_run), tmp_path / "windows")
    rows = json.loads((tmp_path / "windows" / "series.json").read_text())["threads"]
    assert not any("lat_p99_ns" in r for r in rows)
    assert "worst interval p99 per bin: median" in text
