# SPDX-License-Identifier: GPL-2.0-or-later
"""Abeni et al.'s figure 4 (`hgreport abeni-cdf`): the cumulative distribution of wake-up
latency during one stress window, a colour per configuration, a line per run."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .plotting import log_axis, plt, save

COLORS = ("black", "tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def plot(runs: Sequence[dict[str, Any]], config_of: Sequence[str], configs: Sequence[str],
         window: str, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    seen = set()
    for r, cfg in zip(runs, config_of):
        v = np.asarray(r["curve_ns"], dtype=np.float64)
        if not len(v):
            continue
        color = COLORS[configs.index(cfg) % len(COLORS)]
        y = np.linspace(0, 1, len(v))
        ax.step(np.maximum(v, 1.0) / 1e3, y, where="post", color=color, lw=1,
                label=None if cfg in seen else cfg)
        seen.add(cfg)
    ax.set_xscale("log")
    log_axis(ax.xaxis, ns_per_unit=1e3)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"wake-up latency during the {window} window")
    ax.set_ylabel("P{latency <= x}")
    ax.set_title(f"latency CDF in the {window} window, a line per run (Abeni et al. figure 4)",
                 fontsize=10)
    ax.grid(color="0.9")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    return save(fig, path)
