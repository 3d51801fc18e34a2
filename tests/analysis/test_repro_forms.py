# SPDX-License-Identifier: GPL-2.0-or-later
"""The reproduction forms (analysis/README.md, "The reproduction forms"): abeni-table2,
abeni-cdf, interactivation, slices, switches and provenance on the golden runs, and the
analyses behind them on planted traces whose answer is known."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hgreport.analyses import over_runs, slices, switch_kinds
from hgreport.read.rundir import END_KINDS, Intervals

PRE, YIE, FIN = (END_KINDS.index(k) for k in ("preempted", "yielded", "finished"))


@dataclass(eq=False)
class FakeRun:
    """What the slice and switch analyses read of a run: its intervals, threads, time zero."""
    path: Path
    intervals: Intervals
    names: list[str]
    start_mono: int = 0
    duration_ns: int = 1_000_000_000
    nice: list[int] = field(default_factory=list)
    complete: bool = True

    @property
    def result(self) -> dict[str, Any]:
        return {"tsc": {"start_monotonic_ns": self.start_mono,
                        "end_monotonic_ns": self.start_mono + self.duration_ns},
                "host": {"hostname": "h", "kernel_release": "k"}}

    @property
    def threads(self) -> list[dict[str, Any]]:
        nice = self.nice or [0] * len(self.names)
        return [{"os_name": n, "stats": {"cpu_ns": int((self.intervals.stop - self.intervals.start)
                                                       [self.intervals.thread == i].sum())},
                 "granted": {"policy": "other", "nice": nice[i]}, "asked": {"level": n}}
                for i, n in enumerate(self.names)]

    @property
    def scenario(self) -> dict[str, Any]:
        return {"name": "fake"}

    def scenario_thread(self, i: int) -> dict[str, Any]:
        return {}

    def label(self, i: int) -> str:
        return self.names[i]

    def file(self, key: str) -> None:
        return None


def intervals(rows: list[tuple[int, int, int, int, int]]) -> Intervals:
    """(thread, cpu, start, stop, end) rows."""
    a = np.array(rows, dtype=np.int64)
    return Intervals(a[:, 0].astype(np.uint16), a[:, 1].astype(np.int16), a[:, 2], a[:, 3],
                     a[:, 4].astype(np.uint8))


def test_slices_merge_interrupt_gaps_and_split_at_other_threads():
    # thread 0: 0-1 ms, a 10 us interrupt, 1.01-3 ms (one slice of 3 ms); thread 1: 3.02-4 ms;
    # thread 0 again 4.02-5 ms; thread 1 5.02-6 ms, then a 2 ms gap (something untraced), then
    # 8-9 ms: two slices of thread 1 there
    iv = intervals([(0, 0, 0, 1_000_000, PRE), (0, 0, 1_010_000, 3_000_000, PRE),
                    (1, 0, 3_020_000, 4_000_000, PRE), (0, 0, 4_020_000, 5_000_000, PRE),
                    (1, 0, 5_020_000, 6_000_000, PRE), (1, 0, 8_000_000, 9_000_000, FIN)])
    run = FakeRun(Path("r"), iv, ["a", "b"])
    per = slices.slices_of(run)
    assert per[0].tolist() == [980_000, 3_000_000]
    assert per[1].tolist() == [980_000, 980_000, 1_000_000]
    merged = slices.slices_of(run, max_gap_ns=5_000_000)
    assert merged[1].tolist() == [980_000, 3_980_000]


def test_slices_claim_compares_the_highest_with_the_lowest_priority():
    runs = []
    for k in range(3):
        # the nice -10 thread's slices are three times as long, equally many
        rows, t = [], 0
        for _ in range(20):
            rows.append((0, 0, t, t + 1_000_000 + 1000 * k, PRE))
            t += 1_000_000 + 1000 * k + 20_000
            rows.append((1, 0, t, t + 3_000_000 + 3000 * k, PRE))
            t += 3_000_000 + 3000 * k + 20_000
        runs.append(slices.of_run(FakeRun(Path(f"r{k}"), intervals(rows), ["low", "high"],
                                          nice=[10, -10])))
    c = slices.across("cfg", runs)
    assert c["claim"]["higher"] == "high" and c["claim"]["lower"] == "low"
    hi = next(t for t in c["threads"] if t["label"] == "high")
    assert hi["median_ns"]["n"] == 3 and hi["median_ns"]["value"] > 2.9e6
    assert hi["median_ns"]["low"] is not None          # three runs: an interval
    assert c["claim"]["length"]["n_base"] == c["claim"]["length"]["n_cand"] == 3


def test_switches_between_processes_come_from_runs_made_together():
    # two runs of one thread each alternating on CPU 0: a's time zero 1 s, b's 1 s + 2 ms;
    # a runs [0, 1) ms of its own time, b [0, 1) ms of its own (3 ms of a's)...: every switch
    # is between the two processes and costs 1 ms
    a = FakeRun(Path("a"), intervals([(0, 0, 4_000_000 * k, 4_000_000 * k + 1_000_000, PRE)
                                      for k in range(10)]), ["a"], start_mono=1_000_000_000,
                duration_ns=40_000_000)
    b = FakeRun(Path("b"), intervals([(0, 0, 4_000_000 * k, 4_000_000 * k + 1_000_000, PRE)
                                      for k in range(10)]), ["b"], start_mono=1_002_000_000,
                duration_ns=40_000_000)
    alone = FakeRun(Path("c"), intervals([(0, 0, 0, 1000, PRE)]), ["c"], start_mono=9 * 10**9)
    sets = switch_kinds.together([a, b, alone])
    assert [[r.path.name for r in s] for s in sets] == [["a", "b"], ["c"]]
    s = switch_kinds.of_set(sets[0])
    assert s["within_involuntary"]["count"] == 0
    assert s["between_involuntary"]["count"] >= 17
    assert s["between_involuntary"]["median_ns"] == 1_000_000
    assert s["misaligned"] == 0
    # the same run twice at the same time: every interval overlaps its copy
    assert switch_kinds.of_set([a, FakeRun(Path("a2"), a.intervals, ["a"], a.start_mono,
                                           a.duration_ns)])["misaligned"] > 0


def test_over_runs_needs_three_runs_for_an_interval_and_a_verdict():
    assert over_runs.estimate([1e3, 2e3], "ns")["low"] is None
    assert over_runs.estimate([1e3, 2e3, 1.5e3], "ns")["low"] is not None
    assert over_runs.compare([1, 2], [3, 4, 5], "ns")["verdict"] == over_runs.TOO_FEW
    share = over_runs.estimate([0.99, 1.0, 0.995], upper=1.0)
    assert share["high"] is None or share["high"] <= 1.0


@pytest.mark.parametrize("argv", [
    ["abeni-table2", "{mix}", "{windows}"],
    ["abeni-cdf", "{windows}", "--window", "burn"],
    ["interactivation", "{mix}", "{mix}"],
    ["slices", "{mix}"],
    ["switches", "{mix}", "{windows}"],
    ["provenance", "{mix}", "{windows}"],
])
def test_each_form_gives_a_page_and_json(hgreport, golden, argv):
    paths = {"mix": str(golden("mix")), "windows": str(golden("windows"))}
    args = [a.format(**paths) for a in argv]
    rc, out, err = hgreport(*args)
    assert rc == 0, err
    assert out.startswith("# ")
    rc, out, err = hgreport(*args, "--json")
    assert rc == 0, err
    json.loads(out)


def test_abeni_cdf_writes_its_figure_and_refuses_an_unknown_window(hgreport, golden, tmp_path):
    run = golden("windows")
    rc, out, err = hgreport("abeni-cdf", str(run), "--window", "burn", "-o", str(tmp_path / "o"))
    assert rc == 0, err
    assert {p.name for p in (tmp_path / "o").iterdir()} == {"abeni_cdf.md", "abeni_cdf.json",
                                                            "abeni_cdf.png"}
    doc = json.loads((tmp_path / "o" / "abeni_cdf.json").read_text())
    assert doc["runs"][0]["samples"] > 0
    rc, out, err = hgreport("abeni-cdf", str(run), "--window", "nope")
    assert rc == 2 and "no window 'nope'" in err


def test_provenance_names_the_machine_and_the_disturbances(hgreport, golden):
    rc, out, err = hgreport("provenance", str(golden("mix")), "--json")
    assert rc == 0, err
    rec = json.loads(out)
    assert rec["n"] == 1 and rec["common"]["host"]["kernel_release"]
    assert rec["runs"][0]["disturbed"] == ["competition"]        # the golden run's warning
    assert rec["disturbed"] == 1


def test_kernel_split_of_the_switches_adds_up(golden):
    from hgreport.read.rundir import read_run
    run = read_run(golden("mix"))
    sp = switch_kinds.kernel_split(run)
    assert sp is not None and sp["switches"] > 0
    assert abs(sum(p["share"] for p in sp["parts"]) - 1) < 1e-9
    assert {p["part"] for p in sp["parts"]} == set(switch_kinds.PARTS)
