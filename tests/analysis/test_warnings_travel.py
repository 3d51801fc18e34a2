# SPDX-License-Identifier: GPL-2.0-or-later
"""Warnings travel to every comparison and gate (docs/statistics.md, "Disturbed runs"): for
each kind of disturbance in the baseline's runs, `compare` shows it beside the difference it
affects and in compare.md, its --fail-if check ends inconclusive with exit status 6 stated in
compare.md and on stdout, and `sweep` shows it beside the point and its verdict. The same data
without the disturbance trips the gate (exit 5): the disturbance, not the data, makes it
inconclusive."""
import csv
import json
import re

import pytest

from test_one_method import _dataset

GATE = "latency_p99_ns[lat]>+20%"


@pytest.fixture(autouse=True)
def no_figures(monkeypatch):
    """compare's and sweep's figures are not what these tests read (test_figures_drawn.py
    reads them): drawing them would be most of the time."""
    from hgreport.compare import histograms, plots
    from hgreport.tables import sweep
    monkeypatch.setattr(plots, "write_all", lambda table, out, *more: [])
    monkeypatch.setattr(histograms, "write", lambda groups, out, *more: [])
    monkeypatch.setattr(sweep, "save", lambda fig, path: path)


def _lat(doc):
    return next(t for t in doc["threads"] if t["name"] == "lat")


def _warn(text):
    def edit(doc, k):
        doc["warnings"] = [text]
    return edit


def _skipped(doc, k):
    _lat(doc)["stats"]["latency"]["grid_skipped"] = 3194


def _dropped(doc, k):
    _lat(doc)["stats"]["latency"]["samples_dropped"] = 12


def _records(doc, k):
    _lat(doc)["stats"]["records_dropped"] = 40


def _incomplete(doc, k):
    if k == 1:
        doc["complete"] = False


def _other_host(doc, k):
    if k == 0:
        doc["host"]["hostname"] = "elsewhere"


KINDS = {
    "competition": (_warn("competition: other processes took 45.0% of the scenario's CPUs (0) "
                          "during the run, more than 5%: stress (pid 4242) 0.270 s"),
                    "competition"),
    "steal": (_warn("steal time: the hypervisor took 12.0% of the scenario's CPUs (0) during "
                    "the run"), "steal time"),
    "cpu_not_received": (_warn("CPU not received: on CPU 0 from 0 to 600.000 ms the scenario's "
                               "threads wanted 600.0 ms of CPU time and did not get 90.0 ms of "
                               "it (15.0%, more than 10%)"), "CPU not received"),
    "skipped": (_skipped, "skipped wake-ups"),
    "samples_dropped": (_dropped, "damaged"),
    "records_dropped": (_records, "damaged"),
    "not_granted": (_warn("lat: priority RTHIGH not granted: SCHED_OTHER instead"),
                    "not as asked"),
    "mixed_hosts": (_other_host, "mixed machines"),
    "incomplete": (_incomplete, "incomplete"),
}


def _disturb(root, edit):
    for k, d in enumerate(sorted((root / "p000").iterdir())):
        doc = json.loads((d / "result.json").read_text())
        edit(doc, k)
        (d / "result.json").write_text(json.dumps(doc))


def test_an_undisturbed_baseline_trips_the_gate(mix_run, tmp_path, hgreport):
    root, _ = _dataset(tmp_path / "data", mix_run, 3, 2.0, seed=5)
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp", "--fail-if", GATE)
    assert rc == 5, out + err
    assert "exit status 5" in out and "exit status 5" in (tmp_path / "cmp" / "compare.md").read_text()


@pytest.mark.parametrize("case", sorted(KINDS))
def test_a_disturbed_baseline_shows_beside_every_result_and_the_gate_is_inconclusive(
        mix_run, tmp_path, hgreport, case):
    edit, words = KINDS[case]
    root, _ = _dataset(tmp_path / "data", mix_run, 3, 2.0, seed=5)
    _disturb(root, edit)
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp", "--fail-if", GATE)
    assert rc == 6, out + err
    md = (tmp_path / "cmp" / "compare.md").read_text()
    # beside the difference it affects: the lat p99 row's "disturbed by" cell
    p99 = [ln for ln in md.splitlines() if re.match(r"\| [^|]+ \| latency p99 \|", ln)]
    assert p99 and all(words in ln for ln in p99), (words, p99)
    assert "exit status 6" in md and "exit status 5" not in md
    gate = [ln for ln in out.splitlines() if ln.startswith(f"fail-if {GATE}")]
    assert gate and "inconclusive" in gate[0] and words in gate[0], gate
    assert "exit status 6" in out.splitlines()[-1], out.splitlines()[-1]
    doc = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    assert doc["exit_status"] == 6
    # sweep: beside the point, and beside its lowest-against-highest verdict
    rc, out, err = hgreport("sweep", root, "--metric", "latency_p99_ns", "-o", tmp_path / "sw")
    assert rc == 0, err
    row = next(ln for ln in out.splitlines() if ln.startswith("| p000 |"))
    assert words in row, row
    verdict = next(ln for ln in out.splitlines() if ln.startswith("- `lat latency_p99_ns`"))
    assert f"disturbed by {words}" in verdict, verdict
    rows = {r["point"]: r for r in csv.DictReader((tmp_path / "sw" / "sweep.csv").open())}
    assert rows["p000"]["disturbed_by"], rows
    # (mixed machines: the sweep's points ran on two machines, so every point says it)
    assert rows["p001"]["disturbed_by"] == ("mixed_machines" if case == "mixed_hosts" else "")


def test_compare_md_says_a_warning_once_with_the_runs_it_applies_to(mix_run, tmp_path, hgreport):
    """The same warning in several runs is one line of compare.md's "Disturbed runs": its text
    once, how many runs it applies to and which (per row: how many of the row's runs, their
    paths); every distinct warning keeps a line of its own. Before, the text stood once per
    run, a page of repeats for a sweep of many runs that all had it."""
    steal = KINDS["steal"][0]
    root, runs = _dataset(tmp_path / "data", mix_run, 3, 2.0, seed=5)
    _disturb(root, steal)
    _disturb(root, _incomplete)
    doc = json.loads((runs[3] / "result.json").read_text())   # p001/r0 has the steal too
    steal(doc, 0)
    (runs[3] / "result.json").write_text(json.dumps(doc))
    rc, out, err = hgreport("compare", root, "-o", tmp_path / "cmp")
    assert rc == 0, out + err
    md = (tmp_path / "cmp" / "compare.md").read_text()
    section = md.split("## Disturbed runs", 1)[1].split("\n## ", 1)[0]
    items = [ln for ln in section.splitlines() if ln.startswith("- ")]
    text = "steal time: the hypervisor took 12.0% of the scenario's CPUs (0) during the run"
    assert len([ln for ln in items if text in ln]) == 1, items
    assert sum(ln.count(text) for ln in items) == 1, items
    line = next(ln for ln in items if text in ln)
    assert "(4 runs:" in line, line
    assert all(f"`{r}`" in line for r in map(str, runs[:4])), line
    assert f"`{runs[4]}`" not in line and f"`{runs[5]}`" not in line, line
    assert "3 of 3" in line and "1 of 3" in line, line
    incomplete = [ln for ln in items if "complete: false" in ln]
    assert len(incomplete) == 1, items
    assert "(1 run:" in incomplete[0] and f"`{runs[1]}`" in incomplete[0], incomplete
    assert len(items) == 2, items
