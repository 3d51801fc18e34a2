# SPDX-License-Identifier: GPL-2.0-or-later
"""Log axes whose labels never collide: the major ticks that fit (_LogTicks), labels as plain
numbers, durations or powers of ten in plain text, and the minor ticks as one line of marks."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .mpl import FuncFormatter, Locator, LogLocator, NullFormatter, NullLocator, matplotlib
from .style import fmt_duration

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


COUNT_FLOOR = 0.5       # where a log count axis starts: below a bin of one


def count_stairs(ax: Any, counts: np.ndarray, edges: np.ndarray, **kw: Any) -> int:
    """A histogram's counts as stairs over a log count axis (count_limits): an empty bin lies
    on the floor, under 1, where the axis starts, and a bin of one is a step up from it. (A
    stair down to 0 is not drawn on a log axis, and with the axis' default limits a count of
    one lay on the bottom edge.) Returns the largest count."""
    ax.stairs(np.maximum(counts, COUNT_FLOOR), edges, baseline=COUNT_FLOOR, **kw)
    return int(counts.max()) if len(counts) else 0


def count_limits(ax: Any, top: int) -> None:
    """The log count axis of count_stairs: from the floor to above the largest count."""
    ax.set_ylim(COUNT_FLOOR, max(2.0, top * 1.6))
