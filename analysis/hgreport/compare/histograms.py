# SPDX-License-Identifier: GPL-2.0-or-later
"""latency_hist.png of `hgreport compare`: the latency histograms of every row overlaid, one
panel per thread (or CPU), in the form of OSADL's latency plots (linear latency, samples on a
log axis) so a cyclictest histogram of last year and today's hgrun run read the same way. Each
row's histogram is result.json's (an hgrun latency thread's 1 us buckets) or the peer's own
(read/peers.py); rows with different bucket widths are drawn as samples per microsecond, a
fraction of the row's samples, so their heights compare; samples past a histogram's end are
said in the legend."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..read.rungroups import Group

MAX_PANELS = 4
COLORS = ("black", "tab:red", "tab:blue", "tab:green", "tab:orange", "tab:purple", "tab:brown",
          "tab:pink", "tab:olive", "tab:cyan")


def _add(into: dict[str, Any], hist: dict[str, Any]) -> None:
    """Adds a histogram to a row's pooled one (1 ns resolution of edges, counts summed)."""
    width = int(hist.get("bucket_ns") or 0)
    counts = np.asarray(hist.get("counts") or [], dtype=np.int64)
    if width <= 0:
        return
    if into.get("width") not in (None, width):          # repeats with other buckets: coarsest
        into["width"] = max(into["width"], width)
    into.setdefault("width", width)
    edges = np.arange(len(counts), dtype=np.int64) * width
    into.setdefault("pairs", []).append((edges, counts))
    into["overflow"] = into.get("overflow", 0) + int(hist.get("overflow") or 0)
    into["n"] = into.get("n", 0) + int(counts.sum()) + int(hist.get("overflow") or 0)


def histograms(groups: Sequence[Group]) -> dict[str, dict[str, dict[str, Any]]]:
    """{thread label: {row label: {"width", "pairs", "overflow", "n"}}} of every latency
    thread with a histogram."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for g in groups:
        for run in g.runs:
            for i, t in enumerate(run.threads):
                lat = (t.get("stats") or {}).get("latency")
                if isinstance(lat, dict) and isinstance(lat.get("histogram"), dict):
                    _add(out.setdefault(run.label(i), {}).setdefault(g.label, {}),
                         lat["histogram"])
    return out


def _binned(row: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(bucket lower edges in us, fraction of the row's samples per us) on the row's width,
    every bucket up to the last non-empty one, NaN where a bucket is empty (the line breaks
    there on the log axis, as OSADL's plots leave empty buckets out)."""
    width = row["width"]
    top = max((int(e[c > 0][-1]) for e, c in row["pairs"] if (c > 0).any()), default=-1)
    if top < 0:
        return np.zeros(0), np.zeros(0)
    dense = np.zeros(top // width + 1, dtype=np.float64)
    for edges, counts in row["pairs"]:
        np.add.at(dense, edges[counts > 0] // width, counts[counts > 0])
    y = dense / row["n"] / (width / 1e3)
    y[dense == 0] = np.nan
    return np.arange(len(dense)) * width / 1e3, y


def write(groups: Sequence[Group], out: Path, shown: dict[str, str] | None = None) -> list[str]:
    hists = histograms(groups)
    subjects = [s for s, rows in hists.items() if any(r.get("n") for r in rows.values())]
    subjects.sort(key=lambda s: -sum(r.get("n", 0) for r in hists[s].values()))
    subjects = subjects[:MAX_PANELS]
    if not subjects:
        return []
    from ..figures.plotting import plt, save
    from .plots import _ticks
    labels = [g.label for g in groups]
    fig, axes = plt.subplots(1, len(subjects), figsize=(5.2 * len(subjects) + 0.6, 4.6),
                             squeeze=False, layout="constrained")
    fig.suptitle("latency histograms (OSADL's form): samples per us, a fraction of each row's",
                 fontsize=11)
    found: dict[str, Any] = {}
    for ax, s in zip(axes[0], subjects):
        hi, past = 0.0, []
        for k, lab in enumerate(labels):
            row = hists[s].get(lab)
            if not row or not row.get("n"):
                continue
            x, y = _binned(row)
            if not len(x):
                continue
            width_us = row["width"] / 1e3
            h = ax.step(np.append(x, x[-1] + width_us), np.append(y, y[-1]), where="post",
                        color=COLORS[k % len(COLORS)], lw=1.6 if k == 0 else 1.1, label=lab)[0]
            found.setdefault(lab, h)
            hi = max(hi, float(x[-1] + width_us))
            if row["overflow"]:
                past.append(f"{lab}: {row['overflow']} past its histogram")
        ax.set_yscale("log")
        lo_y, hi_y = ax.get_ylim()
        _ticks(ax.yaxis, lo_y, hi_y)        # 0.01, 0.02, 0.05, not 6×10^-2 on every minor tick
        ax.set_xlim(0, hi * 1.02 if hi else 1)
        ax.set_xlabel("latency (us)")
        ax.set_ylabel("fraction of samples per us")
        ax.set_title(f"{s}" + "".join(f"\n{p}" for p in past[:3]), fontsize=9)
        ax.grid(color="0.9", which="both")
    names = [lab for lab in labels if lab in found]
    fig.legend([found[n] for n in names], [(shown or {}).get(n, n) for n in names],
               loc="outside lower center",
               ncol=min(2, len(names)), fontsize=9, frameon=False)
    return [save(fig, out / "latency_hist.png").name]
