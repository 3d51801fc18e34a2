# SPDX-License-Identifier: GPL-2.0-or-later
"""latency.png, Abeni's latency figures of one run: the tail of the wake-up lateness (1 - CDF)
and the lateness over time, load windows shaded."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..read.rundir import Run
from .figure import Figure, Given
from .reduce import cdf_points, scatter_points


def latency_threads(run: Run) -> list[int]:
    return [i for i, t in enumerate(run.threads) if t["stats"].get("latency")]


def plot_latency(run: Run, path: Path) -> Path | None:
    """The tail of wake-up lateness (1 - CDF, log-log: the worst wake-ups stay visible) and
    lateness over time with load windows shaded."""
    idx = latency_threads(run)
    if not idx:
        return None
    from .plotting import legend_below, legend_outside, log_axis, plt, save, shade_loads
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
        k = scatter_points(s.intended, s.late, log_y=True)
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


def applies(given: Given) -> bool:
    return bool(latency_threads(given.run))


def draw(given: Given, path: Path) -> None:
    plot_latency(given.run, path)


FIGURE = Figure("latency.png", draw, applies, cost=2.0)
