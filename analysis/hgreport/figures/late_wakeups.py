# SPDX-License-Identifier: GPL-2.0-or-later
"""late_wakeups.png: the components of the tail (docs/kernel-trace.md, "Late wake-ups"): per
latency thread, its worst wake-ups (analyses/late_wakeups.py's TAIL), worst first, as bars of
their components' shares of the lateness (one colour per component, the residual on top), and
the lateness itself as a line on a log axis at the right (a stack on a log axis would swell its
lowest parts)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..analyses.late_wakeups import COMPONENTS, TAIL, Late, collect
from ..read.rundir import Run
from .figure import Figure, Given

COLORS = {"programmed": "#b3b3b3", "timer_delay": "#fdbf6f", "timer_irq": "#ff7f00",
          "irq": "#33a02c", "softirq": "#fb9a99", "local_timer": "#ffff99", "ipi": "#cab2d6",
          "task": "#1f78b4", "sched": "#a6cee3", "invisible": "#de77ae", "residual": "#000000"}


def late_count(late: Late, i: int) -> int:
    return late.count.get(i, 0)


def plot(run: Run, late_all: Late, path: Path) -> Path | None:
    """None when no thread has an attributed late wake-up."""
    shown = [(i, late_all.worst[i]) for i in sorted(late_all.worst) if late_all.worst[i]]
    if not shown:
        return None
    from .plotting import plt, save
    fig, axes = plt.subplots(len(shown), 1, figsize=(11, 3.2 * len(shown)), squeeze=False)
    for ax, (i, xs) in zip(axes[:, 0], shown):
        x = np.arange(len(xs))
        late = np.array([max(w["late_ns"], 1) for w in xs], float)
        bottom = np.zeros(len(xs))
        for name in COMPONENTS + ("residual",):
            v = np.array([(w.get("components") or {}).get(name, 0) if name != "residual"
                          else max(w.get("residual_ns", 0), 0) for w in xs], float) / late
            if not v.any():
                continue
            ax.bar(x, 100 * v, bottom=100 * bottom, width=1.0, color=COLORS[name], label=name,
                   lw=0)
            bottom += v
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylim(0, 100)
        ax.set_ylabel("share of the lateness (%)")
        ax.set_title(f"{run.label(i)}: the {len(xs)} worst of {late_count(late_all, i)} late "
                     "wake-ups, worst first", fontsize=9)
        right = ax.twinx()
        right.plot(x, late / 1e3, color="black", lw=1.0, label="lateness")
        right.set_yscale("log")
        right.set_ylabel("lateness (us)")
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = right.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="upper left", bbox_to_anchor=(1.08, 1.0), fontsize=7,
                  frameon=False, borderaxespad=0.0)
    axes[-1, 0].set_xlabel("wake-ups, by lateness (worst first)")
    return save(fig, path)


def applies(given: Given) -> bool:
    """Whether a thread has an attributed late wake-up (late_wakeups.jsonl)."""
    return any(collect(given.run).worst.values())


def draw(given: Given, path: Path) -> None:
    plot(given.run, collect(given.run), path)


FIGURE = Figure("late_wakeups.png", draw, applies,
                f"Each thread's {TAIL} worst wake-ups, stacked by component.")
