"""`hgreport sweep`: one row per grid point, mean and 95% confidence interval over repeats of
each chosen metric (Student t), as Markdown, CSV and a figure per axis."""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


from ..analyses.sweep_metrics import display, kind, run_metrics
from ..base.markdown import table
from ..base.stats import Estimate, mean_ci
from ..base.units import axis_number, fmt_ns
from ..figures.plotting import legend_below, plt, save
from ..read.sweepdir import Sweep


@dataclass
class Cell:
    values: list[float]
    est: Estimate


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
    cells = {pid: {c: Cell(v, mean_ci(v)) for c, v in acc.items()} for pid, acc in per_point.items()}
    return columns, cells


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
    if cell is None or cell.est.mean is None:
        return "–"
    text = fmt_value(metric, cell.est.mean)
    if cell.est.half_width is not None:
        text += " ± " + fmt_value(metric, cell.est.half_width).replace("–", "0")
    return text


def render(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict]) -> str:
    axes = [a for a, _ in sweep.axes]
    header = ["point"] + axes + ["runs"] + [f"{s} {m}" for s, m in columns]
    rows = []
    for p in sweep.points:
        rows.append([p.id] + [p.overrides.get(a) for a in axes] + [len(p.runs)]
                    + [fmt_cell(m, cells[p.id].get((s, m))) for s, m in columns])
    lines = [f"# Sweep {sweep.path}", "",
             f"{len(sweep.points)} points, {sum(len(p.runs) for p in sweep.points)} runs"
             + (f", repeat {sweep.repeat}" if sweep.repeat else "")
             + ". Each cell: mean ± half-width of the 95% confidence interval over the repeats "
               "(Student t, n−1 degrees of freedom); no ± with one run.", ""]
    incomplete = [f"{p.id}/{r.path.name}" for p in sweep.points for r in p.runs if not r.complete]
    if incomplete:
        lines += [f"> **Incomplete runs** (`complete: false`), included: {', '.join(incomplete)}", ""]
    lines += [table(header, rows, "l" * (len(axes) + 1) + "r" * (len(columns) + 1)), ""]
    lines += [f"- {n}" for n in sweep.notes]
    return "\n".join(lines) + "\n"


def write_csv(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict], path: Path) -> None:
    axes = [a for a, _ in sweep.axes]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["point", "index"] + axes + ["subject", "metric", "n", "mean", "ci95_low",
                                                "ci95_high", "half_width", "sd", "values"])
        for p in sweep.points:
            for s, m in columns:
                c = cells[p.id].get((s, m))
                if c is None:
                    continue
                e = c.est
                w.writerow([p.id, p.index] + [p.overrides.get(a) for a in axes]
                           + [s, m, e.n, e.mean, e.low, e.high, e.half_width, e.sd,
                              ";".join(f"{v:g}" for v in c.values)])


def plot(sweep: Sweep, columns: list[tuple[str, str]], cells: dict[str, dict], path: Path) -> Path:
    """One column of panels per axis, one row per (subject, metric): mean with its 95% CI
    against the axis value, one line per combination of the other axes."""
    axes = sweep.axes
    cols = columns[:8]
    fig, grid = plt.subplots(max(1, len(cols)), max(1, len(axes)), squeeze=False,
                             figsize=(5 * max(1, len(axes)), 2.6 * max(1, len(cols))),
                             layout="constrained")
    for ai, (axis, values) in enumerate(axes):
        nums = [axis_number(v) for v in values]
        numeric = all(n is not None for n in nums)
        pos = {str(v): (nums[k] if numeric else k) for k, v in enumerate(values)}
        others = [a for a, _ in axes if a != axis]
        for ci, (subject, metric) in enumerate(cols):
            ax = grid[ci][ai]
            series: dict[tuple, list[tuple[float, Estimate]]] = {}
            for p in sweep.points:
                c = cells[p.id].get((subject, metric))
                if c is None or c.est.mean is None or str(p.overrides.get(axis)) not in pos:
                    continue
                key = tuple(str(p.overrides.get(o)) for o in others)
                series.setdefault(key, []).append((pos[str(p.overrides.get(axis))], c.est))
            largest = max((abs(e.mean) for pts in series.values() for _, e in pts), default=0.0)
            k, unit = display(metric, largest)
            for key, pts in series.items():
                pts.sort(key=lambda t: t[0])
                x = [t[0] for t in pts]
                y = [t[1].mean * k for t in pts]
                err = [(t[1].half_width or 0) * k for t in pts]
                label = ", ".join(f"{o.split('.')[-1]}={v}" for o, v in zip(others, key)) or None
                ax.errorbar(x, y, yerr=err, marker="o", ms=4, capsize=3, lw=1, label=label)
            if numeric and min(nums) > 0 and max(nums) / min(nums) >= 16:
                ax.set_xscale("log", base=2)
            ax.set_xticks([pos[str(v)] for v in values])
            ax.set_xticklabels([str(v) for v in values], fontsize=7, rotation=30)
            ax.minorticks_off()
            ax.set_ylabel(f"{subject} {metric}" + (f" ({unit})" if unit else ""), fontsize=8)
            if ci == len(cols) - 1:
                ax.set_xlabel(axis, fontsize=8)
            ax.grid(color="0.9")
            if ci == len(cols) - 1 and len(series) > 1:
                legend_below(ax, fontsize=6, ncol=1, below=0.45)   # under the x label
    name = next((r.scenario.get("name") for p in sweep.points for r in p.runs), None)
    fig.suptitle(f"{name or sweep.path.name}: {len(sweep.points)} sweep points "
                 f"({sweep.path.name}), mean and 95% CI over repeats", fontsize=10)
    return save(fig, path)


def write(sweep: Sweep, metrics: tuple[str, ...], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    columns, cells = aggregate(sweep, metrics)
    text = render(sweep, columns, cells)
    (out / "sweep.md").write_text(text)
    write_csv(sweep, columns, cells, out / "sweep.csv")
    if sweep.axes and columns:
        plot(sweep, columns, cells, out / "sweep.png")
    summary: dict[str, Any] = {
        "path": str(sweep.path), "axes": [{"path": a, "values": v} for a, v in sweep.axes],
        "notes": sweep.notes,
        "points": [{"id": p.id, "index": p.index, "overrides": p.overrides, "runs": len(p.runs),
                    "metrics": [{"subject": s, "metric": m, "n": c.est.n, "mean": c.est.mean,
                                 "half_width": c.est.half_width, "values": c.values}
                                for (s, m), c in cells[p.id].items()]}
                   for p in sweep.points]}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return text
