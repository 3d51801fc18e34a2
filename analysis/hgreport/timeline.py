"""The execution trace (the paper's figures 3 and 6): one row per thread, a gray rectangle for
each interval of continuous CPU in a time window, load windows shaded."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .plotting import plt, save, shade_loads
from .rundir import Run

WIDTH_PX = 1400          # about the drawn width of the figure (11 in at 120 dpi, less margins)


def merge_to_pixels(a: np.ndarray, b: np.ndarray, pixel: float) -> tuple[np.ndarray, np.ndarray]:
    """Intervals [a, b) sorted by a, merged where the hole between them is shorter than
    `pixel`: what the eye sees at that resolution, drawn as a few hundred rectangles instead
    of millions. Vectorised: a block ends where the next start is a pixel or more past the
    furthest end so far."""
    if len(a) == 0:
        return a, b
    reach = np.maximum.accumulate(b)
    cut = np.flatnonzero(a[1:] - reach[:-1] >= pixel)
    first = np.r_[0, cut + 1]
    last = np.r_[cut, len(a) - 1]
    return a[first], reach[last]


def plot_timeline(run: Run, path: Path, start_ns: int = 0, length_ns: int = 500_000_000) -> Path:
    iv = run.intervals
    end_ns = start_ns + length_ns
    n = len(run.threads)
    unit, scale = ("ms", 1e6) if length_ns <= 5e9 else ("s", 1e9)
    fig, ax = plt.subplots(figsize=(11, 0.45 * n + 1.4))
    shade_loads(ax, run.loads, scale, start_ns / scale, end_ns / scale)
    labels = []
    for row, i in enumerate(range(n)):
        y = n - 1 - row
        m = (iv.thread == i) & (iv.stop > start_ns) & (iv.start < end_ns)
        a, b = np.clip(iv.start[m], start_ns, end_ns), np.clip(iv.stop[m], start_ns, end_ns)
        order = np.argsort(a, kind="stable")
        a, b = merge_to_pixels(a[order], b[order], length_ns / WIDTH_PX)
        a, b = a / scale, b / scale
        # Intervals shorter than a pixel still show: a hairline edge in the same gray.
        ax.broken_barh(list(zip(a.tolist(), (b - a).tolist())), (y - 0.35, 0.7),
                       facecolors="0.45", edgecolors="0.45", linewidth=0.3)
        cpus = np.unique(iv.cpu[iv.thread == i]).tolist()
        where = f"cpu {cpus[0]}" if len(cpus) == 1 else f"cpus {','.join(map(str, cpus))}" if cpus else ""
        t = run.threads[i]
        pol = (t.get("granted") or {}).get("policy") or ""
        labels.append(f"{run.label(i)}\n{pol} {where}".strip())
    ax.set_yticks(range(n))
    ax.set_yticklabels(list(reversed(labels)), fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(start_ns / scale, end_ns / scale)
    ax.set_xlabel(f"time from the run's start ({unit})")
    title = f"{run.scenario.get('name')}: execution trace, {length_ns / 1e6:g} ms from {start_ns / 1e6:g} ms"
    if not run.complete:
        title += "  [run incomplete]"
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="0.85", lw=0.5)
    ax.set_axisbelow(True)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
    return save(fig, path)
