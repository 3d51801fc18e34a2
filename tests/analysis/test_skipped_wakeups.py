# SPDX-License-Identifier: GPL-2.0-or-later
"""Every wake-up accounted for (docs/results.md, skipped wake-ups): a latency thread's skipped
slots (`grid_skipped`) shown in report.md, `dispatch`, the jitter table and the cyclictest
export, the shares taken over the slots with the skipped ones later than every threshold, or
over the released wake-ups when the scenario says `skipped_slots: ignored`; and in compare, a
disturbance of that thread's latency."""
import json

import pytest

SKIPPED = 100          # the golden mix run's lat thread released 234 wake-ups


def _skipping(mode=None):
    def edit(doc):
        doc["warnings"] = []
        for t in doc["threads"]:
            if t["name"] == "lat":
                t["stats"]["latency"]["grid_skipped"] = SKIPPED
        for s in doc["scenario"]["threads"]:
            if s["name"] == "lat":
                s["workload"]["align"] = "absolute"
                if mode:
                    s["workload"]["skipped_slots"] = mode
    return edit


def test_dispatch_counts_skipped_slots_as_late(mix_run, copy_run, hgreport):
    plain = mix_run
    late = copy_run(mix_run, _skipping(), "late")
    ignored = copy_run(mix_run, _skipping("ignored"), "ignored")
    rows = {}
    for name, run in (("plain", plain), ("late", late), ("ignored", ignored)):
        rc, out, err = hgreport("dispatch", run, "--json")
        assert rc == 0, err
        rows[name] = json.loads(out)["rows"][0]
    base, lt, ig = rows["plain"], rows["late"], rows["ignored"]
    assert base["samples"] == lt["samples"] == ig["samples"] == 234
    # late: every threshold counts the skipped slots, over released + skipped
    assert lt["skipped"] == SKIPPED and lt["over"] == 234 + SKIPPED
    for th, n in base["later_than"].items():
        assert lt["later_than"][th] == n + SKIPPED
        assert lt["share_later_than"][th] == pytest.approx((n + SKIPPED) / (234 + SKIPPED))
        # ignored: the released wake-ups only, as before, and said so
        assert ig["later_than"][th] == n and ig["over"] == 234
    assert not ig["skipped_counted_late"] and ig["skipped"] == SKIPPED
    rc, out, _ = hgreport("dispatch", late)
    assert "| late | lat | 234 | 100 | 334 |" in out.replace(str(late), "late")
    assert "100 slots skipped, counted as later than every threshold" in out


def test_report_and_cyclictest_show_them(mix_run, copy_run, hgreport, tmp_path):
    late = copy_run(mix_run, _skipping(), "late")
    rc, _, err = hgreport(late, "-o", tmp_path / "rep")
    assert rc == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    lat = next(t for t in summary["threads"] if t["label"] == "lat")["latency"]
    assert (lat["skipped"], lat["slots"], lat["skipped_counted_late"]) == (SKIPPED, 334, True)
    assert "100 of 334 wake-up slots skipped (29.9%): counted as later than every threshold" in md
    assert "| lat | 234 |" in md and "100 of 334 (29.9%) |" in md
    assert "the shares are over 334 slots" in md
    assert "100 slots were skipped" in md                       # the jitter table
    rc, out, err = hgreport("export", late, "--format", "cyclictest", "--buckets", "2000",
                            "-o", "-")
    assert rc == 0, err
    over = int(out.split("# Histogram Overflows:")[1].split()[0])
    was = int(hgreport("export", mix_run, "--format", "cyclictest", "--buckets", "2000", "-o",
                       "-")[1].split("# Histogram Overflows:")[1].split()[0])
    assert over == was + SKIPPED and "# 00100 skipped slots" in out


def test_compare_says_the_skipped_thread_is_disturbed(mix_run, copy_run, hgreport, tmp_path):
    base = copy_run(mix_run, lambda d: d.update(warnings=[]), "base")
    late = copy_run(mix_run, _skipping(), "late")
    rc, out, err = hgreport("compare", base, late, "-o", tmp_path / "c", "--fail-if",
                            "latency_p99_ns[lat]>+1%", "--fail-if", "cpu_ns[rt]<-1%")
    doc = json.loads((tmp_path / "c" / "compare.json").read_text())
    res = {(v["condition"], v["subject"]): v["result"] for v in doc["fail_if"]}
    # the latency of the thread that skipped cannot be gated on; the rest of the run can
    assert res == {("latency_p99_ns[lat]>+1%", "lat"): "inconclusive",
                   ("cpu_ns[rt]<-1%", "rt"): "false"}
    assert rc == 6 and "skipped wake-ups" in out
    assert "lat: 100 of 334 slots skipped (29.9%)" in out
