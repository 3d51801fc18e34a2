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


def legend_over_data(fig: Any) -> list[str]:
    """Legends drawn inside an axes' data area (they should sit outside it)."""
    renderer = fig.canvas.get_renderer()
    out = []
    for ax in fig.get_axes():
        leg = ax.get_legend()
        if leg is None or not leg.get_visible():
            continue
        lb, ab = leg.get_window_extent(renderer), ax.get_window_extent(renderer)
        if lb.x0 < ab.x1 - 1 and lb.x1 > ab.x0 + 1 and lb.y0 < ab.y1 - 1 and lb.y1 > ab.y0 + 1:
            out.append(f"{ax.get_title() or ax.get_ylabel() or '?'}: the legend covers the data")
    return out
