# SPDX-License-Identifier: GPL-2.0-or-later
"""Figures that say what they mean: the load panel of series.png has no empty axis, whole-run
loads do not hatch every panel, gaps.png draws no empty panel, the timeline marks releases
and names every line it draws, outlier panels run in time order with the outlier marked."""
import pytest

from hgreport.analyses import switches
from hgreport.analyses.timeline_windows import choose_windows, releases
from hgreport.figures import figure as figure_contract
from hgreport.figures import plotting
from hgreport.read.rundir import read_run


@pytest.fixture
def figures(monkeypatch):
    """{file name: {"axes": [(title, ylabel, hatched patches)], "legend": [texts]}} of every
    figure saved while the test runs."""
    seen = {}

    def hook(fig, path):
        seen[path.name] = {
            "axes": [(ax.get_title(loc="left") + ax.get_title(), ax.get_ylabel(),
                      sum(1 for p in ax.patches if p.get_hatch()))
                     for ax in fig.get_axes()],
            "legend": [t.get_text() for ax in fig.get_axes() if ax.get_legend()
                       for t in ax.get_legend().get_texts()]}
    monkeypatch.setattr(figure_contract, "SAVE_HOOKS", [hook])
    return seen


def test_loads_of_one_kind_share_one_axis(rendered):
    r = rendered("rx")
    assert r.rc == 0, r.stderr
    axes = r.figures["series.png"]["meaning"]
    loads = [a for a in axes if a[0].startswith("load throughput")]
    assert len(loads) == 1 and loads[0][1] == "Mbit/s"
    assert not [a for a in axes if a[1] == "ops/s"], "no empty ops/s axis beside Mbit/s lines"


def test_whole_run_loads_do_not_hatch_the_panels(golden, copy_run, hgreport, figures, rendered,
                                                 tmp_path):
    def whole_run(doc):
        for ld in doc["loads"]:
            ld["started_ns"], ld["stopped_ns"] = 317_535, doc["scenario"]["duration_ns"]
    mix = golden("mix")
    run = copy_run(mix, whole_run)
    assert hgreport(run, "-o", tmp_path / "whole")[0] == 0
    s = figures["series.png"]
    assert all(hatched == 0 for _, _, hatched in s["axes"]), s["axes"]
    assert "load burn (cpu): throughout" in s["legend"]
    # a load inside the run still hatches its window
    as_is = rendered("mix")
    assert as_is.rc == 0, as_is.stderr
    assert any(h for _, _, h in as_is.figures["series.png"]["meaning"])


def test_gaps_figure_draws_no_empty_panel(golden, rendered, figures, tmp_path, monkeypatch):
    mix = golden("mix")
    both = rendered("mix")
    assert both.rc == 0, both.stderr
    assert len(both.figures["gaps.png"]["meaning"]) == 2
    # as a run of one thread draws it: gaps, no switches between traced threads
    from types import SimpleNamespace
    from hgreport.figures import gaps
    monkeypatch.setattr(gaps, "switches", SimpleNamespace(
        gaps_of_run=switches.gaps_of_run, of_run=lambda run: []))
    gaps.plot_gaps(read_run(mix), tmp_path / "gaps.png")
    titles = [a[0] for a in figures["gaps.png"]["axes"]]
    assert len(titles) == 1 and titles[0].startswith("gaps of each thread")


def test_timeline_marks_releases_and_names_its_lines(golden, rendered):
    mix = golden("mix")
    run = read_run(mix)
    ws = choose_windows(run)
    assert [w.marks()[0][1] for w in ws] == ["phase change", "phase change", "gap starts",
                                             "missed deadline"]
    assert [n for _, n in ws[3].marks()] == ["missed deadline", "late completion"]
    rt = next(i for i, t in enumerate(run.threads) if t["name"] == "rt")
    period = run.scenario_thread(rt)["workload"]["period_ns"]
    rel = releases(run, rt, 0, 50_000_000)
    assert len(rel) and (rel % period == 0).all() and rel[0] == 0
    assert len(releases(run, next(i for i, t in enumerate(run.threads) if t["name"] == "lat"),
                        0, 50_000_000)) == 0, "a latency thread has no releases"
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    legend = r.figures["timeline.png"]["legend"]
    for name in ("release of a periodic job", "phase change", "gap starts", "gap ends",
                 "missed deadline", "late completion"):
        assert name in legend, legend
    assert "the event" not in legend


def test_outlier_panels_in_time_order_with_the_outlier_marked(rendered):
    r = rendered("outliers")
    assert r.rc == 0, r.stderr
    o = r.figures["outliers.png"]
    assert "the outlier (gap or late wake-up)" in o["legend"]
    titles = [a[0] for a in o["meaning"] if a[0].startswith("#")]
    assert titles and all(" at " in t for t in titles)
    times = [t.split(" at ", 1)[1].split(":", 1)[0] for t in titles]
    assert len(times) == len(titles)


def test_a_load_line_stays_inside_its_window(golden, copy_run, hgreport, monkeypatch, tmp_path):
    """A load that stops a little after a bin's start draws its rate over the part of the bin
    it ran, not over the whole bin (with 1 s bins a load stopping 5 ms into one looked as if
    it ran through it)."""
    def late_stop(doc):
        for ld in doc["loads"]:
            if ld["name"] == "rx_alone":
                ld["stopped_ns"] += 5_000_000
    run = copy_run(golden("rx"), late_stop)
    lines = {}

    def hook(fig, path):
        if path.name == "series.png":
            for ax in fig.get_axes():
                for ln in ax.get_lines():
                    lines[ln.get_label()] = [float(v) for v in ln.get_xdata() if v == v]
    monkeypatch.setattr(figure_contract, "SAVE_HOOKS", [hook])
    assert hgreport(run, "-o", tmp_path)[0] == 0
    import json
    doc = json.loads((run / "result.json").read_text())
    for ld in doc["loads"]:
        xs = lines[f"{ld['name']} Mbit/s"]             # ms on this 600 ms run
        assert xs, ld["name"]
        assert min(xs) >= ld["started_ns"] / 1e6 - 1e-6 and max(xs) <= ld["stopped_ns"] / 1e6 + 1e-6


def test_jitter_per_cpu_in_dougans_form(rendered):
    """The worst jitter per CPU, equal to the worst lateness of the latency threads on it,
    and its histogram."""
    import numpy as np
    r = rendered("mix")
    run = read_run(r.run)
    assert r.rc == 0, r.stderr
    md = (r.out / "report.md").read_text()
    part = md.split("## Jitter per CPU (Dougan)\n\n", 1)[1].split("\n## ", 1)[0]
    lat = [i for i, t in enumerate(run.threads) if (t["stats"].get("latency") or {}).get("count")]
    worst = int(np.max(run.samples.late[np.isin(run.samples.thread, lat)]))
    from hgreport.base.units import fmt_ns
    assert f"| CPU 0 | {int(np.isin(run.samples.thread, lat).sum())} | {fmt_ns(worst)} | lat |" in part
    assert "![jitter.png](jitter.png)" in part and (r.out / "jitter.png").exists()
    assert f"worst {fmt_ns(worst)}" in r.figures["jitter.png"]["legend"]
