# SPDX-License-Identifier: GPL-2.0-or-later
"""jitter.png: Dougan's form of the latency threads' results: per CPU, a histogram of the
wake-ups' scheduling jitter (lateness) with the worst case marked, as the article's figures
show a run's jitter distribution and report its worst case per CPU."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses import skipped
from ..base.units import fmt_ns
from ..read.memo import per_run
from ..read.rundir import Run
from .figure import Figure, Given
from .reduce import log_bins


def thread_cpu(run: Run, i: int) -> str:
    """The CPU a thread ran on: its pinned CPU, its only allowed CPU, else 'not pinned'."""
    s = run.scenario_thread(i)
    pinned = s.get("pinned_cpu")
    if pinned is not None:
        return f"CPU {pinned}"
    cpus = s.get("cpus")
    if isinstance(cpus, list) and len(cpus) == 1:
        return f"CPU {cpus[0]}"
    return "not pinned"


def per_cpu(run: Run) -> dict[str, list[int]]:
    """{CPU label: latency threads on it}, for the latency threads with stored wake-ups."""
    out: dict[str, list[int]] = {}
    for i, t in enumerate(run.threads):
        if (t["stats"].get("latency") or {}).get("count"):
            out.setdefault(thread_cpu(run, i), []).append(i)
    return out


@per_run
def worst_per_cpu(run: Run) -> list[dict[str, Any]]:
    """Per CPU: wake-ups stored, the worst jitter and the thread that had it, and the slots
    its threads skipped (analyses/skipped.py): a skipped slot was later than the worst
    wake-up measured, unless the scenario left them out (`skipped_slots: ignored`)."""
    smp = run.samples
    rows = []
    for cpu, idx in per_cpu(run).items():
        m = np.isin(smp.thread, idx)
        if not m.any():
            continue
        k = int(np.argmax(np.where(m, smp.late, np.iinfo(np.int64).min)))
        sk = [skipped.of_thread(run, i) for i in idx]
        rows.append({"cpu": cpu, "wakeups": int(m.sum()), "worst_ns": int(smp.late[k]),
                     "thread": run.label(int(smp.thread[k])),
                     "skipped": sum(x.skipped for x in sk),
                     "skipped_counted_late": all(x.counted_late for x in sk)})
    return rows


def plot_jitter(run: Run, path: Path) -> Path | None:
    """One panel per CPU: counts of wake-ups per jitter bin (log-log, 20 bins a decade),
    the worst case as a red line with its value."""
    groups = per_cpu(run)
    if not groups:
        return None
    from .plotting import (count_limits, count_stairs, fit_layout, legend_outside, log_axis,
                           plt, save)
    smp = run.samples
    late = smp.late
    lo = max(1.0, float(late[late > 0].min())) if (late > 0).any() else 1.0
    hi = max(lo * 10, float(late.max()) if len(late) else lo * 10)
    bins = log_bins(lo, hi)
    fig, axes = plt.subplots(1, len(groups), squeeze=False, figsize=(5.5 * len(groups) + 1.5, 3.6))
    for ax, (cpu, idx) in zip(axes[0], groups.items()):
        top = 0
        for i in idx:
            v = smp.late[smp.thread == i]
            top = max(top, count_stairs(ax, np.histogram(np.maximum(v, lo), bins)[0], bins / 1e3,
                                        lw=1.1, label=f"{run.label(i)} ({len(v)} wake-ups)"))
        m = np.isin(smp.thread, idx)
        worst = int(late[m].max()) if m.any() else 0
        ax.axvline(worst / 1e3, color="tab:red", lw=1, ls="--", label=f"worst {fmt_ns(worst)}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        count_limits(ax, top)
        log_axis(ax.xaxis, ns_per_unit=1e3)
        log_axis(ax.yaxis)
        ax.set_xlabel("scheduling jitter (wake-up lateness)")
        ax.set_ylabel("wake-ups")
        ax.set_title(f"{cpu}: worst {fmt_ns(worst)}", fontsize=10)
        legend_outside(ax, fontsize=7)
    fig.suptitle(f"{run.scenario.get('name')}: jitter per CPU (Dougan's form: the distribution "
                 "and its worst case)", fontsize=10)
    fit_layout(fig)
    return save(fig, path)


def applies(given: Given) -> bool:
    return bool(worst_per_cpu(given.run))


def draw(given: Given, path: Path) -> None:
    plot_jitter(given.run, path)


FIGURE = Figure("jitter.png", draw, applies,
                "Per CPU, the wake-ups' jitter (lateness against the grid) as a histogram on "
                "log-log axes, the worst case dashed: the form of Dougan's figures, which report "
                "a run's worst-case jitter per CPU under load.")
