# SPDX-License-Identifier: GPL-2.0-or-later
"""The probability density of inter-activation times around the period (Abeni et al.,
figure 2): one panel per thread, a histogram normalised to a density, a red line at exactly
one period."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..analyses.interactivation import gaps
from ..read.rundir import Run
from .figure import Figure, Given

MAX_PANELS = 8
LOG_SPAN = 10.0      # densities whose highest bin is more than this times the lowest: log axis


def _bins(d_us: np.ndarray) -> np.ndarray:
    """Bins over p0.1..p99.9 (the body, where a density is readable), 100 of them; the
    rest is counted in the outermost bins."""
    lo, hi = np.percentile(d_us, [0.1, 99.9])
    if hi - lo < 1e-3:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, 101)


def plot(run: Run, rows: list[dict], path: Path) -> Path | None:
    shown = [r for r in rows if r["count"] > 1][:MAX_PANELS]
    if not shown:
        return None
    from .plotting import fit_layout, log_axis, plt, save
    fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown) + 0.8, 3.6),
                             squeeze=False)
    for ax, r in zip(axes[0], shown):
        g = gaps(run, r["thread"])
        d = (g - r["period_ns"]) / 1e3
        edges = _bins(d)
        density, _ = np.histogram(np.clip(d, edges[0], edges[-1]), bins=edges, density=True)
        # one filled outline, not a bar per bin (ax.hist: 100 patches to lay out and draw);
        # a periodic thread's density is one spike at the period with a tail decades lower:
        # on a linear axis the tail is invisible, so densities that span more than a decade
        # are drawn on a log axis, filled down to a tenth of the lowest one
        shown = density[density > 0]
        log = len(shown) > 1 and shown.max() > LOG_SPAN * shown.min()
        floor = shown.min() / 10 if log else 0.0
        ax.stairs(np.where(density > 0, density, floor), edges, fill=True, color="tab:blue",
                  alpha=0.8, lw=0, baseline=floor)
        if log:
            ax.set_yscale("log")
            ax.set_ylim(floor, shown.max() * 2)
            log_axis(ax.yaxis, sci=True)      # 10⁻³ as text: no mathtext parser to build
        ax.axvline(0, color="tab:red", lw=1)          # exactly one period
        ax.set_xlabel("inter-activation time - period (us)")
        ax.set_ylabel("probability density (1/us)")
        ax.set_title(f"{r['label']}: period {r['period_ns'] / 1e3:g} us, n={r['count']}",
                     fontsize=10)
        ax.grid(color="0.9")
    fig.suptitle("inter-activation times around the period (PDF, red: one period; p0.1..p99.9, "
                 "the rest in the outer bins)", fontsize=10)
    if not run.complete:
        fig.text(0.01, 0.01, "run incomplete", color="tab:red")
    fit_layout(fig)
    return save(fig, path)


def applies(given: Given) -> bool:
    return any(r["count"] > 1 for r in given.summary.get("inter_activation") or [])


def draw(given: Given, path: Path) -> None:
    plot(given.run, given.summary["inter_activation"], path)


def cost(given: Given) -> float:
    """One panel a thread, the first the dearest."""
    panels = sum(r["count"] > 1 for r in given.summary.get("inter_activation") or [])
    return 1.0 + 0.5 * (min(panels, MAX_PANELS) - 1)


FIGURE = Figure("interactivation.png", draw, applies, cost=cost)
