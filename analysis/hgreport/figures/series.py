# SPDX-License-Identifier: GPL-2.0-or-later
"""series.png: a run over its whole length from series.jsonl, bin by bin (OSADL's long-term plots):
wake-up latency max and p99, the longest gap, deadline misses, CPU received, load throughput,
each scenario CPU's interrupts per second."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses.series_bins import Bins, fmt_span, interrupt_rates, over_time
from ..read.rundir import Run
from ..read.series import Series
from .figure import Figure, Given
from .style import clock_unit, load_style

MAX_LINES = 10       # threads drawn per panel; the others are named in the legend's title


def series_load_windows(run: Run, s: Series) -> list[dict[str, Any]]:
    """result.json's loads, with started_ns/stopped_ns taken from the series where the result
    does not have them (a checkpoint names the loads only)."""
    out = []
    for k, load in enumerate(run.loads):
        ld = dict(load)
        if ld.get("started_ns") is None and load.get("name") in s.load_names:
            rows = s.of_load(s.load_names.index(load["name"]))
            if len(rows["t_ns"]):
                ld["started_ns"] = int((rows["t_ns"] - rows["span_ns"]).min())
                ld["stopped_ns"] = int(rows["t_ns"].max())
        ld.setdefault("type", "?")
        out.append(ld)
    return out


def _panels(run: Run, s: Series, b: Bins) -> list[str]:
    lat = [i for i in range(len(run.threads)) if (b.wakeups[i] > 0).any()]
    out = ["latency"] if lat else []
    out += ["gap"]
    if (b.releases > 0).any():
        out.append("misses")
    out.append("cpu")
    if b.load_span.size and (b.load_span > 0).any():
        out += [f"loads:{unit}" for unit in _load_units(run, s)]
    if len(s.cpus["cpu"]):
        out.append("interrupts")
    return out


def _threads_in(run: Run, mask: np.ndarray) -> tuple[list[int], int]:
    idx = [i for i in range(len(run.threads)) if mask[i]]
    return idx[:MAX_LINES], max(0, len(idx) - MAX_LINES)


def plot_series(run: Run, s: Series, b: Bins, path: Path, covered_ns: int,
                outliers: list[dict[str, Any]] | None = None) -> Path:
    from matplotlib.ticker import MaxNLocator
    from .plotting import align_ylabels, legend_outside, log_axis, plt, save, shade_loads
    THREAD_COLORS = plt.get_cmap("tab10").colors
    unit, scale = clock_unit(covered_ns)
    edges = b.start_ns.tolist() + [b.n * b.bin_ns]
    x = np.minimum(np.asarray(edges, float), covered_ns) / scale
    panels = _panels(run, s, b)
    heights = {"latency": 2.4, "gap": 2.2, "misses": 1.5, "cpu": 1.7, "loads": 1.5,
               "interrupts": 1.5}
    # Not sharex: matplotlib's shared-axes bookkeeping cost 0.3 s here; the limits are set alike.
    kind = [p.split(":")[0] for p in panels]
    fig, axes = plt.subplots(len(panels), 1, squeeze=False,
                             figsize=(11, sum(heights[p] for p in kind) + 0.8),
                             gridspec_kw={"height_ratios": [heights[p] for p in kind]})
    axes = axes[:, 0]
    loads = series_load_windows(run, s)
    per = f"per {fmt_span(b.bin_ns)}"
    for n, (ax, panel) in enumerate(zip(axes, panels)):
        shade_loads(ax, loads, scale, 0, covered_ns / scale, legend=n == 0)
        ax.grid(color="0.9", lw=0.6)
        ax.set_axisbelow(True)
        more = 0
        if panel == "latency":
            idx, more = _threads_in(run, (b.wakeups > 0).any(axis=1))
            per_bin, what = b.p99
            for i in idx:
                c = THREAD_COLORS[i % 10]
                mx = np.where(b.lat_max[i] > 0, b.lat_max[i], np.nan)
                p99 = np.where(per_bin[i] > 0, per_bin[i], np.nan)
                _stairs(ax, mx, x, color=c, lw=1.2, label=f"{run.label(i)} max")
                _stairs(ax, p99, x, color=c, lw=0.9, ls="--", label=f"{run.label(i)} {what}")
            ax.set_yscale("log")
            log_axis(ax.yaxis, ns_per_unit=1)
            ax.set_ylabel("wake-up latency")
            ax.set_title(f"{run.scenario.get('name')}: wake-up latency {per} (max, and "
                         + ("the bin's p99, from latency.bin)" if what == "p99" else
                            "the worst p99 of the series intervals in it)"),
                         fontsize=9, loc="left")
        elif panel == "gap":
            idx, more = _threads_in(run, (b.gaps > 0).any(axis=1))
            for i in idx:
                g = np.where(b.gap_max[i] > 0, b.gap_max[i], np.nan)
                _stairs(ax, g, x, color=THREAD_COLORS[i % 10], lw=1.1, label=run.label(i))
            if idx:
                ax.set_yscale("log")
                log_axis(ax.yaxis, ns_per_unit=1)
            ax.set_ylabel("longest gap")
            ax.set_title(f"longest gap {per}", fontsize=9, loc="left")
            _mark_outliers(ax, outliers or [], scale)
        elif panel == "misses":
            idx, more = _threads_in(run, (b.releases > 0).any(axis=1))
            for i in idx:
                m = np.where(b.span[i] > 0, b.misses[i], np.nan).astype(float)
                _stairs(ax, m, x, color=THREAD_COLORS[i % 10], lw=1.1,
                          label=f"{run.label(i)} ({int(b.misses[i].sum())} missed)")
            ax.set_ylabel("deadlines missed")
            _top(ax)
            ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
            ax.set_title(f"deadline misses {per}", fontsize=9, loc="left")
        elif panel == "cpu":
            share = b.cpu_share() * 100
            idx, more = _threads_in(run, (b.span > 0).any(axis=1))
            for i in idx:
                _stairs(ax, share[i], x, color=THREAD_COLORS[i % 10], lw=1.1, label=run.label(i))
            ax.set_ylabel("CPU received (%)")
            _top(ax)
            ax.set_title(f"CPU received {per} (share of the time between the thread's start "
                         "and its stop)", fontsize=9, loc="left")
        elif panel.startswith("loads:"):
            spans = {ld["name"]: (ld["started_ns"] / scale, (ld.get("stopped_ns") or covered_ns) / scale)
                     for ld in loads if ld.get("started_ns") is not None}
            rate_unit = panel.split(":", 1)[1]
            _plot_loads(ax, run, s, b, x, spans, rate_unit)
            ax.set_title(f"load throughput {per} ({rate_unit})", fontsize=9, loc="left")
        elif panel == "interrupts":
            for k, (cpu, rate) in enumerate(interrupt_rates(s, b).items()):
                _stairs(ax, rate, x, color=f"C{k % 10}", lw=1.1, label=f"CPU {cpu}")
            ax.set_ylabel("interrupts/s")
            _top(ax)
            ax.set_title(f"interrupts per second {per}, per scenario CPU (/proc/interrupts)",
                         fontsize=9, loc="left")
        legend_outside(ax, title=f"and {more} more threads" if more else None)
    for ax in axes:
        ax.set_xlim(0, covered_ns / scale)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=9, steps=[1, 2, 3, 6, 10] if unit in
                                               ("h", "min") else [1, 2, 2.5, 5, 10]))
    for ax in axes[:-1]:
        ax.tick_params(axis="x", labelbottom=False)
    axes[-1].set_xlabel(f"time from the run's start ({unit})")
    if not run.complete:
        for ax in axes:
            ax.axvline(covered_ns / scale, color="tab:red", lw=1)
        axes[0].annotate("run incomplete: recorded until here", (covered_ns / scale, 1),
                         xycoords=("data", "axes fraction"), ha="right", va="bottom",
                         fontsize=8, color="tab:red")
    align_ylabels(fig, axes)
    return save(fig, path)


# What a load's `ops` count, by type (each type's first counter, docs/loads.md): a file
# written and read back and a ping request are not one unit, so their rates get an axis each.
OP_NAMES = {"cpu": "loops", "memory": "passes", "io": "files", "fork": "forks",
            "procfs": "reads", "tcp_stream": "calls", "stress_ng": "bogo-ops",
            "flood_ping": "requests"}


def _load_unit(run: Run, s: Series, k: int) -> str:
    """The unit load k's line is drawn in: Mbit/s for a load that counts bytes, else its
    ops per second named by its type ("files/s", "requests/s")."""
    if "bytes" in s.counters and (s.of_load(k)["bytes"] > 0).any():
        return "Mbit/s"
    name = s.load_names[k]
    kind = next((ld.get("type") for ld in run.loads if ld.get("name") == name), None)
    return f"{OP_NAMES.get(kind, 'ops')}/s"


def _load_units(run: Run, s: Series) -> dict[str, list[int]]:
    """{unit: the loads drawn in it}, in the loads' order: one panel per unit, so that 5
    files/s of a disk load are not a flat line under 15,000 requests/s of a network one."""
    out: dict[str, list[int]] = {}
    for k in range(len(s.load_names)):
        out.setdefault(_load_unit(run, s, k), []).append(k)
    return out


def _plot_loads(ax: Any, run: Run, s: Series, b: Bins, x: np.ndarray,
                spans: dict[str, tuple[float, float]], unit: str) -> None:
    """The loads of one unit (_load_units), each line over only the part of a bin inside its
    window (`spans`, in the axis' units): a load that stopped 5 ms into a 1 s bin draws its
    rate over those 5 ms, not the whole bin."""
    members = _load_units(run, s).get(unit, [])
    byte_rates = b.load_rate("bytes") if unit == "Mbit/s" else None
    for k in members:
        name = s.load_names[k]
        color, _ = load_style(_load_index(run, name, k))
        span = spans.get(name, (x[0], x[-1]))
        rate = byte_rates[k] * 8 / 1e6 if byte_rates is not None else b.load_rate()[k]
        _window_steps(ax, rate, x, span, color=color, lw=1.2, label=f"{name} {unit}")
    ax.set_ylabel(unit)
    _top(ax)


def _window_steps(ax: Any, values: np.ndarray, edges: np.ndarray, span: tuple[float, float],
                  **kw: Any) -> None:
    """Steps per bin like _stairs, each bin's step cut to the part of it inside `span`."""
    lo = np.clip(edges[:-1], span[0], span[1])
    hi = np.clip(edges[1:], span[0], span[1])
    keep = (hi > lo) & np.isfinite(values)
    xs = np.column_stack([lo[keep], hi[keep], np.full(keep.sum(), np.nan)]).ravel()
    ys = np.column_stack([values[keep], values[keep], np.full(keep.sum(), np.nan)]).ravel()
    ax.plot(xs, ys, **kw)
    ax._hg_top = max(getattr(ax, "_hg_top", 0.0), float(np.nanmax(values[keep], initial=0.0)))


def _stairs(ax: Any, values: np.ndarray, edges: np.ndarray, **kw: Any) -> None:
    """Steps per bin, without the drop to zero at the ends; bins without data left empty.
    (stairs without a baseline does not widen the data limits: _top sets them.)"""
    ax.stairs(values, edges, baseline=None, **kw)
    ax._hg_top = max(getattr(ax, "_hg_top", 0.0), float(np.nanmax(values, initial=0.0)))


def _top(ax: Any) -> None:
    """A linear axis from 0 to 15% above its largest value (0 to 1 when all are 0)."""
    top = getattr(ax, "_hg_top", 0.0)
    ax.set_ylim(0, top * 1.15 if top > 0 else 1)


def _load_index(run: Run, name: str, default: int) -> int:
    """The load's index in result.json (its colour everywhere)."""
    names = [ld.get("name") for ld in run.loads]
    return names.index(name) if name in names else default


def _mark_outliers(ax: Any, outliers: list[dict[str, Any]], scale: float) -> None:
    """A rug of the outlier windows' triggers along the top of the axes."""
    if not outliers:
        return
    t = np.array([o["trigger_ns"] for o in outliers], float) / scale
    ax.plot(t, np.full(len(t), 0.97), "v", transform=ax.get_xaxis_transform(), ms=4,
            color="k", alpha=0.6, label=f"outlier windows ({len(outliers)})", clip_on=False)


def applies(given: Given) -> bool:
    """Whether the series has two bins or more: one bin (a run shorter than a series interval)
    would be drawn as flat lines saying no more than the section's table."""
    ot = over_time(given.run)
    return ot is not None and ot.bins.n >= 2


def draw(given: Given, path: Path) -> None:
    ot = over_time(given.run)
    plot_series(given.run, ot.series, ot.bins, path, ot.covered_ns, ot.windows)


FIGURE = Figure("series.png", draw, applies, cost=2.0)
