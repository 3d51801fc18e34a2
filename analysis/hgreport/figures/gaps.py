# SPDX-License-Identifier: GPL-2.0-or-later
"""gaps.png, figure 4 of the paper: the lengths of each thread's gaps and the inferred
context-switch costs (voluntary, involuntary) of one run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses import switches
from ..analyses.summary import switch_stats
from ..read.rundir import Run
from .figure import Figure, Given
from .reduce import log_bins


def _log_bins(values: list[np.ndarray], per_decade: int = 20) -> np.ndarray:
    """Log-spaced bin edges over the values of all the arrays (their extremes only, no copy)."""
    present = [x for x in values if len(x)]
    lo = min((float(x.min()) for x in present), default=1.0)
    hi = max((float(x.max()) for x in present), default=1.0)
    return _log_edges(lo, hi, per_decade)


def _log_edges(lo: float, hi: float, per_decade: int = 20) -> np.ndarray:
    lo = max(lo, 1.0)
    return log_bins(lo, max(hi, lo * 10), per_decade)


def plot_gaps(run: Run, path: Path) -> Path:
    """Left: lengths of each thread's gaps on one CPU. Right: inferred context-switch costs
    (thread A ends, thread B starts on the same CPU), voluntary vs involuntary. Histograms
    counted in ns and drawn as stairs: no copy of millions of values in us for matplotlib.
    Only the panels with something to show (one thread alone has no switches between traced
    threads: no empty right panel); neither: one panel saying so (the report draws no
    gaps.png then: `applies`)."""
    from .plotting import plt, save
    g_all = switches.gaps_of_run(run)
    per = [(run.label(i), g_all.of_thread(i)) for i in range(len(run.threads))]
    per = [(lab, g) for lab, g in per if len(g)]
    sw = switches.of_run(run)
    panels = [draw for draw, has in ((_gap_panel, bool(per)), (_switch_panel, bool(len(sw)))) if has]
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(6 * max(1, len(panels)), 4.2),
                             squeeze=False)
    for ax, draw in zip(axes[0], panels):
        draw(ax, run, per, sw)
    if not panels:
        ax = axes[0][0]
        ax.text(0.5, 0.5, "no gaps and no switches between traced threads in the trace",
                transform=ax.transAxes, ha="center")
        ax.set_axis_off()
    if not run.complete:
        fig.suptitle("run incomplete", color="tab:red")
    return save(fig, path)


def _gap_panel(ax: Any, run: Run, per: list, sw: Any) -> None:
    from .plotting import count_limits, count_stairs, legend_below, log_axis
    bins = _log_bins([g for _, g in per])
    top = max(count_stairs(ax, np.histogram(g, bins)[0], bins / 1e3, lw=1.2,
                           label=f"{lab} ({len(g)})") for lab, g in per[:12])
    ax.set_xscale("log")
    ax.set_yscale("log")
    count_limits(ax, top)
    log_axis(ax.xaxis, ns_per_unit=1e3)
    log_axis(ax.yaxis)
    ax.set_xlabel("gap length")
    ax.set_ylabel("gaps")
    ax.set_title("gaps of each thread (after `preempted`, same CPU)", fontsize=10)
    legend_below(ax)


def _switch_panel(ax: Any, run: Run, per: list, sw: Any) -> None:
    from .plotting import legend_below, log_axis
    st = switch_stats(run)
    present = [d for d in (st["voluntary"], st["involuntary"]) if d["count"]]
    bins = _log_edges(min((d["min_ns"] for d in present), default=1.0),
                      max((d["max_ns"] for d in present), default=1.0))
    vol, inv = sw.cost_histograms(bins)
    for name, counts, d, color in (("involuntary (after preempted)", inv, st["involuntary"],
                                    "tab:red"),
                                   ("voluntary (after yielded/blocked)", vol, st["voluntary"],
                                    "tab:blue")):
        if d["count"]:
            ax.stairs(counts, bins / 1e3, fill=True, alpha=0.45, color=color,
                      label=f"{name}: n={d['count']}, min {d['min_ns'] / 1e3:.1f}, "
                            f"median {d['median_ns'] / 1e3:.1f} us")
    ax.set_xscale("log")
    log_axis(ax.xaxis, ns_per_unit=1e3)
    ax.set_xlabel("switch cost: next thread's start - previous thread's end")
    ax.set_ylabel("switches")
    ax.set_title("inferred context switches between traced threads (process_ctx)", fontsize=10)
    legend_below(ax, ncol=1)


def applies(given: Given) -> bool:
    """Whether the trace has a gap or a switch between traced threads to draw."""
    return bool(len(switches.gaps_of_run(given.run)) or len(switches.of_run(given.run)))


def draw(given: Given, path: Path) -> None:
    plot_gaps(given.run, path)


def cost(given: Given) -> float:
    """Two panels (gaps and switches) or one."""
    return 1.0 + bool(len(switches.gaps_of_run(given.run))) * bool(len(switches.of_run(given.run)))


FIGURE = Figure("gaps.png", draw, applies, cost=cost)
