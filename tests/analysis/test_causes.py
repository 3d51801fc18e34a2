# SPDX-License-Identifier: GPL-2.0-or-later
"""The cause report (docs/kernel-trace.md): the table of causes per thread from
result.json, the largest gaps with cause and culprit from trace.bin and kernel.jsonl, the
section's text with and without a kernel trace."""
import json

import numpy as np
import pytest

from hgreport.read import binfile
from hgreport.analyses.causes import CAUSES, KernelSegments, cause_rows, culprit, top_gaps
from hgreport.read.records import gaps, interval_records
from hgreport.read.rundir import read_run
from hgreport.report.section import Context
from hgreport.report.sections.causes import SECTION


def write_section(run):
    """The section as report.md has it (report/section.py's contract)."""
    return SECTION.markdown(Context(run, {}, None))

S = 1_000_000_000


def test_causes_per_thread_match_result_json(golden):
    run = read_run(golden("mix"))
    rows = cause_rows(run)
    for i, t in enumerate(run.threads):
        gc = t["gap_causes"]
        mine = [r for r in rows if r[0] == run.label(i)]
        assert [r[1] for r in mine] == sorted(gc["by_cause"], key=lambda c: -gc["by_cause"][c]["ns"])
        for r in mine:
            c = gc["by_cause"][r[1]]
            assert (r[3], r[4]) == (c["gaps"], c["dominant"])
            assert r[5] == f"{100 * c['ns'] / gc['gap_ns']:.1f}%"


def test_top_gaps_are_the_largest_of_trace_bin_with_their_codes(golden):
    run = read_run(golden("mix"))
    top = top_gaps(run)
    g = gaps(interval_records(run))
    assert len(top) == min(20, len(g))
    lengths = [r["length_ns"] for r in top]
    assert lengths == sorted(g.length.tolist(), reverse=True)[:len(top)]
    names = run.result["kernel_trace"]["causes"]
    for r in top:
        k = np.nonzero((g.start == r["start_ns"]) & (g.length == r["length_ns"]))[0][0]
        assert r["cause"] == names[int(g.cause[k])]
        assert r["cpu"] == int(g.cpu[k])
        assert r["culprit"]                       # kernel.jsonl is there: always something


def test_culprit_is_the_longest_other_context_during_the_gap(golden):
    run = read_run(golden("mix"))
    top = top_gaps(run, 5)
    segs = KernelSegments(run.path / "kernel.jsonl")
    try:
        lines = [json.loads(x) for x in (run.path / "kernel.jsonl").read_text().splitlines()]
        for r in top:
            lo, hi = r["start_ns"], r["start_ns"] + r["length_ns"]
            want = [x for x in lines if x["cpu"] == r["cpu"] and x["end_ns"] > lo
                    and x["start_ns"] < hi]
            got = segs.overlapping(r["cpu"], lo, hi)
            assert got == want                    # bisection finds exactly the overlapping ones
    finally:
        segs.close()


def test_culprit_rules():
    segs = [{"kind": "task", "id": 7, "name": "me", "start_ns": 0, "end_ns": 100},
            {"kind": "task", "id": 9, "name": "cc1", "start_ns": 100, "end_ns": 160},
            {"kind": "irq", "id": 41, "name": "irq 41 virtio3-rx", "start_ns": 160, "end_ns": 190},
            {"kind": "softirq", "id": 3, "name": "NET_RX", "start_ns": 190, "end_ns": 250},
            {"kind": "task", "id": 9, "name": "cc1", "start_ns": 250, "end_ns": 300}]
    # The thread itself (tid 7) never counts; cc1 has 60 + 50 us, NET_RX 60.
    assert culprit(segs, 0, 300, own_tid=7) == "cc1 (9) 110 ns"
    assert culprit(segs, 160, 250, own_tid=7) == "softirq NET_RX 60 ns"
    assert culprit(segs[:1], 0, 100, own_tid=7) == "–"


def test_bisection_at_the_edges(tmp_path):
    path = tmp_path / "k.jsonl"
    rows = [{"cpu": c, "start_ns": t, "end_ns": t + 10, "kind": "task", "id": t, "name": "x",
             "preempted": False} for c in (0, 1, 3) for t in range(-50, 200, 10)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    segs = KernelSegments(path)
    try:
        assert [s["start_ns"] for s in segs.overlapping(0, -100, -45)] == [-50]
        assert [s["start_ns"] for s in segs.overlapping(1, 15, 35)] == [10, 20, 30]
        assert segs.overlapping(2, 0, 100) == []
        assert [s["start_ns"] for s in segs.overlapping(3, 185, 10_000)] == [180, 190]
    finally:
        segs.close()
    (tmp_path / "empty.jsonl").write_text("")
    empty = KernelSegments(tmp_path / "empty.jsonl")
    assert empty.overlapping(0, 0, 10) == []
    empty.close()


def test_section_with_kernel_trace(golden):
    run = read_run(golden("mix"))
    md = write_section(run)
    assert md.startswith("## Why the gaps (kernel trace)")
    assert "### Causes per thread" in md and "### The 20 largest gaps" in md
    kt = run.result["kernel_trace"]
    assert f"{kt['attributed_ge_50us']} of {kt['gaps_ge_50us']} have a cause" in md
    for i, t in enumerate(run.threads):
        share = t["gap_causes"]["explained_share"]
        assert f"| {run.label(i)} | {t['gap_causes']['gaps']} |" in md
        assert f"{100 * share:.1f}%" in md


def test_section_without_kernel_trace_says_why(golden, copy_run):
    run = read_run(golden("miss"))
    md = write_section(run)
    assert md.startswith("## Why the gaps (kernel trace)")
    assert "Not attributed: " in md and "--kernel-trace" in md


def test_windows_gaps_keep_their_window_and_cause(golden):
    run = read_run(golden("windows"))
    rec = interval_records(run)
    g = gaps(rec)
    assert len(g) and (g.window > 0).all()               # outliers mode: only windows written
    assert set(np.unique(g.window)) <= {w["id"] for w in run.result["trace"]["outliers"]}
    assert (g.cause < len(CAUSES)).all() and (g.cause > 0).any()
    for r in top_gaps(run):
        assert r["window"] in {w["id"] for w in run.result["trace"]["outliers"]}


def test_report_has_the_section_and_the_timeline_legend_names_causes(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    assert "## Why the gaps (kernel trace)" in (r.out / "report.md").read_text()
    causes = [x for x in r.figures["timeline.png"]["legend"] if x.startswith("gap: ")]
    assert causes and all(x[5:] in CAUSES for x in causes)


@pytest.mark.parametrize("case", ["none", "killed"])
def test_runs_without_kernel_trace_or_trace_have_no_top_gaps_crash(golden, case):
    run = read_run(golden(case))
    md = write_section(run)
    assert "Why the gaps" in md and "largest gaps" not in md
    assert binfile.empty("intervals").dtype.names[-1] == "cause"
