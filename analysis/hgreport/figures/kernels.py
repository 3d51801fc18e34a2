# SPDX-License-Identifier: GPL-2.0-or-later
"""The latency histograms of one thread on several kernels overlaid, in the form of OSADL's
long-term latency plots (www.osadl.org, "Latency plots"): 1 us bins of result.json's
histogram, the latency on a linear axis, the number of samples on a log axis, a line per
kernel (analyses/kernels.py). Wake-ups beyond the histogram are counted in the legend."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

FLOOR = 0.1
COLORS = ("tab:blue", "tab:red", "tab:green", "tab:orange", "tab:purple", "tab:brown",
          "tab:pink", "tab:olive", "tab:cyan", "black")


def overlay(d: dict[str, Any], label: str, path: Path) -> Path | None:
    """The figure of thread `label` across the columns of `d`, or None when no column has its
    histogram."""
    series = []
    for c in d["columns"]:
        lat = (c["threads"].get(label) or {}).get("latency")
        if lat and lat["counts"]:
            series.append((c, lat))
    if not series:
        return None
    from .plotting import log_axis, plt, save
    fig, ax = plt.subplots(figsize=(9.5, 4.8))
    top = 1
    for k, (c, lat) in enumerate(series):
        counts = np.asarray(lat["counts"], dtype=np.float64)
        used = np.flatnonzero(counts)
        if not len(used):
            continue
        last = int(used[-1]) + 1
        top = max(top, last)
        x = np.arange(last + 1) * lat["bucket_ns"] / 1e3
        # an empty bin drops below the axis, as OSADL's lines do
        y = np.maximum(np.r_[counts[:last], 0.0], FLOOR)
        name = c["label"] + (" (emulated)" if c["facts"]["emulated"] and not d["emulated_all"]
                             else "")
        if lat["overflow"]:
            name += f"; {lat['overflow']} beyond {lat['n_buckets'] * lat['bucket_ns'] / 1e6:g} ms"
        ax.step(x, y, where="post", lw=0.8, color=COLORS[k % len(COLORS)], label=name)
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    ax.set_xlim(0, top * series[0][1]["bucket_ns"] / 1e3 * 1.02)
    ax.set_ylim(bottom=0.8)
    ax.set_xlabel("Latency (us), 1 us bins")
    ax.set_ylabel("Number of samples")
    ax.set_title(f"{d['scenario']}: wake-up latency of {label}"
                 + (" (emulated)" if d["emulated"] else ""), fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=7,
              frameon=False)
    return save(fig, path)
