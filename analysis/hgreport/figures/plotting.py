# SPDX-License-Identifier: GPL-2.0-or-later
"""matplotlib with the Agg backend, and what every figure shares: load windows (one colour and
hatch per load, overlaps visible as crossed hatching), log axes whose labels never collide, time
axes in readable units, legends outside the data."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any, Sequence

import matplotlib
import matplotlib.artist

matplotlib.use("Agg")
# Tick labels say the value itself: a window 40.3 s into a run reads 40297..40302 ms, not
# −3…1 with "+4.03e4" in a corner, and rates up to 10^9 are not "×1e6" (docs/testing.md,
# "Writing a test").
matplotlib.rcParams["axes.formatter.useoffset"] = False
matplotlib.rcParams["axes.formatter.limits"] = (-6, 9)
# While matplotlib defines its Artist classes, matplotlib.artist.kwdoc (which writes the table
# of every settable property into the docstring of each class's `set`) returns nothing: the
# docstrings are help text no figure reads, and writing them is 0.09 s of CPU, 15% of
# importing what a figure needs (analysis/README.md#performance). Restored once they exist.
# Nor is mpl_toolkits.mplot3d imported, which matplotlib.projections imports to register the
# "3d" projection no figure uses (0.013 s of CPU, 5% of the imports): blocked while
# matplotlib.figure is imported, matplotlib goes on without the projection, as it does where
# mplot3d is missing; importing it afterwards works as ever.
_kwdoc = matplotlib.artist.kwdoc
matplotlib.artist.kwdoc = lambda artist: ""
_MPLOT3D = "mpl_toolkits.mplot3d"
_block_3d = _MPLOT3D not in sys.modules and "matplotlib.projections" not in sys.modules
if _block_3d:
    sys.modules[_MPLOT3D] = None  # type: ignore[assignment]   # its import raises ImportError
try:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Unable to import Axes3D")
        try:
            import matplotlib.figure  # noqa: E402,F401
        except ImportError:
            if not _block_3d:
                raise
            del sys.modules[_MPLOT3D]
            _block_3d = False
            import matplotlib.figure  # noqa: E402,F401   (a matplotlib that needs mplot3d)
    import matplotlib.lines  # noqa: E402
    import matplotlib.patches  # noqa: E402
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
    from matplotlib.figure import Figure  # noqa: E402
    from matplotlib.layout_engine import PlaceHolderLayoutEngine  # noqa: E402
    from matplotlib.patches import Patch  # noqa: E402
    from matplotlib.ticker import (FuncFormatter, Locator, LogLocator,  # noqa: E402
                                   NullFormatter, NullLocator)
    from matplotlib.transforms import Bbox  # noqa: E402
finally:
    matplotlib.artist.kwdoc = _kwdoc
    if _block_3d and sys.modules.get(_MPLOT3D, 0) is None:
        del sys.modules[_MPLOT3D]
import numpy as np  # noqa: E402

from ..base import safeout  # noqa: E402
from . import figure  # noqa: E402
from .style import (DPI, LOAD_COLORS, LOAD_HATCHES, clock_unit, fmt_duration,  # noqa: E402,F401
                    load_style, load_windows)



class _Figures:
    """The part of pyplot the figures use (`plt.subplots`, `plt.figure`, ...), made of what
    pyplot makes them of, a matplotlib.figure.Figure on the Agg canvas, without pyplot: its
    import (its own modules and the backend machinery: 0.01-0.02 s) and its registry of open
    figures. A figure is saved with `save` and then simply dropped; `close` is there for code
    written for pyplot."""

    Rectangle = matplotlib.patches.Rectangle
    Line2D = matplotlib.lines.Line2D

    @staticmethod
    def figure(**kw: Any) -> Any:
        fig = Figure(**kw)
        FigureCanvasAgg(fig)
        return fig

    @staticmethod
    def subplots(nrows: int = 1, ncols: int = 1, *, sharex: Any = False, sharey: Any = False,
                 squeeze: bool = True, width_ratios: Any = None, height_ratios: Any = None,
                 subplot_kw: Any = None, gridspec_kw: Any = None, **fig_kw: Any) -> Any:
        fig = _Figures.figure(**fig_kw)
        axs = fig.subplots(nrows=nrows, ncols=ncols, sharex=sharex, sharey=sharey,
                           squeeze=squeeze, subplot_kw=subplot_kw, gridspec_kw=gridspec_kw,
                           height_ratios=height_ratios, width_ratios=width_ratios)
        return fig, axs

    @staticmethod
    def close(fig: Any) -> None:
        """Nothing holds a figure but its user (no pyplot registry): nothing to do."""

    @staticmethod
    def get_cmap(name: str) -> Any:
        return matplotlib.colormaps[name]


plt = _Figures()
WHOLE_VIEW = 0.02    # a load within this share of both ends of the view runs throughout it


def shade_loads(ax: Any, loads: list[dict[str, Any]], scale: float, lo: float | None = None,
                hi: float | None = None, legend: bool = True) -> list[Patch]:
    """Shade each load's window (times divided by `scale`) in its own colour and hatch: where
    two windows overlap both hatchings show. A load that runs throughout the view [lo, hi]
    is not shaded (five whole-run loads stacked their hatches into a grey mesh over every
    panel): its legend entry, a plain patch, says "throughout". Returns the legend handles
    (also added to the axes' legend entries when `legend`)."""
    handles = []
    for k, label, a_ns, b_ns in load_windows(loads):
        a, b = a_ns / scale, b_ns / scale
        if lo is not None and hi is not None and (b < lo or a > hi):
            continue
        color, hatch = load_style(k)
        if lo is not None and hi is not None and hi > lo:
            edge = WHOLE_VIEW * (hi - lo)
            if a <= lo + edge and b >= hi - edge:
                handles.append(Patch(facecolor=matplotlib.colors.to_rgba(color, 0.25),
                                     edgecolor=color, label=f"{label}: throughout"))
                continue
        ax.axvspan(a, b, facecolor=color, alpha=0.10, lw=0, zorder=0)
        ax.axvspan(a, b, facecolor="none", edgecolor=color, hatch=hatch, alpha=0.35, lw=0,
                   zorder=0)
        h = Patch(facecolor=matplotlib.colors.to_rgba(color, 0.25), edgecolor=color, hatch=hatch,
                  label=label)
        handles.append(h)
    if legend and handles:
        ax._hg_load_handles = handles  # picked up by legend_outside
    return handles


def legend_outside(ax: Any, handles: Sequence[Any] | None = None, fontsize: float = 7,
                   title: str | None = None, x: float = 1.01, **kw: Any) -> Any:
    """The legend to the right of the axes, outside the data; load windows included. `x`:
    where it starts, in axes widths (further right past a second y axis' labels)."""
    h, lab = ax.get_legend_handles_labels()
    if handles is not None:
        h, lab = list(handles), [x.get_label() for x in handles]
    extra = [x for x in getattr(ax, "_hg_load_handles", []) if x.get_label() not in lab]
    h, lab = list(h) + extra, list(lab) + [x.get_label() for x in extra]
    if not h:
        return None
    ax._hg_legend = ("right", x)                  # for fit_layout
    return ax.legend(h, lab, loc="upper left", bbox_to_anchor=(x, 1.0), fontsize=fontsize,
                     frameon=False, borderaxespad=0.0, title=title, title_fontsize=fontsize, **kw)


def legend_below(ax: Any, fontsize: float = 7, ncol: int = 2, below: float = 0.2,
                 **kw: Any) -> Any:
    """The legend under the axes, `below` axes heights down (clear of the x label), for
    panels side by side."""
    if not ax.get_legend_handles_labels()[0]:
        return None
    ax._hg_legend = ("below", below)              # for fit_layout
    return ax.legend(loc="upper center", bbox_to_anchor=(0.5, -below), fontsize=fontsize,
                     ncol=ncol, frameon=False, **kw)


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
    return box.padded(pad, pad)


def fit_layout(fig: Any, pad: float = 1.08) -> None:
    """What fig.tight_layout(pad) does for a grid of axes (plt.subplots), from estimates:
    margins and spaces that hold each axes' tick labels, axis labels and title, and the
    suptitle, with `pad` font sizes around them. Tick labels' widths are estimated from their
    characters (_LogTicks.EM), heights from their lines, as the font sizes give them: no
    artist is measured, nor a tick made (tight_layout measured every one of them, and the
    draw then did so again: a quarter of timeline.png's time, analysis/README.md#performance).
    The saved image is cropped to what it draws (save), so a margin only has to be enough."""
    fig.subplots_adjust(**_fit_params(fig, pad))


def _points(size: Any) -> float:
    from matplotlib.font_manager import FontProperties
    return float(FontProperties(size=size).get_size_in_points())


# Advance widths of DejaVu Sans (matplotlib's font) in font sizes, by character; others 0.62.
_EM = {**dict.fromkeys("0123456789", 0.636), **dict.fromkeys(" ,.", 0.318),
       **dict.fromkeys("ijl'|", 0.278), **dict.fromkeys("ft", 0.37), **dict.fromkeys(":;", 0.337),
       **dict.fromkeys("()[]", 0.39), **dict.fromkeys("-/", 0.35), "r": 0.411, "s": 0.521,
       "c": 0.55, "z": 0.525, **dict.fromkeys("kvxy", 0.59), **dict.fromkeys("mw", 0.9),
       "_": 0.5, **dict.fromkeys("abdeghnopqu", 0.62)}


def _text_box(text: str, size: float) -> tuple[float, float]:
    """(width, height) in points of a text of `size` points: its characters' widths (_EM;
    mathtext's markup not counted, capitals 0.72), a line one font size high, 1.2 apart."""
    import re
    plain = re.sub(r"\\mathdefault|[${}^]", "", text) if "$" in text else text
    lines = plain.split("\n") if plain else []
    return (max((sum(_EM.get(ch, 0.72 if ch.isupper() else 0.62) for ch in x) for x in lines),
                default=0) * size,
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
        size = float(axis.get_major_ticks(1)[0].label1.get_fontsize())
        boxes = [_text_box(t, size) for t in _tick_texts(axis)] \
            if kw.get("label1On", True) else []
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


def warm() -> None:
    """Loads what the first figure of a process would (before a fork, so that each process
    need not): the fonts, by measuring a tick label, and numpy.ma, which matplotlib imports
    when it first draws."""
    import numpy.ma  # noqa: F401
    fig = plt.figure(figsize=(1, 1), dpi=DPI)
    fig.text(0.5, 0.5, "0.5 ms").get_window_extent(fig.canvas.get_renderer())


# Room around the figure, in inches (left, bottom, right, top), that save() draws a PNG into:
# what reaches past the figure's edges (legends to the right or below the axes, tick labels of
# axes near an edge) is drawn there, then the image is cropped to what was drawn. A figure with
# a text or legend past this room too is saved the measuring way (tight_bbox), never cut.
ROOM_IN = (1.5, 2.5, 6.0, 1.5)


def save(fig: Any, path: Path) -> Path:
    """Writes the figure to `path` (PNG, or the format its suffix names) at DPI, cropped to
    what it draws plus savefig.pad_inches, as savefig's bbox_inches="tight" crops. A PNG is
    drawn once (_draw_cropped); a figure with a layout engine, or another format, through
    savefig with tight_bbox's box."""
    png = path.suffix.lower() in (".png", "")
    image = _draw_cropped(fig) if png else None
    with safeout.open_out(path, "wb") as f:       # never through a planted link
        if image is not None:
            f.write(png_bytes(image, DPI))
        else:
            box = tight_bbox(fig)
            fig.savefig(f, format=path.suffix.lstrip(".") or "png", dpi=DPI,
                        bbox_inches="tight" if box is None else box)
    for hook in figure.SAVE_HOOKS:
        hook(fig, path)
    return path


def _draw_cropped(fig: Any) -> np.ndarray | None:
    """The figure drawn once at DPI on a canvas ROOM_IN larger than the figure on each side,
    cropped to the pixels that differ from the background, padded by savefig.pad_inches: the
    image savefig(bbox_inches="tight") writes, less its measuring pass over every artist's
    extent (about a quarter of a small figure's time: analysis/README.md#performance). The
    crop follows ink, not text boxes: a margin may be a pixel or two narrower. None when the
    figure has a layout engine (laid out at draw time), or a text or legend that reaches past
    the canvas (_outside: measured as the draw ends, from the layout the draw made)."""
    engine = fig.get_layout_engine()
    if isinstance(engine, PlaceHolderLayoutEngine):
        fig.set_layout_engine(None)           # tight_layout() was done: nothing at draw time
    elif engine is not None:
        return None
    w, h = fig.get_size_inches()
    left, bottom, right, top = ROOM_IN
    sink = _Sink()
    outside: list[bool] = []
    cid = fig.canvas.mpl_connect("draw_event", lambda ev: outside.append(_outside(fig, ev)))
    try:
        fig.savefig(sink, format="rgba", dpi=DPI,
                    bbox_inches=Bbox.from_extents(-left, -bottom, w + right, h + top))
    finally:
        fig.canvas.mpl_disconnect(cid)
    if outside != [False]:
        return None
    rgba = np.asarray(fig.canvas.get_renderer().buffer_rgba()) if sink.view is None \
        else sink.view
    px = rgba.view(np.uint32).reshape(rgba.shape[:2])
    ink = px != px[0, 0]
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if not len(rows):
        return None
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    if y0 == 0 or x0 == 0 or y1 == px.shape[0] or x1 == px.shape[1]:
        return None
    pad = int(round(matplotlib.rcParams["savefig.pad_inches"] * DPI))
    y0, x0 = max(0, y0 - pad), max(0, x0 - pad)
    y1, x1 = min(px.shape[0], y1 + pad), min(px.shape[1], x1 + pad)
    out = rgba[y0:y1, x0:x1]
    return out[..., :3].copy() if (out[..., 3] == 255).all() else out.copy()


def _outside(fig: Any, event: Any) -> bool:
    """Whether a text or legend of the figure (titles, labels, texts and annotations, legends:
    what may lie away from the axes) reaches past the canvas just drawn, or touches its edge."""
    renderer = event.renderer
    texts = [*fig.texts, *fig.legends,
             *(getattr(fig, k, None) for k in ("_suptitle", "_supxlabel", "_supylabel"))]
    for ax in fig.axes:
        texts += [*ax.texts, ax.get_legend(), ax.xaxis.label, ax.yaxis.label, ax.title,
                  *(getattr(ax, k, None) for k in ("_left_title", "_right_title"))]
    width, height = renderer.get_canvas_width_height()
    for t in texts:
        if t is None or not t.get_visible() or (hasattr(t, "get_text") and not t.get_text()):
            continue                  # an empty label is drawn nowhere (and placed at 0, 0)
        box = t.get_window_extent(renderer)
        if box.x0 <= 0 or box.y0 <= 0 or box.x1 >= width or box.y1 >= height:
            return True
    return False


class _Sink:
    """A file for savefig(format="rgba"): keeps a view of the canvas' buffer it is given
    instead of copying it."""

    def __init__(self) -> None:
        self.view: np.ndarray | None = None

    def write(self, b: Any) -> int:
        m = memoryview(b)
        self.view = np.asarray(m) if m.ndim == 3 else None
        return m.nbytes

    def seek(self, *_: Any) -> int:     # what matplotlib asks of a file object
        return 0


# zlib's level: 3 deflates a report's figures (RGB) in half the time of 6 and to about the
# size they had at 6 as RGBA (PIL's default, before save() wrote them itself).
PNG_LEVEL = 3


def png_bytes(image: np.ndarray, dpi: float, level: int = PNG_LEVEL) -> bytes:
    """A PNG of an RGB or RGBA uint8 image (rows top to bottom): each row with the "up"
    filter (its difference from the row above: a figure's rows repeat), deflated at `level`,
    its resolution in a pHYs chunk."""
    import struct
    import zlib
    h, w, c = image.shape
    rows = image.reshape(h, w * c)
    raw = np.empty((h, w * c + 1), np.uint8)
    raw[:, 0] = 2                                  # filter type 2: up
    raw[0, 0] = 0                                  # the first row has nothing above it
    raw[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])   # uint8: modulo 256, as PNG defines

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    ppm = int(round(dpi / 0.0254))
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if c == 3 else 6, 0, 0, 0)),
                     chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
                     chunk(b"IDAT", zlib.compress(raw.tobytes(), level)),
                     chunk(b"IEND", b"")))


class _LogTicks(Locator):
    """Log ticks at 1-2-5, 1-3, every decade or every k-th decade: the richest set whose labels,
    as the axis' formatter writes them, fit between their neighbours at the axis' drawn size
    (label widths estimated from their characters on x, one line high on y)."""

    EM = 0.62            # average width of a label character, in font sizes (DejaVu digits)

    def __init__(self, chars: int = 6):
        self.chars = chars   # kept for callers; widths come from the labels themselves

    def _geometry(self) -> tuple[float, float]:
        """(axis length in px, font size in px)."""
        ax = self.axis.axes
        box = ax.get_window_extent()
        try:                          # a tick's label has the axis' tick label size
            size = float(self.axis.get_major_ticks(1)[0].label1.get_fontsize())
        except (AttributeError, IndexError, TypeError, ValueError):
            size = 10.0
        length = box.width if self.axis.axis_name == "x" else box.height
        return length, size * ax.figure.dpi / 72.0

    def _fits(self, ticks: list[float], vmin: float, vmax: float, length: float,
              font: float) -> bool:
        if len(ticks) < 2:
            return len(ticks) == 1
        span = np.log10(vmax) - np.log10(vmin)
        pos = (np.log10(ticks) - np.log10(vmin)) / span * length
        if self.axis.axis_name == "x":
            fmt = self.axis.get_major_formatter()
            widths = np.array([len(str(fmt(t, k))) * self.EM * font for k, t in enumerate(ticks)])
            need = (widths[1:] + widths[:-1]) / 2 + 0.45 * font
        else:
            need = np.full(len(ticks) - 1, 1.5 * font)
        return bool((np.diff(pos) >= need).all())

    def __call__(self) -> Sequence[float]:
        vmin, vmax = self.axis.get_view_interval()
        return self.tick_values(vmin, vmax)

    def tick_values(self, vmin: float, vmax: float) -> Sequence[float]:
        if vmin > vmax:
            vmin, vmax = vmax, vmin
        vmin = max(vmin, 1e-300)
        vmax = max(vmax, vmin * 1.01)
        lo, hi = int(np.floor(np.log10(vmin))), int(np.ceil(np.log10(vmax)))
        length, font = self._geometry() if self.axis is not None else (600.0, 12.0)
        sets = [((1, 2, 5), 1), ((1, 3), 1), ((1,), 1)] + [((1,), k) for k in (2, 3, 5, 10)]
        fallback: list[float] = []
        for subs, step in sets:
            ticks = [s * 10.0 ** d for d in range(lo, hi + 1) if d % step == 0 for s in subs]
            ticks = [t for t in ticks if vmin * (1 - 1e-9) <= t <= vmax * (1 + 1e-9)]
            if len(ticks) >= 2 and self._fits(ticks, vmin, vmax, length, font):
                return ticks
            if not fallback and len(ticks) == 1:
                fallback = ticks           # one label fits always; better than none
        # Less than a decade or two: evenly spaced round values read the scale better.
        from matplotlib.ticker import MaxNLocator
        for nbins in (5, 3, 2):
            ticks = [t for t in MaxNLocator(nbins=nbins).tick_values(vmin, vmax)
                     if t > 0 and vmin * (1 - 1e-9) <= t <= vmax * (1 + 1e-9)]
            if len(ticks) >= 2 and self._fits(ticks, vmin, vmax, length, font):
                return ticks
        return fallback or [10.0 ** round(np.log10(np.sqrt(vmin * vmax)))]


_SUPERSCRIPT = str.maketrans("-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def sci_label(v: float) -> str:
    """A tick label as a power of ten, 10⁻² or 2×10⁻², in plain text: superscript characters
    where matplotlib's LogFormatterSciNotation writes mathtext ($10^{-2}$), whose first
    label in a process builds mathtext's parser and loads its fonts (0.06 s of CPU: more
    than a third of latency.png's time, analysis/README.md#performance)."""
    if not v > 0:
        return f"{v:g}"
    e = int(np.floor(np.log10(v) + 1e-9))
    m = v / 10.0 ** e
    power = "10" + str(e).translate(_SUPERSCRIPT)
    return power if abs(m - 1) < 1e-6 else f"{m:.3g}\u00d7{power}"


def log_axis(axis: Any, ns_per_unit: float | None = None, chars: int = 6,
             sci: bool = False) -> None:
    """Log-scale ticks whose labels never run together (see _LogTicks), labelled as plain
    numbers, as powers of ten (`sci`), or as durations (`ns_per_unit`: the ns one data unit
    stands for, e.g. 1e3 for us)."""
    axis.set_major_locator(_LogTicks(chars))
    if sci:
        def sci(v: float, _: Any) -> str:
            """As LogFormatterSciNotation(labelOnlyBase=False) labels: over more than a
            decade, only the powers of ten (the ticks between them unlabelled)."""
            lo, hi = sorted(axis.get_view_interval())
            label = sci_label(v)
            wide = lo > 0 and np.log10(hi / lo) > 1
            return "" if wide and "\u00d7" in label else label
        axis.set_major_formatter(FuncFormatter(sci))
    elif ns_per_unit is None:
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        axis.set_major_formatter(FuncFormatter(lambda v, _: fmt_duration(v * ns_per_unit)))
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())
    axis.axes.add_artist(_MinorMarks(axis))


class _MinorMarks(matplotlib.lines.Line2D):
    """The minor ticks of a log axis (2..9 of each decade, in the view, not where a major tick
    is), drawn as the axis draws them (tick marks of the rc size, width and colour, outside
    the axes) but as one line of markers: the axis makes a Tick of two lines and two texts
    for each, a sixth of a log-log figure's time (analysis/README.md#performance)."""

    def __init__(self, axis: Any) -> None:
        x = axis.axis_name == "x"
        rc = matplotlib.rcParams
        k = "xtick" if x else "ytick"
        out = rc[f"{k}.direction"] == "out"
        marker = (matplotlib.lines.TICKDOWN if out else matplotlib.lines.TICKUP) if x else \
            (matplotlib.lines.TICKLEFT if out else matplotlib.lines.TICKRIGHT)
        super().__init__([], [], linestyle="none", marker=marker,
                         markersize=rc[f"{k}.minor.size"], markeredgewidth=rc[f"{k}.minor.width"],
                         color=rc[f"{k}.color"], clip_on=False, zorder=axis.get_zorder())
        ax = axis.axes
        self.set_transform(ax.get_xaxis_transform() if x else ax.get_yaxis_transform())
        self.set_in_layout(False)
        self._hg_axis = axis
        self._hg_locator = LogLocator(base=10, subs=np.arange(2, 10) * 1.0, numticks=100)

    def draw(self, renderer: Any) -> None:
        axis = self._hg_axis
        lo, hi = sorted(axis.get_view_interval())
        locs = np.asarray(self._hg_locator.tick_values(lo, hi), float) if lo > 0 else np.empty(0)
        locs = locs[(locs >= lo * (1 - 1e-6)) & (locs <= hi * (1 + 1e-6))]
        if len(locs):                 # as Axis.get_minorticklocs: none where a major tick is
            tr = axis.get_transform()
            major = np.asarray(axis.get_majorticklocs(), float)
            t_lo, t_hi = sorted(tr.transform(np.array([lo, hi])))
            if len(major):
                close = np.isclose(tr.transform(locs)[:, None], tr.transform(major)[None, :],
                                   atol=(t_hi - t_lo) * 1e-5, rtol=0).any(axis=1)
                locs = locs[~close]
        zeros = np.zeros(len(locs))
        if axis.axis_name == "x":
            self.set_data(locs, zeros)
        else:
            self.set_data(zeros, locs)
        super().draw(renderer)
