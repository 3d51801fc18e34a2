# SPDX-License-Identifier: GPL-2.0-or-later
"""How a figure is written (figures/plotting.py's save): one draw, cropped to what it draws as
savefig's bbox_inches="tight" crops, never cutting what lies past the room drawn around it; the
PNG it writes decodes to the pixels drawn; and the report's two processes take the costliest
figures first (report/assemble.py)."""
import io
import struct

import numpy as np
import pytest
from matplotlib.image import imread

from hgreport.base import forked
from hgreport.figures import plotting
from hgreport.figures import layout
from hgreport.figures.plotting import plt


def _legend_figure():
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.plot([1, 2, 3], [3, 1, 2], label="a line with a long label, outside the axes")
    ax.set_title("title")
    ax.set_xlabel("x label")
    plotting.legend_outside(ax)
    return fig


def test_a_saved_figure_is_cropped_as_a_tight_bbox_would_crop_it(tmp_path):
    """The image save() writes has, within 3 pixels a side, the size of savefig's tight one:
    the legend right of the axes is in it, the figure's white margins are not."""
    path = plotting.save(_legend_figure(), tmp_path / "a.png")
    tight = io.BytesIO()
    _legend_figure().savefig(tight, format="png", dpi=plotting.DPI, bbox_inches="tight")
    tight.seek(0)
    got, want = _size(path), _size(tight)
    assert abs(got[0] - want[0]) <= 6 and abs(got[1] - want[1]) <= 6, (got, want)
    assert got[0] > 5 * plotting.DPI          # wider than the figure: the legend is in it


def test_what_reaches_past_the_room_around_a_figure_is_saved_too(tmp_path):
    """A legend far right of the figure, past ROOM_IN: the image still reaches it (saved the
    measuring way), as savefig's tight box does."""
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [0, 1], label="far away")
    box = ax.get_position()                       # in figure fractions; the figure is 3 in wide
    far = 3 + plotting.ROOM_IN[2] + 2             # inches from the figure's left edge
    plotting.legend_outside(ax, x=(far / 3 - box.x0) / box.width)
    path = plotting.save(fig, tmp_path / "far.png")
    assert _size(path)[0] > (far - box.x0 * 3) * plotting.DPI


@pytest.mark.parametrize("channels", [3, 4])
def test_the_png_decodes_to_the_pixels_and_resolution_given(channels):
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (37, 53, channels), dtype=np.uint8)
    image[10:20] = image[9]                       # rows that repeat, as a figure's do
    for level in (1, 3, 9):
        png = plotting.png_bytes(image, 120, level)
        got = imread(io.BytesIO(png), format="png")
        assert got.shape == image.shape
        assert np.array_equal(np.round(got * 255).astype(np.uint8), image)
        k = png.index(b"pHYs")
        ppm_x, ppm_y, unit = struct.unpack(">IIB", png[k + 4:k + 13])
        assert unit == 1 and ppm_x == ppm_y and round(ppm_x * 0.0254) == 120


@pytest.mark.skipif(not forked.can_fork(), reason="no fork here: one process draws in page order")
def test_the_costliest_figure_is_drawn_first(mix_run, tmp_path, monkeypatch):
    """The queue the report's two processes share starts with the figure of the highest cost
    (the timeline, 3), not with the first of the page (the latency figure)."""
    from hgreport.read.rundir import read_run
    from hgreport.report import assemble
    seen = []
    real = assemble._Queue

    def queue(order):
        seen.append(list(order))
        return real(order)
    monkeypatch.setattr(assemble, "_Queue", queue)
    assemble.write_report(read_run(mix_run), tmp_path / "out")
    assert len(seen) == 1
    files = [f.file for f in assemble.planned(_ctx(mix_run, tmp_path))]
    first = files[seen[0][0]]
    assert first == "timeline.png" and files[0] != first, (files, seen)


def _size(png) -> tuple[int, int]:
    """(width, height) of a PNG file or buffer."""
    h, w = imread(png, format="png").shape[:2]
    return w, h


def _ctx(run_dir, tmp_path):
    from hgreport.analyses.summary import summarize
    from hgreport.base.units import DEFAULT_THRESHOLDS_NS
    from hgreport.read.rundir import read_run
    from hgreport.report.section import Context
    run = read_run(run_dir)
    return Context(run, summarize(run, DEFAULT_THRESHOLDS_NS), tmp_path / "ctx", None)


def _panels():
    fig, axes = plt.subplots(2, 2, figsize=(9, 6), squeeze=False)
    for k, ax in enumerate(axes.flat):
        ax.plot([1, 10, 100], [5, 500, 50], label=f"thread {k}")
        ax.set_yticks([5, 250, 500])
        ax.set_yticklabels(["five", "two hundred fifty", "500"], fontsize=7)
        ax.set_xlabel("time from the run's start (ms)")
        ax.set_ylabel("wake-ups")
        ax.set_title(f"panel {k}: a title", fontsize=9)
    plotting.legend_outside(axes[0, 1])
    fig.suptitle("a figure's title", fontsize=10)
    return fig


def test_fit_layout_leaves_the_room_tight_layout_would():
    """fit_layout (estimates, no measuring) lays a grid of panels out within 0.03 of the
    figure of where tight_layout (every artist measured) puts them, its spaces within 25%."""
    fig = _panels()
    want = layout._fit_params(fig)
    fig.tight_layout()
    real = fig.subplotpars
    for k in ("left", "right", "top", "bottom"):
        assert abs(getattr(real, k) - want[k]) < 0.03, (k, getattr(real, k), want[k])
    for k in ("hspace", "wspace"):
        assert abs(getattr(real, k) - want[k]) < 0.25 * getattr(real, k), (k, real, want)


def test_powers_of_ten_are_labelled_in_plain_text():
    assert [plotting.sci_label(v) for v in (1, 0.1, 0.02, 1e-12, 3e5)] == \
        ["10\u2070", "10\u207b\u00b9", "2\u00d710\u207b\u00b2", "10\u207b\u00b9\u00b2",
         "3\u00d710\u2075"]


def test_the_latency_figure_parses_no_mathtext(mix_run, tmp_path, monkeypatch):
    """Its 1 - CDF axis is labelled in powers of ten as plain text: mathtext's parser (built
    at its first use in a process, a third of the figure's time) is never asked."""
    import matplotlib.mathtext
    from hgreport.figures import latency
    from hgreport.read.rundir import read_run

    def refuse(*args, **kw):
        raise AssertionError("mathtext parsed")
    monkeypatch.setattr(matplotlib.mathtext.MathTextParser, "parse", refuse)
    latency.plot_latency(read_run(mix_run), tmp_path / "latency.png")
    assert (tmp_path / "latency.png").stat().st_size > 0


def test_fit_layout_keeps_wide_capital_labels_and_legends_off_the_next_panel():
    """Names in capitals and symbols (a thread's 15 characters, "W" a full font size wide) on
    a panel's y ticks, and in the legend outside the panel to its left: drawn, neither reaches
    into the next panel's box or its tick labels."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3))
    names = ["WWWWWWWWWWWWWWW", "MMMM%%%\u00d7DDDOOO", "QGGW=+WWMMWW"]
    for ax in axes:
        ax.plot([1, 2, 3], [0, 1, 2], label=names[0])
        ax.plot([1, 2, 3], [2, 1, 0], label=names[1])
        ax.set_yticks([0, 1, 2])
        ax.set_yticklabels(names, fontsize=8)
        plotting.legend_outside(ax)
    layout.fit_layout(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    for left, right in zip(axes[:-1], axes[1:]):
        reach = max(b.x1 for b in (left.get_legend().get_window_extent(renderer),
                                   left.get_window_extent(renderer)))
        labels = [t.get_window_extent(renderer) for t in right.get_yticklabels()]
        assert reach <= min(b.x0 for b in labels), (reach, [b.x0 for b in labels])


def test_fit_layout_leaves_no_room_for_hidden_tick_labels():
    """Panels sharing a y axis show its tick labels on the first only: the others get no
    room for them (a narrower gap than with the labels shown)."""
    def gap(sharey):
        fig, axes = plt.subplots(1, 2, figsize=(8, 3), sharey=sharey)
        for ax in axes:
            ax.plot([1, 2], [1e5, 2e5])
        return layout._fit_params(fig)["wspace"]
    assert gap(True) < 0.8 * gap(False)


def test_a_title_wider_than_its_panel_goes_on_two_lines():
    """A grid of small panels titled with a long thread's name (outliers.png): each such title
    is broken after its ": " and no two titles overlap once drawn; a title that fits is left
    as it is."""
    fig, axes = plt.subplots(1, 3, figsize=(12.6, 2.3))
    long = "#1 at 16.878 ms: WWWWWWWWWWWWW2WW wake-up 15.878 ms late"
    for ax in axes:
        ax.set_yticks([0, 1])
        ax.set_yticklabels(["WWWWWWWWWWWWW0WW", "WWWWWWWWWWWWW1WW"], fontsize=7)
    for ax in axes[:2]:
        ax.set_title(long, fontsize=8)
    axes[2].set_title("#3 at 1 ms: rt gap 2 ms", fontsize=8)
    axes[2].plot([0, 1], [0, 1], label="the outlier (gap or late wake-up)")
    plotting.legend_outside(axes[2], fontsize=7)
    layout.fit_layout(fig)
    assert layout.wrap_titles(fig)
    layout.fit_layout(fig)
    assert [ax.title.get_text() for ax in axes] == [
        "#1 at 16.878 ms:\nWWWWWWWWWWWWW2WW wake-up 15.878 ms late"] * 2 + ["#3 at 1 ms: rt gap 2 ms"]
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    boxes = [ax.title.get_window_extent(renderer) for ax in axes]
    assert boxes[0].x1 <= boxes[1].x0 and boxes[1].x1 <= boxes[2].x0, boxes
    assert not layout.wrap_titles(fig)          # nothing more to break


def test_the_inter_activation_figure_parses_no_mathtext(mix_run, tmp_path, monkeypatch):
    """Its log density axis (mix's periodic threads span decades) says 10⁻³ as plain text,
    as latency.png's does: mathtext's parser is never asked."""
    import matplotlib.mathtext
    from hgreport.analyses.summary import summarize
    from hgreport.figures import interactivation
    from hgreport.read.rundir import read_run

    def refuse(*args, **kw):
        raise AssertionError("mathtext parsed")
    monkeypatch.setattr(matplotlib.mathtext.MathTextParser, "parse", refuse)
    run = read_run(mix_run)
    interactivation.plot(run, summarize(run)["inter_activation"], tmp_path / "ia.png")
    assert (tmp_path / "ia.png").stat().st_size > 0


def test_the_png_of_a_view_is_that_of_its_copy():
    """save() encodes the canvas' cropped pixels where they lie (a strided view, RGB of RGBA):
    the same bytes as from a contiguous copy."""
    rng = np.random.default_rng(2)
    canvas = rng.integers(0, 256, (40, 60, 4), dtype=np.uint8)
    view = canvas[3:31, 5:47, :3]
    assert not view.flags.c_contiguous
    assert plotting.png_bytes(view, 120) == plotting.png_bytes(view.copy(), 120)
