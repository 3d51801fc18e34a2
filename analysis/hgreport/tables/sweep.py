# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport sweep`: one row per grid point (per host too with by_host), each chosen metric
over the repeats with its 95% t interval (base/stats.py: the run is the replicate; durations
and rates on the log scale; none below three repeats), what disturbed each point's runs, as
Markdown, CSV and a figure per axis; whether the lowest and the highest point differ
significantly (Welch's t over their runs)."""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


from ..analyses import disturbances
from ..analyses.disturbances import Disturbance
from ..analyses.sweep_metrics import display, kind, run_metrics, unit
from ..base.markdown import table
from ..base import safeout, stats
from ..base.stats import MIN_RUNS, Estimate
from ..base.units import axis_number, fmt_ns
from ..figures.plotting import legend_below, plt, save
from ..read.rungroups import host_labels
from ..read.sweepdir import Point, Sweep

HOST_AXIS = "host"


def machine_note(sweep: Sweep) -> str | None:
    """A warning when the sweep's points ran on different sets of machines (a shard per
    machine: a difference between points may be the machines'). A point whose own repeats
    mix machines is one of its disturbances (analyses/disturbances.py)."""
    runs = [r for p in sweep.points for r in p.runs]
    labels = host_labels(runs)
    if len(set(labels.values())) < 2:
        return None
    sets = {p.id: frozenset(labels[id(r)] for r in p.runs) for p in sweep.points if p.runs}
    if len(set(sets.values())) < 2:
        return None
    return ("warning: the points ran on different machines ("
            + "; ".join(f"{pid}: {', '.join(sorted(h))}" for pid, h in sets.items())
            + "): a difference between points may be the machines'; rerun with "
            "balanced shards or read it with --by-host")


def by_host(sweep: Sweep) -> Sweep:
    """The sweep with the machine as one more axis: each point split by hostname (and
    kernel where one hostname ran several)."""
    runs = [r for p in sweep.points for r in p.runs]
    labels = host_labels(runs)
    hosts = list(dict.fromkeys(labels[id(r)] for r in runs))
    points = []
    for p in sweep.points:
        for h in hosts:
            mine = [r for r in p.runs if labels[id(r)] == h]
            if mine:
                points.append(Point(p.index, f"{p.id}@{h}" if len(hosts) > 1 else p.id,
                                    {**p.overrides, HOST_AXIS: h}, mine))
    return Sweep(sweep.path, sweep.axes + [(HOST_AXIS, hosts)], points, sweep.repeat,
                 list(sweep.notes))


@dataclass
class Cell:
    values: list[float]
    est: Estimate


def estimate(metric: str, values: list[float]) -> Estimate:
    """A point's value over its repeats with its t interval (base/stats.py), never outside
    what the metric can be: [0, 1] for a ratio, >= 0 for the rest."""
    return stats.estimate(values, stats.scale_of(unit(metric)), lower=0.0,
                          upper=1.0 if kind(metric) == "ratio" else None)


def aggregate(sweep: Sweep, metrics: tuple[str, ...]) -> tuple[list[tuple[str, str]], dict[str, dict[tuple[str, str], Cell]]]:
    """Columns (subject, metric) in a stable order, and per point id the cell of each column."""
    per_point: dict[str, dict[tuple[str, str], list[float]]] = {}
    columns: list[tuple[str, str]] = []
    for p in sweep.points:
        acc: dict[tuple[str, str], list[float]] = {}
        for run in p.runs:
            for key, v in run_metrics(run, metrics).items():
                acc.setdefault(key, []).append(v)
                if key not in columns:
                    columns.append(key)
        per_point[p.id] = acc
    order = {m: k for k, m in enumerate(metrics)}
    columns.sort(key=lambda c: (order.get(c[1], 99), c[0]))
    cells = {pid: {c: Cell(v, estimate(c[1], v)) for c, v in acc.items()}
             for pid, acc in per_point.items()}
    return columns, cells


def point_disturbances(sweep: Sweep) -> dict[str, list[Disturbance]]:
    """What disturbed each point's runs (analyses/disturbances.py)."""
    return {p.id: disturbances.of_runs(f"point {p.id}", p.runs) for p in sweep.points}


def extremes(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict],
             dist: dict[str, list[Disturbance]]) -> list[dict[str, Any]]:
    """Per column, the lowest and the highest point and whether they differ significantly
    (Welch's t over their runs, base/stats.py), with what disturbed them: {subject, metric,
    lowest, highest, verdict, p, method, disturbed_by, text}."""
    out = []
    for s, m in columns:
        have = [(p.id, cells[p.id][(s, m)]) for p in sweep.points
                if (s, m) in cells[p.id] and cells[p.id][(s, m)].est.value is not None]
        if len(have) < 2:
            continue
        lo = min(have, key=lambda t: t[1].est.value)
        hi = max(have, key=lambda t: t[1].est.value)
        what = (f"`{s} {m}`: lowest {lo[0]} {fmt_value(m, lo[1].est.value)}, highest {hi[0]} "
                f"{fmt_value(m, hi[1].est.value)}")
        c = stats.compare(lo[1].values, hi[1].values, stats.scale_of(unit(m)))
        if lo[1].est.value == hi[1].est.value:
            text = f"{what}: no difference"
        elif c.verdict == stats.TOO_FEW:
            text = f"{what}: {stats.TOO_FEW} ({c.method})"
        else:
            word = f"**{c.verdict}**" if c.verdict == stats.SIGNIFICANT else c.verdict
            text = f"{what}: {word} (p = {c.p:.2g}, {c.method})"
        seen = disturbances.words(dist.get(lo[0], []) + dist.get(hi[0], []), None)
        out.append({"subject": s, "metric": m, "lowest": lo[0], "highest": hi[0],
                    "verdict": c.verdict, "p": c.p, "method": c.method,
                    "disturbed_by": disturbances.kinds(dist.get(lo[0], []) + dist.get(hi[0], [])),
                    "text": text + (f"; disturbed by {seen}" if seen else "")})
    return out


def fmt_value(metric: str, v: float | None) -> str:
    if v is None:
        return "–"
    k = kind(metric)
    if k == "ratio":
        return f"{100 * v:.2f}%"
    if k == "ns":
        return fmt_ns(v)
    if k == "rate":
        return f"{v:.1f}"
    return f"{v:.0f}" if abs(v) >= 100 or v == int(v) else f"{v:.2f}"


def fmt_cell(metric: str, cell: Cell | None) -> str:
    if cell is None or cell.est.value is None:
        return "–"
    text = fmt_value(metric, cell.est.value)
    if cell.est.has_interval:
        text += f" [{fmt_value(metric, cell.est.low)}, {fmt_value(metric, cell.est.high)}]"
    return text


def render(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict],
           dist: dict[str, list[Disturbance]]) -> str:
    axes = [a for a, _ in sweep.axes]
    header = ["point"] + axes + ["runs", "disturbed by"] + [f"{s} {m}" for s, m in columns]
    rows = []
    for p in sweep.points:
        rows.append([p.id] + [p.overrides.get(a) for a in axes] + [len(p.runs)]
                    + [disturbances.words(dist.get(p.id, [])) or "none"]
                    + [fmt_cell(m, cells[p.id].get((s, m))) for s, m in columns])
    lines = [f"# Sweep {sweep.path}", "",
             f"{len(sweep.points)} points, {sum(len(p.runs) for p in sweep.points)} runs"
             + (f", repeat {sweep.repeat}" if sweep.repeat else "")
             + ". Each cell: the value over the repeats and [its 95% t interval] (none below "
               f"{MIN_RUNS} repeats). " + stats.describe_method(), ""]
    incomplete = [f"{p.id}/{r.path.name}" for p in sweep.points for r in p.runs if not r.complete]
    if incomplete:
        lines += [f"> **Incomplete runs** (`complete: false`), included: {', '.join(incomplete)}", ""]
    lines += [table(header, rows, "l" * (len(axes) + 1) + "rl" + "r" * len(columns)), ""]
    diff = extremes(sweep, columns, cells, dist)
    if diff:
        lines += ["Lowest against highest point of each column:", ""] + [f"- {d['text']}" for d in diff] + [""]
    seen = [f"- {p.id}: {t}" for p in sweep.points
            for t in dict.fromkeys(d.text for d in dist.get(p.id, []))]
    if seen:
        lines += ["Disturbed runs (a difference beside them may be theirs):", ""] + seen + [""]
    lines += [f"- {n}" for n in sweep.notes]
    return "\n".join(lines) + "\n"


def write_csv(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict], path: Path,
              dist: dict[str, list[Disturbance]] | None = None) -> None:
    """One line per point and figure; `disturbed_by` the kinds of disturbance that affect
    that figure's subject in that point's runs (as the tables' "disturbed by" column)."""
    axes = [a for a, _ in sweep.axes]
    dist = dist or {}
    with safeout.open_out(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["point", "index"] + axes + ["subject", "metric", "n", "value", "ci95_low",
                                                "ci95_high", "method", "sd", "values",
                                                "disturbed_by"])
        for p in sweep.points:
            for s, m in columns:
                c = cells[p.id].get((s, m))
                if c is None:
                    continue
                e = c.est
                w.writerow([p.id, p.index] + [p.overrides.get(a) for a in axes]
                           + [s, m, e.n, e.value, e.low, e.high, e.method, e.sd,
                              ";".join(f"{v:g}" for v in c.values),
                              ";".join(disturbances.kinds(dist.get(p.id, []), s))])


CATEGORICAL_KEYS = ("priority", "timer", "type", "policy", "pattern", "mode", "cpus", HOST_AXIS)


# Labelled ticks per axis at most: an axis of 1024 values labels every 26th (drawing a label
# per value took seconds per hundred).
MAX_TICKS = 40


def categorical(axis: str, values: list[Any]) -> bool:
    """An axis whose values are names or levels, not quantities on a line (timer names,
    priority levels, workload types): drawn as categories, never joined by lines."""
    return (any(axis_number(v) is None for v in values)
            or axis.rsplit(".", 1)[-1] in CATEGORICAL_KEYS)


def plot(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict], path: Path,
         dist: dict[str, list[Disturbance]] | None = None) -> Path:
    """One column of panels per axis, one row per (subject, metric): each point's value with
    its interval (base/stats.py) against the axis value, one series per combination of the
    other axes. A numeric axis joins a series with lines; a categorical one draws the series
    side by side at each category, unjoined. Points without an interval (fewer than three
    repeats) are drawn hollow; a point whose runs were disturbed (`dist`, for the panel's
    subject) gets a red ring, and the title says so."""
    axes = sweep.axes
    cols = columns[:8]
    fig, grid = plt.subplots(max(1, len(cols)), max(1, len(axes)), squeeze=False,
                             figsize=(5 * max(1, len(axes)), 2.6 * max(1, len(cols))),
                             layout="constrained")
    hollow = ringed = False
    for ai, (axis, values) in enumerate(axes):
        cat = categorical(axis, values)
        nums = [axis_number(v) for v in values]
        pos = {str(v): (k if cat else nums[k]) for k, v in enumerate(values)}
        others = [a for a, _ in axes if a != axis]
        for ci, (subject, metric) in enumerate(cols):
            ax = grid[ci][ai]
            series: dict[tuple, list[tuple[float, Estimate]]] = {}
            rings: list[tuple[float, float, tuple]] = []
            for p in sweep.points:
                c = cells[p.id].get((subject, metric))
                if c is None or c.est.value is None or str(p.overrides.get(axis)) not in pos:
                    continue
                key = tuple(str(p.overrides.get(o)) for o in others)
                series.setdefault(key, []).append((pos[str(p.overrides.get(axis))], c.est))
                if disturbances.kinds((dist or {}).get(p.id, []), subject):
                    rings.append((pos[str(p.overrides.get(axis))], c.est.value, key))
            largest = max((abs(e.high if e.has_interval else e.value) for pts in series.values()
                           for _, e in pts), default=0.0)
            k, unit = display(metric, largest)
            width = 0.6 / max(1, len(series))
            for si, (key, pts) in enumerate(series.items()):
                pts.sort(key=lambda t: t[0])
                shift = (si - (len(series) - 1) / 2) * width if cat else 0.0
                label = ", ".join(f"{o.split('.')[-1]}={v}" for o, v in zip(others, key)) or None
                x = [t[0] + shift for t in pts]
                y = [t[1].value * k for t in pts]
                if not cat:
                    line, = ax.plot(x, y, lw=1, label=label)
                    color = line.get_color()
                else:
                    color = f"C{si % 10}"
                    ax.plot([], [], "o", color=color, label=label)
                for (xv, e), yv in zip(zip(x, [t[1] for t in pts]), y):
                    if e.has_interval:
                        ax.errorbar([xv], [yv], yerr=[[yv - e.low * k], [e.high * k - yv]],
                                    fmt="o", ms=4, capsize=3, lw=1, color=color)
                    else:
                        hollow = True
                        ax.plot([xv], [yv], "o", ms=5, mfc="white", color=color)
            keys = list(series)
            for xv, v, key in rings:
                shift = (keys.index(key) - (len(series) - 1) / 2) * width if cat else 0.0
                ax.plot([xv + shift], [v * k], "o", ms=10, mfc="none", mec="tab:red", mew=1.2,
                        label="_disturbed")
                ringed = True
            if not cat and min(nums) > 0 and max(nums) / min(nums) >= 16:
                ax.set_xscale("log", base=2)
            shown = values[::-(-len(values) // MAX_TICKS)]   # at most MAX_TICKS labels
            ax.set_xticks([pos[str(v)] for v in shown])
            ax.set_xticklabels([str(v) for v in shown], fontsize=7, rotation=30)
            if cat:
                ax.set_xlim(-0.5, len(values) - 0.5)
            ax.minorticks_off()
            if kind(metric) == "ratio":
                ax.set_ylim(bottom=0)
            elif largest > 0:
                ax.set_ylim(bottom=0)
            ax.set_ylabel(f"{subject} {metric}" + (f" ({unit})" if unit else ""), fontsize=8)
            if ci == len(cols) - 1:
                ax.set_xlabel(axis + (" (categories)" if cat else ""), fontsize=8)
            ax.grid(color="0.9")
            if ci == len(cols) - 1 and len(series) > 1:
                legend_below(ax, fontsize=6, ncol=1, below=0.45)   # under the x label
    name = next((r.scenario.get("name") for p in sweep.points for r in p.runs), None)
    fig.suptitle(f"{name or sweep.path.name}: {len(sweep.points)} sweep points "
                 f"({sweep.path.name}); bars: 95% t intervals over the runs "
                 "(docs/statistics.md)"
                 + (f"; hollow: fewer than {MIN_RUNS} repeats, no interval" if hollow else "")
                 + ("; red ring: disturbed runs (sweep.md)" if ringed else ""),
                 fontsize=9)
    return save(fig, path)


def write(sweep: Sweep, metrics: tuple[str, ...], out: Path, split_hosts: bool = False) -> str:
    spread = None
    if split_hosts:
        sweep = by_host(sweep)
    else:
        spread = machine_note(sweep)
    safeout.make_dir(out)
    columns, cells = aggregate(sweep, metrics)
    dist = point_disturbances(sweep)
    if spread:
        for p in sweep.points:
            dist[p.id].append(Disturbance("mixed_machines", spread, f"point {p.id}"))
    text = render(sweep, columns, cells, dist)
    safeout.write_text(out / "sweep.md", text)
    write_csv(sweep, columns, cells, out / "sweep.csv", dist)
    if sweep.axes and columns:
        plot(sweep, columns, cells, out / "sweep.png", dist)
    summary: dict[str, Any] = {
        "path": str(sweep.path), "axes": [{"path": a, "values": v} for a, v in sweep.axes],
        "notes": sweep.notes,
        "points": [{"id": p.id, "index": p.index, "overrides": p.overrides, "runs": len(p.runs),
                    "disturbances": [d.text for d in dist[p.id]],
                    "metrics": [{"subject": s, "metric": m, "n": c.est.n, "value": c.est.value,
                                 "low": c.est.low, "high": c.est.high, "method": c.est.method,
                                 "values": c.values}
                                for (s, m), c in cells[p.id].items()]}
                   for p in sweep.points]}
    summary["extremes"] = extremes(sweep, columns, cells, dist)
    summary["method"] = stats.describe_method()
    safeout.write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    return text
