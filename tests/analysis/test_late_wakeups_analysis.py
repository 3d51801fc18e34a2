# SPDX-License-Identifier: GPL-2.0-or-later
"""Late wake-ups in the report and the Perfetto export (docs/kernel-trace.md, "Late wake-ups"):
a copy of the mix run given late_wakeups.jsonl and threads[].wakeup_causes as hgrun writes
them; the report's section lists the threads' counts, components, largest parts and worst
wake-ups, draws the tail; the Perfetto export has a slice per late wake-up with its components
as args; a line that is not a late wake-up is refused naming the file and the line."""
import json

import pytest

from perfetto_reader import read
from hgreport.base.errors import InputError
from hgreport.perfetto import trace as perfetto
from hgreport.read.rundir import read_run

LINES = [
    {"thread": 3, "seq": 7, "intended_ns": 8_000_000, "actual_ns": 11_200_000,
     "late_ns": 3_200_000, "attributed": True, "summed": True, "explained": True, "cpu": 1,
     "at_ns": {"programmed": 0, "expired": 21_000, "woken": 21_500, "switched": 3_197_000},
     "components": {"timer_delay": 20_000, "timer_irq": 4_000, "task": 3_163_000,
                    "sched": 10_000},
     "residual_ns": 3_000,
     "parts": [{"component": "task", "name": "hog.0", "ns": 3_163_000,
                "cause": "scenario_thread", "pid": 18439},
               {"component": "timer_delay", "name": "hog.0", "ns": 20_000,
                "cause": "scenario_thread", "pid": 18439}]},
    {"thread": 3, "seq": 9, "intended_ns": 12_000_000, "actual_ns": 12_090_000,
     "late_ns": 90_000, "attributed": True, "summed": True, "explained": False, "cpu": 1,
     "at_ns": {"programmed": 0, "woken": 60_000, "switched": 86_000},
     "components": {"timer_delay": 20_000, "invisible": 38_000, "timer_irq": 20_000,
                    "sched": 8_000},
     "residual_ns": 4_000,
     "parts": [{"component": "invisible", "name": "idle", "ns": 38_000, "cause": "idle",
                "pid": 0}]},
    {"thread": 3, "seq": 12, "intended_ns": 13_000_000, "actual_ns": 13_060_000,
     "late_ns": 60_000, "attributed": False},
]
CAUSES = {"available": True, "reason": None, "threshold_ns": 50_000, "tolerance_ns": 10_000,
          "late": 3, "attributed": 2, "summed": 2, "explained": 1, "awake": 0,
          "late_ns": 3_350_000, "residual_ns": 7_000,
          "by_component": {"timer_delay": {"ns": 40_000, "wakeups": 2, "dominant": 0},
                           "timer_irq": {"ns": 24_000, "wakeups": 2, "dominant": 0},
                           "task": {"ns": 3_163_000, "wakeups": 1, "dominant": 1},
                           "sched": {"ns": 18_000, "wakeups": 2, "dominant": 0},
                           "invisible": {"ns": 38_000, "wakeups": 1, "dominant": 1}},
          "top": [{"component": "task", "name": "hog.0", "ns": 3_163_000, "wakeups": 1,
                   "dominant": 1, "cause": "scenario_thread", "pid": 18439}]}


@pytest.fixture
def late_run(golden):
    run = golden("mix")
    doc = json.loads((run / "result.json").read_text())
    doc["files"]["late_wakeups"] = "late_wakeups.jsonl"
    doc["threads"][3]["wakeup_causes"] = CAUSES
    (run / "result.json").write_text(json.dumps(doc))
    (run / "late_wakeups.jsonl").write_text("".join(json.dumps(x) + "\n" for x in LINES))
    return run


def test_the_report_explains_the_late_wake_ups(late_run, hgreport):
    rc, _, err = hgreport(str(late_run))
    assert rc == 0, err
    md = (late_run / "report" / "report.md").read_text()
    part = md.split("## Why the wake-ups were late (kernel trace)")[1].split("\n## ")[0]
    assert "| lat | 3 | 2 | 66.7% | 33.3% | 3.350 ms |" in part
    assert "| lat | task | 3.163 ms | 1 | 1 |" in part
    assert "| task | hog.0 (scenario_thread) | 3.163 ms | 1 | 1 |" in part
    worst = part.split("worst wake-ups")[1]
    rows = [r for r in worst.splitlines() if r.startswith("| ") and "---" not in r][1:]
    assert len(rows) == 2, rows            # the unattributed one has no breakdown
    assert "| lat | 3.200 ms | 1 | 21.5 us | 3.197 ms | task hog.0 3.163 ms" in rows[0]
    assert "invisible idle 38.0 us" in rows[1]
    assert (late_run / "report" / "late_wakeups.png").stat().st_size > 0
    assert "![late_wakeups.png](late_wakeups.png)" in part


def test_no_section_without_the_trace(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    assert "Why the wake-ups were late" not in (r.out / "report.md").read_text()


def test_perfetto_slices_of_late_wake_ups(late_run, tmp_path):
    path = perfetto.write(read_run(late_run), tmp_path / "t.perfetto-trace")
    tr = read(path)
    res = json.loads((late_run / "result.json").read_text())
    zero = res["tsc"]["start_monotonic_ns"]
    (thread,) = [t for t in tr.tracks.values() if t.name == "lat"]
    (late,) = tr.named("late wake-ups", thread)
    got = [(ts - zero, dur, name, args) for ts, dur, name, _, args in late.slices]
    assert [(a, d, n) for a, d, n, _ in got] == [(8_000_000, 3_200_000, "late: task"),
                                                 (12_000_000, 90_000, "late: invisible")]
    args = got[0][3]
    assert args["task_ns"] == 3_163_000 and args["residual_ns"] == 3_000
    assert args["at_switched_ns"] == 3_197_000 and args["seq"] == 7
    assert args["parts"].startswith("task hog.0 3.163 ms")


def test_a_bad_line_is_named(late_run, hgreport):
    with (late_run / "late_wakeups.jsonl").open("a") as f:
        f.write('{"thread": 3, "seq": 1}\n')
    rc, _, err = hgreport(str(late_run))
    assert rc == 2
    assert "late_wakeups.jsonl: line 4: not a late wake-up" in err and "missing" in err


def test_table1_splits_the_late_wake_ups_per_load_window(late_run, hgreport):
    """Abeni's per-load form: each window's late wake-ups and their components."""
    doc = json.loads((late_run / "result.json").read_text())
    burn = next(ld for ld in doc["loads"] if ld["name"] == "burn")
    rc, out, err = hgreport("table1", str(late_run), "--json")
    assert rc == 0, err
    t = json.loads(out)
    (lat,) = t["late_components"]
    assert lat["label"] == "lat"
    inside = [x for x in LINES if burn["started_ns"] <= x["intended_ns"] < burn["stopped_ns"]]
    quiet = [x for x in LINES if x not in inside]
    cells = lat["windows"]
    total = sum(c["late"] for c in cells.values())
    assert total == len(LINES)
    assert quiet and not inside, "the lines are 8-13 ms in, before the burn load's window"
    q = cells["no load"]
    assert q["late"] == 3 and q["attributed"] == 2 and q["late_ns"] == 3_350_000
    assert q["components"] == {"timer_delay": 40_000, "timer_irq": 24_000, "task": 3_163_000,
                               "sched": 18_000, "invisible": 38_000}
    rc, out, err = hgreport("table1", str(late_run))
    assert rc == 0, err
    assert "## Components of `lat`'s late wake-ups per window (kernel trace)" in out
    assert "| no load |" in out.split("late wake-ups per window")[1]
