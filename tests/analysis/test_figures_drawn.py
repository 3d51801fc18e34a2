# SPDX-License-Identifier: GPL-2.0-or-later
"""What the figures draw, read from the drawn artists (docs/testing.md): the timeline's lines
each in a style of their own and every legend entry drawn; no axis reads as an offset
("+4.03e4"); inter-activation densities that span decades on a log axis; series.png one axis
per load unit; one value for one event across the deadline table and the timeline; compare's
figures one panel per thread instance, as its tables; sweep.png's bars the t interval."""
from __future__ import annotations

import json
import shutil

import matplotlib.colors as mcolors
import numpy as np
import pytest

from hgreport.analyses.timeline_windows import Window, choose_windows
from hgreport.figures import figure as figure_contract
from hgreport.figures import timeline
from hgreport.read.rundir import read_run


@pytest.fixture
def drawn(monkeypatch):
    """{file name: the matplotlib Figure} of every figure saved while the test runs."""
    seen = {}
    monkeypatch.setattr(figure_contract, "SAVE_HOOKS",
                        [lambda fig, path: seen.__setitem__(path.name, fig)])
    return seen


def _style(artist):
    return (mcolors.to_hex(artist.get_color()), artist.get_linestyle(), artist.get_marker())


def _legend_lines(fig):
    return [(t.get_text(), h) for ax in fig.get_axes() if ax.get_legend()
            for t, h in zip(ax.get_legend().get_texts(), ax.get_legend().legend_handles)]


def test_timeline_lines_each_have_a_style_and_every_legend_entry_is_drawn(golden, drawn,
                                                                          tmp_path):
    run = read_run(golden("mix"))
    timeline.plot_default(run, tmp_path / "timeline.png")
    fig = drawn["timeline.png"]
    entries = _legend_lines(fig)
    lines = [(n, h) for n, h in entries if hasattr(h, "get_linestyle") and
             not hasattr(h, "get_facecolor")]
    styles = {}
    for name, h in lines:
        assert _style(h) not in styles, f"{name!r} is drawn as {styles.get(_style(h))!r} is"
        styles[_style(h)] = name
    assert {"phase change", "missed deadline"} <= set(styles.values())
    drawn_lines = [(ln.get_label(), _style(ln)) for ax in fig.get_axes() for ln in ax.get_lines()]
    for style, name in styles.items():
        if name == "release of a periodic job":          # markers, one line per thread
            assert any(s == style for _, s in drawn_lines), f"legend {name!r} drawn nowhere"
        else:
            assert (name, style) in drawn_lines, f"legend line {name!r} drawn nowhere"
    # every legend patch's colour fills some bar of some panel
    fills = {mcolors.to_hex(c) for ax in fig.get_axes() for coll in ax.collections
             if len(coll.get_paths()) for c in np.atleast_2d(coll.get_facecolor())}
    fills |= {mcolors.to_hex(p.get_facecolor()) for ax in fig.get_axes() for p in ax.patches}
    for name, h in entries:
        if hasattr(h, "get_facecolor") and not h.get_hatch():
            assert mcolors.to_hex(h.get_facecolor()) in fills, f"legend patch {name!r} drawn nowhere"


def _offsets(fig):
    fig.canvas.draw()
    return [(ax.get_title(loc="left") or ax.get_title(), name, axis.get_offset_text().get_text())
            for ax in fig.get_axes() for name, axis in (("x", ax.xaxis), ("y", ax.yaxis))
            if axis.get_offset_text().get_text().strip()]


def test_a_window_late_in_a_long_run_reads_without_an_axis_offset(golden, drawn, tmp_path):
    """A longest gap 40.3 s into a run, drawn in ms: the axis reads 40297..40302, not −3…1
    with "+4.03e4"."""
    run = read_run(golden("mix"))
    w = Window("longest gap: somewhere late", 40_297_000_000, 5_000_000,
               (40_298_000_000, 40_300_000_000), ("gap starts", "gap ends"))
    timeline.plot_windows(run, tmp_path / "timeline.png", [w], "execution trace")
    fig = drawn["timeline.png"]
    assert not _offsets(fig)
    # the window holds no interval of the 600 ms run: the legend lists none
    legend = [t.get_text() for t in fig.get_axes()[0].get_legend().get_texts()]
    assert "interval of CPU" not in legend and "gap starts" in legend, legend
    labels = [t.get_text() for t in fig.get_axes()[0].get_xticklabels() if t.get_text()]
    assert any("40" in s and len(s.replace(",", "").replace("\u2212", "")) >= 5 for s in labels), labels


def test_the_worst_miss_has_one_value_in_the_table_and_the_timeline(golden, tmp_path):
    """The deadline table's worst overrun and the timeline's worst deadline miss are one job:
    the same number (they were 10.415 ms from the runner's counter against 10.414 ms rebuilt
    from the trace)."""
    from hgreport.analyses.summary import summarize
    from hgreport.report.section import Context
    from hgreport.report.sections import threads
    run = read_run(golden("mix"))
    miss = next(w for w in choose_windows(run) if w.what.startswith("worst deadline miss"))
    in_timeline = miss.what.split(", done ")[1].split(" after")[0]
    text = threads.render(Context(run=run, summary=summarize(run), out=tmp_path))
    rows = [ln for ln in text.splitlines() if ln.startswith("| rt |") and "yes" in ln]
    assert rows and f"| {in_timeline} |" in rows[0], (in_timeline, rows)


def test_inter_activation_densities_that_span_decades_are_on_a_log_axis(golden, tmp_path,
                                                                         drawn):
    """A periodic thread's inter-activation times are one spike at the period: on a linear
    axis everything else is invisible. Densities spanning more than a decade: log axis."""
    from hgreport.analyses.summary import summarize
    from hgreport.figures import interactivation
    run = read_run(golden("mix"))
    interactivation.plot(run, summarize(run)["inter_activation"], tmp_path / "ia.png")
    fig = drawn["ia.png"]
    for ax in fig.get_axes():
        heights = np.concatenate([p.get_path().vertices[:, 1] for p in ax.patches])
        span = heights[heights > ax.get_ylim()[0] * 1.0001]
        assert ax.get_yscale() == "log", ax.get_title()
        assert span.max() / span.min() > 10
        assert ax.get_ylim()[0] > 0


def test_series_draws_one_axis_per_load_unit(golden, copy_run, hgreport, drawn):
    """A disk load at ~5 files/s and a network load at ~15,000 requests/s: each rate on an
    axis of its own unit, not one ops/s axis on which the disk's line lies flat at zero."""
    src = golden("mix")
    with (src / "series.jsonl").open("a") as f:
        for k in range(3, 6):
            f.write(json.dumps({"t_ns": k * 100_000_000, "span_ns": 100_000_000, "load": "net",
                                "ops": 1500, "requests": 1500, "replies": 1490}) + "\n")

    def two_loads(doc):
        burn = doc["loads"][0]
        burn["type"] = doc["scenario"]["loads"][0]["type"] = "io"
        net = json.loads(json.dumps(burn))
        net.update(name="net", type="flood_ping", started_ns=200_000_000, stopped_ns=600_000_000)
        doc["loads"].append(net)
        doc["scenario"]["loads"].append(dict(doc["scenario"]["loads"][0], name="net",
                                             type="flood_ping", start_ns=200_000_000,
                                             stop_ns=None))
    run = copy_run(src, two_loads)
    rc, out, err = hgreport("series", run, "-o", run / "report")
    assert rc == 0, err
    fig = drawn["series.png"]
    panels = {ax.get_ylabel(): [ln.get_label() for ln in ax.get_lines()
                                if not ln.get_label().startswith("_")]
              for ax in fig.get_axes() if (ax.get_title(loc="left") or "").startswith("load")}
    assert panels == {"files/s": ["burn files/s"], "requests/s": ["net requests/s"]}, panels
    assert fig.get_axes()[-1].get_xlabel() == "time from the run's start (ms)"
    for ax in fig.get_axes():
        if ax.get_ylabel() == "files/s":     # the disk's line fills its axis
            top = max(np.nanmax(ln.get_ydata()) for ln in ax.get_lines())
            assert top > ax.get_ylim()[1] / 2


def test_compare_figures_keep_thread_instances_apart_as_its_tables(golden, copy_run, hgreport,
                                                                   drawn, tmp_path):
    """compare's tables give hog.0 and hog.1 a section each; so do its figures: a panel per
    instance in the latency CCDF, the gap and the switch-cost histograms, never one pooled."""
    def quiet(doc):
        doc["warnings"] = []
    mix = golden("mix")
    base = copy_run(mix, quiet, "base")
    other = copy_run(mix, None, "other")                  # its competition warnings kept
    rc, out, err = hgreport("compare", base, other, "-o", tmp_path / "cmp")
    assert rc in (0, 6), err
    doc = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    sections = set(doc["subjects"])
    assert {"hog.0", "hog.1"} <= sections
    for name in ("latency_ccdf.png", "gaps.png", "switch_costs.png"):
        titles = [ax.get_title() for ax in drawn[name].get_axes() if ax.get_title()]
        assert titles, name
        for title in titles:
            assert title.startswith("thread ") and title[len("thread "):] in sections, (name, title)
    titles = [ax.get_title() for ax in drawn["switch_costs.png"].get_axes()]
    assert {"thread hog.0", "thread hog.1"} <= set(titles), titles
    # what disturbed a row is said beside its lines too
    for name in ("latency_ccdf.png", "gaps.png", "switch_costs.png", "latency_hist.png"):
        legend = [t.get_text() for leg in drawn[name].legends for t in leg.get_texts()]
        assert legend == ["base", "other (disturbed: competition)"], (name, legend)
    # log axes labelled as plain numbers (0.05), not 6×10^-2 on every minor tick
    for name in ("latency_ccdf.png", "gaps.png", "switch_costs.png", "latency_hist.png"):
        fig = drawn[name]
        fig.canvas.draw()
        texts = [t.get_text() for ax in fig.get_axes() for t in ax.get_yticklabels(which="both")
                 if t.get_visible() and t.get_text()]
        assert texts and not [t for t in texts if "times" in t or "^" in t], (name, texts)


def _bars(ax):
    out = []
    for c in ax.containers:
        for seg in c.lines[2][0].get_segments() if c.lines[2] else []:
            out.append((round(float(seg[0][1]), 6), round(float(seg[1][1]), 6)))
    return out


def test_sweep_bars_are_the_t_interval_and_latency_comes_first(mix_run, tmp_path, hgreport,
                                                                drawn):
    """Three repeats a point: the bars are the 95% t interval of the runs (wider than their
    min-max, which the figure once called "95%"), and a latency sweep's first panel is the
    latency, not cpu_ns."""
    import csv
    from test_one_method import _dataset
    root, _ = _dataset(tmp_path / "data", mix_run, 3, 2.0, seed=5)
    rc, out, err = hgreport("sweep", root, "-o", tmp_path / "sw")
    assert rc == 0, err
    fig = drawn["sweep.png"]
    axes = fig.get_axes()
    assert axes[0].get_ylabel().startswith("lat latency_p99_ns"), axes[0].get_ylabel()
    assert "95% t intervals over the runs" in fig._suptitle.get_text()
    rows = {r["point"]: r for r in csv.DictReader((tmp_path / "sw" / "sweep.csv").open())
            if r["metric"] == "latency_p99_ns"}
    k = 1e-3                                                   # the panel is in us
    bars = sorted(_bars(axes[0]))
    want = sorted((round(float(r["ci95_low"]) * k, 6), round(float(r["ci95_high"]) * k, 6))
                  for r in rows.values())
    assert [x for b in bars for x in b] == pytest.approx([x for w in want for x in w], rel=1e-5)
    for r, (lo, hi) in zip(sorted(rows.values(), key=lambda r: float(r["ci95_low"])), bars):
        runs = [float(v) * k for v in r["values"].split(";")]
        assert lo < min(runs) and hi > max(runs), "a t interval over 3 runs is wider than min-max"
    rc, out, err = hgreport("sweep", root, "--metric", "latency_max_ns", "--metric", "cpu_ns",
                            "-o", tmp_path / "sw2")
    assert rc == 0, err
    assert drawn["sweep.png"].get_axes()[0].get_ylabel().startswith("lat latency_max_ns")


def test_sweep_rings_the_points_whose_runs_were_disturbed(mix_run, tmp_path, hgreport, drawn):
    """lat skipped wake-up slots in p000's runs: a red ring on p000 in lat's panels, none in
    the other threads' panels nor at p001, and the title says what the ring means."""
    from test_one_method import _dataset
    root, _ = _dataset(tmp_path / "data", mix_run, 3, 2.0, seed=5)
    for d in (root / "p000").iterdir():
        doc = json.loads((d / "result.json").read_text())
        next(t for t in doc["threads"] if t["name"] == "lat")["stats"]["latency"]["grid_skipped"] = 9
        (d / "result.json").write_text(json.dumps(doc))
    rc, out, err = hgreport("sweep", root, "--metric", "latency_p99_ns", "--metric", "cpu_ns",
                            "-o", tmp_path / "sw")
    assert rc == 0, err
    fig = drawn["sweep.png"]
    rings = {ax.get_ylabel().split(" (")[0]: [float(x) for ln in ax.get_lines()
                                              if ln.get_label() == "_disturbed"
                                              for x in ln.get_xdata()]
             for ax in fig.get_axes()}
    assert rings == {"lat latency_p99_ns": [0.0], "hog cpu_ns": [], "lat cpu_ns": [0.0],
                     "rt cpu_ns": []}, rings
    assert "red ring: disturbed runs" in fig._suptitle.get_text()


def test_the_latency_ccdf_counts_skipped_slots_as_later_than_every_x(golden, copy_run,
                                                                     hgreport, drawn, tmp_path):
    """100 skipped slots beside 234 wake-ups: the curve is over 334 slots and ends at 101/334,
    not at 1/234 as if the skipped ones had never been due (docs/results.md)."""
    def skips(doc):
        next(t for t in doc["threads"] if t["name"] == "lat")["stats"]["latency"]["grid_skipped"] = 100
    mix = golden("mix")
    other = copy_run(mix, skips, "other")
    rc, out, err = hgreport("compare", mix, other, "-o", tmp_path / "cmp")
    assert rc in (0, 6), err
    ax = drawn["latency_ccdf.png"].get_axes()[0]
    ends = {ln.get_label(): float(np.min(ln.get_ydata())) for ln in ax.get_lines()
            if not ln.get_label().startswith("_")}
    assert ends["mix"] == pytest.approx(1 / 234) and ends["other"] == pytest.approx(101 / 334)
    assert any("100 skipped slots" in t.get_text() for t in ax.texts)
