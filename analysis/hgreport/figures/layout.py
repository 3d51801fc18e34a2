# SPDX-License-Identifier: GPL-2.0-or-later
"""Laying a figure out: fit_layout (tight_layout's margins from estimates, nothing measured),
aligned y labels, the box savefig's tight crop would take, and which tick labels are drawn."""
from __future__ import annotations

import functools
from typing import Any, Sequence

import numpy as np

from .mpl import Bbox, PlaceHolderLayoutEngine, matplotlib
from .style import DPI

def tight_bbox(fig: Any) -> Any:
    """What savefig's bbox_inches="tight" crops to (every artist's extent at the saved DPI,
    padded by savefig.pad_inches), without its first, invisible draw of the whole figure:
    the extents alone place titles, axis labels and legends as a draw does
    (Axes.get_tightbbox updates them), so the file is the same at about half the cost.
    A figure with a layout engine (constrained layout) is laid out at draw time: None, for
    savefig's own "tight". (fig.tight_layout() lays a figure out once and leaves a
    placeholder engine that does nothing at draw time but would make savefig draw the figure
    first: it is dropped.)"""
    engine = fig.get_layout_engine()
    if isinstance(engine, PlaceHolderLayoutEngine):
        fig.set_layout_engine(None)
    elif engine is not None:
        return None
    dpi = fig.dpi
    fig.dpi = DPI
    try:
        box = fig.get_tightbbox(fig.canvas.get_renderer())
    finally:
        fig.dpi = dpi
    pad = matplotlib.rcParams["savefig.pad_inches"]
    return box.padded(pad)   # one argument: matplotlib 3.7 takes no h_pad


def fit_layout(fig: Any, pad: float = 1.08) -> None:
    """What fig.tight_layout(pad) does for a grid of axes (plt.subplots), from estimates:
    margins and spaces that hold each axes' tick labels, axis labels and title, and the
    suptitle, with `pad` font sizes around them. Text widths come from a table of the
    characters of numbers and units, or from the font (_width), heights from their lines, as
    the font sizes give them: no artist is measured, at most one tick made (tight_layout measured
    every one of them, and the draw then did so again: a quarter of timeline.png's time,
    analysis/README.md#performance). The saved image is cropped to what it draws (save), so a
    margin only has to be enough."""
    fig.subplots_adjust(**_fit_params(fig, pad))


def wrap_titles(fig: Any) -> bool:
    """Puts each axes' title that is wider than its axes (estimates, _text_box: a long thread
    name in a grid of small panels) on two lines, broken after its first ": " or else at the
    space nearest its middle, so that it does not run into its neighbours' titles; True when
    one was, and the figure wants laying out again (fit_layout)."""
    fig_w = fig.get_size_inches()[0] * 72
    changed = False
    for ax in fig.axes:
        text = ax.title.get_text()
        if not text or "\n" in text or \
                _text_box(text, ax.title.get_fontsize())[0] <= ax.get_position().width * fig_w:
            continue
        at = text.find(": ")
        if at < 0:
            spaces = [k for k, ch in enumerate(text) if ch == " "]
            if not spaces:
                continue
            at = min(spaces, key=lambda k: abs(k - len(text) / 2)) - 1
        ax.title.set_text(text[:at + 1] + "\n" + text[at + 2:])
        changed = True
    return changed


def _points(size: Any) -> float:
    from matplotlib.font_manager import FontProperties
    return float(FontProperties(size=size).get_size_in_points())


# Advance widths of DejaVu Sans (matplotlib's font) in font sizes: digits, lower case and the
# punctuation of numbers and units, what tick labels are made of.
_EM = {**dict.fromkeys("0123456789", 0.636), **dict.fromkeys(" ,.", 0.318),
       **dict.fromkeys("ijl'|", 0.278), **dict.fromkeys("ft", 0.37), **dict.fromkeys(":;", 0.337),
       **dict.fromkeys("()[]", 0.39), **dict.fromkeys("-/", 0.35), "r": 0.411, "s": 0.521,
       "c": 0.55, "z": 0.525, **dict.fromkeys("kvxy", 0.59), **dict.fromkeys("mw", 0.9),
       "_": 0.5, **dict.fromkeys("abdeghnopqu", 0.62)}


def _width(line: str, size: float) -> float:
    """Width in points of one line of text of `size` points: from _EM when it has every
    character; otherwise measured by the font (capitals, symbols, other scripts: a thread's
    name, a legend's label), where one average width ran short by up to 40% (W, M, %, x)
    and let a panel's labels run into the next one's."""
    if all(ch in _EM for ch in line):
        return sum(_EM[ch] for ch in line) * size
    return _measured(line, float(size))


@functools.lru_cache(maxsize=4096)
def _measured(line: str, size: float) -> float:
    """The advance width of `line` in the default font, as matplotlib draws it (its Agg renderer
    at 72 dpi: points), without an artist."""
    from matplotlib.font_manager import FontProperties
    w, _, _ = _renderer().get_text_width_height_descent(line, FontProperties(size=size),
                                                        ismath=False)
    return float(w)


@functools.lru_cache(maxsize=1)
def _renderer() -> Any:
    from matplotlib.backends.backend_agg import RendererAgg
    return RendererAgg(1, 1, 72)


def _text_box(text: str, size: float) -> tuple[float, float]:
    """(width, height) in points of a text of `size` points: its widest line (_width;
    mathtext's markup not counted), a line one font size high, 1.2 apart."""
    import re
    plain = re.sub(r"\\mathdefault|[${}^]", "", text) if "$" in text else text
    lines = plain.split("\n") if plain else []
    return (max((_width(x, size) for x in lines), default=0.0),
            (1.2 * len(lines) - 0.2) * size if lines else 0.0)


def _tick_texts(axis: Any) -> list[str]:
    """The labels of the axis' major ticks in its view (its locator and formatter asked; no
    Tick made)."""
    locs = np.asarray(axis.get_majorticklocs(), float)
    if not len(locs):
        return []
    lo, hi = sorted(axis.get_view_interval())
    tol = (hi - lo) * 1e-10
    keep = (locs >= lo - tol) & (locs <= hi + tol)
    texts = axis.major.formatter.format_ticks(locs)
    return [t for t, k in zip(texts, keep) if k]


def _decorations(ax: Any) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) in points: how far the axes' tick labels, axis labels and
    title reach past its box (estimates, _text_box)."""
    rc = matplotlib.rcParams
    left = bottom = right = top = 0.0
    if not ax.axison:
        return left, bottom, right, top
    for axis, k in ((ax.xaxis, "xtick"), (ax.yaxis, "ytick")):
        kw = axis.get_tick_params()
        size = float(axis.get_major_ticks(1)[0].label1.get_fontsize())   # set_*ticklabels too
        shown = kw.get("labelbottom", True) or kw.get("labeltop", False) if k == "xtick" \
            else kw.get("labelleft", True) or kw.get("labelright", False)
        boxes = [_text_box(t, size) for t in _tick_texts(axis)] if shown else []
        reach = kw.get("size", rc[f"{k}.major.size"]) + kw.get("pad", rc[f"{k}.major.pad"])
        label = axis.label
        label_reach = 0.0
        if label.get_visible() and label.get_text():
            label_reach = axis.labelpad + _text_box(label.get_text(),
                                                    label.get_fontsize())[1]
        if k == "xtick":
            bottom = reach + max((h for _, h in boxes), default=0) + label_reach
            right = max(right, boxes[-1][0] / 2 if boxes else 0)   # the last label's overhang
        else:
            side = reach + max((w for w, _ in boxes), default=0) + label_reach
            if axis.get_label_position() == "right":      # a twin's axis
                right = max(right, side)
            else:
                left = side
            top = max(top, max((h for _, h in boxes), default=0) / 2)
    for t in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
        if t is not None and t.get_text():
            top = max(top, rc["axes.titlepad"] + _text_box(t.get_text(), t.get_fontsize())[1])
    leg = ax.get_legend()
    where = getattr(ax, "_hg_legend", None)
    if leg is not None and leg.get_visible() and where is not None:
        w, h = _legend_box(leg)
        box = ax.get_position()
        fig_w, fig_h = ax.figure.get_size_inches() * 72
        if where[0] == "right":
            right = max(right, (where[1] - 1) * box.width * fig_w + w)
        else:
            bottom = max(bottom, where[1] * box.height * fig_h + h)
    return left, bottom, right, top


def _legend_box(leg: Any) -> tuple[float, float]:
    """(width, height) in points of a frameless legend (estimates, _text_box): its columns of
    a handle and a label, its title above."""
    rc = matplotlib.rcParams
    texts = leg.get_texts()
    size = texts[0].get_fontsize() if texts else rc["font.size"]
    ncol = max(1, getattr(leg, "_ncols", 1))
    rows = -(-len(texts) // ncol)
    col_w = max((_text_box(t.get_text(), size)[0] for t in texts), default=0)
    entry = (rc["legend.handlelength"] + rc["legend.handletextpad"]) * size
    width = ncol * (col_w + entry) + (ncol - 1) * rc["legend.columnspacing"] * size
    height = rows * size + (rows - 1) * rc["legend.labelspacing"] * size
    title = leg.get_title()
    if title.get_text():
        tw, th = _text_box(title.get_text(), title.get_fontsize())
        width, height = max(width, tw), height + th + rc["legend.labelspacing"] * size
    return width + 2 * rc["legend.borderpad"] * size, height + 2 * rc["legend.borderpad"] * size


def _fit_params(fig: Any, pad: float = 1.08) -> dict[str, float]:
    """subplots_adjust's parameters for fit_layout."""
    axes = [ax for ax in fig.axes if ax.get_subplotspec() is not None]
    if not axes:
        sp = fig.subplotpars
        return {k: getattr(sp, k) for k in ("left", "right", "top", "bottom", "hspace", "wspace")}
    gs = axes[0].get_subplotspec().get_gridspec()
    nrows, ncols = gs.get_geometry()
    w_in, h_in = fig.get_size_inches()
    pad_pt = pad * _points(matplotlib.rcParams["font.size"])
    lefts = [0.0] * ncols
    rights = [0.0] * ncols
    tops = [0.0] * nrows
    bottoms = [0.0] * nrows
    for ax in axes:
        ss = ax.get_subplotspec()
        left, bottom, right, top = _decorations(ax)
        for r in range(ss.rowspan.start, ss.rowspan.stop):
            tops[r] = max(tops[r], top) if r == ss.rowspan.start else tops[r]
            bottoms[r] = max(bottoms[r], bottom) if r == ss.rowspan.stop - 1 else bottoms[r]
        for c in range(ss.colspan.start, ss.colspan.stop):
            lefts[c] = max(lefts[c], left) if c == ss.colspan.start else lefts[c]
            rights[c] = max(rights[c], right) if c == ss.colspan.stop - 1 else rights[c]
    sup = 0.0
    suptitle = getattr(fig, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        sup = _text_box(suptitle.get_text(), suptitle.get_fontsize())[1] + pad_pt
    to_w, to_h = 1 / (72 * w_in), 1 / (72 * h_in)
    left = (lefts[0] + pad_pt) * to_w
    right = 1 - (rights[-1] + pad_pt) * to_w
    top = 1 - (tops[0] + pad_pt + sup) * to_h
    bottom = (bottoms[-1] + pad_pt) * to_h
    hgap = max((bottoms[r] + tops[r + 1] + pad_pt for r in range(nrows - 1)), default=0) * to_h
    wgap = max((rights[c] + lefts[c + 1] + pad_pt for c in range(ncols - 1)), default=0) * to_w
    ah = (top - bottom - (nrows - 1) * hgap) / nrows
    aw = (right - left - (ncols - 1) * wgap) / ncols
    return {"left": left, "right": right, "top": top, "bottom": bottom,
            "hspace": hgap / ah if nrows > 1 else 0.0, "wspace": wgap / aw if ncols > 1 else 0.0}


def ticklabels_in_view(axis: Any) -> list[Any]:
    """The axis' tick labels (major and minor) that are drawn: visible, laid out and at a tick
    inside the view (within 1e-10 of its span, in the scale's coordinates, as the axis itself
    picks the ticks it draws)."""
    scale = axis.get_transform()
    lo, hi = sorted(scale.transform(np.asarray(axis.get_view_interval(), float)))
    tol = (hi - lo) * 1e-10
    k = 1 if axis.axis_name == "y" else 0
    out = []
    for label in axis.get_ticklabels(which="both"):
        if not label.get_in_layout():
            continue
        at = scale.transform(np.asarray([label.get_position()[k]], float))[0]
        if lo - tol <= at <= hi + tol:
            out.append(label)
    return out


def align_ylabels(fig: Any, axes: Sequence[Any]) -> None:
    """What fig.align_ylabels(axes) draws for axes stacked in one column, computed once at the
    saved DPI: each y label at the leftmost edge of the column's tick labels (or left spines),
    less its labelpad, as YAxis._update_label_position places an aligned label. (With
    fig.align_ylabels every axis measures every other's tick labels at each layout and draw:
    a fifth of series.png's time.) The labels then stay there, in axes fractions."""
    dpi = fig.dpi
    fig.dpi = DPI
    try:
        renderer = fig.canvas.get_renderer()
        edges = []
        for ax in axes:
            boxes = [t.get_window_extent(renderer) for t in ticklabels_in_view(ax.yaxis)]
            edges.append(Bbox.union([*boxes, ax.spines["left"].get_window_extent()]).x0)
        left = min(edges)
        for ax in axes:
            box = ax.get_window_extent()
            x = left - ax.yaxis.labelpad * DPI / 72
            ax.yaxis.set_label_coords((x - box.x0) / box.width, ax.yaxis.label.get_position()[1])
    finally:
        fig.dpi = dpi
