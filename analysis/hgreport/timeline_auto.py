"""The default timeline: where things happen instead of the first 500 ms. Up to five panels,
each a window of the execution trace chosen from the run: the first three phase changes (a load
or a thread starting or stopping), the longest gap, the worst deadline miss (or, without
periodic threads, the latest wake-up). Gaps are coloured by their cause when the kernel was traced
(docs/kernel-trace.md). `hgreport RUN --window START:LEN` still draws one chosen window."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .causes import cause_color, cause_names, traced
from .plotting import clock_unit, legend_outside, plt, save, shade_loads
from .rundir import Run
from .summary import periodic_jobs
from .timeline import WIDTH_PX, merge_to_pixels
from .switches import BLOCK, gaps_of_run
from .units import fmt_ns

MS = 1_000_000
MAX_PHASES = 3           # phase changes drawn, first ones first


@dataclass(frozen=True)
class Window:
    what: str            # the panel's title
    start_ns: int
    length_ns: int
    mark: tuple[int, int] | None = None   # the event itself, outlined


def _around(lo: int, hi: int, run_end: int, factor: float = 6.0, least: int = 5 * MS,
            most: int = 500 * MS) -> tuple[int, int]:
    """A window of `factor` times the event's length (within [least, most]) centred on it."""
    length = int(min(max((hi - lo) * factor, least), most))
    start = max(0, (lo + hi) // 2 - length // 2)
    if run_end and start + length > run_end:
        start = max(0, run_end - length)
    return start, length


def phase_changes(run: Run) -> list[tuple[int, str]]:
    """(time, what) of every load start/stop and every thread start/finish inside the run."""
    end = run.duration_ns
    out = []
    asked = {ld.get("name"): ld for ld in run.scenario.get("loads") or [] if isinstance(ld, dict)}
    for ld in run.loads:
        for key, declared, verb in (("started_ns", "start_ns", "starts"),
                                    ("stopped_ns", "stop_ns", "stops")):
            t = ld.get(key)
            # A load the scenario starts with the run (or stops with it) marks no phase,
            # though it starts a little after time zero (forking takes time).
            when = (asked.get(ld.get("name")) or {}).get(declared)
            if isinstance(when, int) and (when <= 0 or (end and when >= end)):
                continue
            if t is not None and 0 < t < (end or t + 1):
                out.append((int(t), f"load {ld['name']} {verb}"))
    seen = set()
    for i in range(len(run.threads)):
        s = run.scenario_thread(i)
        name = s.get("name")
        if name in seen:
            continue
        seen.add(name)
        a, b = int(s.get("start_ns") or 0), s.get("finish_ns")
        if a > 0:
            out.append((a, f"{name} starts"))
        if b is not None and end and 0 < int(b) < end:
            out.append((int(b), f"{name} finishes"))
    return sorted(out)


def _grouped(changes: list[tuple[int, str]], within: int = 25 * MS) -> list[tuple[int, list[str]]]:
    """Changes less than `within` apart as one (a thread finishing as a load starts)."""
    out: list[tuple[int, list[str]]] = []
    for t, what in changes:
        if out and t - out[-1][0] <= within:
            out[-1][1].append(what)
        else:
            out.append((t, [what]))
    return out


def _worst_miss(run: Run) -> tuple[int, int, str, tuple[int, int]] | None:
    worst = None
    for i in range(len(run.threads)):
        if not run.threads[i]["stats"].get("deadlines_missed"):
            continue
        jobs = periodic_jobs(run, i)
        for j in jobs or []:
            if not j.missed or j.completion is None:
                continue
            late = j.completion - j.deadline
            if worst is None or late > worst[0]:
                worst = (late, i, j)
    if worst is None:
        return None
    late, i, j = worst
    return (j.release, j.completion,
            f"worst deadline miss: {run.label(i)} released at {fmt_ns(j.release)}, done "
            f"{fmt_ns(late)} after its deadline", (j.deadline, j.completion))


def _worst_wakeup(run: Run) -> tuple[int, int, str, tuple[int, int]] | None:
    smp = run.samples
    if not len(smp.late):
        return None
    k = int(np.argmax(smp.late))
    lo, hi = int(smp.intended[k]), int(smp.actual[k])
    return lo, hi, f"latest wake-up: {run.label(int(smp.thread[k]))} {fmt_ns(hi - lo)} late", \
        (lo, hi)


def choose_windows(run: Run) -> list[Window]:
    end = run.duration_ns or int(max(run.intervals.stop, default=0))
    out: list[Window] = []
    groups = _grouped(phase_changes(run))
    for t, whats in groups[:MAX_PHASES]:
        start, length = _around(t, t, end, least=min(500 * MS, 2 * t))
        which = "first phase change" if t == groups[0][0] else "phase change"
        out.append(Window(f"{which}: {', '.join(whats)}", start, length, (t, t)))
    if not groups:
        out.append(Window("the start of the run", 0, min(500 * MS, end or 500 * MS)))
    g = gaps_of_run(run, same_cpu=False)
    if len(g):
        k = int(np.argmax(g.length))
        lo, hi = int(g.start[k]), int(g.stop[k])
        start, length = _around(lo, hi, end)
        out.append(Window(f"longest gap: {run.label(int(g.thread[k]))} {fmt_ns(hi - lo)}",
                          start, length, (lo, hi)))
    ev = _worst_miss(run) or _worst_wakeup(run)
    if ev is not None:
        lo, hi, what, mark = ev
        start, length = _around(lo, hi, end, factor=3.0)
        out.append(Window(what, start, length, mark))
    return out


COARSE = 1024           # records per step of the coarse reach (_index)


def _index(run: Run) -> dict[str, Any]:
    """What a window needs beyond Run.intervals (sorted by start), computed once per run and
    small: `reach`, the furthest stop of the records before each multiple of COARSE (a window
    then starts at a block boundary: one binary search, no per-thread copy of the columns), and
    each thread's CPUs (a count per thread and CPU, a block of records at a time)."""
    cache = run.__dict__.setdefault("_timeline", {})
    if "reach" not in cache:
        iv, n = run.intervals, len(run.threads)
        reach = (np.maximum.accumulate(np.maximum.reduceat(iv.stop, np.arange(0, len(iv), COARSE)))
                 if len(iv) else np.zeros(0, np.int64))
        lo, hi = (int(iv.cpu.min()), int(iv.cpu.max())) if len(iv) else (0, 0)
        width = hi - lo + 1
        counts = np.zeros(n * width, np.int64)
        for k in range(0, len(iv), BLOCK):
            key = iv.thread[k:k + BLOCK].astype(np.int64) * width + (iv.cpu[k:k + BLOCK] - lo)
            counts += np.bincount(key, minlength=n * width)
        cache["reach"] = reach
        cache["cpus"] = [(np.flatnonzero(row) + lo).tolist() for row in counts.reshape(n, width)]
    return cache


def _rows(run: Run, start: int, end: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each thread's records that reach past `start` and start before `end`: (start, the
    furthest stop so far), in time order."""
    iv, reach = run.intervals, _index(run)["reach"]
    # the records before `lo` all stop by `start`; those from `hi` on start at `end` or later
    lo = min(len(iv), int(np.searchsorted(reach, start, side="right")) * COARSE)
    hi = max(lo, int(np.searchsorted(iv.start, end, side="left")))
    th, a_all, b_all = iv.thread[lo:hi], iv.start[lo:hi], iv.stop[lo:hi]
    rows = []
    for i in range(len(run.threads)):
        m = th == i
        a, b = a_all[m], b_all[m]
        b = np.maximum.accumulate(b) if len(b) else b
        k = int(np.searchsorted(b, start, side="right"))
        rows.append((a[k:], b[k:]))
    return rows


def draw_rows(ax: Any, run: Run, start: int, end: int, scale: float,
              used_causes: dict[str, bool]) -> None:
    """One row per thread: intervals in gray (merged to pixels), gaps by cause underneath."""
    n = len(run.threads)
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
        ax.broken_barh(list(zip((a / scale).tolist(), ((b - a) / scale).tolist())),
                       (y - 0.32, 0.64), facecolors="0.40", edgecolors="0.40", linewidth=0.3)
        if g is None:
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


def row_labels(run: Run) -> list[str]:
    labels = []
    for i, t in enumerate(run.threads):
        cpus = _index(run)["cpus"][i]
        where = f"cpu {cpus[0]}" if len(cpus) == 1 else f"cpus {','.join(map(str, cpus))}" \
            if cpus else ""
        pol = (t.get("granted") or {}).get("policy") or ""
        what = ", ".join(x for x in (f"SCHED_{pol.upper()}" if pol else "", where) if x)
        labels.append(f"{run.label(i)}\n{what}".strip())
    return labels


def plot_default(run: Run, path: Path) -> Path:
    return plot_windows(run, path, choose_windows(run), "execution trace where things happen")


def plot_windows(run: Run, path: Path, ws: list[Window], what: str) -> Path:
    """One panel per window, stacked; the legend (intervals, gap causes, loads) outside."""
    n = len(run.threads)
    fig, axes = plt.subplots(len(ws), 1, squeeze=False,
                             figsize=(11, len(ws) * (0.42 * n + 1.0) + 0.6))
    used: dict[str, bool] = {}
    labels = list(reversed(row_labels(run)))
    for ax, w in zip(axes[:, 0], ws):
        unit, scale = clock_unit(w.length_ns)        # ms up to 5 s windows
        lo, hi = w.start_ns, w.start_ns + w.length_ns
        shade_loads(ax, run.loads, scale, lo / scale, hi / scale)
        draw_rows(ax, run, lo, hi, scale, used)
        if w.mark is not None:
            a, b = w.mark
            ax.axvline(a / scale, color="tab:red", lw=0.8, ls="--")
            if b != a:
                ax.axvline(b / scale, color="tab:red", lw=0.8, ls="--")
        ax.set_yticks(range(n))
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_ylim(-0.6, n - 0.4)
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
    handles = [plt.Rectangle((0, 0), 1, 1, color="0.40", label="interval of CPU")]
    handles += [plt.Rectangle((0, 0), 1, 1, color=cause_color(c), label=f"gap: {c}") for c in used]
    loads = {h.get_label(): h for ax in axes[:, 0] for h in getattr(ax, "_hg_load_handles", [])}
    handles += list(loads.values())
    if any(w.mark for w in ws):
        handles.append(plt.Line2D([], [], color="tab:red", ls="--", lw=0.8, label="the event"))
    legend_outside(axes[0, 0], handles=handles)
    title = f"{run.scenario.get('name')}: {what}"
    if (run.result.get("trace") or {}).get("mode") == "outliers":
        title += " (trace.mode outliers: records exist only inside the outlier windows)"
    if not run.complete:
        title += "  [run incomplete]"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return save(fig, path)
