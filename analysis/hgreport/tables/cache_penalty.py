# SPDX-License-Identifier: GPL-2.0-or-later
"""The indirect cost of a context switch (section 5.2, figure 5):

    C = ((W1 - W10) / W1) * (T / N10)

W1, W10: work units (cache lines touched) of the one-thread and the ten-thread run,
T: the run's duration, N10: context switches of the ten-thread run, counted from its trace as
involuntary switches between its threads (an interval that ended `preempted` followed on the
same CPU by another thread's). Repeat r of the one-thread point is paired with repeat r of
the many-thread point (the pair of runs is the replicate); the estimate is the mean of the
paired C with its 95% t interval (base/stats.py; a penalty may be negative, so no floor; none
below three pairs), and a size's penalty is significant only when its interval excludes zero.

The paper's formula assumes the threads own their CPU for T. On a shared machine they do
not, and ten threads win a larger share against other processes than one, so W10 > W1 and C
comes out negative. The per-CPU estimate compares rates of work per second of CPU received
(r = W / CPU) and charges the lost fraction to the CPU the ten threads received:

    C_cpu = ((r1 - r10) / r1) * (CPU10 / N10)

which is the paper's C when CPU1 = CPU10 = T."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analyses import switches
from ..base.errors import InputError
from ..base import safeout
from ..base.markdown import table
from ..base import stats
from ..base.stats import MIN_RUNS, Estimate
from ..base.units import axis_number, fmt_bytes, fmt_ns
from ..figures.plotting import plt, save
from ..read.rundir import Run
from ..read.sweepdir import Point, Sweep


def penalty_ns(w1: float, w10: float, duration_ns: float, n10: int) -> float:
    """C of the paper, in ns per switch."""
    if w1 <= 0 or n10 <= 0:
        raise ValueError("need W1 > 0 and N10 > 0")
    return (w1 - w10) / w1 * duration_ns / n10


def penalty_per_cpu_ns(w1: float, cpu1: float, w10: float, cpu10: float, n10: int) -> float:
    """C from rates of work per CPU-second, in ns per switch (see the module's doc)."""
    if w1 <= 0 or cpu1 <= 0 or cpu10 <= 0 or n10 <= 0:
        raise ValueError("need W1 > 0, CPU received in both runs and N10 > 0")
    r1, r10 = w1 / cpu1, w10 / cpu10
    return (r1 - r10) / r1 * cpu10 / n10


def work(run: Run) -> int:
    return sum(t["stats"]["work_units"] for t in run.threads)


def cpu_ns(run: Run) -> int:
    return sum(t["stats"]["cpu_ns"] for t in run.threads)


def involuntary_switches(run: Run) -> int:
    sw = switches.switches(run.intervals)
    return sw.involuntary_count


@dataclass
class Row:
    label: str
    working_set: float | None
    one: Point
    many: Point
    penalties: list[float]
    est: Estimate
    w1: list[int]
    w10: list[int]
    n10: list[int]
    cpu_penalties: list[float]
    cpu_est: Estimate


def compare(label: str, ws: float | None, one: Point, many: Point) -> Row:
    """C for one pair of points; repeats paired by order, or, when the repeat counts differ,
    the mean one-thread work against each many-thread run."""
    w1 = [work(r) for r in one.runs]
    w10 = [work(r) for r in many.runs]
    n10 = [involuntary_switches(r) for r in many.runs]
    if len(w1) == len(w10):
        base = w1
    else:
        base = [sum(w1) / len(w1)] * len(w10)
    pen = [penalty_ns(a, b, r.duration_ns, n)
           for a, b, r, n in zip(base, w10, many.runs, n10) if n and a]
    c1 = [cpu_ns(r) for r in one.runs]
    c10 = [cpu_ns(r) for r in many.runs]
    if len(w1) == len(w10):
        pairs = list(zip(w1, c1))
    else:
        pairs = [(sum(w1) / len(w1), sum(c1) / len(c1))] * len(w10)
    cpen = [penalty_per_cpu_ns(a, ca, b, cb, n)
            for (a, ca), b, cb, n in zip(pairs, w10, c10, n10) if n and a and ca and cb]
    return Row(label, ws, one, many, pen, stats.estimate(pen, stats.LINEAR, lower=None), w1,
               w10, n10, cpen, stats.estimate(cpen, stats.LINEAR, lower=None))


def _count_axis(sweep: Sweep) -> str:
    for path, values in sweep.axes:
        if path.endswith(".count") and len(values) == 2:
            return path
    raise InputError(sweep.path, "cannot pair points automatically: no axis threads[NAME].count with "
                                 "two values (1 and N); give --one ID --many ID")


def automatic(sweep: Sweep) -> list[Row]:
    """Pairs the count=1 and count=N points at each value of the other axes."""
    count = _count_axis(sweep)
    lo, hi = sorted(dict(sweep.axes)[count], key=lambda v: axis_number(v) or 0)
    others = [a for a, _ in sweep.axes if a != count]
    ws_axis = next((a for a in others if a.endswith("working_set")), others[0] if others else None)
    rows = []
    for one in sweep.points:
        if str(one.overrides.get(count)) != str(lo):
            continue
        rest = {a: one.overrides.get(a) for a in others}
        many = next((p for p in sweep.points if str(p.overrides.get(count)) == str(hi)
                     and all(str(p.overrides.get(a)) == str(v) for a, v in rest.items())), None)
        if many is None or not one.runs or not many.runs:
            continue
        label = ", ".join(f"{a.split('.')[-1]}={v}" for a, v in rest.items()) or one.id
        ws = axis_number(one.overrides.get(ws_axis)) if ws_axis else None
        rows.append(compare(label, ws, one, many))
    if not rows:
        raise InputError(sweep.path, "no pair of points (count 1 and N at the same working set) with runs")
    return rows


def fmt_interval(e: Estimate) -> str:
    return f"[{fmt_ns(e.low)}, {fmt_ns(e.high)}]" if e.has_interval else f"– (n < {MIN_RUNS})"


def verdict(e: Estimate) -> str:
    """Whether the pairs tell the penalty from zero (its t interval excludes 0)."""
    if not e.has_interval:
        return stats.TOO_FEW
    if e.low > 0:
        return f"{stats.SIGNIFICANT}, above 0"
    return f"{stats.SIGNIFICANT}, below 0" if e.high < 0 else stats.NOT_SIGNIFICANT


def render(rows: list[Row]) -> str:
    body = []
    for r in rows:
        e, c = r.est, r.cpu_est
        body.append([r.label, r.one.id, r.many.id, e.n,
                     f"{sum(r.w1) / len(r.w1):.0f}", f"{sum(r.w10) / len(r.w10):.0f}",
                     f"{sum(r.n10) / len(r.n10):.0f}", fmt_ns(e.value), fmt_interval(e),
                     fmt_ns(c.value), fmt_interval(c), verdict(c)])
    return ("# Cache penalty per context switch (Hourglass section 5.2)\n\n"
            "C = ((W1 − W10) / W1) · (T / N10); W: work units, T: run duration, N10: involuntary "
            "switches of the many-thread run (from its trace). Mean over paired repeats (the pair "
            "is the replicate) with its 95% t interval (none below three pairs). "
            "C per CPU compares work per second of CPU received, "
            "((r1 − r10) / r1) · (CPU10 / N10) with r = W / CPU: the paper's C when the threads "
            "own their CPU, and the one to read on a shared machine. The last column says "
            "whether it is significantly different from zero (its interval excludes 0). "
            + stats.describe_method() + "\n\n"
            + table(["point", "1 thread", "N threads", "pairs", "W1", "W10", "N10", "C (mean)",
                     "95% interval", "C per CPU (mean)", "95% interval", "C per CPU is"], body,
                    "lllrrrrrlrll") + "\n")


def _yerr(ests: list[Estimate]) -> list[list[float]]:
    """Asymmetric error bars in us (none where there is no interval)."""
    return [[(e.value - e.low) / 1e3 if e.has_interval else 0 for e in ests],
            [(e.high - e.value) / 1e3 if e.has_interval else 0 for e in ests]]


def plot(rows: list[Row], path: Path) -> Path:
    pts = [r for r in rows if r.est.value is not None]
    fig, ax = plt.subplots(figsize=(9.5, 4.2), layout="constrained")
    numeric = all(r.working_set for r in pts)
    x = [r.working_set if numeric else k for k, r in enumerate(pts)]
    ax.errorbar(x, [r.est.value / 1e3 for r in pts], yerr=_yerr([r.est for r in pts]),
                marker="o", capsize=4, lw=1, label="C (work per run, the paper's)")
    cpts = [(xi, r) for xi, r in zip(x, pts) if r.cpu_est.value is not None]
    if cpts:
        ax.errorbar([xi for xi, _ in cpts], [r.cpu_est.value / 1e3 for _, r in cpts],
                    yerr=_yerr([r.cpu_est for _, r in cpts]), marker="s",
                    capsize=4, lw=1, label="C per CPU (work per CPU-second)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    if numeric:
        ax.set_xscale("log", base=2)
    ax.set_xticks(x)
    ax.set_xticklabels([fmt_bytes(r.working_set) if numeric else r.label for r in pts],
                       rotation=30, fontsize=8)
    ax.minorticks_off()
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xlabel("thread working set")
    ax.set_ylabel("penalty per context switch (us)")
    ax.set_title("performance lost to context switches (mean, 95% t interval over pairs)", fontsize=10)
    ax.grid(color="0.9")
    return save(fig, path)


def write(rows: list[Row], out: Path) -> str:
    safeout.make_dir(out)
    text = render(rows)
    safeout.write_text(out / "cache_penalty.md", text)
    plot(rows, out / "cache_penalty.png")
    doc: list[dict[str, Any]] = [{"label": r.label, "working_set_bytes": r.working_set,
                                  "one": r.one.id, "many": r.many.id, "w1": r.w1, "w10": r.w10,
                                  "n10": r.n10, "penalty_ns": r.penalties, "mean_ns": r.est.value,
                                  "low_ns": r.est.low, "high_ns": r.est.high,
                                  "penalty_cpu_ns": r.cpu_penalties,
                                  "mean_cpu_ns": r.cpu_est.value,
                                  "low_cpu_ns": r.cpu_est.low, "high_cpu_ns": r.cpu_est.high,
                                  "cpu_verdict": verdict(r.cpu_est),
                                  "method": r.est.method} for r in rows]
    safeout.write_text(out / "cache_penalty.json", json.dumps(doc, indent=2) + "\n")
    return text
