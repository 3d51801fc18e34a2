# SPDX-License-Identifier: GPL-2.0-or-later
"""What every figure shares, in one import: `plt` (figures on the Agg canvas, without pyplot),
load windows (one colour and hatch per load, overlaps visible as crossed hatching), legends
outside the data; and, from the modules that make them, the layout (layout.py), log axes whose
labels never collide (logaxis.py) and saving (pngsave.py). matplotlib is set up in mpl.py."""
from __future__ import annotations

from typing import Any, Sequence

from .mpl import Figure, FigureCanvasAgg, Patch, matplotlib
from .layout import (align_ylabels, fit_layout, ticklabels_in_view, tight_bbox,  # noqa: F401
                     wrap_titles)
from .logaxis import count_limits, count_stairs, log_axis, sci_label  # noqa: F401
from .pngsave import ROOM_IN, png_bytes, save  # noqa: F401
from .style import (DPI, LOAD_COLORS, LOAD_HATCHES, clock_unit, fmt_duration,  # noqa: F401
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


def warm() -> None:
    """Loads what the first figure of a process would (before a fork, so that each process
    need not): the fonts, by measuring a tick label, and numpy.ma, which matplotlib imports
    when it first draws."""
    import numpy.ma  # noqa: F401
    fig = plt.figure(figsize=(1, 1), dpi=DPI)
    fig.text(0.5, 0.5, "0.5 ms").get_window_extent(fig.canvas.get_renderer())
