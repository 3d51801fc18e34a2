"""The gap-length / context-switch histograms (figure 4) and the latency plots (Abeni's CDF and
over-time figures) of one run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses import switches
from ..analyses.summary import switch_stats
from ..read.rundir import Run
from .plotting import legend_below, legend_outside, log_axis, plt, save, shade_loads


def _log_bins(values: list[np.ndarray], per_decade: int = 20) -> np.ndarray:
    """Log-spaced bin edges over the values of all the arrays (their extremes only, no copy)."""
    present = [x for x in values if len(x)]
    lo = min((float(x.min()) for x in present), default=1.0)
    hi = max((float(x.max()) for x in present), default=1.0)
    return _log_edges(lo, hi, per_decade)


def _log_edges(lo: float, hi: float, per_decade: int = 20) -> np.ndarray:
    lo = max(lo, 1.0)
    hi = max(hi, lo * 10)
    return np.logspace(np.log10(lo), np.log10(hi) + 1e-9, int(per_decade * np.log10(hi / lo)) + 2)


def plot_gaps(run: Run, path: Path) -> Path:
    """Left: lengths of each thread's gaps on one CPU. Right: inferred context-switch costs
    (thread A ends, thread B starts on the same CPU), voluntary vs involuntary. Histograms
    counted in ns and drawn as stairs: no copy of millions of values in us for matplotlib.
    Only the panels with something to show (one thread alone has no switches between traced
    threads: no empty right panel); neither: one panel saying so."""
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
    bins = _log_bins([g for _, g in per])
    for lab, g in per[:12]:
        ax.stairs(np.histogram(g, bins)[0], bins / 1e3, lw=1.2, label=f"{lab} ({len(g)})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    log_axis(ax.xaxis, ns_per_unit=1e3)
    log_axis(ax.yaxis)
    ax.set_xlabel("gap length")
    ax.set_ylabel("gaps")
    ax.set_title("gaps of each thread (after `preempted`, same CPU)", fontsize=10)
    legend_below(ax)


def _switch_panel(ax: Any, run: Run, per: list, sw: Any) -> None:
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


def cdf_points(n: int, points: int = 2000) -> np.ndarray:
    """Indices of a sorted sample of n that draw its CDF at screen resolution: evenly spaced
    ranks, plus log-spaced ranks from the top so the tail keeps every visible step."""
    if n <= 2 * points:
        return np.arange(n)
    tail = n - np.geomspace(1, n, points).astype(np.int64)
    return np.unique(np.r_[np.linspace(0, n - 1, points).astype(np.int64), tail, n - 1])


def envelope(x: np.ndarray, y: np.ndarray, columns: int = 2000) -> np.ndarray:
    """Indices of the lowest and the highest y in each of `columns` bins of x: a scatter of
    millions of points drawn as what a screen shows of it."""
    if len(x) <= 4 * columns:
        return np.arange(len(x))
    lo, hi = float(x.min()), float(x.max())
    col = ((x - lo) * (columns / max(hi - lo, 1.0))).astype(np.int64)
    order = np.lexsort((y, col))
    c = col[order]
    edge = np.flatnonzero(c[1:] != c[:-1])
    return np.unique(np.r_[order[np.r_[0, edge + 1]], order[np.r_[edge, len(c) - 1]]])


def latency_threads(run: Run) -> list[int]:
    return [i for i, t in enumerate(run.threads) if t["stats"].get("latency")]


def plot_latency(run: Run, path: Path) -> Path | None:
    """The tail of wake-up lateness (1 - CDF, log-log: the worst wake-ups stay visible) and
    lateness over time with load windows shaded."""
    idx = latency_threads(run)
    if not idx:
        return None
    smp = run.samples
    fig, (cdf, over) = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [1, 1.6]})
    shade_loads(over, run.loads, 1e9)
    for i in idx:
        s = smp.of_thread(i)
        late = np.sort(s.late) / 1e3
        if not len(late):
            continue
        k = cdf_points(len(late))
        # fraction of wake-ups at least this late: 1 at the earliest, 1/n at the latest
        cdf.step(np.maximum(late[k], 1e-3), (len(late) - k) / len(late), where="post",
                 label=f"{run.label(i)} (n={len(late)})")
        k = envelope(s.intended, s.late)
        over.plot(s.intended[k] / 1e9, np.maximum(s.late[k] / 1e3, 1e-3), ".", ms=2, alpha=0.6,
                  label=run.label(i))
    cdf.set_xscale("log")
    cdf.set_yscale("log")
    log_axis(cdf.xaxis, ns_per_unit=1e3)
    log_axis(cdf.yaxis, sci=True)
    cdf.set_xlabel("wake-up lateness")
    cdf.set_ylabel("fraction of wake-ups at least this late")
    cdf.set_title("dispatch latency tail (1 - CDF)", fontsize=10)
    cdf.grid(color="0.9")
    legend_below(cdf)
    over.set_yscale("log")
    log_axis(over.yaxis, ns_per_unit=1e3)
    over.set_xlabel("intended wake-up (s from the run's start)")
    over.set_ylabel("lateness")
    over.set_title("lateness over time (load windows shaded)", fontsize=10)
    legend_outside(over, markerscale=4)
    if not run.complete:
        fig.suptitle("run incomplete", color="tab:red")
    return save(fig, path)
