# SPDX-License-Identifier: GPL-2.0-or-later
"""The "Over time" section of a run's report, from series.jsonl (docs/results.md#seriesjsonl):
what a run of hours or days is read by. Its figures are series.png and, in `outliers` mode,
outliers.png; it writes series.json (the bins) beside them. `hgreport series` writes it alone
(commands/series.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...analyses.series_bins import Bins, OverTime, fmt_clock, fmt_span, interrupt_rates, over_time
from ...base import jsontext, safeout
from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import outliers as outliers_figure
from ...figures import series as series_figure
from ...read.rundir import Run
from ...read.series import Series, read_series
from .. import outliers as outlier_windows
from ..section import Context, Section

TITLE = "Over time"
WORST = 10


def _coverage(run: Run, s: Series, b: Bins, covered: int) -> list[str]:
    out = [f"series.jsonl: {s.lines} lines, one per thread and load every "
           f"{fmt_span(s.series_ns)}, up to {fmt_clock(s.end_ns)}"
           + (f"; aggregated into bins of {fmt_span(b.bin_ns)} for the figure and the tables "
              "below" if b.bin_ns != s.series_ns else "") + "."]
    cp = run.result.get("checkpoint")
    if not run.complete:
        what = (f"its last checkpoint covers {fmt_clock(cp.get('covers_ns'))}" if cp
                else "it ended early")
        out.append(f"**The run is incomplete** ({what}): this section covers "
                   f"{fmt_clock(covered)} of the {fmt_clock(run.duration_ns)} asked.")
    if s.after_checkpoint:
        out.append(f"{s.after_checkpoint} lines were written after the last checkpoint; kept.")
    if s.torn:
        out.append(f"{s.torn} torn line(s) at the end of the file (the run was killed while "
                   "writing) were left out.")
    return [" ".join(out), ""]


def _thread_rows(run: Run, s: Series, b: Bins) -> list[list[Any]]:
    rows = []
    share = b.cpu_share()
    for i in range(len(run.threads)):
        if not (b.span[i] > 0).any():
            continue
        sh = share[i][b.span[i] > 0] * 100
        g = b.gap_max[i]
        gi = int(np.argmax(g))
        misses = int(b.misses[i].sum())
        lat = "–"
        if (b.wakeups[i] > 0).any():
            li = int(np.argmax(b.lat_max[i]))
            per_bin, what = b.p99
            p99 = per_bin[i][per_bin[i] > 0]
            lat = (f"{fmt_ns(b.lat_max[i][li])} (bin at {fmt_clock(b.start_ns[li])}); {what} "
                   f"per bin: median {fmt_ns(float(np.median(p99)))}, highest "
                   f"{fmt_ns(float(p99.max()))}" if len(p99) else f"{fmt_ns(b.lat_max[i][li])}")
        rows.append([run.label(i), f"{sh.min():.1f}–{sh.max():.1f}% (median {np.median(sh):.1f}%)",
                     f"{fmt_ns(g[gi])} (bin at {fmt_clock(b.start_ns[gi])})" if g[gi] > 0 else "–",
                     (f"{misses} in {int((b.misses[i] > 0).sum())} bins, worst "
                      f"{int(b.misses[i].max())}" if misses else "0")
                     if (b.releases[i] > 0).any() else "–",
                     lat, int(b.dropped[i].sum())])
    return rows


def _worst(run: Run, s: Series, windows: list[dict[str, Any]]) -> list[str]:
    """The series intervals with the latest wake-up or the longest gap: when to look."""
    t = s.threads
    lat = np.where(t["lat_max_ns"] > 0, t["lat_max_ns"], -1)
    gap = np.where(t["gap_max_ns"] > 0, t["gap_max_ns"], -1)
    rows = []
    for what, v in (("wake-up latency", lat), ("gap", gap)):
        if not (v > 0).any():
            continue
        k = min(WORST, int((v > 0).sum()))
        top = np.argpartition(-v, k - 1)[:k]
        top = top[np.argsort(-v[top], kind="stable")]
        for j in top:
            end, span = int(t["t_ns"][j]), int(t["span_ns"][j])
            inside = [w["id"] for w in windows if w["from_ns"] <= end and w["to_ns"] >= end - span]
            row = [what, run.label(int(t["thread"][j])), fmt_ns(int(v[j])),
                   f"{fmt_clock(end - span)} – {fmt_clock(end)}"]
            rows.append(row + ([", ".join(f"#{w}" for w in inside[:3]) or "–"] if windows else []))
    if not rows:
        return []
    head = ["what", "thread", "worst", "series interval"]
    return ["### Worst series intervals", "",
            f"At most {WORST} series intervals each with the latest wake-up and with the longest "
            "gap" + (", and the outlier windows (trace.bin / latency.bin) that cover them"
                     if windows else "") + ".", "",
            table(head + (["outlier windows"] if windows else []), rows,
                  "llrl" + ("l" if windows else "")), ""]


def _loads(run: Run, s: Series, b: Bins) -> list[str]:
    if not s.load_names:
        return []
    rows = []
    for k, name in enumerate(s.load_names):
        live = b.load_span[k] > 0
        if not live.any():              # lines of no length (a hand-edited series)
            continue
        ops = b.load_rate()[k][live]
        mbps = (b.load_rate("bytes")[k][live] * 8 / 1e6) if "bytes" in s.counters else None
        r = s.of_load(k)
        measured = r["span_ns"] > 0
        rows.append([name, f"{fmt_clock(int(r['from_ns'][measured].min()))} – "
                           f"{fmt_clock(int(r['to_ns'][measured].max()))}",
                     f"{np.mean(ops):.1f} ({np.min(ops):.1f}–{np.max(ops):.1f})",
                     f"{np.mean(mbps):.1f} ({np.min(mbps):.1f}–{np.max(mbps):.1f})"
                     if mbps is not None and (r["bytes"] > 0).any() else "–"])
    return ["### Loads over time", "",
            table(["load", "in the series", "ops/s mean (min–max per bin)",
                   "Mbit/s mean (min–max per bin)"], rows, "llrr"), ""]


def _interrupts(s: Series, b: Bins) -> list[str]:
    """Dougan's measure of the load: each scenario CPU's interrupts per second over time."""
    rates = interrupt_rates(s, b)
    rows = []
    for cpu, r in rates.items():
        live = r[~np.isnan(r)]
        if len(live):
            worst = int(np.nanargmax(r))
            rows.append([cpu, f"{np.mean(live):,.0f} ({np.min(live):,.0f}–{np.max(live):,.0f})",
                         fmt_clock(int(b.start_ns[worst])), int(s.interrupt_lines()[cpu][2].sum())])
    if not rows:
        return []
    return ["### Interrupts per CPU over time", "",
            f"From series.jsonl's CPU lines (/proc/interrupts, every row with one count per CPU); "
            f"per {fmt_span(b.bin_ns)}.", "",
            table(["CPU", "interrupts/s mean (min–max per bin)", "busiest bin at", "interrupts"],
                  rows, "rrrr"), ""]


def applies(ctx: Context) -> bool:
    return over_time(ctx.run) is not None


def render(ctx: Context) -> str:
    """The markdown under the section's heading, with series.png and outliers.png placed;
    writes series.json."""
    run = ctx.run
    ot = over_time(run)
    s, b, covered, windows = ot.series, ot.bins, ot.covered_ns, ot.windows
    lines = _coverage(run, s, b, covered)
    lines += [table(["thread", f"CPU received per {fmt_span(b.bin_ns)}", "longest gap",
                     "deadline misses", "wake-up latency max", "dropped"],
                    _thread_rows(run, s, b), "llllll"), ""]
    lines += _worst(run, s, windows) + _loads(run, s, b) + _interrupts(s, b)
    shown = ctx.figure(series_figure.FIGURE)
    lines += [shown] if shown else []
    lines += outlier_windows.lines(ctx)
    ctx.write("series.json", jsontext.dumps(_bins_json(run, ot), 1) + "\n")
    return "\n".join(lines)


def section(run: Run, out: Path) -> tuple[str, list[str]]:
    """The section alone, as `hgreport series` writes it: (the markdown under its heading, a
    summary line per thread), its figures and series.json written into `out`; ("", []) for a
    run without a series."""
    SECTION.prepare(run)
    ctx = Context(run, {}, out)
    if not applies(ctx):
        return "", []
    safeout.make_dir(out)
    for f in SECTION.planned(ctx):
        f.draw(ctx, out / f.file)
        ctx.figures.append(f.file)
    return render(ctx), summary_lines(run)


def _bins_json(run: Run, ot: OverTime) -> dict[str, Any]:
    """series.json: the bins of the figure, machine-readable (null where a bin has no data)."""
    s, b, covered = ot.series, ot.bins, ot.covered_ns
    def col(a: np.ndarray, present: np.ndarray) -> list[Any]:
        return [int(v) if ok else None for v, ok in zip(a.tolist(), present.tolist())]
    share = b.cpu_share()
    threads = []
    for i in range(len(run.threads)):
        live = b.span[i] > 0
        if not live.any():
            continue
        row: dict[str, Any] = {"thread": run.label(i), "index": i,
                               "cpu_share": [None if np.isnan(x) else round(float(x), 6)
                                             for x in share[i]],
                               "gap_max_ns": col(b.gap_max[i], b.gap_max[i] > 0),
                               "dropped": col(b.dropped[i], live)}
        if (b.releases[i] > 0).any():
            row.update(releases=col(b.releases[i], live), misses=col(b.misses[i], live))
        if (b.wakeups[i] > 0).any():
            row.update(wakeups=col(b.wakeups[i], live),
                       lat_max_ns=col(b.lat_max[i], b.lat_max[i] > 0),
                       lat_p99_max_ns=col(b.lat_p99[i], b.lat_p99[i] > 0))
            if b.lat_p99_exact is not None:
                row["lat_p99_ns"] = col(b.lat_p99_exact[i], b.lat_p99_exact[i] >= 0)
        threads.append(row)
    loads = [{"load": name, "ops_per_s": [None if np.isnan(x) else round(float(x), 3)
                                          for x in b.load_rate()[k]]}
             for k, name in enumerate(s.load_names)]
    cpus = [{"cpu": cpu, "interrupts_per_s": [None if np.isnan(x) else round(float(x), 1)
                                              for x in r]}
            for cpu, r in interrupt_rates(s, b).items()]
    return {"bin_ns": b.bin_ns, "bins": b.n, "covered_ns": covered, "complete": run.complete,
            "series_ns": s.series_ns, "lines": s.lines, "torn": s.torn,
            "after_checkpoint": s.after_checkpoint, "threads": threads, "loads": loads,
            "cpus": cpus}


def summary_lines(run: Run) -> list[str]:
    """A line for the run and one per thread, as `hgreport series` prints them; [] without
    a series."""
    ot = over_time(run)
    if ot is None:
        return []
    s, b, covered, windows = ot.series, ot.bins, ot.covered_ns, ot.windows
    out = [f"{run.scenario.get('name')}: {fmt_clock(covered)} in {s.lines} series lines, "
           f"bins of {fmt_span(b.bin_ns)}" + ("" if run.complete else " (run incomplete)")]
    for i in range(len(run.threads)):
        if not (b.span[i] > 0).any():
            continue
        parts = [f"longest gap {fmt_ns(int(b.gap_max[i].max()))}" if (b.gap_max[i] > 0).any()
                 else "no gap"]
        if (b.releases[i] > 0).any():
            parts.append(f"{int(b.misses[i].sum())} deadlines missed")
        if (b.wakeups[i] > 0).any():
            parts.append(f"latency max {fmt_ns(int(b.lat_max[i].max()))}")
        out.append(f"{run.label(i)}: " + ", ".join(parts))
    if windows:
        out.append(f"outlier windows: {len(windows)}")
    return out


SECTION = Section(TITLE, render, applies, prepare=read_series,
                  figures=(series_figure.FIGURE, outliers_figure.FIGURE))
