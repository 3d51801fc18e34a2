"""matplotlib with the Agg backend, and shared helpers for the figures."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LOAD_COLORS = ("#f4a582", "#92c5de", "#b2df8a", "#cab2d6", "#fdbf6f")


def shade_loads(ax: Any, loads: list[dict[str, Any]], scale: float, lo: float | None = None,
                hi: float | None = None) -> None:
    """Shade each load's window (started_ns..stopped_ns, times divided by `scale`), labelled."""
    for k, load in enumerate(loads):
        a, b = load.get("started_ns"), load.get("stopped_ns")
        if a is None:
            continue
        b = b if b is not None else a
        a, b = a / scale, b / scale
        if lo is not None and hi is not None and (b < lo or a > hi):
            continue
        ax.axvspan(a, b, color=LOAD_COLORS[k % len(LOAD_COLORS)], alpha=0.35, lw=0,
                   label=f"load {load['name']} ({load['type']})")


def save(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plain_log(axis: Any) -> None:
    """Log-scale ticks at 1, 2, 5 × 10^k labelled as plain numbers (no 2×10^1 clutter)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
