# SPDX-License-Identifier: GPL-2.0-or-later
"""Figures that read well (analysis/README.md: "drawn to be read at their real size"), checked
on every figure hgreport writes, drawn at its real size: tick labels never overlap, legends sit
off the data and off the labels, one colour and hatch per load, log tails, the default timeline
where things happen, sweep titles."""
import json

import numpy as np
import pytest

from hgreport.figures import figure as figure_contract
from hgreport.figures import plotting
from figcheck import legend_over_data, overlapping_labels, text_collisions
from hgreport.figures.plotting import load_style, log_axis, plt, shade_loads
from hgreport.read.rundir import read_run
from hgreport.analyses import timeline_windows
from hgreport.analyses.timeline_windows import choose_windows, phase_changes
from hgreport.read.records import gaps, interval_records


@pytest.fixture
def drawn(monkeypatch):
    """Every figure saved while the test runs: {file name: what the checks found}."""
    seen = {}

    def hook(fig, path):
        fig.set_dpi(plotting.DPI)          # the saved size, every artist laid out once more
        fig.canvas.draw()
        seen[path.name] = {
            "labels": overlapping_labels(fig) + text_collisions(fig),
            "legends": legend_over_data(fig),
            "axes": [(ax.get_title() + ax.get_title(loc="left"), ax.get_xscale(), ax.get_yscale())
                     for ax in fig.get_axes()],
            "suptitle": fig._suptitle.get_text() if fig._suptitle else "",
            "legend": [t.get_text() for ax in fig.get_axes() if ax.get_legend()
                       for t in ax.get_legend().get_texts()]}
    monkeypatch.setattr(figure_contract, "SAVE_HOOKS", [hook])
    return seen


def assert_clean(seen):
    assert seen, "no figure was drawn"
    problems = {name: f["labels"] + f["legends"] for name, f in seen.items()
                if f["labels"] or f["legends"]}
    assert not problems, problems


def test_the_checker_fails_on_a_title_over_an_offset_text():
    # What an all-zero panel did: its y axis' '1e-10' offset text pushed its title up into the
    # panel above.
    fig, (up, ax) = plt.subplots(2, 1, figsize=(6, 3), gridspec_kw={"hspace": 0.12})
    ax.set_ylim(0, 1.15e-9)
    ax.set_title("deadline misses per 100 ms", loc="left")
    up.tick_params(axis="x", labelbottom=False)
    fig.canvas.draw()
    assert any("lies over the data" in p for p in text_collisions(fig))
    plt.close(fig)


def test_the_checker_fails_on_labels_that_run_together():
    # What the first figures showed: 1-2-5 ticks labelled as plain numbers on a narrow log axis.
    fig, ax = plt.subplots(figsize=(2.5, 2))
    ax.set_xscale("log")
    ax.set_xlim(10, 5000)
    ax.set_xticks([10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
                  ["10", "20", "50", "100", "200", "500", "1000", "2000", "5000"])
    fig.canvas.draw()
    assert overlapping_labels(fig)
    plt.close(fig)


@pytest.mark.parametrize("width", [2.0, 3.0, 5.0, 11.0])
@pytest.mark.parametrize("lo,hi", [(1, 1e3), (1, 1e9), (3, 40), (2e4, 3e7), (1e-3, 1),
                                   (16e3, 21e3), (45, 70)])
@pytest.mark.parametrize("axis", ["x", "y"])
def test_log_axis_labels_never_overlap(width, lo, hi, axis):
    fig, ax = plt.subplots(figsize=(width, width * 0.6))
    getattr(ax, f"set_{axis}scale")("log")
    getattr(ax, f"set_{axis}lim")(lo, hi)
    log_axis(getattr(ax, f"{axis}axis"), ns_per_unit=1e3 if lo >= 1 else None)
    fig.canvas.draw()
    labels = [t for t in getattr(ax, f"get_{axis}ticklabels")() if t.get_text()]
    assert len(labels) >= 2, "at least two labels to read the scale by"
    assert overlapping_labels(fig) == []
    plt.close(fig)


@pytest.mark.parametrize("case", ["mix", "windows", "killed", "none", "outliers", "rx", "miss"])
def test_every_figure_of_the_reports_reads_well(case, rendered):
    r = rendered(case)
    assert r.rc == 0, (case, r.stderr)
    assert_clean(r.figures)


def test_the_reports_draw_every_kind_of_figure(rendered):
    drawn = {name for case in ("mix", "windows", "killed", "none", "outliers", "rx", "miss")
             for name in rendered(case).figures}
    assert {"timeline.png", "gaps.png", "latency.png", "series.png", "outliers.png",
            "interactivation.png"} <= drawn


def test_sweep_figure_is_titled_by_scenario(drawn, golden, hgreport):
    sw = golden("sweep")
    rc, out, err = hgreport("sweep", sw, "-o", sw / "report")
    assert rc == 0, err
    assert drawn["sweep.png"]["suptitle"].startswith("cp: 4 sweep points")
    rc, out, err = hgreport("cache-penalty", sw, "-o", sw / "cp")
    assert rc == 0, err
    assert "cache_penalty.png" in drawn
    assert_clean(drawn)


def test_a_day_of_series_reads_well(drawn, golden, copy_run, hgreport):
    """A synthetic day at 1 s (two threads): the figure is aggregated to 5-minute bins, its
    time axis in hours."""
    src = golden("none")
    doc = json.loads((src / "result.json").read_text())
    n = len(doc["threads"])
    s = 1_000_000_000
    with (src / "series.jsonl").open("w") as f:
        for k in range(1, 86401):
            for i in range(n):
                f.write(f'{{"t_ns":{k * s},"span_ns":{s},"thread":{i},"cpu_ns":{400_000_000 + k},'
                        f'"intervals":9,"gaps":9,"gap_max_ns":{(k * 7919) % 9_000_000 + 1000},'
                        '"dropped":0}\n')

    def day(d):
        d["scenario"]["duration_ns"] = 86400 * s
        d["trace"]["written"]["series"] = 86400 * n
    dst = copy_run(src, day)
    rc, out, err = hgreport("series", dst, "-o", dst / "report")
    assert rc == 0, err
    assert "bins of 5 min" in out
    assert_clean(drawn)
    assert any("per 5 min" in title for title, _, _ in drawn["series.png"]["axes"])


def test_each_load_has_its_own_colour_and_hatch_and_the_legend_matches():
    fig, ax = plt.subplots()
    loads = [{"name": "a", "type": "cpu", "started_ns": 0, "stopped_ns": 2e9},
             {"name": "b", "type": "cpu", "started_ns": 1e9, "stopped_ns": 3e9},
             {"name": "never", "type": "cpu", "started_ns": None}]
    handles = shade_loads(ax, loads, 1e9)
    assert [h.get_label() for h in handles] == ["load a (cpu)", "load b (cpu)"]
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == 2
    for k, (h, p) in enumerate(zip(handles, hatched)):
        color, hatch = load_style(k)
        assert h.get_hatch() == p.get_hatch() == hatch
        assert np.allclose(h.get_edgecolor()[:3], p.get_edgecolor()[:3])
    # Overlapping windows keep both hatchings (crossed), not a blend of two fills only.
    assert hatched[0].get_hatch() != hatched[1].get_hatch()
    assert load_style(0)[0] != load_style(1)[0]
    plt.close(fig)


def test_latency_tail_is_log_log(rendered):
    r = rendered("mix")
    assert r.rc == 0, r.stderr
    tail = [a for a in r.figures["latency.png"]["axes"] if "1 - CDF" in a[0]]
    assert tail and tail[0][1:] == ("log", "log")


def test_default_timeline_shows_phase_change_longest_gap_and_worst_miss(golden):
    run = read_run(golden("mix"))
    ws = choose_windows(run)
    assert [w.what.split(":")[0] for w in ws] == ["first phase change", "phase change",
                                                  "longest gap", "worst deadline miss"]
    t, what = phase_changes(run)[0]
    assert what == "load burn starts" and ws[0].start_ns < t < ws[0].start_ns + ws[0].length_ns
    g = gaps(interval_records(run))
    k = int(np.argmax(g.length))
    assert ws[2].mark == (int(g.start[k]), int(g.stop[k]))
    assert ws[2].start_ns <= g.start[k] and g.stop[k] <= ws[2].start_ns + ws[2].length_ns


def test_no_window_reaches_past_the_end_of_the_run(golden):
    """A gap of more than a sixth of the run (a short run's longest gap): its window, six times
    the gap long, is cut to the run, not drawn empty past its end."""
    for case in ("mix", "miss", "rx", "outliers", "windows"):
        run = read_run(golden(case))
        for w in choose_windows(run):
            assert 0 <= w.start_ns and w.start_ns + w.length_ns <= run.duration_ns, (case, w)
    MS = timeline_windows.MS    # 01_first_trace at 100 ms: a last gap from 45 ms to the end
    assert timeline_windows._around(45 * MS, 100 * MS, 100 * MS) == (0, 100 * MS)
    assert timeline_windows._around(45 * MS, 47 * MS, 100 * MS) == (40 * MS, 12 * MS)


def test_each_phase_change_gets_a_panel(golden):
    run = read_run(golden("rx"))
    ws = choose_windows(run)
    phases = [w for w in ws if "phase change" in w.what]
    # alone finishes as rx_alone starts (200 ms), rt starts with rx as rx_alone stops (400 ms).
    assert len(phases) == 2
    assert "alone finishes" in phases[0].what and "load rx_alone starts" in phases[0].what
    assert all(x in phases[1].what for x in ("rt starts", "load rx starts", "rx_alone stops"))


def test_without_phases_or_misses_the_timeline_starts_at_zero(golden):
    run = read_run(golden("outliers"))
    ws = choose_windows(run)
    assert ws[0].what == "the start of the run" and ws[0].start_ns == 0
    assert ws[-1].what.startswith("latest wake-up")      # no periodic thread: the worst wake-up


def test_a_load_that_runs_with_the_whole_run_marks_no_phase(golden, copy_run):
    # Its processes start a little after time zero (forking takes time) and stop at the end:
    # no phase changes there, so no window drawn around an empty first millisecond.
    def whole_run(doc):
        for ld in doc["scenario"]["loads"]:
            ld["start_ns"], ld["stop_ns"] = 0, doc["scenario"]["duration_ns"]
        for ld in doc["loads"]:
            ld["started_ns"] = 317_535
    run = read_run(copy_run(golden("mix"), whole_run))
    assert not [w for w in phase_changes(run) if w[1].startswith("load ")]
