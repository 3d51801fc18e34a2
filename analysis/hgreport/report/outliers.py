# SPDX-License-Identifier: GPL-2.0-or-later
"""The "Outlier windows" part of the Over time section of an `outliers`-mode run (result.json
trace.outliers, records flagged with their window id in trace.bin / latency.bin:
docs/results.md#trace-modes): a table, and outliers.png (figures/outliers.py), one small
timeline per window around its worst outlier."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..analyses.series_bins import fmt_at
from ..base.markdown import table
from ..base.units import fmt_ns
from ..figures import outliers as figure
from ..read.records import interval_records, wakeup_records
from .section import Context

MAX_TABLE = 20


def _counts(ids: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(ids.astype(np.int64), minlength=n + 1) if len(ids) else np.zeros(n + 1, int)


def lines(ctx: Context) -> list[str]:
    """The part's lines, outliers.png (figures/outliers.py, a figure of the Over time section)
    placed in it."""
    run = ctx.run
    top = figure.largest(run)
    if not top:
        mode = (run.result.get("trace") or {}).get("mode")
        return ["### Outlier windows", "", "none: no gap or wake-up crossed the thresholds.", ""] \
            if mode == "outliers" else []
    nid = max(int(w["id"]) for w in top)
    iv = _counts(interval_records(run)["window"], nid)
    wk = _counts(wakeup_records(run)["window"], nid)
    rows = [[f"#{w['id']}", run.label(int(w["thread"])) if int(w["thread"]) < len(run.threads)
             else w["thread"], "wake-up" if w["kind"] == "wakeup" else w["kind"],
             fmt_ns(w["value_ns"]), fmt_at(w["trigger_ns"]),
             f"{fmt_at(w['from_ns'])} – {fmt_at(w['to_ns'])}",
             int(iv[w["id"]]) if w["id"] <= nid else 0, int(wk[w["id"]]) if w["id"] <= nid else 0]
            for w in top[:MAX_TABLE]]
    tr = run.scenario.get("trace") or {}
    out = ["### Outlier windows", "",
           f"{len(top)} windows (a gap longer than {fmt_ns(tr.get('outlier_gap_ns'))} or a wake-up "
           f"later than {fmt_ns(tr.get('outlier_latency_ns'))} opens one, from "
           f"{fmt_ns(tr.get('before_ns'))} before to {fmt_ns(tr.get('after_ns'))} after it)"
           + (f"; the {MAX_TABLE} largest:" if len(top) > MAX_TABLE else ":"), "",
           table(["window", "thread", "kind", "value", "trigger at", "window", "intervals",
                  "wake-ups"], rows, "lllrrlrr"), ""]
    shown = ctx.figure(figure.FIGURE)
    return out + ([shown] if shown else [])
