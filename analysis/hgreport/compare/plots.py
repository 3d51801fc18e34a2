# SPDX-License-Identifier: GPL-2.0-or-later
"""The overlaid figures of `hgreport compare`, one line per row (run or group of repeats), the
baseline in black: wake-up latency as 1 − CDF on log axes (the tail shows), gap lengths and
switch costs as histograms on log bins (Hourglass figure 4 overlays several systems)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..figures.plotting import plt, save
from ..figures.reduce import log_bins
from .differences import Table

MAX_PANELS = 4
COLORS = ("black", "tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:brown",
          "tab:pink", "tab:olive", "tab:cyan")


def _ticks(axis: Any, lo: float, hi: float) -> None:
    """Log ticks labelled as plain numbers: 1-2-5 steps within two decades, decades beyond (so
    labels never run together)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    decades = np.log10(max(hi, lo * 1.0001) / max(lo, 1e-12))
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2.2 else (1.0,)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())


def _color(k: int) -> str:
    return COLORS[k % len(COLORS)]


def _sets_with(t: Table, kind: str) -> list[str]:
    sets = [s for s, kinds in t.samples.items() if kind in kinds and any(len(a) for a in kinds[kind].values())]
    sets.sort(key=lambda s: -sum(len(a) for a in t.samples[s][kind].values()))
    order = list(t.rows)          # the largest MAX_PANELS, drawn in the tables' order
    return sorted(sets[:MAX_PANELS], key=lambda s: order.index(s) if s in order else len(order))


def _panels(n: int, title: str) -> tuple[Any, list[Any]]:
    fig, axes = plt.subplots(1, n, figsize=(5.2 * n + 0.6, 4.6), squeeze=False,
                             layout="constrained")
    fig.suptitle(title, fontsize=11)
    return fig, list(axes[0])


def _legend(fig: Any, axes: list[Any], labels: list[str],
            shown: dict[str, str] | None = None) -> None:
    """One legend for every panel, below them (outside the data), in the rows' order; `shown`
    gives a row's legend text where it is more than its label (what disturbed it)."""
    found: dict[str, Any] = {}
    for ax in axes:
        for h, n in zip(*ax.get_legend_handles_labels()):
            found.setdefault(n, h)
    names = [lab for lab in labels if lab in found]
    handles = [found[n] for n in names]
    fig.legend(handles, [(shown or {}).get(n, n) for n in names], loc="outside lower center",
               ncol=min(3, len(names)), fontsize=9, frameon=False)


def plot_latency(t: Table, path: Path, shown: dict[str, str] | None = None) -> Path | None:
    sets = _sets_with(t, "latency")
    if not sets:
        return None
    fig, axes = _panels(len(sets), "wake-up latency: fraction of wake-ups at least x late")
    for ax, s in zip(axes, sets):
        per = t.samples[s]["latency"]
        lo, hi = np.inf, 0.0
        notes = []
        for k, lab in enumerate(t.labels):
            if lab not in per or not len(per[lab]):
                continue
            slots = np.sort(np.maximum(per[lab], 1.0)) / 1e3        # us, >= 1 ns
            v = slots[np.isfinite(slots)]       # skipped slots (inf): later than every x
            if not len(v):
                continue
            frac = 1.0 - np.arange(len(v)) / len(slots)             # P(X >= v_i) over slots
            ax.step(v, frac, where="post", color=_color(k), lw=1.6 if k == 0 else 1.2,
                    label=f"{lab}")
            lo, hi = min(lo, v[0]), max(hi, v[-1])
            if len(v) < len(slots):
                notes.append(f"{lab}: {len(slots) - len(v)} skipped slots, later than every x")
        if notes:
            # bottom left: a 1 − CDF never reaches there (low x, low fraction)
            ax.text(0.02, 0.02, "\n".join(notes), transform=ax.transAxes, ha="left",
                    va="bottom", fontsize=8, color="0.3")
        ax.set_xscale("log")
        ax.set_yscale("log")
        _ticks(ax.xaxis, lo, hi)
        _ticks(ax.yaxis, 1.0 / max(len(a) for a in per.values()), 1.0)
        ax.set_xlabel("wake-up lateness x (us)")
        ax.set_ylabel("fraction of wake-ups ≥ x (1 − CDF)")
        ax.set_title(f"thread {s}", fontsize=10)
        ax.grid(color="0.9", which="both")
    _legend(fig, axes, t.labels, shown)
    return save(fig, path)


def _hist_panel(ax: Any, per: dict[str, np.ndarray], labels: list[str]) -> None:
    present = [per[lab] / 1e3 for lab in labels if lab in per and len(per[lab])]
    allv = np.concatenate(present)
    lo, hi = max(float(allv.min()), 1e-3), max(float(allv.max()), float(allv.min()) * 10, 1e-2)
    bins = log_bins(lo, hi)
    for k, lab in enumerate(labels):
        if lab not in per or not len(per[lab]):
            continue
        v = per[lab] / 1e3
        ax.hist(v, bins=bins, weights=np.full(len(v), 1.0 / len(v)), histtype="step",
                color=_color(k), lw=1.6 if k == 0 else 1.2, label=lab)
    ax.set_xscale("log")
    ax.set_yscale("log")
    _ticks(ax.xaxis, lo, hi)
    _ticks(ax.yaxis, 1.0 / max(len(per[lab]) for lab in labels if lab in per), 1.0)
    ax.grid(color="0.9", which="both")


def _plot_per_set(t: Table, path: Path, key: str, title: str, xlabel: str, of: str,
                  shown: dict[str, str] | None) -> Path | None:
    """One histogram panel per thread instance that has samples of `key`."""
    sets = _sets_with(t, key)
    if not sets:
        return None
    fig, axes = _panels(len(sets), title)
    for ax, s in zip(axes, sets):
        _hist_panel(ax, t.samples[s][key], t.labels)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"fraction of the run's {of}")
        ax.set_title(f"thread {s}", fontsize=10)
    _legend(fig, axes, t.labels, shown)
    return save(fig, path)


def plot_gaps(t: Table, path: Path, shown: dict[str, str] | None = None) -> Path | None:
    return _plot_per_set(t, path, "gap", "gap lengths (interval ended `preempted`, same thread "
                         "next on the same CPU)", "gap length (us)", "gaps", shown)


def plot_switches(t: Table, path: Path, shown: dict[str, str] | None = None) -> Path | None:
    """One panel per thread instance, as the tables give each its own switch cost (pooling
    hog.0's and hog.1's switches drew a figure no table shows)."""
    return _plot_per_set(t, path, "switch", "involuntary switches between traced threads\n"
                         "(cost: next thread's start − previous thread's end, same CPU)",
                         "switch cost (us)", "switches", shown)


def legend_names(labels: list[str], dist: dict[str, list[Any]] | None) -> dict[str, str]:
    """{row label: its legend text}: "new (disturbed: competition)" for a row whose runs were
    disturbed (analyses/disturbances.py), so that the figures say it beside the lines too."""
    from ..analyses import disturbances
    out = {}
    for lab in labels:
        words = disturbances.words((dist or {}).get(lab, []))
        out[lab] = f"{lab} (disturbed: {words})" if words else lab
    return out


def write_all(t: Table, out: Path, dist: dict[str, list[Any]] | None = None) -> list[str]:
    written = []
    shown = legend_names(t.labels, dist)
    for name, fn in (("latency_ccdf.png", plot_latency), ("gaps.png", plot_gaps),
                     ("switch_costs.png", plot_switches)):
        p = fn(t, out / name, shown)
        if p is not None:
            written.append(p.name)
    return written
