# SPDX-License-Identifier: GPL-2.0-or-later
"""Inter-activation times of periodic and latency threads (Abeni et al., figure 2): the
deviation of each activation from the previous one plus the period, as a table and as its
probability density (interactivation.png), next to the dispatch latency's 1 - CDF."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import interactivation as figure
from ..section import Context, Section


def applies(ctx: Context) -> bool:
    return bool(ctx.summary.get("inter_activation"))


def _ns(v) -> str:
    if v is None:
        return "–"
    return ("-" if v < 0 else "") + fmt_ns(abs(v))


def render(ctx: Context) -> str:
    rows = ctx.summary["inter_activation"]
    out = ["t(k) − t(k−1) − period, for consecutive activations (a latency thread's wake-ups, "
           "a periodic thread's first CPU after sleeping):", "",
           table(["thread", "period", "pairs", "mean", "stddev", "min", "p1", "p99", "max"],
                 [[r["label"], fmt_ns(r["period_ns"]), r["count"], _ns(r.get("mean_ns")),
                   _ns(r.get("stddev_ns")), _ns(r.get("min_ns")), _ns(r.get("p1_ns")),
                   _ns(r.get("p99_ns")), _ns(r.get("max_ns"))] for r in rows], "llrrrrrrr"),
           ""]
    return "\n".join(out)


SECTION = Section("Inter-activation times (Abeni figure 2)", render, applies,
                  figures=(figure.FIGURE,))
