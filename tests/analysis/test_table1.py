# SPDX-License-Identifier: GPL-2.0-or-later
"""table1: per-window latency, deadline misses and switch counts on a synthetic run whose every
number is worked out by hand; the command on a real run."""
import json
from pathlib import Path

import numpy as np
import pytest

from hgreport.read.rundir import END_KINDS, Intervals, Run, Samples
from hgreport.analyses.abeni_table1 import QUIET, table1, windows

MS, S = 1_000_000, 1_000_000_000
P, E, D = 100 * MS, 10 * MS, 5_000      # rt's period and exec; hog's distance to rt (5 us)


def _synthetic() -> Run:
    """10 s. Loads A [1 s, 3 s) and B [2 s, 5 s) overlap; quiet: [0, 1 s) and [5 s, 10 s).
    lat: a wake-up every 10 ms, late 1000 + j ns (j-th), but 5 ms at 2.5 s and 2 ms at 6 s.
    rt (periodic 10 ms / 100 ms) runs [kP, kP + E) ending `blocked`, except k = 15 (no CPU:
    the job released at 1.5 s completes at 1.61 s, a miss, and shifts later releases by 10 ms).
    hog runs [kP + E + 5 us, (k+1)P − 5 us) ending `preempted`, on the same CPU."""
    threads, scen = [], []
    for name, wl, releases, lat in (("lat", {"type": "latency"}, 0, {"count": 1000}),
                                    ("rt", {"type": "periodic", "period_ns": P,
                                            "exec": {"values_ns": [E]}}, 99, None),
                                    ("hog", {"type": "cpu"}, 0, None)):
        threads.append({"name": name, "instance": 0, "os_name": name, "stats": {
            "releases": releases, "deadlines_missed": 1 if releases else 0, "records_dropped": 0,
            "latency": lat}})
        scen.append({"name": name, "instance": 0, "start_ns": 0, "finish_ns": 10 * S, "workload": wl})
    run = Run(Path("synthetic"), {
        "scenario": {"name": "synthetic", "duration_ns": 10 * S, "threads": scen},
        "threads": threads, "complete": True,
        "loads": [{"name": "A", "started_ns": 1 * S, "stopped_ns": 3 * S},
                  {"name": "B", "started_ns": 2 * S, "stopped_ns": 5 * S}]})
    j = np.arange(1000, dtype=np.int64)
    late = 1000 + j
    late[250], late[600] = 5 * MS, 2 * MS
    intended = j * 10 * MS
    run.__dict__["samples"] = Samples(np.zeros(1000, np.int64), intended, intended + late, late)
    k = np.arange(100, dtype=np.int64)
    rk = k[k != 15]
    blocked, preempted = END_KINDS.index("blocked"), END_KINDS.index("preempted")
    start = np.concatenate([rk * P, k * P + E + D])
    stop = np.concatenate([rk * P + E, (k + 1) * P - D])
    thread = np.concatenate([np.full(len(rk), 1), np.full(100, 2)])
    end = np.concatenate([np.full(len(rk), blocked), np.full(100, preempted)])
    run.__dict__["intervals"] = Intervals(thread, np.zeros(len(start), np.int64), start, stop, end)
    return run


def test_windows_and_quiet_time():
    w = windows(_synthetic())
    assert [(x.name, x.spans) for x in w] == [("A", ((S, 3 * S),)), ("B", ((2 * S, 5 * S),)),
                                              (QUIET, ((0, S), (5 * S, 10 * S)))]
    assert w[2].seconds == 6.0
    run = _synthetic()
    run.result["loads"].append({"name": "C", "started_ns": S + 5 * MS, "stopped_ns": 3 * S - 2 * MS})
    run.result["loads"].append({"name": "never", "started_ns": None, "stopped_ns": None})
    assert [(x.name, x.spans) for x in windows(run)][0] == ("A + C", ((S, 3 * S),))
    assert table1(run)["notes"] == ["load never never started: no window"]


def test_latency_per_window_exact():
    t = table1(_synthetic())
    lat = t["threads"][0]["windows"]
    # A: j = 100..299; the 199 ordinary values are 1100..1299 without 1250; rank 198 is 1298
    assert lat["A"]["latency"] == {"count": 200, "p50_ns": 1199.0, "p99_ns": 1298.0, "max_ns": 5e6}
    # B: j = 200..499; 1200..1499 without 1250; rank ceil(0.99·300) = 297 is 1497
    assert lat["B"]["latency"] == {"count": 300, "p50_ns": 1350.0, "p99_ns": 1497.0, "max_ns": 5e6}
    # quiet: j = 0..99 and 500..999: 1000..1099 (ranks 1-100), 1500..1599 (101-200), 1601..1999
    # (201-599): rank 300 is 1700, rank 594 is 1994
    assert lat[QUIET]["latency"] == {"count": 600, "p50_ns": 1700.0, "p99_ns": 1994.0, "max_ns": 2e6}


def test_deadline_misses_per_window_exact():
    rt = table1(_synthetic())["threads"][1]["windows"]
    # deadlines: 0.1 .. 1.5 s, the miss at 1.6 s, then 1.71, 1.81 .. 9.91 s (99 jobs)
    assert (rt["A"]["jobs"], rt["A"]["missed"]) == (20, 1)
    assert (rt["B"]["jobs"], rt["B"]["missed"]) == (30, 0)
    assert (rt[QUIET]["jobs"], rt[QUIET]["missed"]) == (59, 0)


def test_switches_per_window_and_rates_exact():
    t = table1(_synthetic())
    hog, rt = t["threads"][2]["windows"], t["threads"][1]["windows"]
    # hog -> rt (involuntary) at (k+1)P − 5 us, none at 1.5 s (rt absent: hog -> hog is a gap)
    assert [hog[w]["involuntary"] for w in ("A", "B", QUIET)] == [19, 30, 59]
    assert [hog[w]["preempted"] for w in ("A", "B", QUIET)] == [20, 30, 60]
    assert hog["A"]["involuntary_per_s"] == pytest.approx(19 / 2)
    # rt -> hog (voluntary: rt blocked) at kP + E, k ≠ 15
    assert [rt[w]["voluntary"] for w in ("A", "B", QUIET)] == [19, 30, 60]
    sw = {s["label"]: s for s in t["switches"]}
    assert sw["hog"]["involuntary"] == {"count": 98, "per_s": 9.8, "cost_min_ns": 5000.0,
                                        "cost_median_ns": 5000.0}
    assert sw["rt"]["voluntary"]["count"] == 99 and sw["hog"]["preempted"] == 100
    assert t["switches_all"] == {"involuntary": 98, "voluntary": 99, "involuntary_per_s": 9.8,
                                 "voluntary_per_s": 9.9}


def test_table1_command(mix_run, miss_run, hgreport):
    rc, out, err = hgreport("table1", mix_run)
    assert rc == 0, err
    assert "## Wake-up latency of `lat` per window" in out and "| burn |" in out and "| no load |" in out
    assert "## Switches per second and switch costs" in out
    rc, out, err = hgreport("table1", mix_run, "--json")
    doc = json.loads(out)
    res = json.loads((mix_run / "result.json").read_text())
    lat = next(t for t in doc["threads"] if t["label"] == "lat")["windows"]
    assert lat["burn"]["latency"]["count"] + lat[QUIET]["latency"]["count"] == \
        res["threads"][3]["stats"]["latency"]["samples"]
    rc, out, err = hgreport("table1", mix_run, miss_run)
    assert rc == 0, err
    assert out.startswith("# Abeni table 1: 2 runs") and "| mix |" in out and "| miss |" in out
    rc, _, err = hgreport("table1", mix_run.parent / "nope")
    assert rc == 2 and "no such directory" in err
