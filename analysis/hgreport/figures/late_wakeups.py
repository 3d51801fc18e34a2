"""late_wakeups.png: the components of the tail (docs/kernel-trace.md, "Late wake-ups"): per
latency thread, its worst wake-ups (analyses/late_wakeups.py's TAIL) as stacked bars, the
worst first, one colour per component, the residual on top."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..analyses.late_wakeups import COMPONENTS, Late
from ..read.rundir import Run
from .plotting import legend_outside, plt, save

COLORS = {"programmed": "#b3b3b3", "timer_delay": "#fdbf6f", "timer_irq": "#ff7f00",
          "irq": "#33a02c", "softirq": "#fb9a99", "local_timer": "#ffff99", "ipi": "#cab2d6",
          "task": "#1f78b4", "sched": "#a6cee3", "invisible": "#de77ae", "residual": "#000000"}


def plot(run: Run, late: Late, path: Path) -> Path | None:
    """None when no thread has an attributed late wake-up."""
    shown = [(i, late.worst[i]) for i in sorted(late.worst) if late.worst[i]]
    if not shown:
        return None
    fig, axes = plt.subplots(len(shown), 1, figsize=(11, 3.2 * len(shown)), squeeze=False)
    for ax, (i, xs) in zip(axes[:, 0], shown):
        x = np.arange(len(xs))
        bottom = np.zeros(len(xs))
        for name in COMPONENTS + ("residual",):
            v = np.array([(w.get("components") or {}).get(name, 0) if name != "residual"
                          else max(w.get("residual_ns", 0), 0) for w in xs], float) / 1e3
            if not v.any():
                continue
            ax.bar(x, v, bottom=bottom, width=1.0, color=COLORS[name], label=name, lw=0)
            bottom += v
        ax.set_yscale("log" if bottom.max() > 20 * max(np.median(bottom), 1) else "linear")
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylabel("lateness (us)")
        ax.set_title(f"{run.label(i)}: the {len(xs)} worst of {late.count.get(i, 0)} late "
                     "wake-ups, worst first", fontsize=9)
        legend_outside(ax)
    axes[-1, 0].set_xlabel("wake-ups, by lateness (worst first)")
    return save(fig, path)
