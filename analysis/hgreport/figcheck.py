"""Checks a drawn figure for tick labels that run together (issue 10: `50100 200 5001000`):
used by the tests on every figure hgreport writes, through plotting.SAVE_HOOKS."""
from __future__ import annotations

from typing import Any


def _boxes(fig: Any, axis: Any) -> list[tuple[str, Any]]:
    renderer = fig.canvas.get_renderer()
    out = []
    for t in axis.get_majorticklabels() + axis.get_minorticklabels():
        if t.get_visible() and t.get_text().strip():
            out.append((t.get_text(), t.get_window_extent(renderer)))
    return out


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
