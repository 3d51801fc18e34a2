# SPDX-License-Identifier: GPL-2.0-or-later
"""outliers.png: one small timeline per outlier window of an `outliers`-mode run, around its
largest outlier (docs/results.md#trace-modes): intervals of CPU, gaps (by cause when the kernel
was traced), wake-ups as ticks from the intended to the actual time."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses.causes import cause_color, cause_names
from ..analyses.series_bins import fmt_at
from ..analyses.switches import Gaps, gaps_of_run
from ..base.units import fmt_ns
from ..read.records import interval_records, wakeup_records
from ..read.rundir import Run
from .figure import Figure, Given

MAX_ROWS = 6
MAX_PANELS = 9


def largest(run: Run) -> list[dict[str, Any]]:
    """The outlier windows of the run (result.json trace.outliers), the largest value first."""
    ws = list((run.result.get("trace") or {}).get("outliers") or [])
    return sorted(ws, key=lambda w: -int(w.get("value_ns") or 0))


def _focus(w: dict[str, Any], g: Gaps, wk: np.ndarray, before: int,
           after: int) -> tuple[int, int, int, int]:
    """(lo, hi) to show: the window's largest outlier of its thread with `before`/`after` of
    context, inside the window; and (from, to) of that outlier (the gap, or the wake-up from
    its intended to its actual time)."""
    lo, hi = int(w["trigger_ns"]), int(w["trigger_ns"]) + int(w.get("value_ns") or 0)
    th = int(w["thread"])
    if w["kind"] == "gap":
        m = (g.window == w["id"]) & (g.thread == th)
        if m.any():
            k = np.nonzero(m)[0][np.argmax(g.length[m])]
            lo, hi = int(g.start[k]), int(g.stop[k])
    else:
        m = (wk["window"] == w["id"]) & (wk["thread"] == th)
        if m.any():
            late = wk["actual_ns"][m] - wk["intended_ns"][m]
            k = int(np.argmax(late))
            lo, hi = int(wk["intended_ns"][m][k]), int(wk["actual_ns"][m][k])
    return max(int(w["from_ns"]), lo - before), min(int(w["to_ns"]), hi + after), lo, hi


def plot_windows(run: Run, path: Path, ws: list[dict[str, Any]]) -> Path | None:
    """Small multiples: per window, one row per thread with records in it, in the order the
    windows happened; the outlier each is centred on shaded and outlined in red."""
    from .plotting import fit_layout, legend_outside, plt, save, wrap_titles
    if not ws:
        return None
    ws = sorted(ws, key=lambda w: int(w["trigger_ns"]))
    rec, wk = interval_records(run), wakeup_records(run)
    g = gaps_of_run(run, same_cpu=False)      # docs/kernel-trace.md's gaps, from the columns
    names = cause_names(run)
    tr = run.scenario.get("trace") or {}
    before, after = int(tr.get("before_ns") or 5e6), int(tr.get("after_ns") or 5e6)
    cols = min(3, len(ws))
    nrows = -(-len(ws) // cols)
    fig, axes = plt.subplots(nrows, cols, squeeze=False, figsize=(4.2 * cols if cols > 1 else 7.5, 2.3 * nrows))
    used: dict[str, Any] = {}
    for ax, w in zip(axes.flat, ws):
        lo, hi, olo, ohi = _focus(w, g, wk, before, after)
        _panel(ax, run, w, rec, g, wk, lo, hi, names, used)
        _mark(ax, lo, hi, olo, ohi)
    for ax in axes.flat[len(ws):]:
        ax.axis("off")
    handles = [plt.Rectangle((0, 0), 1, 1, color="0.45", label="interval of CPU")]
    handles += [plt.Rectangle((0, 0), 1, 1, color=cause_color(n), label=f"gap: {n}")
                for n in used]
    handles += [plt.Line2D([], [], color="tab:purple", marker="|", ls="-", label="wake-up "
                           "(intended → actual)"),
                plt.Rectangle((0, 0), 1, 1, facecolor=(0.84, 0.15, 0.16, 0.15),
                              edgecolor="tab:red", label="the outlier (gap or late wake-up)")]
    legend_outside(axes.flat[cols - 1], handles=handles, fontsize=7)
    fig.suptitle(f"{run.scenario.get('name')}: outlier windows in time order, around each one's "
                 "largest outlier (x: time from each panel's left edge)", fontsize=10)
    fit_layout(fig)
    if wrap_titles(fig):        # a long thread name: its panel's title on two lines
        fit_layout(fig)
    return save(fig, path)


def _mark(ax: Any, lo: int, hi: int, olo: int, ohi: int) -> None:
    """The outlier itself: shaded from its start to its end, its ends in red."""
    unit_scale = 1e3 if hi - lo < 2e6 else 1e6          # as _panel's axis
    a, b = (max(olo, lo) - lo) / unit_scale, (min(ohi, hi) - lo) / unit_scale
    ax.axvspan(a, max(b, a + (hi - lo) / unit_scale / 400), facecolor="tab:red", alpha=0.15,
               lw=0, zorder=0)
    for x in (a, b):
        ax.axvline(x, color="tab:red", lw=0.8)


def _panel(ax: Any, run: Run, w: dict[str, Any], rec: np.ndarray, g: Gaps, wk: np.ndarray,
           lo: int, hi: int, names: list[str], used: dict[str, Any]) -> None:
    m = (rec["window"] == w["id"]) & (rec["end_ns"] > lo) & (rec["start_ns"] < hi)
    gm = (g.window == w["id"]) & (g.stop > lo) & (g.start < hi)
    km = (wk["window"] == w["id"]) & (wk["actual_ns"] > lo) & (wk["intended_ns"] < hi)
    threads = sorted(set(rec["thread"][m].tolist()) | set(wk["thread"][km].tolist())
                     | {int(w["thread"])}, key=lambda t: (t != int(w["thread"]), t))[:MAX_ROWS]
    zero = lo
    unit, scale = ("us", 1e3) if hi - lo < 2e6 else ("ms", 1e6)
    for row, th in enumerate(threads):
        y = len(threads) - 1 - row
        r = rec[m & (rec["thread"] == th)]
        a = (np.clip(r["start_ns"], lo, hi) - zero) / scale
        b = (np.clip(r["end_ns"], lo, hi) - zero) / scale
        ax.broken_barh(list(zip(a, b - a)), (y - 0.3, 0.6), facecolors="0.45",
                       edgecolors="0.45", lw=0.3)
        sel = gm & (g.thread == th)
        for code in np.unique(g.cause[sel]):
            name = names[code] if code < len(names) else str(code)
            c = sel & (g.cause == code)
            ga = (np.clip(g.start[c], lo, hi) - zero) / scale
            gb = (np.clip(g.stop[c], lo, hi) - zero) / scale
            ax.broken_barh(list(zip(ga, gb - ga)), (y - 0.18, 0.36),
                           facecolors=cause_color(name), lw=0)
            used[name] = True
        k = wk[km & (wk["thread"] == th)]
        if len(k):
            ai = (k["intended_ns"] - zero) / scale
            aa = (k["actual_ns"] - zero) / scale
            ax.hlines(np.full(len(k), y + 0.38), ai, aa, color="tab:purple", lw=1)
            ax.plot(aa, np.full(len(k), y + 0.38), "|", color="tab:purple", ms=6)
    ax.set_yticks(range(len(threads)))
    ax.set_yticklabels([run.label(t) for t in reversed(threads)], fontsize=7)
    ax.set_ylim(-0.6, len(threads) - 0.2)
    ax.set_xlim(0, (hi - lo) / scale)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlabel(f"{unit} from {fmt_at(lo)}", fontsize=7)
    kind = "wake-up" if w["kind"] == "wakeup" else w["kind"]
    what = f"{kind} {fmt_ns(w['value_ns'])}" + (" late" if kind == "wake-up" else "")
    ax.set_title(f"#{w['id']} at {fmt_at(int(w['trigger_ns']))}: {run.label(int(w['thread']))} {what}",
                 fontsize=8)
    ax.grid(axis="x", color="0.9", lw=0.5)
    ax.set_axisbelow(True)


def applies(given: Given) -> bool:
    return bool(largest(given.run))


def draw(given: Given, path: Path) -> None:
    plot_windows(given.run, path, largest(given.run)[:MAX_PANELS])


def caption(given: Given) -> str:
    return (f"One panel per window (the {min(len(largest(given.run)), MAX_PANELS)} largest, in "
            "time order), centred on its largest outlier; gray: intervals of CPU, coloured: gaps "
            "(by cause when the kernel was traced), ticks: wake-ups (a line from the intended to "
            "the actual time).")


FIGURE = Figure("outliers.png", draw, applies, caption)
