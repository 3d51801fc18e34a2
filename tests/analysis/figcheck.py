# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks a drawn figure for tick labels that run together (`50100 200 5001000`):
used by the tests on every figure hgreport writes, through figure.SAVE_HOOKS (hgreport/figures/figure.py)."""
from __future__ import annotations

from typing import Any


def _drawn_labels(axis: Any) -> list[Any]:
    """The tick labels the axis draws (ticks outside the view keep stale Text objects)."""
    out = []
    for tick in axis._update_ticks():
        for t in (tick.label1, tick.label2):
            if t.get_visible() and t.get_text().strip():
                out.append(t)
    return out


def _boxes(fig: Any, axis: Any) -> list[tuple[str, Any]]:
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for t in _drawn_labels(axis)]


def overlapping_labels(fig: Any, pad_px: float = 1.0) -> list[str]:
    """'axes title: x labels "50" and "100" overlap' for every pair of tick labels of one axis
    whose boxes (grown by `pad_px`) intersect. The figure must have been drawn."""
    problems = []
    for ax in fig.get_axes():
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            boxes = _boxes(fig, axis)
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    (ta, a), (tb, b) = boxes[i], boxes[j]
                    if a.x0 - pad_px < b.x1 and b.x0 - pad_px < a.x1 and \
                            a.y0 - pad_px < b.y1 and b.y0 - pad_px < a.y1:
                        problems.append(f"{ax.get_title() or ax.get_ylabel() or '?'}: {name} "
                                        f"labels {ta!r} and {tb!r} overlap")
    return problems


def _meets(a: Any, b: Any, pad: float = 1.0) -> bool:
    return a.x0 < b.x1 - pad and a.x1 > b.x0 + pad and a.y0 < b.y1 - pad and a.y1 > b.y0 + pad


def legend_over_data(fig: Any) -> list[str]:
    """Legends drawn over any axes' data area, axis label or tick label (they belong
    outside all of them)."""
    renderer = fig.canvas.get_renderer()
    out = []
    legends = [(ax, ax.get_legend()) for ax in fig.get_axes()]
    legends += [(None, leg) for leg in fig.legends]
    for owner, leg in legends:
        if leg is None or not leg.get_visible():
            continue
        lb = leg.get_window_extent(renderer)
        name = (owner.get_title() or owner.get_ylabel() or "?") if owner is not None else "figure"
        for ax in fig.get_axes():
            if not ax.get_visible() or not ax.axison:
                continue
            if _meets(lb, ax.get_window_extent(renderer)):
                out.append(f"{name}: the legend covers the data of "
                           f"{ax.get_title() or ax.get_ylabel() or '?'}")
            texts = [ax.xaxis.label, ax.yaxis.label] + ax.get_xticklabels() + ax.get_yticklabels()
            for t in texts:
                if t.get_visible() and t.get_text().strip() and \
                        _meets(lb, t.get_window_extent(renderer)):
                    out.append(f"{name}: the legend covers the label {t.get_text()!r}")
    return out


def _texts(ax: Any) -> list[tuple[str, Any]]:
    """The texts an axes draws around its data: titles, axis labels, offset texts, tick
    labels (role, Text)."""
    out = [(f"title {loc}", ax._left_title if loc == "left" else ax.title if loc == "center"
            else ax._right_title) for loc in ("left", "center", "right")]
    out += [("x label", ax.xaxis.label), ("y label", ax.yaxis.label),
            ("x offset", ax.xaxis.get_offset_text()), ("y offset", ax.yaxis.get_offset_text())]
    out += [("x tick", t) for t in _drawn_labels(ax.xaxis)]
    out += [("y tick", t) for t in _drawn_labels(ax.yaxis)]
    return [(r, t) for r, t in out if t.get_visible() and t.get_text().strip()]


def _twins(a: Any, b: Any) -> bool:
    """Axes sharing one drawing area (twinx)."""
    return a.get_position().bounds == b.get_position().bounds


def text_collisions(fig: Any) -> list[str]:
    """Texts of different roles or axes that overlap: a title on an offset text ('1e-10'), the
    tick labels of one panel on the title of the next. (Tick labels of one axis among
    themselves: overlapping_labels.)"""
    renderer = fig.canvas.get_renderer()
    items, areas = [], []
    for k, ax in enumerate(fig.get_axes()):
        if ax.get_visible() and ax.axison:
            items += [(k, role, t, t.get_window_extent(renderer)) for role, t in _texts(ax)]
            areas.append((k, ax, ax.get_window_extent(renderer)))
    out = []
    for k, role, t, box in items:
        for j, other, area in areas:
            if j != k and _meets(box, area, pad=2.0) and not _twins(fig.get_axes()[k], other):
                out.append(f"{role} {t.get_text()!r} lies over the data of "
                           f"{other.get_title(loc='left') or other.get_title() or other.get_ylabel()!r}")
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            ka, ra, ta, a = items[i]
            kb, rb, tb, b = items[j]
            if ka == kb and ra == rb:
                continue
            if ka == kb and ra.endswith("tick") and rb.endswith("tick"):
                continue                       # x and y tick labels meet at the corner
            if ka != kb and _twins(fig.get_axes()[ka], fig.get_axes()[kb]) and ra == rb:
                continue
            if _meets(a, b):
                out.append(f"{ra} {ta.get_text()!r} overlaps {rb} {tb.get_text()!r}")
    return out


def facts(fig: Any, dpi: float) -> dict[str, Any]:
    """What the tests read of a saved figure, drawn once more at its saved `dpi` (every
    artist laid out as in the file): "labels" (overlapping_labels + text_collisions),
    "legends" (legend_over_data), "axes" [(title + left title, x scale, y scale)], "meaning"
    [(left title + title, y label, hatched patches)], "suptitle", "legend" (every legend's
    texts) and "lines" {label: x data of the figure's lines, NaN left out}."""
    fig.set_dpi(dpi)
    fig.canvas.draw()
    return {
        "labels": overlapping_labels(fig) + text_collisions(fig),
        "legends": legend_over_data(fig),
        "axes": [(ax.get_title() + ax.get_title(loc="left"), ax.get_xscale(), ax.get_yscale())
                 for ax in fig.get_axes()],
        "meaning": [(ax.get_title(loc="left") + ax.get_title(), ax.get_ylabel(),
                     sum(1 for p in ax.patches if p.get_hatch())) for ax in fig.get_axes()],
        "suptitle": fig._suptitle.get_text() if fig._suptitle else "",
        "legend": [t.get_text() for ax in fig.get_axes() if ax.get_legend()
                   for t in ax.get_legend().get_texts()],
        "lines": {ln.get_label(): [float(v) for v in ln.get_xdata() if v == v]
                  for ax in fig.get_axes() for ln in ax.get_lines()}}
