# SPDX-License-Identifier: GPL-2.0-or-later
"""The execution trace (the paper's figures 3 and 6): one row per thread, a gray rectangle for
each interval of continuous CPU (merged to pixels), gaps coloured by their cause when the
kernel was traced (docs/kernel-trace.md), load windows shaded; one panel per window, stacked.
By default the windows are where things happen (analyses/timeline_windows.py);
`hgreport RUN --window START:LEN` draws one chosen window."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..analyses.causes import cause_color, cause_names, traced
from ..analyses.switches import BLOCK, gaps_of_run
from ..analyses.timeline_windows import Window, choose_windows, releases
from ..base.units import fmt_ns
from ..read.memo import per_run
from ..read.rundir import Run
from .figure import Figure, Given
from .style import clock_unit

WIDTH_PX = 1400          # about the drawn width of the figure (11 in at 120 dpi, less margins)
MAX_ROWS = 40            # rows of a panel: past this, the threads beyond the first 39 share one


def shown_threads(run: Run) -> int:
    """How many threads get a row of their own; the rest (if any) share the last row."""
    n = len(run.threads)
    return n if n <= MAX_ROWS else MAX_ROWS - 1


def aggregated_note(run: Run) -> str | None:
    """What the figure and the report say when threads share a row; None when none do."""
    n, k = len(run.threads), shown_threads(run)
    if k == n:
        return None
    return (f"timeline.png: {n} threads; the first {k} have a row each, the other {n - k} "
            f"({run.label(k)} to {run.label(n - 1)}) share the last row, drawn where any of "
            f"them ran (at most {MAX_ROWS} rows)")


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


COARSE = 1024           # records per step of the coarse reach (_index)
SEEN_UP_TO = 1 << 24    # thread and CPU pairs counted by a flag each up to this many (16 MiB)


@per_run
def _index(run: Run) -> dict[str, Any]:
    """What a window needs beyond Run.intervals (sorted by start), computed once per run and
    small: `reach`, the furthest stop of the records before each multiple of COARSE (a window
    then starts at a block boundary: one binary search, no per-thread copy of the columns), and
    each thread's CPUs (the distinct thread and CPU pairs, a block of records at a time: a flag
    per possible pair when they are at most SEEN_UP_TO, else a sorted union of the pairs there
    are, whatever the CPU numbers span (np.union1d sorts each block: 0.1-0.2 s of 5M
    intervals); the key is int64, never the records' int16, which wrapped past a span of
    32767)."""
    iv, n = run.intervals, len(run.threads)
    reach = (np.maximum.accumulate(np.maximum.reduceat(iv.stop, np.arange(0, len(iv), COARSE)))
             if len(iv) else np.zeros(0, np.int64))
    lo, hi = (int(iv.cpu.min()), int(iv.cpu.max())) if len(iv) else (0, 0)
    width = hi - lo + 1
    span = (int(iv.thread.max()) + 1) * width if len(iv) else 0
    seen = np.zeros(span if span <= SEEN_UP_TO else 0, bool)    # a flag per pair: no sort
    keys = np.zeros(0, np.int64)
    for k in range(0, len(iv), BLOCK):
        cpu = iv.cpu[k:k + BLOCK].astype(np.int64) - lo
        block = iv.thread[k:k + BLOCK].astype(np.int64) * width + cpu
        if len(seen):
            seen[block] = True
        else:
            keys = np.union1d(keys, block)
    if len(seen):
        keys = np.flatnonzero(seen)
    cpus: list[list[int]] = [[] for _ in range(n)]
    for t, c in zip((keys // width).tolist(), (keys % width + lo).tolist()):
        if t < n:
            cpus[t].append(c)
    return {"reach": reach, "cpus": cpus}


def _rows(run: Run, start: int, end: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each shown thread's records that reach past `start` and start before `end`: (start, the
    furthest stop so far), in time order; past MAX_ROWS threads, one more row of the rest."""
    iv, reach = run.intervals, _index(run)["reach"]
    # the records before `lo` all stop by `start`; those from `hi` on start at `end` or later
    lo = min(len(iv), int(np.searchsorted(reach, start, side="right")) * COARSE)
    hi = max(lo, int(np.searchsorted(iv.start, end, side="left")))
    th, a_all, b_all = iv.thread[lo:hi], iv.start[lo:hi], iv.stop[lo:hi]
    rows = []
    shown = shown_threads(run)
    for i in range(shown + (shown < len(run.threads))):
        m = th == i if i < shown else th >= shown
        a, b = a_all[m], b_all[m]
        b = np.maximum.accumulate(b) if len(b) else b
        k = int(np.searchsorted(b, start, side="right"))
        rows.append((a[k:], b[k:]))
    return rows


def draw_rows(ax: Any, run: Run, start: int, end: int, scale: float,
              used_causes: dict[str, bool]) -> bool:
    """One row per thread: intervals in gray (merged to pixels), gaps by cause underneath (not
    on a row of several threads). Returns whether any interval was drawn."""
    drew = False
    shown = shown_threads(run)
    n = shown + (shown < len(run.threads))
    pixel = (end - start) / WIDTH_PX
    names = cause_names(run)
    g = None
    if traced(run):                               # the gaps in the window, their columns once
        gg = gaps_of_run(run, same_cpu=False)
        g = gg.take(np.flatnonzero((gg.stop > start) & (gg.start < end) & (gg.length >= pixel / 2)))
        gth, gstart, gstop, gcause = g.thread, g.start, g.stop, g.cause
    for i, (a, b) in enumerate(_rows(run, start, end)):
        y = n - 1 - i
        a, b = merge_to_pixels(np.clip(a, start, end), np.clip(b, start, end), pixel)
        drew = drew or len(a) > 0
        ax.broken_barh(list(zip((a / scale).tolist(), ((b - a) / scale).tolist())),
                       (y - 0.32, 0.64), facecolors="0.40", edgecolors="0.40", linewidth=0.3)
        if g is None or i >= shown:
            continue
        sel = gth == i
        for code in np.unique(gcause[sel]).tolist():
            name = names[code] if code < len(names) else str(code)
            c = sel & (gcause == code)
            ga, gb = np.clip(gstart[c], start, end), np.clip(gstop[c], start, end)
            ax.broken_barh(list(zip((ga / scale).tolist(), (np.maximum(gb - ga, pixel) / scale)
                                    .tolist())), (y - 0.2, 0.4), facecolors=cause_color(name),
                           edgecolors="none", linewidth=0)
            used_causes[name] = True
    return drew


# The lines a panel draws for its event, by name: colour and line style, each pair drawn
# for one name only (a phase change and a missed deadline in one red dash read as one
# thing), each in the legend.
MARK_STYLES = {"the event": ("tab:brown", "-"), "phase change": ("black", "--"),
               "gap starts": ("0.15", ":"), "gap ends": ("0.15", "-."),
               "missed deadline": ("tab:red", "--"), "late completion": ("tab:purple", ":"),
               "intended wake-up": ("tab:green", "--"), "actual wake-up": ("tab:red", ":")}
RELEASE_COLOR = "tab:green"
MAX_RELEASES = 2000      # markers per panel; denser than this the comb says nothing


def draw_releases(ax: Any, run: Run, start: int, end: int, scale: float) -> bool:
    """A small triangle above a periodic thread's row at each release of its jobs in the
    window. Returns whether any was drawn."""
    shown = shown_threads(run)
    n = shown + (shown < len(run.threads))
    drew = False
    for i in range(shown):
        rel = releases(run, i, start, end)
        if not len(rel) or len(rel) > MAX_RELEASES:
            continue
        y = n - 1 - i + 0.42
        ax.plot(rel / scale, np.full(len(rel), y), "v", ms=3, color=RELEASE_COLOR,
                ls="none", clip_on=True)
        drew = True
    return drew


def row_labels(run: Run) -> list[str]:
    labels = []
    shown = shown_threads(run)
    for i, t in enumerate(run.threads[:shown]):
        cpus = _index(run)["cpus"][i]
        where = f"cpu {cpus[0]}" if len(cpus) == 1 else f"cpus {','.join(map(str, cpus))}" \
            if cpus else ""
        pol = (t.get("granted") or {}).get("policy") or ""
        what = ", ".join(x for x in (f"SCHED_{pol.upper()}" if pol else "", where) if x)
        labels.append(f"{run.label(i)}\n{what}".strip())
    if shown < len(run.threads):
        labels.append(f"{len(run.threads) - shown} more threads\n(any running)")
    return labels


def plot_default(run: Run, path: Path) -> Path:
    return plot_windows(run, path, choose_windows(run), "execution trace where things happen")


def plot_windows(run: Run, path: Path, ws: list[Window], what: str) -> Path:
    """One panel per window, stacked; the legend (intervals, gap causes, loads) outside."""
    from .plotting import fit_layout, legend_outside, plt, save, shade_loads
    n = len(row_labels(run))
    fig, axes = plt.subplots(len(ws), 1, squeeze=False,
                             figsize=(11, len(ws) * (0.42 * n + 1.0) + 0.6))
    used: dict[str, bool] = {}
    marks_used: dict[str, bool] = {}
    used_intervals = False
    labels = list(reversed(row_labels(run)))
    for ax, w in zip(axes[:, 0], ws):
        unit, scale = clock_unit(w.length_ns)        # ms up to 5 s windows
        lo, hi = w.start_ns, w.start_ns + w.length_ns
        shade_loads(ax, run.loads, scale, lo / scale, hi / scale)
        if draw_rows(ax, run, lo, hi, scale, used):
            used_intervals = True
        for t, name in w.marks():
            color, ls = MARK_STYLES.get(name, MARK_STYLES["the event"])
            ax.axvline(t / scale, color=color, lw=0.9, ls=ls, label=name)
            marks_used[name] = True
        if draw_releases(ax, run, lo, hi, scale):
            marks_used["release"] = True
        ax.set_yticks(range(n))
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_ylim(-0.6, n - 0.3)
        ax.set_xlim(lo / scale, hi / scale)
        ax.set_xlabel(f"time from the run's start ({unit})", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.set_title(f"{w.what}  (window {fmt_ns(lo) if lo else '0'} to {fmt_ns(hi)})",
                     fontsize=9, loc="left")
        ax.grid(axis="x", color="0.85", lw=0.5)
        ax.set_axisbelow(True)
        if not len(run.intervals):
            mode = (run.result.get("trace") or {}).get("mode")
            ax.text(0.5, 0.5, f"no intervals recorded (trace.mode {mode}): the series in the "
                    "Over time section has the run's numbers", transform=ax.transAxes,
                    ha="center", va="center", fontsize=9, color="0.3")
    handles = [plt.Rectangle((0, 0), 1, 1, color="0.40", label="interval of CPU")] \
        if used_intervals else []
    handles += [plt.Rectangle((0, 0), 1, 1, color=cause_color(c), label=f"gap: {c}") for c in used]
    loads = {h.get_label(): h for ax in axes[:, 0] for h in getattr(ax, "_hg_load_handles", [])}
    handles += list(loads.values())
    for name in marks_used:
        if name == "release":
            handles.append(plt.Line2D([], [], color=RELEASE_COLOR, marker="v", ms=4, ls="none",
                                      label="release of a periodic job"))
        else:
            color, ls = MARK_STYLES.get(name, MARK_STYLES["the event"])
            handles.append(plt.Line2D([], [], color=color, ls=ls, lw=0.9, label=name))
    legend_outside(axes[0, 0], handles=handles)
    title = f"{run.scenario.get('name')}: {what}"
    if (run.result.get("trace") or {}).get("mode") == "outliers":
        title += " (trace.mode outliers: records exist only inside the outlier windows)"
    if not run.complete:
        title += "  [run incomplete]"
    if aggregated_note(run):
        title += (f"\n{len(run.threads) - shown_threads(run)} threads share the last row "
                  f"(at most {MAX_ROWS} rows)")
    fig.suptitle(title, fontsize=10)
    fit_layout(fig)
    return save(fig, path)


def plot_timeline(run: Run, path: Path, start_ns: int = 0, length_ns: int = 500_000_000) -> Path:
    """One chosen window (`--window START:LEN`), drawn like the default's panels
    (gaps by kernel cause, legend outside)."""
    return plot_windows(run, path, [Window("the window asked (--window)", start_ns, length_ns)],
                        "execution trace")


def applies(given: Given) -> bool:
    """Whether the trace has an interval to draw (trace.mode none records none)."""
    return len(given.run.intervals) > 0


def draw(given: Given, path: Path) -> None:
    if given.window:
        plot_timeline(given.run, path, *given.window)
    else:
        plot_default(given.run, path)


def caption(given: Given) -> str:
    note = aggregated_note(given.run)
    return f"Note: {note}." if note else ""


FIGURE = Figure("timeline.png", draw, applies, caption, cost=3.0)
