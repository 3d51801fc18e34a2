# SPDX-License-Identifier: GPL-2.0-or-later
"""Gap lengths per thread and the inferred context-switch costs (involuntary, voluntary, all),
with what the inference means (the paper's section 4), and their histograms (gaps.png)."""
from __future__ import annotations

from ...base.markdown import table
from ...base.units import fmt_ns
from ...figures import gaps as figure
from ..section import Context, Section


def render(ctx: Context) -> str:
    s = ctx.summary
    sw = s["context_switches"]
    rows = [[t["label"], t["gap_lengths"]["count"], fmt_ns(t["gap_lengths"]["min_ns"]),
             fmt_ns(t["gap_lengths"]["median_ns"]), fmt_ns(t["gap_lengths"]["mean_ns"]),
             fmt_ns(t["gap_lengths"]["max_ns"])] for t in s["threads"] if t["gap_lengths"]["count"]]
    out = ["Gaps: an interval ended `preempted` and the same thread ran next on the same CPU.",
           "Switches: on one CPU an interval of thread A is followed by one of thread B; the cost is "
           "B's start − A's end (section 4's inference; the minimum is the fastest path through the "
           "switch, the median the representative cost, long outliers include other activity).", ""]
    if rows:
        out += [table(["thread", "gaps", "min", "median", "mean", "max"], rows, "lrrrrr"), ""]
    out += [table(["switches", "count", "min", "median", "mean", "max"],
                  [[k, sw[k]["count"], fmt_ns(sw[k]["min_ns"]), fmt_ns(sw[k]["median_ns"]),
                    fmt_ns(sw[k]["mean_ns"]), fmt_ns(sw[k]["max_ns"])]
                   for k in ("involuntary", "voluntary", "all")], "lrrrrr"), ""]
    return "\n".join(out)


SECTION = Section("Gaps and context switches", render, figures=(figure.FIGURE,))
